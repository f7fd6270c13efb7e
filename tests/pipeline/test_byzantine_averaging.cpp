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
//
// The clean runs are of two swarms: all four pipelines honest, and the three honest ones alone
// (the best a defence that excludes the liar can do). An altering forwarder ended +5.0% and
// +5.9% from the first kind while every round still spent an attempt on it; now that a caught
// member starts no round for a while, it ends among both.
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

  // Trains a swarm of `pipelines` one-stage pipelines (the last one lying when `with_liar`)
  // and returns the held-out loss of honest pipeline 0's final weights.
  static double train(const QString& aggregator, bool with_liar, int state_every,
                      const QString& fault = "sign-flip-averaging", int pipelines = kPipelines) {
    testing::SwarmHarness h;
    const std::vector<testing::SwarmHarness::Blocks> plan(std::size_t(pipelines),
                                                          testing::SwarmHarness::Blocks{{0, 4}});
    if (!h.prepare(job_json(aggregator, state_every), plan, kIntervalMs)) return -1;
    const QStringList feed{"--max-micro-batches", QString::number(kMicroBatches)};
    for (int p = 0; p < pipelines; ++p) {
      const bool liar = with_liar && p == pipelines - 1;
      if (!h.start(p, 0, liar ? feed + QStringList{"--fault", fault} : feed)) return -1;
    }
    // Every honest node stops listening to the liar at some point (an exclusion lasts 40
    // rounds, then the liar is heard again until it strikes out anew, so look all along).
    std::vector<bool> excluded(std::size_t(pipelines - 1), false);
    const auto liar = h.keys.back().toStdString();
    QElapsedTimer t;
    t.start();
    for (bool finished = false; !finished;) {
      if (t.elapsed() > 300000) return -1;
      finished = true;
      for (int p = 0; p < pipelines; ++p) {
        const auto a = h.client(p, 0).status(std::chrono::seconds(2));
        if (!a.ok) {  // not answering yet (starting up), or gone
          if (h.nodes[std::size_t(h.index(p, 0))]->state() == QProcess::NotRunning) return -1;
          finished = false;
          continue;
        }
        finished = finished && a.snapshot.stage().finished();
        const auto& ex = a.snapshot.stage().excluded_peers();
        if (with_liar && p < pipelines - 1 && std::find(ex.begin(), ex.end(), liar) != ex.end())
          excluded[std::size_t(p)] = true;
      }
      QTest::qWait(100);
    }
    QTest::qWait(4 * kIntervalMs);  // idle stages go on averaging
    if (with_liar && aggregator == "centered_clip") {
      for (int p = 0; p < pipelines - 1; ++p) {
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
  //
  // Two swarms are clean: all four pipelines honest, and the three honest ones alone. A defence
  // that works excludes the liar, and with it the quarter of the data its pipeline trained on,
  // so "as if the liar were not there" is the swarm without it, whose loss ends a little
  // higher; an attacked run is held to 5% of the range both span.
  static constexpr int kCleanRuns = 3;
  struct Clean {
    double low = INFINITY, high = 0, mean = 0;
    QString runs;  // each run's loss, for the log
    bool ok() const { return low > 0 && std::isfinite(low); }
    double spread() const { return 100.0 * (high - low) / mean; }
  };
  static Clean clean_runs(int state_every, int pipelines) {
    static std::map<std::pair<int, int>, Clean> runs;
    const std::pair key{state_every, pipelines};
    if (!runs.count(key)) {
      Clean c;
      for (int i = 0; i < kCleanRuns; ++i) {
        const double loss =
            train("centered_clip", false, state_every, "sign-flip-averaging", pipelines);
        c.low = std::min(c.low, loss);
        c.high = std::max(c.high, loss);
        c.mean += loss / kCleanRuns;
        c.runs += (i ? ", " : "") + QString::number(loss, 'f', 4);
      }
      runs[key] = c;
    }
    return runs[key];
  }

  // Holds an attacked run to 5% of the clean runs, with and without the liar's pipeline (the
  // bound BTARD's defence is held to), and logs where it ended.
  static bool within_clean_runs(int state_every, const QString& attack, double attacked) {
    const auto all = clean_runs(state_every, kPipelines);
    const auto honest = clean_runs(state_every, kPipelines - 1);
    const double low = std::min(all.low, honest.low), high = std::max(all.high, honest.high);
    qInfo(
        "held-out loss of an honest replica: clean runs of %d pipelines %s (mean %.4f, spread "
        "%.2f%%), of the %d honest ones alone %s (mean %.4f, spread %.2f%%); 1 of %d %s %.4f "
        "(%+.2f%% from the first mean, %+.2f%% from the second, %+.2f%% beyond both ranges)",
        kPipelines, qPrintable(all.runs), all.mean, all.spread(), kPipelines - 1,
        qPrintable(honest.runs), honest.mean, honest.spread(), kPipelines, qPrintable(attack),
        attacked, 100.0 * (attacked - all.mean) / all.mean,
        100.0 * (attacked - honest.mean) / honest.mean,
        100.0 * (attacked - std::clamp(attacked, low, high)) / all.mean);
    return all.ok() && honest.ok() && attacked > 0 && attacked >= 0.95 * low &&
           attacked <= 1.05 * high;
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
    // average sees; 1.98 to 2.10 measured), so an attacked run is held to their range.
    const double attacked = train("centered_clip", true, state_every);
    const double attacked_mean = train("mean", true, state_every);
    const auto job = job::parse_job_spec(job_json("mean", state_every).toStdString());
    const double start = testing::evaluate(job, testing::initial_parameters(job));
    const double clean = clean_runs(state_every, kPipelines).mean;
    qInfo("start %.4f; with the plain mean the sign-flipping liar ends the model at %.4f", start,
          attacked_mean);
    QVERIFY2(within_clean_runs(state_every, "sign-flipping x1000 with CenteredClip", attacked),
             "the liar moved the model despite CenteredClip");
    QVERIFY(clean_runs(state_every, kPipelines - 1).high < 0.8 * start);
    // The plain mean ends thousands of times higher.
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
    const double attacked = train("centered_clip", true, 0, fault);  // checks the exclusions
    QVERIFY2(within_clean_runs(0, fault, attacked), "the lying aggregator moved the model");
  }
};

QTEST_GUILESS_MAIN(TestByzantineAveraging)
#include "test_byzantine_averaging.moc"
