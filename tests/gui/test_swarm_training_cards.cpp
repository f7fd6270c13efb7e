// The swarm and training cards from hand-made snapshots: a node outside any pipeline
// (benchmark work), a middle stage, a last stage; and the training history kept from
// snapshots: one point per new micro-batch count, bounded, a sample rate over the node's
// clock, and a fresh start when the node restarts; the run's model as the coordinator judges it
// (the held-out loss beside the run's, the archive and blocks restored from it, what the model
// writes or predicts, escaped).
#include <QChartView>
#include <QDateTime>
#include <QLabel>
#include <QLineSeries>
#include <QTest>

#include "ui/app_resources.hpp"
#include "ui/cards/swarm_card.hpp"
#include "ui/cards/training_card.hpp"
#include "ui/format.hpp"
#include "ui/training_history.hpp"
#include "ui/widgets/pipeline_diagram.hpp"

namespace pb = rookery::wire::pb;
using rookery::ui::PipelineDiagram;
using rookery::ui::SwarmCard;
using rookery::ui::TrainingCard;
using rookery::ui::TrainingHistory;

namespace {
QString valueOf(const QWidget& card, const char* name) {
  auto* label = card.findChild<QLabel*>(QString::fromLatin1(name));
  return label && label->isVisibleTo(&card) ? label->text() : QString();
}

pb::NodeSnapshot benchmarkNode(pb::NodeState state) {
  pb::NodeSnapshot s;
  s.set_pid(4242);
  s.set_state(state);
  s.set_uptime_seconds(30);
  s.mutable_work()->set_work_units(17);
  return s;
}

// Stage 2 of 4 of pipeline 2, blocks [3, 6) of 12, after `micro_batches` backwards.
pb::NodeSnapshot middleStage(std::int64_t micro_batches, double uptime, std::uint64_t samples,
                             double loss, std::int64_t pid = 4242) {
  pb::NodeSnapshot s;
  s.set_pid(pid);
  s.set_state(pb::CONTRIBUTING);
  s.set_uptime_seconds(uptime);
  s.mutable_work()->set_samples(samples);
  s.mutable_work()->set_last_loss(loss);
  auto* st = s.mutable_stage();
  st->set_job_id("lm-small");
  st->set_job_name("Small language model");
  st->set_pipeline(2);
  st->set_stage(1);
  st->set_stage_count(4);
  st->set_first_block(3);
  st->set_last_block(6);
  st->set_block_count(12);
  st->set_prev_endpoint("tcp://10.0.0.7:7600");
  st->set_next_endpoint("tcp://10.0.0.9:7602");
  st->set_micro_batches(micro_batches);
  st->set_optimizer_steps(micro_batches / 2);
  st->set_in_flight(3);
  st->set_live_versions(4);
  st->set_stash_bytes(12ll << 20);
  st->set_dropped(2);
  st->set_rejected(1);
  st->set_bytes_sent(300ull << 20);
  return s;
}
}  // namespace

class TestSwarmTrainingCards : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    const QLocale english(QLocale::English, QLocale::UnitedStates);
    QLocale::setDefault(english);
    rookery::ui::installTranslations(*QCoreApplication::instance(), english);  // plural forms
  }

  void swarmCardWithoutAStageSaysBenchmarkWork_data() {
    QTest::addColumn<int>("state");
    QTest::addColumn<QString>("position");
    QTest::newRow("contributing") << int(pb::CONTRIBUTING) << "Contributing benchmark work";
    QTest::newRow("paused") << int(pb::PAUSED) << "Benchmark work only";
  }
  void swarmCardWithoutAStageSaysBenchmarkWork() {
    QFETCH(int, state);
    QFETCH(QString, position);
    SwarmCard card;
    card.show();
    card.showSnapshot(benchmarkNode(static_cast<pb::NodeState>(state)));
    QVERIFY(!card.inPipeline());
    QCOMPARE(card.jobText(), QStringLiteral("Not in a pipeline yet"));
    QCOMPARE(card.positionText(), position);
    QVERIFY(card.summaryText().contains(QStringLiteral("until a coordinator places")));
    QVERIFY(!card.diagram()->isVisibleTo(&card));
    QVERIFY(valueOf(card, "nextStage").isEmpty());
    QVERIFY(valueOf(card, "inFlight").isEmpty());
  }

  void swarmCardShowsAMiddleStage() {
    SwarmCard card;
    card.resize(440, 420);
    card.show();
    card.showSnapshot(benchmarkNode(pb::PAUSED));
    card.showSnapshot(middleStage(40, 60, 640, 3.2));
    QVERIFY(card.inPipeline());
    QCOMPARE(card.jobText(), QStringLiteral("Small language model"));
    QCOMPARE(card.positionText(), QStringLiteral("Pipeline 3 · stage 2 of 4 · blocks 3–5 of 12"));
    QCOMPARE(valueOf(card, "previousStage"), QStringLiteral("tcp://10.0.0.7:7600"));
    QCOMPARE(valueOf(card, "nextStage"), QStringLiteral("tcp://10.0.0.9:7602"));
    QCOMPARE(valueOf(card, "inFlight"), QStringLiteral("3 micro-batches"));
    QCOMPARE(valueOf(card, "weightVersions"), QStringLiteral("4 stashed · 12 MiB"));
    QCOMPARE(valueOf(card, "droppedRejected"), QStringLiteral("2 · 1"));
    QCOMPARE(valueOf(card, "bytesSent"), QStringLiteral("300 MiB"));
    QVERIFY(card.diagram()->isVisibleTo(&card));
    const PipelineDiagram::Shape shape = card.diagram()->shape();
    QCOMPARE(shape.stage_count, 4);
    QCOMPARE(shape.stage, 1);
    QCOMPARE(shape.first_block, 3);
    QCOMPARE(shape.last_block, 6);
    QCOMPARE(shape.block_count, 12);
    QVERIFY(shape.active);
    QCOMPARE(card.diagram()->accessibleDescription(),
             QStringLiteral("A pipeline of 4 stages, from the data to the loss. This PC is stage 2 "
                            "and holds blocks "
                            "3–5 of 12."));
    // Leaving the pipeline (the coordinator moved it back to benchmark work) clears the place.
    card.showSnapshot(benchmarkNode(pb::CONTRIBUTING));
    QVERIFY(!card.inPipeline());
    QVERIFY(!card.diagram()->isVisibleTo(&card));
  }

  void swarmCardNamesTheEndsOfThePipeline() {
    auto last = middleStage(10, 20, 160, 4.0);
    last.mutable_stage()->set_stage(3);
    last.mutable_stage()->set_first_block(11);
    last.mutable_stage()->set_last_block(12);
    last.mutable_stage()->clear_next_endpoint();
    SwarmCard card;
    card.show();
    card.showSnapshot(last);
    QCOMPARE(card.positionText(), QStringLiteral("Pipeline 3 · stage 4 of 4 · block 11 of 12"));
    QCOMPARE(valueOf(card, "nextStage"), QStringLiteral("nobody: computes the loss (last stage)"));
    QCOMPARE(valueOf(card, "inFlight"), QStringLiteral("3 micro-batches"));
    last.mutable_stage()->set_in_flight(1);
    card.showSnapshot(last);
    QCOMPARE(valueOf(card, "inFlight"), QStringLiteral("1 micro-batch"));
  }

  void diagramPaintsAnyPipeline_data() {
    QTest::addColumn<int>("stages");
    QTest::addColumn<int>("width");
    QTest::newRow("one stage") << 1 << 400;
    QTest::newRow("three stages") << 3 << 400;
    QTest::newRow("forty stages, narrow") << 40 << 160;
  }
  void diagramPaintsAnyPipeline() {
    QFETCH(int, stages);
    QFETCH(int, width);
    PipelineDiagram diagram;
    diagram.resize(width, diagram.sizeHint().height());
    diagram.setShape({stages, stages - 1, 0, 1, stages * 2, true, {}});
    const QImage image = diagram.grab().toImage();
    QVERIFY(!image.isNull());
    // Something is drawn in the accent colour: this PC's box.
    bool drawn = false;
    for (int y = 0; y < image.height() && !drawn; ++y) {
      for (int x = 0; x < image.width() && !drawn; ++x)
        drawn = image.pixelColor(x, y).green() > image.pixelColor(x, y).red() + 40;
    }
    QVERIFY(drawn);
  }

  void trainingCardWithoutAStageExplains() {
    TrainingCard card;
    card.show();
    card.showSnapshot(benchmarkNode(pb::CONTRIBUTING));
    QVERIFY(!card.chartShown());
    QVERIFY(card.emptyMessage().contains(QStringLiteral("once this PC trains a stage")));
    QCOMPARE(card.lossSeries()->count(), 0);
    QVERIFY(valueOf(card, "samples").isEmpty());
    QVERIFY(valueOf(card, "loss").isEmpty());
  }

  void trainingCardDrawsTheLossAndItsRate() {
    TrainingCard card;
    card.resize(440, 420);
    card.show();
    card.showSnapshot(middleStage(0, 10, 0, 0));
    QVERIFY(!card.chartShown());
    QVERIFY(card.emptyMessage().contains(QStringLiteral("first micro-batch")));
    QCOMPARE(valueOf(card, "loss"), QStringLiteral("none yet"));
    // One snapshot a second, 4 micro-batches of 16 samples each time.
    for (int i = 1; i <= 6; ++i)
      card.showSnapshot(middleStage(4 * i, 10 + i, 64u * i, 5.0 - 0.1 * i));
    QVERIFY(card.chartShown());
    QCOMPARE(card.lossSeries()->count(), 6);
    QCOMPARE(card.lossSeries()->at(5), QPointF(24, 4.4));
    QCOMPARE(valueOf(card, "samples"), QStringLiteral("384"));
    QCOMPARE(valueOf(card, "sampleRate"), QStringLiteral("64 samples/s"));
    QCOMPARE(valueOf(card, "optimizerSteps"), QStringLiteral("12"));
    QVERIFY(valueOf(card, "loss").startsWith(QStringLiteral("4.400 · average ")));
    QVERIFY(card.chartView()->accessibleDescription().contains(
        QStringLiteral("Loss 4.400 after 24 micro-batches")));
    // A snapshot without news adds no point.
    card.showSnapshot(middleStage(24, 17, 384, 4.4));
    QCOMPARE(card.lossSeries()->count(), 6);
    // The node restarted (another process): the old curve goes.
    card.showSnapshot(middleStage(2, 1, 32, 5.2, 5555));
    QCOMPARE(card.lossSeries()->count(), 1);
    QCOMPARE(card.history().restarts(), 1);
    card.showDisconnected();
    QVERIFY(card.chartShown());  // the last curve stays while no node answers
    QCOMPARE(valueOf(card, "sampleRate"), QStringLiteral("idle"));
  }

  void historyStartsOverWhenTheRunChanges_data() {
    QTest::addColumn<qint64>("pid");
    QTest::addColumn<double>("uptime");
    QTest::addColumn<quint64>("samples");
    QTest::addColumn<qint64>("microBatches");
    QTest::addColumn<bool>("restarted");
    QTest::newRow("same run, later") << qint64(4242) << 21.0 << quint64(400) << qint64(25) << false;
    QTest::newRow("another process") << qint64(4243) << 21.0 << quint64(400) << qint64(25) << true;
    QTest::newRow("uptime went back") << qint64(4242) << 2.0 << quint64(400) << qint64(25) << true;
    QTest::newRow("samples went back") << qint64(4242) << 21.0 << quint64(10) << qint64(25) << true;
    QTest::newRow("micro-batches went back")
        << qint64(4242) << 21.0 << quint64(400) << qint64(3) << true;
  }
  void historyStartsOverWhenTheRunChanges() {
    QFETCH(qint64, pid);
    QFETCH(double, uptime);
    QFETCH(quint64, samples);
    QFETCH(qint64, microBatches);
    QFETCH(bool, restarted);
    TrainingHistory history;
    QCOMPARE(history.add(middleStage(10, 10, 160, 4.0)), TrainingHistory::Change::Appended);
    QCOMPARE(history.add(middleStage(20, 20, 320, 3.9)), TrainingHistory::Change::Appended);
    const auto change = history.add(middleStage(microBatches, uptime, samples, 3.8, pid));
    QCOMPARE(change == TrainingHistory::Change::Restarted, restarted);
    QCOMPARE(history.loss().size(), restarted ? 1 : 3);
    QCOMPARE(history.restarts(), restarted ? 1 : 0);
  }

  void historyMovesToAnotherStage() {
    TrainingHistory history;
    history.add(middleStage(10, 10, 160, 4.0));
    auto moved = middleStage(12, 11, 192, 4.1);
    moved.mutable_stage()->set_stage(2);
    moved.mutable_stage()->set_first_block(6);
    QCOMPARE(history.add(moved), TrainingHistory::Change::Restarted);
  }

  // Before the first gradient comes back the node reports no loss (0): no point, so the
  // moving average starts at the first real loss.
  void historyWaitsForTheFirstLoss() {
    TrainingHistory history;
    QCOMPARE(history.add(middleStage(2, 1, 32, 0.0)), TrainingHistory::Change::None);
    QCOMPARE(history.add(middleStage(4, 2, 64, 5.5)), TrainingHistory::Change::Appended);
    QCOMPARE(history.loss().size(), 1);
    QCOMPARE(history.averageLoss().front().y(), 5.5);
  }

  void historyIsBounded() {
    TrainingHistory history(50);
    for (int i = 1; i <= 200; ++i) history.add(middleStage(i, i, 16u * i, 5.0 / i));
    QCOMPARE(history.loss().size(), 50);
    QCOMPARE(history.averageLoss().size(), 50);
    QCOMPARE(history.loss().front().x(), 151.0);
    QCOMPARE(history.loss().back().x(), 200.0);
  }

  void averageFollowsTheLoss() {
    TrainingHistory history;
    history.add(middleStage(1, 1, 16, 4.0));
    history.add(middleStage(2, 2, 32, 2.0));
    QCOMPARE(history.averageLoss().front().y(), 4.0);
    QCOMPARE(history.averageLoss().back().y(), 4.0 + TrainingHistory::kSmoothing * (2.0 - 4.0));
  }

  void theRunsModelIsShownWithItsHeldOutLoss() {
    auto s = middleStage(40, 60, 640, 3.0);
    auto* run = s.mutable_run();
    run->set_pipelines(1);
    run->add_nodes()->set_key("k");
    const std::int64_t t0 = QDateTime::currentMSecsSinceEpoch() - 10 * 60000;
    for (int i = 0; i < 20; ++i) {
      auto* p = run->add_loss();
      p->set_unix_ms(t0 + i * 30000);
      p->set_loss(5.5 - 0.1 * i);
    }
    for (int i = 0; i < 4; ++i) {
      auto* p = run->add_validation();
      p->set_unix_ms(t0 + 60000 + i * 120000);
      p->set_loss(5.2 - 0.3 * i);
    }
    auto* e = run->mutable_evaluation();
    e->set_snapshot(7);
    e->set_validation_loss(4.3);
    e->set_held_out_samples(256);
    e->set_prompt("A <b>bold</b> claim:");
    e->set_text(" the rook\nflies <script>");
    auto* a = run->mutable_archive();
    a->set_latest_snapshot(7);
    a->set_latest_unix_ms(QDateTime::currentMSecsSinceEpoch() - 90000);
    auto* r = a->add_restorations();
    r->set_unix_ms(QDateTime::currentMSecsSinceEpoch() - 120000);
    r->set_first_block(2);
    r->set_last_block(4);
    r->set_snapshot(5);

    SwarmCard swarm;
    swarm.resize(440, 700);
    swarm.show();
    swarm.showSnapshot(s);
    QCOMPARE(swarm.runLossSeries()->count(), 20);
    QCOMPARE(swarm.validationSeries()->count(), 4);
    QCOMPARE(swarm.validationSeries()->at(0), QPointF(1, 5.2));  // minutes from the first point
    QVERIFY(swarm.runLossView()->accessibleDescription().contains(
        QStringLiteral("held-out loss is 4.300")));
    QVERIFY2(valueOf(swarm, "runLoss").contains(QStringLiteral("held-out 4.300")),
             qPrintable(valueOf(swarm, "runLoss")));
    const QString archive = valueOf(swarm, "runArchive");
    QVERIFY2(archive.startsWith(QStringLiteral("snapshot 7, 1 min")) &&
                 archive.contains(QStringLiteral("blocks 2–3 restored from snapshot 5")),
             qPrintable(archive));

    TrainingCard training;
    training.resize(440, 600);
    training.show();
    training.showSnapshot(s);
    const QString sample = training.sampleText();
    QVERIFY2(sample.contains(QStringLiteral("snapshot 7, held-out loss 4.300")), qPrintable(sample));
    // Rich text, the model's words escaped: a tag it writes is shown, never obeyed.
    QVERIFY2(sample.contains(QStringLiteral("<b>A &lt;b&gt;bold&lt;/b&gt; claim:</b> the rook<br>"
                                            "flies &lt;script&gt;")),
             qPrintable(sample));

    // A classifier's predictions instead of text.
    e->clear_prompt();
    e->clear_text();
    e->set_accuracy(0.75);
    for (const auto& [label, predicted] : {std::pair{3, 3}, {1, 1}, {7, 2}, {0, 0}}) {
      auto* p = e->add_predictions();
      p->set_label(label);
      p->set_predicted(predicted);
    }
    training.showSnapshot(s);
    QVERIFY2(training.sampleText().contains(QStringLiteral("accuracy 75 %")) &&
                 training.sampleText().contains(QStringLiteral("3 of 4 held-out images right")) &&
                 training.sampleText().contains(QStringLiteral("<s>7 as 2</s>")),
             qPrintable(training.sampleText()));
    // Without an evaluation there is nothing to show.
    s.mutable_run()->clear_evaluation();
    training.showSnapshot(s);
    QVERIFY(training.sampleText().isEmpty());
  }

  void rateCoversTheLastSeconds() {
    TrainingHistory history;
    QCOMPARE(history.samplesPerSecond(), 0.0);
    // 10 samples/s for 30 s, then paused: after a window the rate is 0.
    for (int t = 0; t <= 30; ++t) history.add(middleStage(t, t, 10u * t, 3.0));
    QCOMPARE(history.samplesPerSecond(), 10.0);
    for (int t = 31; t <= 45; ++t) history.add(middleStage(30, t, 300, 3.0));
    QCOMPARE(history.samplesPerSecond(), 0.0);
    history.add(middleStage(31, 46, 320, 3.0));
    QVERIFY(history.samplesPerSecond() > 0);
    QVERIFY(history.samplesPerSecond() < 3.0);
  }
};

QTEST_MAIN(TestSwarmTrainingCards)
#include "test_swarm_training_cards.moc"
