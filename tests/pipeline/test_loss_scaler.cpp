// LossScaler: fp16's dynamic loss scaling, stage by stage (pipeline/loss_scaler.hpp).
#include <torch/torch.h>

#include <QtTest/QtTest>

#include "model/block_chain.hpp"
#include "pipeline/loss_scaler.hpp"

using namespace rookery;
using pipeline::LossScaler;

class TestLossScaler : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void disabledChangesNothing() {
    LossScaler s(false);
    QCOMPARE(s.scale(), 1.0);
    auto p = torch::ones({3}).requires_grad_(true);
    p.mutable_grad() = torch::full({3}, 2.0);
    auto in = torch::full({2}, 4.0);
    QVERIFY(s.unscale({p}, in));
    QVERIFY(torch::equal(p.grad(), torch::full({3}, 2.0)));
    QVERIFY(torch::equal(in, torch::full({2}, 4.0)));
    const auto t = torch::full({2}, 3.0);
    QVERIFY(s.scaled(t).is_same(t));
  }

  // Scaled in, divided out: the gradients are those of the unscaled backward.
  void unscalesWhatItScaled() {
    LossScaler s(true, 1024.0);
    auto w = torch::tensor({1.5, -2.0}).requires_grad_(true);
    auto x = torch::tensor({3.0, 4.0}).requires_grad_(true);
    s.scaled((w * x).sum()).backward();
    QCOMPARE(w.grad()[0].item<double>(), 3.0 * 1024);
    auto input_grad = x.grad();
    QVERIFY(s.unscale({w}, input_grad));
    QVERIFY(torch::allclose(w.grad(), torch::tensor({3.0, 4.0})));
    QVERIFY(torch::allclose(input_grad, torch::tensor({1.5, -2.0})));
    QCOMPARE(s.scale(), 1024.0);
  }

  // An overflow: nothing of that backward counts, the scale halves; a run of finite ones grows it.
  void overflowSkipsAndHalvesThenGrows() {
    LossScaler s(true, 256.0, /*growth_interval=*/3);
    auto p = torch::zeros({2}).requires_grad_(true);
    p.mutable_grad() = torch::tensor({1.0f, std::numeric_limits<float>::infinity()});
    torch::Tensor none;
    QVERIFY(!s.unscale({p}, none));
    QVERIFY(torch::equal(p.grad(), torch::zeros({2})));
    QCOMPARE(s.scale(), 128.0);
    QCOMPARE(s.overflows(), std::int64_t{1});
    auto in = torch::tensor({std::nanf("")});
    p.mutable_grad() = torch::ones({2});
    QVERIFY(!s.unscale({p}, in));  // a NaN in the gradient sent upstream counts too
    QCOMPARE(s.scale(), 64.0);
    for (int i = 0; i < 3; ++i) {
      p.mutable_grad() = torch::ones({2});
      QVERIFY(s.unscale({p}, none));
    }
    QCOMPARE(s.scale(), 128.0);
  }

  // fp16 autocast with the scaler trains the model, where fp16 gradients of a tiny loss would
  // underflow to zero without it.
  void fp16WithScalingTrains() {
    job::ModelSpec spec{job::GptSpec{.vocab = 256, .context = 16, .width = 32, .depth = 2,
                                     .heads = 4, .mlp_ratio = 4, .dropout = 0.0}};
    auto shard = model::BlockChain(spec, 3).whole();
    shard.set_autocast(at::kHalf);
    std::vector<torch::Tensor> params;
    for (auto& p : shard.parameters()) params.push_back(p.tensor);
    torch::optim::AdamW opt(params, torch::optim::AdamWOptions(3e-3));
    LossScaler scaler(true);
    torch::manual_seed(1);
    const auto x = torch::randint(0, 256, {8, 16}), y = torch::randint(0, 256, {8, 16});
    double first = 0, last = 0;
    for (int step = 0; step < 40; ++step) {
      opt.zero_grad();
      auto loss = shard.loss(shard.forward(x), y);
      scaler.scaled(loss).backward();
      torch::Tensor none;
      if (scaler.unscale(params, none)) opt.step();
      (step == 0 ? first : last) = loss.item<double>();
    }
    qInfo("fp16 autocast with loss scaling: loss %.3f -> %.3f, scale %.0f, %lld overflow(s)", first,
          last, scaler.scale(), static_cast<long long>(scaler.overflows()));
    QVERIFY2(last < 0.7 * first, qPrintable(QString("loss %1 -> %2").arg(first).arg(last)));
  }
};

QTEST_APPLESS_MAIN(TestLossScaler)
#include "test_loss_scaler.moc"
