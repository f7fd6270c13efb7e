// The swarm and training cards against a real pipeline: two rookery-node processes on
// loopback train the demo job, the main window follows stage 0. The swarm card shows the
// stage, the blocks and the next neighbour the node reports; once the window's Contribute
// button starts stage 0, the training card's loss curve gains points equal to the node's
// reported losses and the samples rise.
#include <QApplication>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTest>

#include <memory>

#include "gui_test_node.hpp"
#include "ui/cards/swarm_card.hpp"
#include "ui/cards/training_card.hpp"
#include "ui/format.hpp"
#include "ui/main_window.hpp"
#include "ui/node_connection.hpp"
#include "ui/widgets/contribute_button.hpp"
#include "ui/widgets/pipeline_diagram.hpp"

using namespace rookery;
using namespace rookery::gui_test;

namespace {
QString valueOf(const QWidget& card, const char* name) {
  auto* label = card.findChild<QLabel*>(QString::fromLatin1(name));
  return label && label->isVisibleTo(&card) ? label->text() : QString();
}
}  // namespace

class TestSwarmTraining : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void swarmCardShowsTheNodesStage();
  void trainingCardFollowsTheLossWhileContributing();
  void pausingStopsTheSamples();
  void keyboardReachesTheDiagramAndTheChart();
  void cleanupTestCase();

 private:
  pb::NodeSnapshot stageZeroSays() { return askNode(pipeline_.runtimeDir(0)).snapshot; }
  void saveScreenshots(const QString& name);

  QTemporaryDir dir_;
  TestPipeline pipeline_;
  std::unique_ptr<ui::NodeConnection> connection_;
  std::unique_ptr<ui::MainWindow> window_;
};

void TestSwarmTraining::saveScreenshots(const QString& name) {
  const QString dir = qEnvironmentVariable("ROOKERY_GUI_SCREENSHOTS");
  if (!dir.isEmpty()) window_->grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

void TestSwarmTraining::initTestCase() {
  QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
  QVERIFY(dir_.isValid());
  QVERIFY2(pipeline_.start(dir_, 2), qPrintable(nodeProgram()));
  QVERIFY2(pipeline_.waitReady(), qPrintable(pipeline_.log(0) + pipeline_.log(1)));
  QCOMPARE(stageZeroSays().state(), pb::PAUSED);

  ui::NodeConnection::Timing timing;
  timing.liveness_interval = std::chrono::milliseconds(500);
  connection_ = std::make_unique<ui::NodeConnection>(pipeline_.runtimeDir(0), timing);
  window_ = std::make_unique<ui::MainWindow>(*connection_, nullptr);
  connection_->start();
  window_->show();
  QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  QTRY_VERIFY_WITH_TIMEOUT(connection_->isConnected(), 5000);
  QCOMPARE(connection_->nodePid(), pipeline_.process(0).processId());
}

void TestSwarmTraining::swarmCardShowsTheNodesStage() {
  const auto node = stageZeroSays();
  QVERIFY(node.has_stage());
  const auto& st = node.stage();
  // The node reports the plan it was given...
  QCOMPARE(st.stage(), 0u);
  QCOMPARE(st.stage_count(), 2u);
  QCOMPARE(st.first_block(), pipeline_.blocks(0).first);
  QCOMPARE(st.last_block(), pipeline_.blocks(0).second);
  QCOMPARE(st.block_count(), pipeline_.blockCount());
  QCOMPARE(QString::fromStdString(st.next_endpoint()), pipeline_.endpoint(1));
  // ...and the card shows what the node reports.
  auto* card = window_->swarmCard();
  QTRY_VERIFY_WITH_TIMEOUT(card->inPipeline(), 5000);
  QCOMPARE(card->jobText(), QString::fromStdString(st.job_name()));
  const QString blocks =
      ui::Format::blockRange(st.first_block(), st.last_block(), st.block_count());
  QCOMPARE(blocks, QStringLiteral("blocks 0–2 of 6"));
  QCOMPARE(card->positionText(), QStringLiteral("Pipeline 1 · stage 1 of 2 · %1").arg(blocks));
  QCOMPARE(valueOf(*card, "nextStage"), QString::fromStdString(st.next_endpoint()));
  QCOMPARE(valueOf(*card, "previousStage"), QStringLiteral("the dataset (first stage)"));
  const auto shape = card->diagram()->shape();
  QCOMPARE(shape.stage_count, 2);
  QCOMPARE(shape.stage, 0);
  QCOMPARE(shape.first_block, st.first_block());
  QCOMPARE(shape.last_block, st.last_block());
  QVERIFY(!shape.active);
  QVERIFY2(card->diagram()->accessibleDescription().contains(QStringLiteral("stage 1")),
           qPrintable(card->diagram()->accessibleDescription()));

  // Paused and nothing trained yet: no curve, an invitation instead.
  auto* training = window_->trainingCard();
  QVERIFY(!training->chartShown());
  QCOMPARE(training->lossSeries()->count(), 0);
  QVERIFY2(training->emptyMessage().contains(QStringLiteral("Contribute")),
           qPrintable(training->emptyMessage()));
}

void TestSwarmTraining::trainingCardFollowsTheLossWhileContributing() {
  auto* training = window_->trainingCard();
  QTest::mouseClick(window_->contributeButton(), Qt::LeftButton);
  QCOMPARE(stageZeroSays().state(), pb::CONTRIBUTING);
  QTRY_VERIFY_WITH_TIMEOUT(window_->swarmCard()->diagram()->shape().active, 5000);

  // Micro-batches go to stage 1 and their gradients (with the loss) come back.
  QTRY_VERIFY2_WITH_TIMEOUT(training->lossSeries()->count() >= 4,
                            qPrintable(pipeline_.log(0) + pipeline_.log(1)), 60000);
  QVERIFY(training->chartShown());
  QCOMPARE(training->averageSeries()->count(), training->lossSeries()->count());

  // The newest point is what the node reported last: (micro-batches at this stage, loss).
  const pb::NodeSnapshot& shown = connection_->snapshot();
  const QPointF last = training->lossSeries()->at(training->lossSeries()->count() - 1);
  QCOMPARE(last.x(), double(shown.stage().micro_batches()));
  QCOMPARE(last.y(), shown.work().last_loss());
  QVERIFY(last.y() > 0);
  // Points rise in micro-batches, one per snapshot that brought new ones.
  const auto points = training->lossSeries()->points();
  for (int i = 1; i < points.size(); ++i) QVERIFY(points[i].x() > points[i - 1].x());

  // Samples: what the node says, rising; a real sample rate; the optimizer steps.
  const quint64 samples_before = connection_->snapshot().work().samples();
  QVERIFY(samples_before > 0);
  QTRY_VERIFY_WITH_TIMEOUT(connection_->snapshot().work().samples() > samples_before, 20000);
  QTRY_COMPARE_WITH_TIMEOUT(valueOf(*training, "samples"),
                            ui::Format::count(connection_->snapshot().work().samples()), 2000);
  // The rate is taken over the last seconds of snapshots: give it one with new samples.
  QTRY_VERIFY_WITH_TIMEOUT(training->history().samplesPerSecond() > 0, 10000);
  QTRY_VERIFY2_WITH_TIMEOUT(valueOf(*training, "sampleRate").endsWith(QStringLiteral("samples/s")),
                            qPrintable(valueOf(*training, "sampleRate")), 5000);
  QCOMPARE(valueOf(*training, "optimizerSteps"),
           ui::Format::count(quint64(connection_->snapshot().stage().optimizer_steps())));
  QVERIFY(connection_->snapshot().stage().optimizer_steps() > 0);

  // The swarm card's counters follow the node too.
  auto* swarm = window_->swarmCard();
  QTRY_COMPARE_WITH_TIMEOUT(valueOf(*swarm, "bytesSent"),
                            ui::Format::bytes(connection_->snapshot().stage().bytes_sent()), 2000);
  QVERIFY(connection_->snapshot().stage().bytes_sent() > 0);
  saveScreenshots(QStringLiteral("pipeline-contributing"));
}

void TestSwarmTraining::pausingStopsTheSamples() {
  auto* training = window_->trainingCard();
  QTest::mouseClick(window_->contributeButton(), Qt::LeftButton);
  QCOMPARE(stageZeroSays().state(), pb::PAUSED);
  const int points = training->lossSeries()->count();
  // In-flight micro-batches may still come back; after that nothing moves, and the rate
  // falls to nothing over its window.
  QTRY_VERIFY_WITH_TIMEOUT(training->history().samplesPerSecond() == 0, 20000);
  QTRY_COMPARE_WITH_TIMEOUT(valueOf(*training, "sampleRate"), QStringLiteral("idle"), 2000);
  QVERIFY(training->lossSeries()->count() >= points);  // the curve stays
  QVERIFY(training->chartShown());
  QVERIFY(!window_->swarmCard()->diagram()->shape().active);
}

void TestSwarmTraining::keyboardReachesTheDiagramAndTheChart() {
  window_->activateWindow();
  window_->contributeButton()->setFocus(Qt::TabFocusReason);
  QVERIFY(window_->contributeButton()->hasFocus());
  QList<QWidget*> reached;
  for (int i = 0; i < 6 && !reached.contains(window_->contributeButton()); ++i) {
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    reached << QApplication::focusWidget();
  }
  QVERIFY(reached.contains(window_->swarmCard()->diagram()));
  QVERIFY(reached.contains(window_->trainingCard()->chartView()));
  QVERIFY(reached.indexOf(window_->swarmCard()->diagram()) <
          reached.indexOf(window_->trainingCard()->chartView()));
  QVERIFY(!window_->trainingCard()->chartView()->accessibleDescription().isEmpty());
}

void TestSwarmTraining::cleanupTestCase() {
  window_.reset();
  connection_.reset();
  for (int i = 0; i < 2; ++i) stopNode(pipeline_.runtimeDir(i), pipeline_.process(i).processId());
}

QTEST_MAIN(TestSwarmTraining)
#include "test_swarm_training.moc"
