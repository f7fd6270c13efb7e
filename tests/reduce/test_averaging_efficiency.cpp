// Statistical efficiency of averaging across pipelines: two pipelines that each see half of
// the samples (half of every batch, disjoint) and average their parameters through the
// Averager every period reach, on held-out data, a loss within 5% of one pipeline that sees
// all of them. The demo job (byte-level GPT on Debian's English fortunes) at its own size, in
// one process, evaluated on the job's held-out windows.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <chrono>
#include <cmath>
#include <memory>

#include "data/batch.hpp"
#include "data/open_dataset.hpp"
#include "model/block_chain.hpp"
#include "model/optimizer.hpp"
#include "reduce/averager.hpp"
#include "reduce/local_transport.hpp"
#include "reduce/shard_buffers.hpp"

using namespace rookery;
using namespace std::chrono_literals;

namespace {
constexpr int kSteps = 200;
constexpr int kPeriod = 10;
constexpr int64_t kEvalSamples = 256;

// Mean loss on kEvalSamples held-out windows spread over the whole held-out part (which no
// training sample reads), the same ones every call.
double eval_loss(model::Shard& net, const data::Dataset& dataset) {
  torch::NoGradGuard no_grad;
  net.set_training(false);
  double total = 0;
  for (int64_t i = 0; i < kEvalSamples; ++i) {
    const auto b =
        data::make_held_out_batch(dataset, i * dataset.held_out_size() / kEvalSamples, 1);
    total += net.loss(net.forward(b.inputs), b.targets).item<double>();
  }
  net.set_training(true);
  return total / double(kEvalSamples);
}
}  // namespace

class TestAveragingEfficiency : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  void twoHalfPipelinesMatchOneFullPipeline() {
    const job::JobSpec job = job::load_job_spec(ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
    const auto dataset = data::open_dataset(job);
    const int64_t batch = job.micro_batch_size;                 // one pipeline: the whole batch
    const int64_t half = batch / 2;                             // each of two pipelines: half of it
    QVERIFY(dataset->held_out_size() >= kEvalSamples);
    const auto chain = model::BlockChain::from_job(job);
    const auto start = std::chrono::steady_clock::now();

    // One pipeline, N = kSteps x batch samples.
    model::Shard one = chain.whole();
    one.set_training(true);
    auto opt_one = model::make_optimizer(job.optimizer, one.parameters());
    for (int step = 0; step < kSteps; ++step) {
      opt_one.zero_grad();
      const auto b = data::make_batch(*dataset, int64_t(step) * batch, batch);
      one.loss(one.forward(b.inputs), b.targets).backward();
      opt_one.step();
    }
    const double loss_one = eval_loss(one, *dataset);

    // Two pipelines, N/2 samples each, averaged every kPeriod steps by the multi-ring Averager.
    const reduce::MultiRingPlan plan(
        reduce::block_parameter_counts(job.model),
        {{{0, chain.block_count()}, {"A"}}, {{0, chain.block_count()}, {"B"}}});
    reduce::LocalFabric fabric;
    reduce::RingOptions options;
    options.timeout = 30s;
    std::vector<model::Shard> nets;
    std::vector<model::Optimizer> opts;
    std::vector<std::unique_ptr<reduce::Averager>> averagers;
    for (const char* id : {"A", "B"}) {
      nets.push_back(chain.whole());
      nets.back().set_training(true);
      averagers.push_back(std::make_unique<reduce::Averager>(
          fabric.join(id), reduce::AveragerConfig{plan.for_node(id), options, {}, {}}));
    }
    for (auto& n : nets) opts.push_back(model::make_optimizer(job.optimizer, n.parameters()));
    int rounds = 0;
    for (int step = 0; step < kSteps; ++step) {
      for (int p = 0; p < 2; ++p) {
        opts[size_t(p)].zero_grad();
        const auto b = data::make_batch(*dataset, int64_t(step) * batch + p * half, half);
        nets[size_t(p)].loss(nets[size_t(p)].forward(b.inputs), b.targets).backward();
        opts[size_t(p)].step();
      }
      if ((step + 1) % kPeriod == 0) {
        ++rounds;
        for (int p = 0; p < 2; ++p) {
          averagers[size_t(p)]->start(std::uint64_t(rounds),
                                      {{"params", reduce::flatten_parameters(nets[size_t(p)])}},
                                      kPeriod * half);
        }
        for (int p = 0; p < 2; ++p) {
          auto r = averagers[size_t(p)]->wait(60s);
          QVERIFY(r);
          QCOMPARE(r->rings.front().outcome.contributors.size(), std::size_t(2));
          reduce::write_parameters(nets[size_t(p)], r->find("params")->values);
        }
      }
    }
    const double loss_a = eval_loss(nets[0], *dataset);
    const double loss_b = eval_loss(nets[1], *dataset);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    qInfo(
        "held-out loss after %d steps: one pipeline (batch %lld) %.4f; two pipelines (batch %lld "
        "each, "
        "averaged every %d steps) %.4f / %.4f; ratio %.4f; %.0f s",
        kSteps, (long long)batch, loss_one, (long long)half, kPeriod, loss_a, loss_b,
        loss_a / loss_one, seconds);
    QCOMPARE(loss_a, loss_b);  // the last step was an average: both hold the same parameters
    QVERIFY2(loss_a <= 1.05 * loss_one, qPrintable(QString("%1 vs %2").arg(loss_a).arg(loss_one)));
    // Real text is harder than the generated one this used to train on (2.3 was its bound):
    // see test_demo_training for what the demo model reaches in 200 steps.
    QVERIFY2(loss_one < 3.0,
             "the single pipeline itself should have learned (ln 256 = 5.55 untrained)");
  }
};

QTEST_APPLESS_MAIN(TestAveragingEfficiency)
#include "test_averaging_efficiency.moc"
