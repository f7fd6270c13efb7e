// The fused AdamW step (one multi-tensor kernel per group) against torch::optim::AdamW's loop:
// the same parameters, moments and step counts, with weight decay and without, including
// parameters that start without state or skip a step without a gradient. On the CPU always
// (LibTorch has a CPU kernel too), and on cuda:0 where a GPU is.
#include <torch/torch.h>

#include "model/compute_device.hpp"
#include "model/fused_adamw.hpp"

#include <QtTest/QtTest>

using namespace rookery;

namespace {

struct Setup {
  std::vector<torch::Tensor> decayed, plain;
  std::unique_ptr<torch::optim::AdamW> optimizer;
};

// Two groups as model::make_optimizer makes them: matrices decayed, vectors not.
Setup make(const torch::Device& device) {
  torch::manual_seed(3);
  Setup s;
  for (auto shape : {std::vector<int64_t>{16, 8}, {8, 32}, {5, 7}})
    s.decayed.push_back(torch::randn(shape).to(device).requires_grad_(true));
  for (int64_t n : {8, 32, 1})
    s.plain.push_back(torch::randn({n}).to(device).requires_grad_(true));
  auto options = [](double wd) {
    return std::make_unique<torch::optim::AdamWOptions>(
        torch::optim::AdamWOptions(3e-3).betas({0.9, 0.95}).eps(1e-8).weight_decay(wd));
  };
  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(s.decayed, options(0.1));
  groups.emplace_back(s.plain, options(0.0));
  s.optimizer = std::make_unique<torch::optim::AdamW>(std::move(groups), *options(0.0));
  return s;
}

std::vector<torch::Tensor> all(const Setup& s) {
  auto v = s.decayed;
  v.insert(v.end(), s.plain.begin(), s.plain.end());
  return v;
}

// Gradients for step `k`; on step 2 the last matrix has none (a frozen or unused parameter).
void set_grads(Setup& s, int k, const torch::Device& device) {
  torch::manual_seed(100 + k);
  const auto ps = all(s);
  for (size_t i = 0; i < ps.size(); ++i) {
    auto g = torch::randn(ps[i].sizes()).to(device);
    ps[i].mutable_grad() = (k == 2 && i == 2) ? torch::Tensor() : g;
  }
}

}  // namespace

class TestFusedAdamW : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // Before anything asks LibTorch about CUDA (torch::manual_seed does): the node's way of
  // finding the GPU loads LibTorch's CUDA part first.
  void initTestCase() { gpu_ = model::detect_compute_device().cuda_available; }

  void fusedStepIsAdamW_data() {
    QTest::addColumn<QString>("device");
    QTest::newRow("cpu") << "cpu";
    QTest::newRow("cuda:0") << "cuda:0";
  }

  void fusedStepIsAdamW() {
    QFETCH(QString, device);
    const torch::Device dev(device.toStdString());
    if (dev.is_cuda() && !gpu_) QSKIP("no GPU here");
    auto loop = make(torch::Device("cpu"));
    auto fused = make(dev);
    for (int k = 0; k < 6; ++k) {
      set_grads(loop, k, torch::Device("cpu"));
      set_grads(fused, k, dev);
      loop.optimizer->step();
      model::fused_adamw_step(*fused.optimizer);
    }
    const auto a = all(loop), b = all(fused);
    for (size_t i = 0; i < a.size(); ++i) {
      const auto diff = (a[i] - b[i].cpu()).abs().max().item<double>();
      QVERIFY2(diff < 1e-5, qPrintable(QString("parameter %1 differs by %2").arg(i).arg(diff)));
      const auto& sa = static_cast<torch::optim::AdamWParamState&>(
          *loop.optimizer->state().at(a[i].unsafeGetTensorImpl()));
      const auto& sb = static_cast<torch::optim::AdamWParamState&>(
          *fused.optimizer->state().at(b[i].unsafeGetTensorImpl()));
      QCOMPARE(sb.step(), sa.step());
      QVERIFY((sa.exp_avg() - sb.exp_avg().cpu()).abs().max().item<double>() < 1e-5);
      QVERIFY((sa.exp_avg_sq() - sb.exp_avg_sq().cpu()).abs().max().item<double>() < 1e-5);
    }
    // The parameter without a gradient on step 2 stepped once less.
    QCOMPARE(static_cast<torch::optim::AdamWParamState&>(
                 *fused.optimizer->state().at(b[2].unsafeGetTensorImpl()))
                 .step(),
             int64_t{5});
  }

  void amsgradIsRefused() {
    torch::Tensor p = torch::randn({4}).requires_grad_(true);
    p.mutable_grad() = torch::ones({4});
    torch::optim::AdamW opt({p}, torch::optim::AdamWOptions(1e-3).amsgrad(true));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model::fused_adamw_step(opt));
  }

 private:
  bool gpu_ = false;
};

QTEST_GUILESS_MAIN(TestFusedAdamW)
#include "test_fused_adamw.moc"
