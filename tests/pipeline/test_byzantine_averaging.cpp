// Secure Distributed Training at Scale (BTARD) in a running swarm: four one-stage pipelines
// of real rookery-node processes average every 0.25 s; one of them lies, handing the rings its
// update since the last average sign-flipped and scaled x1000. With CenteredClip (the default
// aggregator) the honest replicas train as well as in a clean run; with the plain mean (a job
// option) the same liar wrecks them, which shows the test has teeth.
//
// Clipping alone is not enough here: a clipped liar still drags each round's average back by
// about tau/4 of the honest spread (runs ended 1-7% above the clean run, once far more). What
// closes the gap is each node excluding a partner it clipped hard in 3 rounds in a row
// (reduce::PeerExclusion); the test checks that every honest node excluded the liar.
//
// Run twice: averaging the parameters only, and with AdamW's moments in every 4th round
// (job.average_optimizer_state_every), which the liar's rings carry too.
//
// Then liars that attack the aggregation rather than their input (verified aggregation, on with
// CenteredClip): a ring chunk's owner handing out a false aggregate, and a member altering the
// averaged bytes it forwards. Every honest node catches and excludes it, and the honest replicas
// end within 5% of the clean runs.
#include "reference_training.hpp"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "support/swarm_harness.hpp"

using namespace rookery;

class TestByzantineAveraging : public QObject {
  Q_OBJECT

  static constexpr int kPipelines = 4;
  static constexpr int kMicroBatches = 150;
  static constexpr int kIntervalMs = 250;

  static QString job_json(const QString& aggregator, int state_every) {
    QString json = testing::gpt_job_json("byzantine", 1, "none", 2, 64, 1e-3);
    json.replace("\"seed\": 11", "\"seed\": 11, \"average_optimizer_state_every\": " +
                                     QString::number(state_every) +
                                     ", \"aggregator\": {\"kind\": \"" + aggregator + "\"}");
    return json;
  }

  // Trains the swarm and returns the held-out loss of honest pipeline 0's final weights.
  static double train(const QString& aggregator, bool with_liar, int state_every,
                      const QString& fault = "sign-flip-averaging") {
    testing::SwarmHarness h;
    const std::vector<testing::SwarmHarness::Blocks> plan(kPipelines,
                                                          testing::SwarmHarness::Blocks{{0, 4}});
    if (!h.prepare(job_json(aggregator, state_every), plan, kIntervalMs)) return -1;
    const QStringList feed{"--max-micro-batches", QString::number(kMicroBatches)};
    for (int p = 0; p < kPipelines; ++p) {
      const bool liar = with_liar && p == kPipelines - 1;
      if (!h.start(p, 0, liar ? feed + QStringList{"--fault", fault} : feed)) return -1;
    }
    // Every honest node stops listening to the liar at some point (an exclusion lasts 40
    // rounds, then the liar is heard again until it strikes out anew, so look all along).
    std::vector<bool> excluded(kPipelines - 1, false);
    const auto liar = h.keys.back().toStdString();
    QElapsedTimer t;
    t.start();
    for (bool finished = false; !finished;) {
      if (t.elapsed() > 300000) return -1;
      finished = true;
      for (int p = 0; p < kPipelines; ++p) {
        const auto a = h.client(p, 0).status(std::chrono::seconds(2));
        if (!a.ok) {  // not answering yet (starting up), or gone
          if (h.nodes[std::size_t(h.index(p, 0))]->state() == QProcess::NotRunning) return -1;
          finished = false;
          continue;
        }
        finished = finished && a.snapshot.stage().finished();
        const auto& ex = a.snapshot.stage().excluded_peers();
        if (p < kPipelines - 1 && std::find(ex.begin(), ex.end(), liar) != ex.end())
          excluded[std::size_t(p)] = true;
      }
      QTest::qWait(100);
    }
    QTest::qWait(4 * kIntervalMs);  // idle stages go on averaging
    if (with_liar && aggregator == "centered_clip") {
      for (int p = 0; p < kPipelines - 1; ++p) {
        if (!excluded[std::size_t(p)]) {
          qWarning("pipeline %d never excluded the liar", p);
          return -1;
        }
      }
    }
    if (!h.quit_all()) return -1;
    const auto job = job::parse_job_spec(job_json(aggregator, state_every).toStdString());
    return testing::evaluate(job, testing::read_stage_checkpoints({h.checkpoint(0, 0, job.id)}));
  }

  // Clean runs per setting, shared by the tests that compare an attacked run with them. Three:
  // two clean runs were measured 0.8% to 4.2% apart, as far as an attacked run from either, so
  // two give too narrow a picture of what thread timing alone does to the loss.
  static constexpr int kCleanRuns = 3;
  struct Clean {
    double low = 0, high = 0, mean = 0;
    QString runs;  // each run's loss, for the log
    bool ok() const { return low > 0; }
    double spread() const { return 100.0 * (high - low) / mean; }
  };
  static Clean clean_runs(int state_every) {
    static std::map<int, Clean> runs;
    if (!runs.count(state_every)) {
      Clean c;
      c.low = INFINITY;
      for (int i = 0; i < kCleanRuns; ++i) {
        const double loss = train("centered_clip", false, state_every);
        c.low = std::min(c.low, loss);
        c.high = std::max(c.high, loss);
        c.mean += loss / kCleanRuns;
        c.runs += (i ? ", " : "") + QString::number(loss, 'f', 4);
      }
      runs[state_every] = c;
    }
    return runs[state_every];
  }

 private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  void centeredClipKeepsALiarFromMovingTheModel_data() {
    QTest::addColumn<int>("state_every");
    QTest::newRow("parameters") << 0;
    QTest::newRow("parameters, and the optimizer state every 4th round") << 4;
  }

  void centeredClipKeepsALiarFromMovingTheModel() {
    QFETCH(int, state_every);
    // The clean runs differ among themselves (thread timing decides which micro-batches each
    // average sees; 1.98 to 2.10 measured), so an attacked run is held to 5% of the clean
    // runs' range, with that spread printed beside it.
    const auto c = clean_runs(state_every);
    const double attacked = train("centered_clip", true, state_every);
    const double attacked_mean = train("mean", true, state_every);
    const double low = c.low, high = c.high, clean = c.mean;
    const auto job = job::parse_job_spec(job_json("mean", state_every).toStdString());
    const double start = testing::evaluate(job, testing::initial_parameters(job));
    qInfo(
        "held-out loss of an honest replica: start %.4f; clean runs %s (spread %.2f%%); 1 of %d "
        "sign-flipping x1000 with CenteredClip %.4f (%+.2f%% from their mean, %+.2f%% from the "
        "nearest), with the plain mean %.4f",
        start, qPrintable(c.runs), c.spread(), kPipelines, attacked,
        100.0 * (attacked - clean) / clean,
        100.0 * (attacked - std::clamp(attacked, low, high)) / clean, attacked_mean);
    QVERIFY(c.ok() && attacked > 0);
    QVERIFY(high < 0.8 * start);
    // Within 5% of the clean runs (the bound BTARD's defence is held to); attacked runs
    // measured -1.9% to +5.0% from a single clean run. The plain mean ends thousands of times
    // higher.
    QVERIFY2(attacked >= 0.95 * low && attacked <= 1.05 * high,
             "the liar moved the model despite CenteredClip");
    QVERIFY2(!(attacked_mean < 1.5 * clean),
             "the plain mean survived the liar: the attack has no teeth");
  }

  void verifiedAggregationKeepsALyingAggregatorOut_data() {
    QTest::addColumn<QString>("fault");
    QTest::newRow("lying-aggregator") << "lying-aggregator";
    QTest::newRow("altering-forwarder") << "altering-forwarder";
  }

  void verifiedAggregationKeepsALyingAggregatorOut() {
    QFETCH(QString, fault);
    const auto c = clean_runs(0);
    const double attacked = train("centered_clip", true, 0, fault);  // checks the exclusions
    const double low = c.low, high = c.high, clean = c.mean;
    qInfo(
        "held-out loss of an honest replica: clean runs %s (spread %.2f%%); 1 of %d %s %.4f "
        "(%+.2f%% from their mean, %+.2f%% from the nearest)",
        qPrintable(c.runs), c.spread(), kPipelines, qPrintable(fault), attacked,
        100.0 * (attacked - clean) / clean,
        100.0 * (attacked - std::clamp(attacked, low, high)) / clean);
    QVERIFY(c.ok() && attacked > 0);
    QVERIFY2(attacked >= 0.95 * low && attacked <= 1.05 * high,
             "the lying aggregator moved the model");
  }
};

QTEST_GUILESS_MAIN(TestByzantineAveraging)
#include "test_byzantine_averaging.moc"
