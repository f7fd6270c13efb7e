// NodeLauncher with a real rookery-node: it starts one when none runs, never a second one
// while one answers, starts it again after it was killed, and the connection follows a node
// restarted by someone else.
#include <QSignalSpy>
#include <QTest>

#include <memory>

#include "gui_test_node.hpp"
#include "ui/node_connection.hpp"
#include "ui/node_launcher.hpp"
#include "ui/settings_dialog.hpp"

using namespace rookery;
using namespace rookery::gui_test;

class TestNodeLauncher : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void argumentsFromTheEnvironment_data();
  void argumentsFromTheEnvironment();
  void aHostFromSettingsReplacesTheOldOne();
  void startsANodeWhenNoneRuns();
  void startsNoSecondNodeWhileOneAnswers();
  void startsTheNodeAgainAfterItWasKilled();
  void followsANodeRestartedElsewhere();
  void cleanupTestCase();

 private:
  QTemporaryDir dir_;
  std::filesystem::path runtime_dir_;
  std::unique_ptr<ui::NodeConnection> connection_;
  std::unique_ptr<ui::NodeLauncher> launcher_;
  std::unique_ptr<TestNode> external_;
  QList<qint64> launched_pids_;
};

void TestNodeLauncher::argumentsFromTheEnvironment_data() {
  QTest::addColumn<QString>("nodeArgs");
  QTest::addColumn<QString>("dataDir");
  QTest::addColumn<QString>("host");
  QTest::addColumn<QStringList>("expected");
  QTest::newRow("nothing") << ""
                           << ""
                           << "" << QStringList{};
  QTest::newRow("data dir only") << ""
                                 << "/d"
                                 << "" << QStringList{"--data-dir", "/d"};
  QTest::newRow("stage, quoted path")
      << "--plan '/my plans/p.json' --stage 0"
      << "/d"
      << "" << QStringList{"--plan", "/my plans/p.json", "--stage", "0", "--data-dir", "/d"};
  QTest::newRow("double quotes, escapes")
      << R"(--plan "/a \"b\"/p.json" --stage\ x '' --n)"
      << ""
      << "" << QStringList{"--plan", R"(/a "b"/p.json)", "--stage x", "", "--n"};
  QTest::newRow("data dir given twice: the arguments win")
      << "--data-dir /a --stage 1"
      << "/d"
      << "" << QStringList{"--data-dir", "/a", "--stage", "1"};
  QTest::newRow("--data-dir=") << "--data-dir=/a"
                               << "/d"
                               << "" << QStringList{"--data-dir=/a"};
  QTest::newRow("the host Settings keep")
      << "--join j"
      << "/d"
      << "203.0.113.7" << QStringList{"--join", "j", "--data-dir", "/d", "--host", "203.0.113.7"};
  QTest::newRow("a host in the arguments wins")
      << "--host=198.51.100.1"
      << ""
      << "203.0.113.7" << QStringList{"--host=198.51.100.1"};
}

void TestNodeLauncher::argumentsFromTheEnvironment() {
  QFETCH(QString, nodeArgs);
  QFETCH(QString, dataDir);
  QFETCH(QString, host);
  QFETCH(QStringList, expected);
  QCOMPARE(ui::NodeLauncher::argumentsFrom(nodeArgs, dataDir, host), expected);
}

// Settings' host replaces the one in the arguments, and an empty one removes it.
void TestNodeLauncher::aHostFromSettingsReplacesTheOldOne() {
  const QStringList args{"--join", "j", "--host", "203.0.113.7", "--data-dir", "/d"};
  QCOMPARE(ui::NodeLauncher::withHost(args, "2001:db8::7"),
           (QStringList{"--join", "j", "--data-dir", "/d", "--host", "2001:db8::7"}));
  QCOMPARE(ui::NodeLauncher::withHost(args, ""), (QStringList{"--join", "j", "--data-dir", "/d"}));
  QVERIFY(ui::SettingsDialog::isHostAddress("203.0.113.7"));
  QVERIFY(ui::SettingsDialog::isHostAddress("2001:db8::7"));
  QVERIFY(ui::SettingsDialog::isHostAddress("volunteer-7.example.org"));
  QVERIFY(!ui::SettingsDialog::isHostAddress("not a host!"));
  QVERIFY(!ui::SettingsDialog::isHostAddress("tcp://203.0.113.7:7000"));
  QVERIFY(!ui::SettingsDialog::isHostAddress("-leading.example"));
}

void TestNodeLauncher::initTestCase() {
  QVERIFY(dir_.isValid());
  runtime_dir_ = runtimeDirIn(dir_);
  ui::NodeConnection::Timing timing;
  timing.liveness_interval = std::chrono::milliseconds(400);
  connection_ = std::make_unique<ui::NodeConnection>(runtime_dir_, timing);
  ui::NodeLauncher::Options options;  // the program comes from $ROOKERY_NODE_BIN
  options.extra_arguments = fastNodeArguments(dir_);
  launcher_ = std::make_unique<ui::NodeLauncher>(*connection_, options);
  QCOMPARE(launcher_->program(), nodeProgram());
  connect(launcher_.get(), &ui::NodeLauncher::launched, this,
          [this](qint64 pid) { launched_pids_ << pid; });
  connection_->start();
}

void TestNodeLauncher::startsANodeWhenNoneRuns() {
  QVERIFY(!connection_->isConnected());
  QVERIFY(!askNode(runtime_dir_).ok);
  QVERIFY(launcher_->ensureRunning());
  QCOMPARE(launcher_->launches(), 1);
  QTRY_VERIFY_WITH_TIMEOUT(connection_->isConnected(), 15000);
  QCOMPARE(connection_->nodePid(), launcher_->lastLaunchedPid());
  const auto a = askNode(runtime_dir_);
  QVERIFY(a.ok);
  QCOMPARE(a.snapshot.pid(), launcher_->lastLaunchedPid());
}

void TestNodeLauncher::startsNoSecondNodeWhileOneAnswers() {
  QVERIFY(launcher_->ensureRunning());
  QVERIFY(launcher_->ensureRunning(/*contribute=*/true));  // asks the running node instead
  QCOMPARE(launcher_->launches(), 1);
  QCOMPARE(askNode(runtime_dir_).snapshot.pid(), launcher_->lastLaunchedPid());
  QTRY_COMPARE_WITH_TIMEOUT(askNode(runtime_dir_).snapshot.state(), pb::CONTRIBUTING, 15000);
}

void TestNodeLauncher::startsTheNodeAgainAfterItWasKilled() {
  const qint64 first = connection_->nodePid();
  QSignalSpy restarted(connection_.get(), &ui::NodeConnection::nodeRestarted);
  QSignalSpy lost(connection_.get(), &ui::NodeConnection::connectionChanged);
  QCOMPARE(::kill(static_cast<pid_t>(first), SIGKILL), 0);
  QTRY_VERIFY_WITH_TIMEOUT(!lost.isEmpty() && !lost.first().first().toBool(), 10000);
  QTRY_VERIFY_WITH_TIMEOUT(connection_->isConnected() && connection_->nodePid() != first, 20000);
  QCOMPARE(launcher_->launches(), 2);
  QCOMPARE(connection_->nodePid(), launcher_->lastLaunchedPid());
  QCOMPARE(restarted.count(), 1);
  QCOMPARE(restarted.first().at(0).toLongLong(), first);
  QCOMPARE(restarted.first().at(1).toLongLong(), connection_->nodePid());
  // Events flow from the new node without being asked.
  QSignalSpy snapshots(connection_.get(), &ui::NodeConnection::snapshotChanged);
  QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() >= 3, 5000);
}

void TestNodeLauncher::followsANodeRestartedElsewhere() {
  // A clean stop (another client's Quit) is not a crash: the launcher leaves it stopped...
  const qint64 second = connection_->nodePid();
  QSignalSpy shutdown(connection_.get(), &ui::NodeConnection::nodeShutdown);
  stopNode(runtime_dir_, second);
  QTRY_VERIFY_WITH_TIMEOUT(!connection_->isConnected(), 10000);
  // ...and when someone else starts one, the connection follows it.
  external_ = std::make_unique<TestNode>();
  QVERIFY(external_->start(dir_));
  QTRY_VERIFY_WITH_TIMEOUT(connection_->isConnected(), 15000);
  QCOMPARE(connection_->nodePid(), external_->pid());
  QCOMPARE(launcher_->launches(), 2);  // the external node runs, so the launcher started none
  QVERIFY(launcher_->ensureRunning());
  QCOMPARE(launcher_->launches(), 2);
  QCOMPARE(external_->process().state(), QProcess::Running);
}

void TestNodeLauncher::cleanupTestCase() {
  if (external_) {
    stopNode(runtime_dir_, external_->pid());
    external_->process().waitForFinished(10000);
  }
  if (launcher_) launcher_->stopKeepingAlive();
  for (qint64 pid : launched_pids_) stopNode(runtime_dir_, pid);
  launcher_.reset();
  connection_.reset();
}

QTEST_MAIN(TestNodeLauncher)
#include "test_node_launcher.moc"
