// Spot-checks in a running swarm (Secure Distributed Training at Scale's verification of work,
// for pipeline stages): three two-stage pipelines of real rookery-node processes, SWARM-wired
// (every first stage sends to every second stage), averaging every 0.25 s. Pipeline 2's first
// stage lies: it sends its activations forward sign-flipped and scaled x10.
//
// With spot-checks (the default) the second stages ask the liar for its declared input, have
// the other first stages recompute it, catch the liar within its first micro-batches and
// refuse it from then on; the honest replicas train as well as when the liar's slot feeds
// nothing (the fair baseline: the work that reaches the model is the same). With checks off (a
// job option) the same liar's noise reaches every second stage, and the model ends clearly
// worse: the test has teeth.
#include "reference_training.hpp"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <cmath>

#include "support/swarm_harness.hpp"

using namespace rookery;

class TestSpotCheckSwarm : public QObject {
  Q_OBJECT

  static constexpr int kPipelines = 3;
  static constexpr int kMicroBatches = 300;
  static constexpr int kIntervalMs = 250;
  static constexpr int kLiar = kPipelines - 1;  // pipeline 2's first stage

  enum class Slot { Idle, Liar };  // what pipeline 2's first stage does

  static QString job_json(bool checks) {
    QString json = testing::gpt_job_json("spotcheck", 1, "none", 2, 64, 1e-3);
    if (!checks) json.replace("\"seed\": 11", "\"seed\": 11, \"spot_checks\": {\"rate\": 0, \"probation\": 0}");
    return json;
  }

  struct Outcome {
    double loss = -1;
    int caught_by = 0;  // second stages that caught the liar
    std::int64_t passed = 0, failed = 0;
  };

  static Outcome train(bool checks, Slot slot) {
    Outcome o;
    testing::SwarmHarness h;
    const std::vector<testing::SwarmHarness::Blocks> plan(kPipelines, testing::SwarmHarness::Blocks{{0, 2}, {2, 4}});
    if (!h.prepare(job_json(checks), plan, kIntervalMs)) return o;
    const QStringList feed{"--max-micro-batches", QString::number(kMicroBatches)};
    for (int p = 0; p < kPipelines; ++p) {
      if (!h.start(p, 1)) return o;
    }
    for (int p = 0; p < kPipelines; ++p) {
      QStringList extra = feed;
      if (p == kLiar) {
        // The liar does not wait the usual 20 s for a gradient that will not come: it gives up
        // after 0.3 s and sends the next micro-batch, as an attacker would.
        extra = slot == Slot::Liar
                    ? feed + QStringList{"--fault", "corrupt-activations", "--micro-batch-timeout-ms", "300"}
                    : QStringList{"--max-micro-batches", "1"};
      }
      if (!h.start(p, 0, extra)) return o;
    }
    // The honest first stages finish; the liar's micro-batches die at the stages that caught
    // it, so it is not waited for.
    QElapsedTimer t;
    t.start();
    for (bool finished = false; !finished;) {
      if (t.elapsed() > 300000) return o;
      finished = true;
      for (int p = 0; p < kLiar; ++p) {
        const auto a = h.client(p, 0).status(std::chrono::seconds(2));
        if (!a.ok) {
          if (h.nodes[std::size_t(h.index(p, 0))]->state() == QProcess::NotRunning) return o;
          finished = false;
          continue;
        }
        finished = finished && a.snapshot.stage().finished();
      }
      QTest::qWait(100);
    }
    QTest::qWait(4 * kIntervalMs);  // idle stages go on averaging
    const auto liar_key = h.keys[std::size_t(h.index(kLiar, 0))].toStdString();
    for (int p = 0; p < kPipelines; ++p) {
      const auto s = h.snapshot(p, 1).stage();
      o.passed += s.spot_checks_passed();
      o.failed += s.spot_checks_failed();
      const auto& caught = s.caught_peers();
      if (std::find(caught.begin(), caught.end(), liar_key) != caught.end()) ++o.caught_by;
      qInfo("pipeline %d's second stage: %lld checks passed, %lld failed, %d stage(s) caught", p,
            static_cast<long long>(s.spot_checks_passed()), static_cast<long long>(s.spot_checks_failed()),
            caught.size());
    }
    if (!h.quit_all()) return o;
    const auto job = job::parse_job_spec(job_json(checks).toStdString());
    o.loss = testing::evaluate(job, testing::read_stage_checkpoints({h.checkpoint(0, 0, job.id), h.checkpoint(0, 1, job.id)}));
    return o;
  }

 private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  void spotChecksCatchAStageSendingGarbage() {
    const Outcome clean = train(true, Slot::Idle);
    const Outcome attacked = train(true, Slot::Liar);
    const Outcome unchecked = train(false, Slot::Liar);
    const auto job = job::parse_job_spec(job_json(true).toStdString());
    const double start = testing::evaluate(job, testing::initial_parameters(job));
    qInfo("held-out loss of an honest replica: start %.4f; clean run %.4f; 1 of %d first stages sending its "
          "activations x-10, with spot-checks %.4f (%+.2f%%), without %.4f (%+.2f%%)",
          start, clean.loss, kPipelines, attacked.loss, 100.0 * (attacked.loss - clean.loss) / clean.loss,
          unchecked.loss, 100.0 * (unchecked.loss - clean.loss) / clean.loss);
    QVERIFY(clean.loss > 0 && attacked.loss > 0 && unchecked.loss > 0);
    QVERIFY(clean.loss < 0.8 * start);
    // Honest stages pass their checks: replicas that train between averages still agree
    // within the tolerance.
    QVERIFY2(clean.passed > 0 && clean.failed == 0, "an honest stage failed a spot-check");
    QCOMPARE(clean.caught_by, 0);
    // A majority of the stages the liar sends to caught it (what the coordinator needs for a
    // ban); the liar's router sends little to the rest once its micro-batches die at those.
    QVERIFY2(attacked.caught_by >= 2, qPrintable(QString("caught by %1 of 3").arg(attacked.caught_by)));
    // One-sided: the liar must not make the model worse. (Two runs of this swarm differ by up to
    // ~5% either way; thread timing decides which micro-batches each average sees.)
    QVERIFY2(attacked.loss <= 1.05 * clean.loss, "the liar moved the model despite spot-checks");
    QVERIFY2(unchecked.loss > 1.1 * clean.loss, "without spot-checks the liar did no harm: the attack has no teeth");
  }
};

QTEST_GUILESS_MAIN(TestSpotCheckSwarm)
#include "test_spot_check_swarm.moc"
