// The main window against a real rookery-node: the device card shows the node's device,
// the Contribute button and the tray menu start and pause the node, Quit stops it.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QMenu>
#include <QSignalSpy>
#include <QTest>

#include <memory>

#include "gui_test_node.hpp"
#include "ui/cards/device_card.hpp"
#include "ui/cards/node_state_card.hpp"
#include "ui/format.hpp"
#include "ui/main_window.hpp"
#include "ui/node_connection.hpp"
#include "ui/theme.hpp"
#include "ui/tray_icon.hpp"
#include "ui/widgets/contribute_button.hpp"

using namespace rookery;
using namespace rookery::gui_test;

class TestMainWindow : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void deviceCardShowsTheNodesDevice();
  void contributeButtonStartsAndPausesTheNode();
  void trayMenuActionsDoWhatTheySay();
  void quitStopsTheNode();
  void cleanupTestCase();

 private:
  pb::NodeSnapshot nodeSays();
  // Waits for `n` more snapshots to reach the window (telemetry every 200 ms).
  bool waitSnapshots(int n);
  // With $ROOKERY_GUI_SCREENSHOTS set to a folder, saves the window in a light and a dark
  // palette there: a quick look at a layout change without a display.
  void saveScreenshots(const QString& name);

  QTemporaryDir dir_;
  TestNode node_;
  std::unique_ptr<ui::NodeConnection> connection_;
  std::unique_ptr<ui::MainWindow> window_;
};

pb::NodeSnapshot TestMainWindow::nodeSays() {
  auto a = askNode(node_.runtimeDir());
  return a.snapshot;
}

bool TestMainWindow::waitSnapshots(int n) {
  QSignalSpy spy(connection_.get(), &ui::NodeConnection::snapshotChanged);
  return QTest::qWaitFor([&] { return spy.count() >= n; }, 10000);
}

void TestMainWindow::saveScreenshots(const QString& name) {
  const QString dir = qEnvironmentVariable("ROOKERY_GUI_SCREENSHOTS");
  if (dir.isEmpty()) return;
  const QPalette light = QApplication::palette();
  const QPalette dark = ui::theme::darkPalette();
  for (const auto& [suffix, palette] :
       {std::pair{QStringLiteral("light"), light}, std::pair{QStringLiteral("dark"), dark}}) {
    QApplication::setPalette(palette);
    QCoreApplication::processEvents();
    window_->grab().save(
        QDir(dir).filePath(name + QLatin1Char('-') + suffix + QStringLiteral(".png")));
  }
  QApplication::setPalette(light);
}

void TestMainWindow::initTestCase() {
  QVERIFY(dir_.isValid());
  QVERIFY2(node_.start(dir_), qPrintable(nodeProgram()));
  QVERIFY(node_.waitReady());
  QCOMPARE(nodeSays().state(), pb::PAUSED);

  ui::NodeConnection::Timing timing;
  timing.liveness_interval = std::chrono::milliseconds(500);
  connection_ = std::make_unique<ui::NodeConnection>(node_.runtimeDir(), timing);
  window_ = std::make_unique<ui::MainWindow>(*connection_, nullptr);
  connection_->start();
  window_->show();
  QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  QTRY_VERIFY_WITH_TIMEOUT(connection_->isConnected(), 5000);
  QCOMPARE(connection_->nodePid(), node_.pid());
}

void TestMainWindow::deviceCardShowsTheNodesDevice() {
  const auto device = nodeSays().device();
  QVERIFY(device.cpu_cores() > 0);
  const QString expected = device.gpus().empty() ? QString::fromStdString(device.cpu_model())
                                                 : QString::fromStdString(device.gpus(0).name());
  QTRY_COMPARE_WITH_TIMEOUT(window_->deviceCard()->deviceName(), expected, 5000);
  const QString shown = window_->deviceCard()->summaryText();
  QVERIFY2(shown.contains(QString::number(device.cpu_cores())), qPrintable(shown));
  if (device.gpus().empty())
    QVERIFY2(shown.contains(ui::Format::blas(device.blas())), qPrintable(shown));
}

void TestMainWindow::contributeButtonStartsAndPausesTheNode() {
  auto* button = window_->contributeButton();
  QTRY_VERIFY(button->isEnabled());
  QCOMPARE(button->action(), ui::ContributeButton::Action::Contribute);
  QCOMPARE(window_->nodeStateCard()->stateText(), QStringLiteral("Paused"));

  const auto units_before = nodeSays().work().work_units();
  QTest::mouseClick(button, Qt::LeftButton);
  // The node itself says it contributes, and the window says so too.
  QCOMPARE(nodeSays().state(), pb::CONTRIBUTING);
  QTRY_COMPARE(window_->nodeStateCard()->stateText(), QStringLiteral("Contributing"));
  QCOMPARE(button->action(), ui::ContributeButton::Action::Pause);
  QCOMPARE(button->text(), QStringLiteral("Pause"));
  QTRY_VERIFY_WITH_TIMEOUT(nodeSays().work().work_units() >= units_before + 2, 15000);
  QTRY_VERIFY_WITH_TIMEOUT(connection_->snapshot().work().work_units() >= units_before + 2, 5000);
  saveScreenshots(QStringLiteral("contributing"));

  QTest::mouseClick(button, Qt::LeftButton);
  QCOMPARE(nodeSays().state(), pb::PAUSED);
  QTRY_COMPARE(window_->nodeStateCard()->stateText(), QStringLiteral("Paused"));
  QCOMPARE(button->action(), ui::ContributeButton::Action::Contribute);
  // The unit in flight may still finish; after that the count stays put.
  const auto units_at_pause = nodeSays().work().work_units();
  QVERIFY(waitSnapshots(5));
  const auto units_later = nodeSays().work().work_units();
  QVERIFY2(units_later <= units_at_pause + 1,
           qPrintable(QStringLiteral("%1 -> %2").arg(units_at_pause).arg(units_later)));
  QVERIFY(waitSnapshots(5));
  QCOMPARE(nodeSays().work().work_units(), units_later);
}

void TestMainWindow::trayMenuActionsDoWhatTheySay() {
  auto* tray = window_->tray();
  QVERIFY(tray->menu());
  QVERIFY(tray->contributeAction());
  QVERIFY(tray->openAction());
  QVERIFY(tray->quitAction());
  QVERIFY(tray->menu()->actions().contains(tray->contributeAction()));
  QVERIFY(tray->menu()->actions().contains(tray->openAction()));
  QVERIFY(tray->menu()->actions().contains(tray->quitAction()));

  QTRY_VERIFY(tray->contributeAction()->isEnabled());
  QCOMPARE(tray->contributeAction()->text(), QStringLiteral("Contribute"));
  tray->contributeAction()->trigger();
  QCOMPARE(nodeSays().state(), pb::CONTRIBUTING);
  QTRY_COMPARE(tray->contributeAction()->text(), QStringLiteral("Pause"));
  QTRY_COMPARE(window_->nodeStateCard()->stateText(), QStringLiteral("Contributing"));

  tray->contributeAction()->trigger();
  QCOMPARE(nodeSays().state(), pb::PAUSED);
  QTRY_COMPARE(tray->contributeAction()->text(), QStringLiteral("Contribute"));

  window_->hide();
  QVERIFY(!window_->isVisible());
  tray->openAction()->trigger();
  QVERIFY(window_->isVisible());
}

void TestMainWindow::quitStopsTheNode() {
  // Contributing when the user quits: the node must still stop cleanly.
  window_->tray()->contributeAction()->trigger();
  QCOMPARE(nodeSays().state(), pb::CONTRIBUTING);
  QSignalSpy finished(window_.get(), &ui::MainWindow::finished);
  window_->tray()->quitAction()->trigger();
  QVERIFY(window_->isQuitting());
  QTRY_VERIFY_WITH_TIMEOUT(node_.process().state() == QProcess::NotRunning, 20000);
  QCOMPARE(node_.process().exitStatus(), QProcess::NormalExit);
  QCOMPARE(node_.process().exitCode(), 0);
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
  QVERIFY(!connection_->isConnected());
  QCOMPARE(window_->nodeStateCard()->stateText(), QStringLiteral("Not running"));
}

void TestMainWindow::cleanupTestCase() {
  window_.reset();
  connection_.reset();
}

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
