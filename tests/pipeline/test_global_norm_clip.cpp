// Global-norm clipping (job.max_grad_norm): GlobalNormClip's bookkeeping alone; a 3-stage
// pipeline clips by the norm of the whole model, to the same parameters as one process clipping
// with torch's clip_grad_norm_; and a batch whose gradient is far above the bound moves the
// whole model by no more than the bound allows, although each stage holds only part of it.
#include "local_swarm.hpp"
#include "reference_training.hpp"

#include <QTest>

#include <cmath>

#include "pipeline/global_norm_clip.hpp"

using namespace rookery;
using pipeline::GlobalNormClip;

namespace {

job::OptimizerSpec sgd_optimizer(double lr, double momentum) {
  job::OptimizerSpec o;
  o.kind = job::OptimizerKind::sgd;
  o.lr = lr;
  o.momentum = momentum;
  o.nesterov = momentum > 0;
  return o;
}

double global_distance(const testing::Params& a, const testing::Params& b) {
  double sq = 0;
  for (const auto& [name, t] : a)
    sq += (t - b.at(name)).to(torch::kDouble).square().sum().item<double>();
  return std::sqrt(sq);
}

const std::vector<std::pair<int, int>> kThreeStages{{0, 1}, {1, 3}, {3, 4}};

}  // namespace

class TestGlobalNormClip : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  // torch's clip_grad_norm_ factor: min(1, max / (norm + 1e-6)); off is 1.
  void factorIsTorchs_data() {
    QTest::addColumn<double>("max_norm");
    QTest::addColumn<double>("total_sq");
    QTest::addColumn<double>("factor");
    QTest::newRow("off") << 0.0 << 100.0 << 1.0;
    QTest::newRow("under the bound") << 1.0 << 0.25 << 1.0;
    QTest::newRow("over the bound") << 1.0 << 16.0 << 1.0 / (4.0 + 1e-6);
    QTest::newRow("zero gradient") << 1.0 << 0.0 << 1.0;
  }
  void factorIsTorchs() {
    QFETCH(double, max_norm);
    QFETCH(double, total_sq);
    QFETCH(double, factor);
    QCOMPARE(GlobalNormClip(max_norm, true).factor(total_sq), factor);
  }

  // The first stage runs each backward last: its own and the later stages' norms are the
  // whole model's, known at once.
  void firstStageKnowsTheExactTotal() {
    GlobalNormClip clip(1.0, true);
    clip.note_downstream(5.0);
    QCOMPARE(clip.complete(7, 2.0), 7.0);
    QVERIFY(clip.pending());
    QCOMPARE(clip.exact_total().value_or(-1), 7.0);
    clip.taken();
    QVERIFY(!clip.pending());
  }

  // A later stage sends its share upstream, waits for the total, and until then estimates the
  // earlier stages' share from the latest total it learned.
  void laterStageWaitsForTheTotalOrEstimates() {
    GlobalNormClip clip(1.0, false);
    clip.note_downstream(1.0);
    QCOMPARE(clip.complete(10, 2.0), 3.0);  // what goes upstream: own + downstream
    QVERIFY(!clip.exact_total());
    QCOMPARE(clip.total(), 3.0);  // nothing learned yet: the stages before count 0
    clip.learn_total(10, 7.0);
    QCOMPARE(clip.exact_total().value_or(-1), 7.0);
    clip.taken();
    // The next step's total is not known yet: the earlier stages' last share (4) stands in.
    QCOMPARE(clip.complete(11, 5.0), 5.0);
    QVERIFY(!clip.exact_total());
    QCOMPARE(clip.total(), 9.0);
    // Totals of other steps, malformed ones, and ones smaller than this stage's share.
    clip.learn_total(99, 1.0);
    clip.learn_total(11, std::nan(""));
    clip.learn_total(11, -1.0);
    QVERIFY(!clip.exact_total());
    clip.learn_total(11, 2.0);
    QCOMPARE(clip.exact_total().value_or(-1), 5.0);
  }

  // With staleness 1 every stage steps with the exact total, so the pipeline computes what one
  // process clipping with torch's clip_grad_norm_ computes; the bound is low enough that it
  // clips every step, and the result differs from training without it.
  void pipelineClipsAsOneProcess_data() {
    QTest::addColumn<bool>("sgd");
    QTest::newRow("adamw") << false;
    QTest::newRow("sgd, nesterov") << true;
  }
  void pipelineClipsAsOneProcess() {
    QFETCH(bool, sgd);
    constexpr int kSteps = 12;
    auto job = job::parse_job_spec(testing::gpt_job_json("clip-exact", 1, "none").toStdString());
    if (sgd) job.optimizer = sgd_optimizer(0.05, 0.9);
    job.max_grad_norm = 0.05;
    std::vector<pipeline::StageStats> stats;
    const auto piped = testing::train_in_pipeline(job, kThreeStages, kSteps, &stats);
    const auto reference = testing::train_in_one_process(job, kSteps);
    auto unclipped_job = job;
    unclipped_job.max_grad_norm = 0;
    const auto unclipped = testing::train_in_one_process(unclipped_job, kSteps);
    const double diff = testing::max_abs_difference(piped, reference);
    const double clipping = testing::max_abs_difference(reference, unclipped);
    qInfo("max |pipeline - one process| = %.3g; clipping changed weights by up to %.3g", diff,
          clipping);
    for (const auto& s : stats) {
      QCOMPARE(s.clip_estimated_steps, std::int64_t{0});
      QVERIFY2(s.last_clip_factor < 1, "the bound is low enough to clip");
      QCOMPARE(s.rejected, std::int64_t{0});
    }
    QVERIFY(clipping > 1e-3);
    QVERIFY2(diff <= 1e-5, qPrintable(QString("max abs difference %1").arg(diff)));
  }

  // One SGD step (lr 1, no momentum) on a batch whose gradient is far above the bound moves the
  // whole model by the bound, not each stage by it: the three stages' updates together have
  // norm max_grad_norm, and point where the unclipped update points.
  void spikyBatchMovesTheModelByTheBound() {
    auto job = job::parse_job_spec(testing::gpt_job_json("clip-spike", 1, "none").toStdString());
    job.optimizer = sgd_optimizer(1.0, 0);
    job.max_grad_norm = 0;
    const auto initial = testing::initial_parameters(job);
    const auto unclipped = testing::train_in_one_process(job, 1);
    const double spike = global_distance(unclipped, initial);
    job.max_grad_norm = spike / 100;
    const auto piped = testing::train_in_pipeline(job, kThreeStages, 1);
    const double moved = global_distance(piped, initial);
    qInfo("unclipped step %.4g, clipped to %.4g: the pipeline moved %.6g", spike, job.max_grad_norm,
          moved);
    QVERIFY(std::abs(moved - job.max_grad_norm) <= 1e-4 * job.max_grad_norm);
    for (const auto& [name, t] : piped) {
      const auto expected = initial.at(name) + (unclipped.at(name) - initial.at(name)) / 100;
      QVERIFY2((t - expected).abs().max().item<double>() <= 1e-6, name.c_str());
    }
  }
};

QTEST_GUILESS_MAIN(TestGlobalNormClip)
#include "test_global_norm_clip.moc"
