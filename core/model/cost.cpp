#include "model/cost.hpp"

namespace rookery::model {
namespace {

constexpr int64_t kFloat = 4;  // fp32
constexpr int64_t kIndex = 8;  // int64 (max-pool indices)

std::vector<BlockCost> gpt_costs(const job::GptSpec& g) {
  const int64_t T = g.context, w = g.width, V = g.vocab, H = g.heads, h = g.mlp_ratio * w;
  const double Td = double(T), wd = double(w);
  // A dropout site in training keeps its fp32 keep-mask for backward.
  const int64_t dropout_mask = g.dropout > 0 ? kFloat * T * w : 0;

  std::vector<BlockCost> costs;
  {
    BlockCost c{.kind = "gpt.embedding"};
    c.params = V * w + T * w;
    c.forward_flops_per_sample = Td * wd;       // token + position embedding sum; no matmul
    c.backward_flops_per_sample = 2 * Td * wd;  // scatter-add into both tables
    c.activation_bytes_per_sample = kFloat * T * w;
    c.stash_bytes_per_sample = dropout_mask;
    costs.push_back(c);
  }
  for (int64_t l = 0; l < g.depth; ++l) {
    BlockCost c{.kind = "gpt.layer"};
    // ln1, ln2: 2w each; qkv: 3w² + 3w; attn proj: w² + w; mlp: 2·w·h + h + w
    c.params = 4 * w + (3 * w * w + 3 * w) + (w * w + w) + (2 * w * h + h + w);
    const double projections = 2 * Td * wd * (3 * wd + wd + 2 * double(h));
    const double attention = 2 * (2 * Td * Td * wd);  // q·kᵀ and att·v, all heads
    c.forward_flops_per_sample = projections + attention;
    c.backward_flops_per_sample = 2 * c.forward_flops_per_sample;
    c.activation_bytes_per_sample = kFloat * T * w;
    // Saved by autograd: ln1 out (w), q/k/v (3w), fused attention's output and its
    // log-sum-exp per head (H per token: the T×T probabilities are recomputed, not kept),
    // heads re-joined for the projection (w), residual after attention (w), ln2 out (w),
    // mlp pre-activation and GELU output (2h), LayerNorm mean and rstd (2 × 2).
    c.stash_bytes_per_sample =
        kFloat * (T * (7 * w + 2 * h) + H * T + 4 * T) + 2 * dropout_mask;
    costs.push_back(c);
  }
  {
    BlockCost c{.kind = "gpt.head"};
    c.params = 2 * w + w * V;  // final LayerNorm + untied LM head (no bias)
    c.forward_flops_per_sample = 2 * Td * wd * double(V);
    c.backward_flops_per_sample = 2 * c.forward_flops_per_sample;
    c.activation_bytes_per_sample = kFloat * T * V;
    // LayerNorm output and mean/rstd, then the loss's log-softmax over the vocabulary.
    c.stash_bytes_per_sample = kFloat * (T * w + 2 * T) + kFloat * T * V;
    costs.push_back(c);
  }
  return costs;
}

std::vector<BlockCost> cnn_costs(const job::CnnSpec& s) {
  std::vector<BlockCost> costs;
  int64_t in = s.channels, side = s.image_size;
  for (size_t i = 0; i < s.widths.size(); ++i) {
    const int64_t out = s.widths[i], pooled = side / 2;
    BlockCost c{.kind = "cnn.stage"};
    c.params = 9 * in * out + out;  // 3×3 conv with bias
    c.forward_flops_per_sample = 2.0 * 9 * double(in) * double(out) * double(side * side);
    c.backward_flops_per_sample = (i == 0 ? 1 : 2) * c.forward_flops_per_sample;
    c.activation_bytes_per_sample = kFloat * out * pooled * pooled;
    // ReLU output (also the max-pool's input) and the max-pool's int64 argmax indices.
    c.stash_bytes_per_sample = kFloat * out * side * side + kIndex * out * pooled * pooled;
    costs.push_back(c);
    in = out;
    side = pooled;
  }
  BlockCost c{.kind = "cnn.head"};
  c.params = in * s.classes + s.classes;
  c.forward_flops_per_sample = double(in * side * side) + 2.0 * double(in) * double(s.classes);
  c.backward_flops_per_sample = double(in * side * side) + 2 * 2.0 * double(in) * double(s.classes);
  c.activation_bytes_per_sample = kFloat * s.classes;
  c.stash_bytes_per_sample = kFloat * in + kFloat * s.classes;  // pooled features + log-softmax
  costs.push_back(c);
  return costs;
}

std::vector<BlockCost> mlp_costs(const job::MlpSpec& m) {
  std::vector<BlockCost> costs;
  int64_t in = m.input;
  const size_t layers = m.hidden.size() + 1;
  for (size_t i = 0; i < layers; ++i) {
    const bool last = i + 1 == layers;
    const int64_t out = last ? m.output : m.hidden[i];
    BlockCost c{.kind = last ? "mlp.output" : "mlp.hidden"};
    c.params = in * out + out;
    c.forward_flops_per_sample = 2.0 * double(in) * double(out);
    c.backward_flops_per_sample = (i == 0 ? 1 : 2) * c.forward_flops_per_sample;
    c.activation_bytes_per_sample = kFloat * out;
    // Linear keeps its input (held by the stage anyway); ReLU keeps its output (the
    // block's output); only the loss's log-softmax is extra.
    c.stash_bytes_per_sample = last ? kFloat * out : 0;
    costs.push_back(c);
    in = out;
  }
  return costs;
}

}  // namespace

int64_t block_count(const job::ModelSpec& model) {
  switch (model.kind()) {
    case job::ModelKind::gpt:
      return std::get<job::GptSpec>(model.arch).depth + 2;
    case job::ModelKind::cnn:
      return int64_t(std::get<job::CnnSpec>(model.arch).widths.size()) + 1;
    case job::ModelKind::mlp:
      return int64_t(std::get<job::MlpSpec>(model.arch).hidden.size()) + 1;
  }
  return 0;
}

std::vector<BlockCost> block_costs(const job::ModelSpec& model) {
  switch (model.kind()) {
    case job::ModelKind::gpt:
      return gpt_costs(std::get<job::GptSpec>(model.arch));
    case job::ModelKind::cnn:
      return cnn_costs(std::get<job::CnnSpec>(model.arch));
    case job::ModelKind::mlp:
      return mlp_costs(std::get<job::MlpSpec>(model.arch));
  }
  return {};
}

}  // namespace rookery::model
