// The demo job (resources/demo/demo-job.json) trained in one process: the model, data and
// optimizer the swarm demo uses must visibly learn, fast, on a 2-core CPU.
#include <torch/torch.h>

#include "data/batch.hpp"
#include "data/open_dataset.hpp"
#include "model/block_chain.hpp"
#include "model/optimizer.hpp"

#include <QtTest/QtTest>

#include <chrono>
#include <cmath>

using namespace rookery;

class TestDemoTraining : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  // Measured (one thread, ~13 s) at the demo's learning rate 3e-4, chosen so that the
  // asynchronous pipeline stays within 5% of synchronous training (at 3e-3 a gradient
  // delay of even one step costs 40%+; see tests/pipeline/test_pipeline_training.cpp):
  // loss 5.57 at step 0 (ln 256 = 5.55), 2.29 at step 125, mean of steps 190–199 2.06,
  // at the text's byte-bigram entropy (2.05 nats). Deterministic on one thread; the 2.3
  // threshold leaves margin for other BLAS builds.
  void demoModelLearnsTheDemoText() {
    const job::JobSpec job = job::load_job_spec(ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
    const auto dataset = data::open_dataset(job);
    model::Shard net = model::BlockChain::from_job(job).whole();
    net.set_training(true);
    auto optimizer = model::make_optimizer(job.optimizer, net.parameters());

    constexpr int kSteps = 200;
    const auto start = std::chrono::steady_clock::now();
    std::vector<double> losses;
    int64_t next_sample = 0;
    for (int step = 0; step < kSteps; ++step) {
      optimizer.zero_grad();
      double step_loss = 0;
      for (int64_t m = 0; m < job.grad_accumulation; ++m) {
        const data::Batch batch = data::make_batch(*dataset, next_sample, job.micro_batch_size);
        next_sample += job.micro_batch_size;
        const torch::Tensor loss =
            net.loss(net.forward(batch.inputs), batch.targets) / double(job.grad_accumulation);
        loss.backward();
        step_loss += loss.item<double>();
      }
      optimizer.step();
      losses.push_back(step_loss);
      if (step % 25 == 24 || step == 0)
        qInfo("step %3d  loss %.3f  lr %.5f", step, step_loss,
              job::learning_rate_at(job.optimizer, step));
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double tail = 0;
    for (int s = kSteps - 10; s < kSteps; ++s) tail += losses[size_t(s)] / 10;
    qInfo("%d steps in %.1f s; first loss %.3f, mean of the last 10 %.3f", kSteps, seconds,
          losses[0], tail);
    QVERIFY2(std::abs(losses[0] - std::log(256.0)) < 0.3, "untrained loss should be near ln 256");
    QVERIFY2(tail < 2.3, qPrintable(QString::number(tail)));
  }
};

QTEST_APPLESS_MAIN(TestDemoTraining)
#include "test_demo_training.moc"
