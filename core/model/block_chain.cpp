#include "model/block_chain.hpp"

#include <torch/torch.h>
#include <ATen/CPUGeneratorImpl.h>

#include "model/activation_checkpoint.hpp"
#include "model/mixed_precision.hpp"

#include <cmath>
#include <stdexcept>

namespace rookery::model {
namespace {

namespace F = torch::nn::functional;
using torch::Tensor;

// splitmix64: a well-mixed 64-bit hash, so neighbouring block indices get unrelated streams.
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

uint64_t block_seed(uint64_t seed, int64_t block) { return mix(mix(seed) ^ uint64_t(block)); }

void require_dims(const Tensor& x, int64_t dims, const char* block, const char* expected) {
  if (x.dim() != dims)
    throw std::invalid_argument(std::string(block) + ": expected input " + expected + ", got " +
                                std::to_string(x.dim()) + " dimensions");
}

Tensor maybe_dropout(const Tensor& x, double p, bool training) {
  return p > 0 && training ? F::dropout(x, F::DropoutFuncOptions().p(p).training(true)) : x;
}

// One link of the chain. init() overwrites every parameter from the block's own generator,
// so nothing depends on the global RNG or on which other blocks were built.
struct Block : torch::nn::Module {
  virtual Tensor forward(const Tensor& x) = 0;
  virtual void init(at::Generator& gen) = 0;
};

void normal_init(const Tensor& t, double std, at::Generator& gen) { t.normal_(0.0, std, gen); }

// x W^T + b through ATen's linear, which folds a contiguous [B, T, in] input into one matmul
// with the bias added in its epilogue. torch::nn::Linear's forward (the C++ frontend's
// F::linear) fuses only 2-D inputs and otherwise adds the bias in a kernel of its own, and its
// backward sums it in another: 9 ms of a 73 ms step of a 354M GPT on an H200.
Tensor linear(const torch::nn::Linear& l, const Tensor& x) {
  return at::linear(x, l->weight, l->options.bias() ? l->bias : Tensor());
}

// ---- GPT ---------------------------------------------------------------------------------

struct GptEmbedding : Block {
  explicit GptEmbedding(const job::GptSpec& s) : spec(s) {
    tok = register_module("tok", torch::nn::Embedding(s.vocab, s.width));
    pos = register_module("pos", torch::nn::Embedding(s.context, s.width));
  }
  Tensor forward(const Tensor& ids) override {
    require_dims(ids, 2, "gpt.embedding", "token ids [batch, tokens]");
    if (ids.size(1) > spec.context)
      throw std::invalid_argument("gpt.embedding: " + std::to_string(ids.size(1)) +
                                  " tokens exceed the context of " + std::to_string(spec.context));
    const Tensor positions = torch::arange(ids.size(1), ids.options().dtype(torch::kLong));
    return maybe_dropout(tok(ids) + pos(positions), spec.dropout, is_training());
  }
  void init(at::Generator& gen) override {
    normal_init(tok->weight, 0.02, gen);
    normal_init(pos->weight, 0.02, gen);
  }
  job::GptSpec spec;
  torch::nn::Embedding tok{nullptr}, pos{nullptr};
};

struct CausalSelfAttentionImpl : torch::nn::Module {
  explicit CausalSelfAttentionImpl(const job::GptSpec& s) : heads(s.heads), width(s.width) {
    qkv = register_module("qkv", torch::nn::Linear(s.width, 3 * s.width));
    proj = register_module("proj", torch::nn::Linear(s.width, s.width));
  }
  // Fused attention: LibTorch picks flash or memory-efficient kernels on a GPU and a fused
  // CPU kernel otherwise; none of them keeps the T×T attention matrix for the backward pass.
  Tensor forward(const Tensor& x) {
    const int64_t B = x.size(0), T = x.size(1), d = width / heads;
    // q, k, v: [B, heads, T, d] views of qkv's output. unbind, not three selects: its backward
    // stacks the three gradients into qkv's layout in one kernel, where the selects' zero three
    // full-size gradients, copy a third into each and add them up (5.5 ms of a 73 ms step on
    // an H200, against 2.8 ms for the stack).
    const auto q_k_v = linear(qkv, x).view({B, T, 3, heads, d}).unbind(2);
    const Tensor y = at::scaled_dot_product_attention(
        q_k_v[0].transpose(1, 2), q_k_v[1].transpose(1, 2), q_k_v[2].transpose(1, 2),
        /*attn_mask=*/{}, /*dropout_p=*/0.0, /*is_causal=*/true);
    return linear(proj, y.transpose(1, 2).contiguous().view({B, T, width}));
  }
  int64_t heads, width;
  torch::nn::Linear qkv{nullptr}, proj{nullptr};
};
TORCH_MODULE(CausalSelfAttention);

struct FeedForwardImpl : torch::nn::Module {
  explicit FeedForwardImpl(const job::GptSpec& s) {
    fc = register_module("fc", torch::nn::Linear(s.width, s.mlp_ratio * s.width));
    proj = register_module("proj", torch::nn::Linear(s.mlp_ratio * s.width, s.width));
  }
  Tensor forward(const Tensor& x) { return linear(proj, torch::gelu(linear(fc, x))); }
  torch::nn::Linear fc{nullptr}, proj{nullptr};
};
TORCH_MODULE(FeedForward);

// Pre-LN transformer layer (GPT-2): x + attn(ln1(x)), then + mlp(ln2(x)).
struct GptLayer : Block {
  explicit GptLayer(const job::GptSpec& s) : spec(s) {
    ln1 = register_module("ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({s.width})));
    attn = register_module("attn", CausalSelfAttention(s));
    ln2 = register_module("ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({s.width})));
    mlp = register_module("mlp", FeedForward(s));
  }
  Tensor forward(const Tensor& x) override {
    require_dims(x, 3, "gpt.layer", "activations [batch, tokens, width]");
    const Tensor h = x + maybe_dropout(attn(ln1(x)), spec.dropout, is_training());
    return h + maybe_dropout(mlp(ln2(h)), spec.dropout, is_training());
  }
  void init(at::Generator& gen) override {
    // GPT-2: N(0, 0.02), and the projections into the residual stream scaled down by
    // sqrt(2·depth) so the stream's variance does not grow with depth.
    const double residual_std = 0.02 / std::sqrt(2.0 * double(spec.depth));
    for (auto* linear : {&attn->qkv, &mlp->fc}) normal_init((*linear)->weight, 0.02, gen);
    for (auto* linear : {&attn->proj, &mlp->proj})
      normal_init((*linear)->weight, residual_std, gen);
    for (auto* linear : {&attn->qkv, &attn->proj, &mlp->fc, &mlp->proj}) (*linear)->bias.zero_();
    for (auto* norm : {&ln1, &ln2}) {
      (*norm)->weight.fill_(1.0);
      (*norm)->bias.zero_();
    }
  }
  job::GptSpec spec;
  torch::nn::LayerNorm ln1{nullptr}, ln2{nullptr};
  CausalSelfAttention attn{nullptr};
  FeedForward mlp{nullptr};
};

struct GptHead : Block {
  explicit GptHead(const job::GptSpec& s) {
    ln = register_module("ln", torch::nn::LayerNorm(torch::nn::LayerNormOptions({s.width})));
    head = register_module(
        "head", torch::nn::Linear(torch::nn::LinearOptions(s.width, s.vocab).bias(false)));
  }
  Tensor forward(const Tensor& x) override {
    require_dims(x, 3, "gpt.head", "activations [batch, tokens, width]");
    return linear(head, ln(x));
  }
  void init(at::Generator& gen) override {
    ln->weight.fill_(1.0);
    ln->bias.zero_();
    normal_init(head->weight, 0.02, gen);
  }
  torch::nn::LayerNorm ln{nullptr};
  torch::nn::Linear head{nullptr};
};

// ---- CNN ---------------------------------------------------------------------------------

// 3×3 convolution (same padding), ReLU, 2×2 max-pool.
struct ConvStage : Block {
  ConvStage(int64_t in, int64_t out) {
    conv =
        register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).padding(1)));
  }
  Tensor forward(const Tensor& x) override {
    require_dims(x, 4, "cnn.stage", "images [batch, channels, height, width]");
    return F::max_pool2d(torch::relu(conv(x)), F::MaxPool2dFuncOptions(2));
  }
  void init(at::Generator& gen) override {  // He initialisation for ReLU
    normal_init(conv->weight, std::sqrt(2.0 / double(conv->weight[0].numel())), gen);
    conv->bias.zero_();
  }
  torch::nn::Conv2d conv{nullptr};
};

struct ConvHead : Block {
  ConvHead(int64_t in, int64_t classes) {
    fc = register_module("fc", torch::nn::Linear(in, classes));
  }
  Tensor forward(const Tensor& x) override {
    require_dims(x, 4, "cnn.head", "feature maps [batch, channels, height, width]");
    return fc(x.mean({2, 3}));
  }
  void init(at::Generator& gen) override {
    normal_init(fc->weight, 1.0 / std::sqrt(double(fc->weight.size(1))), gen);
    fc->bias.zero_();
  }
  torch::nn::Linear fc{nullptr};
};

// ---- MLP ---------------------------------------------------------------------------------

struct DenseLayer : Block {
  DenseLayer(int64_t in, int64_t out, bool first, bool last) : first(first), last(last) {
    fc = register_module("fc", torch::nn::Linear(in, out));
  }
  Tensor forward(const Tensor& x) override {
    const Tensor y = fc(first ? x.flatten(1) : x);
    return last ? y : torch::relu(y);
  }
  void init(at::Generator& gen) override {
    const double fan_in = double(fc->weight.size(1));
    normal_init(fc->weight, last ? 1.0 / std::sqrt(fan_in) : std::sqrt(2.0 / fan_in), gen);
    fc->bias.zero_();
  }
  bool first, last;
  torch::nn::Linear fc{nullptr};
};

std::shared_ptr<Block> make_block(const job::ModelSpec& model, int64_t index, int64_t count) {
  if (const auto* g = std::get_if<job::GptSpec>(&model.arch)) {
    if (index == 0) return std::make_shared<GptEmbedding>(*g);
    if (index == count - 1) return std::make_shared<GptHead>(*g);
    return std::make_shared<GptLayer>(*g);
  }
  if (const auto* c = std::get_if<job::CnnSpec>(&model.arch)) {
    if (index == count - 1) return std::make_shared<ConvHead>(c->widths.back(), c->classes);
    return std::make_shared<ConvStage>(index == 0 ? c->channels : c->widths[size_t(index) - 1],
                                       c->widths[size_t(index)]);
  }
  const auto& m = std::get<job::MlpSpec>(model.arch);
  const int64_t in = index == 0 ? m.input : m.hidden[size_t(index) - 1];
  const int64_t out = index == count - 1 ? m.output : m.hidden[size_t(index)];
  return std::make_shared<DenseLayer>(in, out, index == 0, index == count - 1);
}

}  // namespace

struct Shard::Impl {
  BlockRange range;
  int64_t block_count = 0;
  // Blocks are registered as children "block<i>" of one root, so a parameter's name is
  // its global name and torch's device moves and train/eval switches reach every block.
  std::shared_ptr<torch::nn::Module> root = std::make_shared<torch::nn::Module>("Shard");
  std::vector<std::shared_ptr<Block>> blocks;
  c10::DeviceType device = c10::DeviceType::CPU;
  std::optional<at::ScalarType> autocast;  // none: fp32
  std::optional<at::ScalarType> weights;   // none: the parameters are fp32
  bool checkpointing = false;
};

Shard::Shard(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Shard::Shard(Shard&&) noexcept = default;
Shard& Shard::operator=(Shard&&) noexcept = default;
Shard::~Shard() = default;

BlockRange Shard::range() const { return impl_->range; }
bool Shard::holds_first_block() const { return impl_->range.first == 0; }
bool Shard::holds_last_block() const { return impl_->range.last == impl_->block_count; }

Tensor Shard::forward(const Tensor& input) { return forward(input, impl_->range); }

Tensor Shard::forward(const Tensor& input, BlockRange part) {
  const auto& m = *impl_;
  if (part.first < m.range.first || part.last > m.range.last || part.first >= part.last)
    throw std::out_of_range("Shard::forward: blocks [" + std::to_string(part.first) + ", " +
                            std::to_string(part.last) + ") are not a non-empty part of [" +
                            std::to_string(m.range.first) + ", " + std::to_string(m.range.last) +
                            ")");
  // Low-precision weights take their activations in the same dtype (token ids stay ids).
  Tensor x = m.weights && input.is_floating_point() ? input.to(*m.weights) : input;
  {
    AutocastScope autocast(m.device, m.autocast);
    const auto begin = m.blocks.begin() + (part.first - m.range.first);
    const auto end = m.blocks.begin() + (part.last - m.range.first);
    for (auto it = begin; it != end; ++it) {
      const auto& block = *it;
      x = m.checkpointing
              ? checkpointed([b = block.get()](const Tensor& in) { return b->forward(in); }, x,
                             m.device, m.autocast)
              : block->forward(x);
    }
  }
  // Stage boundaries and the loss see fp32, whatever the arithmetic inside.
  if (x.is_floating_point() && x.scalar_type() != torch::kFloat32) x = x.to(torch::kFloat32);
  return x;
}

void Shard::set_weight_dtype(at::ScalarType dtype) {
  torch::NoGradGuard no_grad;
  impl_->root->to(dtype);
  impl_->weights = dtype;
}
std::optional<at::ScalarType> Shard::weight_dtype() const { return impl_->weights; }

void Shard::set_autocast(std::optional<at::ScalarType> dtype) { impl_->autocast = dtype; }
std::optional<at::ScalarType> Shard::autocast() const { return impl_->autocast; }
void Shard::set_activation_checkpointing(bool on) { impl_->checkpointing = on; }

Tensor Shard::loss(const Tensor& logits, const Tensor& targets) const {
  if (!holds_last_block())
    throw std::logic_error("Shard::loss: blocks [" + std::to_string(impl_->range.first) + ", " +
                           std::to_string(impl_->range.last) + ") do not include the last block");
  // [B, T, vocab] against [B, T] and [B, classes] against [B] alike.
  return F::cross_entropy(logits.reshape({-1, logits.size(-1)}), targets.reshape({-1}));
}

std::vector<NamedTensor> Shard::parameters() const {
  std::vector<NamedTensor> out;
  for (const auto& item : impl_->root->named_parameters(/*recurse=*/true))
    out.push_back({item.key(), item.value()});
  return out;
}

int64_t Shard::parameter_count() const {
  int64_t n = 0;
  for (const auto& p : impl_->root->parameters()) n += p.numel();
  return n;
}

void Shard::set_training(bool training) { impl_->root->train(training); }
void Shard::to(c10::Device device) {
  impl_->root->to(device);
  impl_->device = device.type();
}

BlockChain::BlockChain(job::ModelSpec spec, uint64_t seed)
    : spec_(std::move(spec)), seed_(seed), costs_((job::validate(spec_), block_costs(spec_))) {}

Shard BlockChain::shard(BlockRange range) const {
  if (range.first < 0 || range.last > block_count() || range.first >= range.last)
    throw std::out_of_range("BlockChain::shard: range [" + std::to_string(range.first) + ", " +
                            std::to_string(range.last) + ") is not a non-empty part of [0, " +
                            std::to_string(block_count()) + ")");
  auto impl = std::make_unique<Shard::Impl>();
  impl->range = range;
  impl->block_count = block_count();
  torch::NoGradGuard no_grad;
  for (int64_t i = range.first; i < range.last; ++i) {
    auto block = make_block(spec_, i, block_count());
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(block_seed(seed_, i));
    block->init(gen);
    impl->root->register_module("block" + std::to_string(i), block);
    impl->blocks.push_back(std::move(block));
  }
  return Shard(std::move(impl));
}

}  // namespace rookery::model
