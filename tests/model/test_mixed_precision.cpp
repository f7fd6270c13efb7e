// Mixed precision, activation checkpointing and fused attention on the CPU: what a GPU node
// does, checked where CI runs (no GPU needed).
#include <torch/torch.h>

#include "model/activation_checkpoint.hpp"
#include "model/block_chain.hpp"
#include "model/mixed_precision.hpp"

#include <QtTest/QtTest>

#include <cmath>

using namespace rookery;
using model::BlockChain;
using model::Shard;

namespace {

job::ModelSpec gpt(double dropout = 0.0) {
  return {job::GptSpec{.vocab = 256,
                       .context = 16,
                       .width = 32,
                       .depth = 3,
                       .heads = 4,
                       .mlp_ratio = 4,
                       .dropout = dropout}};
}

struct Batch {
  torch::Tensor inputs, targets;
};

Batch batch(int64_t n = 4) {
  torch::manual_seed(7);
  return {torch::randint(0, 256, {n, 16}), torch::randint(0, 256, {n, 16})};
}

// Loss and every parameter's gradient after one forward and backward of the whole model.
struct Pass {
  double loss = 0;
  std::vector<torch::Tensor> grads;
  torch::ScalarType output_dtype = torch::kFloat32;
};

Pass run(Shard& shard, const Batch& b, uint64_t rng_seed = 1) {
  torch::manual_seed(rng_seed);  // dropout's masks
  for (auto& p : shard.parameters()) p.tensor.mutable_grad() = torch::Tensor();
  auto out = shard.forward(b.inputs);
  auto loss = shard.loss(out, b.targets);
  loss.backward();
  Pass r;
  r.loss = loss.item<double>();
  r.output_dtype = out.scalar_type();
  for (auto& p : shard.parameters()) r.grads.push_back(p.tensor.grad().clone());
  return r;
}

double max_relative_difference(const std::vector<torch::Tensor>& a,
                               const std::vector<torch::Tensor>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double scale = std::max(a[i].abs().max().item<double>(), 1e-12);
    worst = std::max(worst, (a[i] - b[i]).abs().max().item<double>() / scale);
  }
  return worst;
}

}  // namespace

class TestMixedPrecision : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // The fused kernel computes the attention the hand-written one did: softmax(QKᵀ/√d + causal
  // mask)·V, to float rounding.
  void fusedAttentionIsCausalAttention() {
    torch::manual_seed(3);
    const auto q = torch::randn({2, 4, 16, 8}), k = torch::randn({2, 4, 16, 8}),
               v = torch::randn({2, 4, 16, 8});
    const auto fused = at::scaled_dot_product_attention(q, k, v, {}, 0.0, /*is_causal=*/true);
    auto att = torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(8.0);
    att = att.masked_fill(torch::ones({16, 16}, torch::kBool).triu(1),
                          -std::numeric_limits<float>::infinity());
    const auto reference = torch::matmul(torch::softmax(att, -1), v);
    QVERIFY(torch::allclose(fused, reference, 1e-5, 1e-5));
    // A later token does not change an earlier one's output: causal.
    auto v2 = v.clone();
    v2.select(2, 15).add_(10.0);
    const auto changed = at::scaled_dot_product_attention(q, k, v2, {}, 0.0, true);
    QVERIFY(torch::allclose(changed.slice(2, 0, 15), fused.slice(2, 0, 15)));
    QVERIFY(!torch::allclose(changed.select(2, 15), fused.select(2, 15)));
  }

  void precisionResolvesPerDevice() {
    using job::Precision;
    const auto cpu = c10::DeviceType::CPU, cuda = c10::DeviceType::CUDA;
    QVERIFY(!model::resolve_precision(Precision::automatic, cpu, false).autocast);
    auto ampere = model::resolve_precision(Precision::automatic, cuda, true);
    QCOMPARE(*ampere.autocast, at::kBFloat16);
    QVERIFY(!ampere.loss_scaling);
    auto turing = model::resolve_precision(Precision::automatic, cuda, false);
    QCOMPARE(*turing.autocast, at::kHalf);
    QVERIFY(turing.loss_scaling);
    QCOMPARE(*model::resolve_precision(Precision::bf16, cpu, false).autocast, at::kBFloat16);
    QVERIFY(model::resolve_precision(Precision::fp16, cpu, false).loss_scaling);
    QVERIFY(!model::resolve_precision(Precision::fp32, cuda, true).autocast);
    QCOMPARE(QString::fromStdString(turing.describe()),
             QStringLiteral("fp16 autocast, loss scaling"));
    QCOMPARE(QString::fromStdString(ampere.describe()),
             QStringLiteral("bf16, fp32 master weights"));
  }

  // A weight copy in bf16 (how a stage's weight versions compute in bf16): the parameters are
  // bf16 copies of fp32 masters, the shard takes and hands back fp32 at its boundaries, its
  // gradients come out bf16 and join the masters' fp32 gradients, and loss and gradients are
  // fp32's to bf16's precision.
  void bf16WeightCopiesComputeInBf16() {
    const BlockChain chain(gpt(), 11);
    auto fp32 = chain.whole();
    auto copy = chain.whole();
    model::set_copy_precision(copy, at::kBFloat16);
    QCOMPARE(*copy.weight_dtype(), at::kBFloat16);
    QVERIFY(!copy.autocast());
    for (const auto& p : copy.parameters()) QCOMPARE(p.tensor.scalar_type(), at::kBFloat16);
    const auto b = batch();
    const auto reference = run(fp32, b);
    const auto low = run(copy, b);
    QCOMPARE(low.output_dtype, torch::kFloat32);
    for (const auto& g : low.grads) {
      QCOMPARE(g.scalar_type(), at::kBFloat16);
      QVERIFY(torch::isfinite(g).all().item<bool>());
    }
    QVERIFY2(std::abs(low.loss - reference.loss) < 0.02 * reference.loss,
             qPrintable(QString("bf16 loss %1, fp32 %2").arg(low.loss).arg(reference.loss)));
    std::vector<torch::Tensor> widened;
    for (const auto& g : low.grads) widened.push_back(g.to(torch::kFloat32));
    const double diff = max_relative_difference(widened, reference.grads);
    QVERIFY2(diff > 0 && diff < 0.15, qPrintable(QString("gradients differ by %1").arg(diff)));

    // A stage's later block takes fp32 activations and its gradient goes upstream in fp32.
    const BlockChain later(gpt(), 11);
    auto tail = later.shard({1, later.block_count()});
    model::set_copy_precision(tail, at::kBFloat16);
    auto x = torch::randn({2, 16, 32}).requires_grad_(true);
    auto y = tail.forward(x);
    QCOMPARE(y.scalar_type(), torch::kFloat32);
    tail.loss(y, torch::randint(0, 256, {2, 16})).backward();
    QCOMPARE(x.grad().scalar_type(), torch::kFloat32);

    // fp16 keeps autocast over fp32 weights.
    auto half = chain.whole();
    model::set_copy_precision(half, at::kHalf);
    QCOMPARE(*half.autocast(), at::kHalf);
    QVERIFY(!half.weight_dtype());
    QCOMPARE(half.parameters().front().tensor.scalar_type(), torch::kFloat32);
  }

  // fp32 masters stepped on the gradients of bf16 copies, the copies refreshed from the masters
  // each step (a stage's loop, by hand): the model learns.
  void bf16WeightCopiesLearn() {
    const BlockChain chain(gpt(), 5);
    auto master = chain.whole();
    auto copy = chain.whole();
    model::set_copy_precision(copy, at::kBFloat16);
    std::vector<torch::Tensor> masters, copies;
    for (auto& p : master.parameters()) masters.push_back(p.tensor);
    for (auto& p : copy.parameters()) copies.push_back(p.tensor);
    torch::optim::AdamW opt(masters, torch::optim::AdamWOptions(3e-3));
    const auto b = batch(8);
    double first = 0, last = 0;
    for (int step = 0; step < 40; ++step) {
      {
        torch::NoGradGuard no_grad;
        for (size_t i = 0; i < copies.size(); ++i) copies[i].copy_(masters[i]);
      }
      opt.zero_grad();
      auto loss = copy.loss(copy.forward(b.inputs), b.targets);
      loss.backward();
      for (size_t i = 0; i < copies.size(); ++i) {
        masters[i].mutable_grad() = copies[i].grad().to(torch::kFloat32);
        copies[i].mutable_grad() = torch::Tensor();
      }
      opt.step();
      (step == 0 ? first : last) = loss.item<double>();
    }
    QCOMPARE(masters.front().scalar_type(), torch::kFloat32);
    QVERIFY2(last < 0.7 * first, qPrintable(QString("loss %1 -> %2").arg(first).arg(last)));
  }

  // bf16 autocast on the CPU: the matmuls run in bf16, the weights and gradients stay fp32,
  // the shard hands back fp32, and the loss and gradients are those of fp32 to bf16's precision.
  void bf16AutocastTrainsOnTheCpu() {
    const BlockChain chain(gpt(), 11);
    auto fp32 = chain.whole();
    auto bf16 = chain.whole();
    bf16.set_autocast(at::kBFloat16);
    QCOMPARE(*bf16.autocast(), at::kBFloat16);
    const auto b = batch();
    const auto reference = run(fp32, b);
    const auto mixed = run(bf16, b);
    QCOMPARE(mixed.output_dtype, torch::kFloat32);
    for (const auto& p : bf16.parameters()) {
      QCOMPARE(p.tensor.scalar_type(), torch::kFloat32);
      QCOMPARE(p.tensor.grad().scalar_type(), torch::kFloat32);
      QVERIFY(torch::isfinite(p.tensor.grad()).all().item<bool>());
    }
    QVERIFY2(std::abs(mixed.loss - reference.loss) < 0.02 * reference.loss,
             qPrintable(QString("bf16 loss %1, fp32 %2").arg(mixed.loss).arg(reference.loss)));
    // Different, as bf16 must be, but close: bf16 keeps 8 bits of mantissa.
    const double diff = max_relative_difference(mixed.grads, reference.grads);
    QVERIFY2(diff > 0 && diff < 0.15, qPrintable(QString("gradients differ by %1").arg(diff)));
    // The matmuls really ran in bf16: inside the scope a linear's output is bf16.
    {
      model::AutocastScope scope(c10::DeviceType::CPU, at::kBFloat16);
      const auto y = torch::matmul(torch::ones({2, 2}), torch::ones({2, 2}));
      QCOMPARE(y.scalar_type(), at::kBFloat16);
    }
    QCOMPARE(torch::matmul(torch::ones({2, 2}), torch::ones({2, 2})).scalar_type(),
             torch::kFloat32);
  }

  void bf16AutocastLearns() {
    const BlockChain chain(gpt(), 5);
    auto shard = chain.whole();
    shard.set_autocast(at::kBFloat16);
    std::vector<torch::Tensor> params;
    for (auto& p : shard.parameters()) params.push_back(p.tensor);
    torch::optim::AdamW opt(params, torch::optim::AdamWOptions(3e-3));
    const auto b = batch(8);
    double first = 0, last = 0;
    for (int step = 0; step < 40; ++step) {
      opt.zero_grad();
      auto loss = shard.loss(shard.forward(b.inputs), b.targets);
      loss.backward();
      opt.step();
      (step == 0 ? first : last) = loss.item<double>();
    }
    QVERIFY2(last < 0.7 * first, qPrintable(QString("loss %1 -> %2").arg(first).arg(last)));
  }

  // Checkpointing recomputes the activations in the backward pass: the gradients are those of a
  // plain pass, with dropout's masks replayed exactly, and under autocast too.
  void checkpointingGivesTheSameGradients_data() {
    QTest::addColumn<double>("dropout");
    QTest::addColumn<bool>("bf16");
    QTest::newRow("no dropout") << 0.0 << false;
    QTest::newRow("dropout") << 0.2 << false;
    QTest::newRow("dropout, bf16") << 0.2 << true;
  }
  void checkpointingGivesTheSameGradients() {
    QFETCH(double, dropout);
    QFETCH(bool, bf16);
    const BlockChain chain(gpt(dropout), 21);
    auto plain = chain.whole();
    auto recomputed = chain.whole();
    recomputed.set_activation_checkpointing(true);
    if (bf16) {
      plain.set_autocast(at::kBFloat16);
      recomputed.set_autocast(at::kBFloat16);
    }
    const auto b = batch();
    const auto a = run(plain, b, 42);
    const auto c = run(recomputed, b, 42);
    QCOMPARE(a.loss, c.loss);
    QCOMPARE(a.grads.size(), c.grads.size());
    const double diff = max_relative_difference(a.grads, c.grads);
    QVERIFY2(diff < 1e-5, qPrintable(QString("gradients differ by %1").arg(diff)));
    // With dropout, another seed gives other masks, so the comparison above could fail.
    if (dropout > 0) QVERIFY(run(recomputed, b, 43).loss != c.loss);
  }

  // What checkpointing is for: the graph keeps only each block's input, not its insides.
  void checkpointingKeepsLessForTheBackwardPass() {
    const BlockChain chain(gpt(), 2);
    auto plain = chain.whole();
    auto recomputed = chain.whole();
    recomputed.set_activation_checkpointing(true);
    const auto b = batch();
    auto count_saved = [&](Shard& s) {
      // Tensors kept alive by the autograd graph, counted by walking it from the loss.
      auto loss = s.loss(s.forward(b.inputs), b.targets);
      std::set<torch::autograd::Node*> seen;
      std::vector<torch::autograd::Node*> stack{loss.grad_fn().get()};
      while (!stack.empty()) {
        auto* n = stack.back();
        stack.pop_back();
        if (!n || !seen.insert(n).second) continue;
        for (const auto& e : n->next_edges()) stack.push_back(e.function.get());
      }
      return seen.size();
    };
    const auto plain_nodes = count_saved(plain);
    const auto checkpointed_nodes = count_saved(recomputed);
    QVERIFY2(checkpointed_nodes * 3 < plain_nodes,
             qPrintable(QString("%1 graph nodes checkpointed, %2 plain")
                            .arg(checkpointed_nodes)
                            .arg(plain_nodes)));
  }
};

QTEST_APPLESS_MAIN(TestMixedPrecision)
#include "test_mixed_precision.moc"
