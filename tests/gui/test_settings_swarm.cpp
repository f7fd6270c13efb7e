// Settings beyond the governor, with real processes: the window's launcher starts a real
// rookery-node joined to a real coordinator. Settings shows the swarm and the data folder.
// "Leave this job" makes the node finish, tell the coordinator (which plans around it at
// once) and exit; the saved swarm is forgotten and a node without a swarm starts again.
// Another data folder, saved, restarts the node there, and later launches use it. Then an
// invite link handed to the running window (JoinOffer, as a second `rookery rookery://…`
// launch does): the join dialog contacts the coordinator, and the node joins its job.
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "gui_test_node.hpp"
#include "ui/first_run_dialog.hpp"
#include "ui/join_offer.hpp"
#include "ui/main_window.hpp"
#include "ui/node_connection.hpp"
#include "ui/node_launcher.hpp"
#include "ui/settings_dialog.hpp"

using namespace rookery::ui;
using namespace rookery::gui_test;

class TestSettingsSwarm : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    useTestSettings(dir_, QStringLiteral("RookerySettingsSwarm"));
  }

  void leaveTheJobThenMoveTheDataFolder() {
    TestCoordinator coordinator;
    QVERIFY(coordinator.start(dir_));
    const auto runtime = runtimeDirIn(dir_);
    NodeConnection::Timing timing;
    timing.liveness_interval = std::chrono::milliseconds(400);
    NodeConnection node(runtime, timing);
    NodeLauncher::Options options;  // the program comes from $ROOKERY_NODE_BIN
    options.extra_arguments = fastNodeArguments(dir_) + coordinator.joinArguments();
    NodeLauncher launcher(node, options);
    node.start();
    MainWindow window(node, &launcher);
    QSettings settings;
    saveInvite(settings,
               InviteLink(coordinator.endpoint, coordinator.key, QStringLiteral("demo-bytes-gpt")));
    QVERIFY(launcher.ensureRunning());
    pb::NodeSnapshot s;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   const auto a = askNode(runtime);
                   if (a.ok) s = a.snapshot;
                   const auto code = s.coordinator().why().code();
                   return a.ok && code != pb::COORDINATOR_CONNECTING &&
                          code != pb::COORDINATOR_CONNECTED && code != pb::REASON_UNKNOWN &&
                          code != pb::COORDINATOR_UNREACHABLE;
                 },
                 30000),
             s.coordinator().status().c_str());
    // The node names the job it joined from its start, seated or not (the dialog reads it there).
    QCOMPARE(s.coordinator().job_id(), std::string("demo-bytes-gpt"));
    QVERIFY(QTest::qWaitFor([&] { return coordinator.log().contains(QStringLiteral(" joined")); },
                            10000));
    const qint64 first_pid = s.pid();
    QVERIFY(QTest::qWaitFor([&] { return node.isConnected(); }, 5000));

    window.openSettings();
    SettingsDialog* dialog = window.settingsDialog();
    QVERIFY(dialog);
    QVERIFY2(dialog->swarmText().contains(QStringLiteral("demo-bytes-gpt")),
             qPrintable(dialog->swarmText()));
    QVERIFY(dialog->swarmText().contains(coordinator.endpoint));
    QVERIFY(dialog->leaveJobButton()->isEnabled());
    QCOMPARE(dialog->dataFolderEdit()->text(), dir_.filePath(QStringLiteral("data")));

    // Leave: the node tells the coordinator and exits; the window starts one without a swarm.
    QVERIFY(dialog->leaveJob(/*confirm=*/false));
    QVERIFY2(QTest::qWaitFor(
                 [&] { return coordinator.log().contains(QStringLiteral("left the job")); }, 20000),
             qPrintable(coordinator.log()));
    QVERIFY(QTest::qWaitFor([&] { return !processAlive(first_pid); }, 20000));
    QVERIFY(!savedInvite(QSettings()));
    QVERIFY(QTest::qWaitFor(
        [&] {
          const auto a = askNode(runtime);
          if (a.ok) s = a.snapshot;
          return a.ok && s.pid() != first_pid && s.state() != pb::STARTING;
        },
        30000));
    QVERIFY2(s.coordinator().endpoint().empty(), s.coordinator().endpoint().c_str());
    QVERIFY(s.coordinator().job_id().empty());
    QVERIFY(!launcher.extraArguments().contains(QStringLiteral("--join")));
    dialog->close();

    // Another data folder: saved, the node restarts there.
    const qint64 second_pid = s.pid();
    const QString moved = dir_.filePath(QStringLiteral("moved data"));
    window.openSettings();
    dialog = window.settingsDialog();
    QVERIFY(dialog);
    QVERIFY(!dialog->leaveJobButton()->isEnabled());
    dialog->dataFolderEdit()->setText(QStringLiteral("relative/folder"));
    QVERIFY(!dialog->save());  // a full path only
    QVERIFY(dialog->errorText().contains(QStringLiteral("full path")));
    dialog->dataFolderEdit()->setText(moved);
    QVERIFY(dialog->save());
    QVERIFY(QTest::qWaitFor(
        [&] {
          const auto a = askNode(runtime);
          if (a.ok) s = a.snapshot;
          return a.ok && s.pid() != second_pid && s.state() != pb::STARTING;
        },
        30000));
    QCOMPARE(QString::fromStdString(s.data_dir()), moved);
    QVERIFY(QFile::exists(moved + QStringLiteral("/keys")));
    QCOMPARE(NodeLauncher::chosenDataDir(), moved);
    QVERIFY(
        QTest::qWaitFor([&] { return !window.settingsDialog(); }, 5000));  // saved: closed and gone

    // An invite link handed to the running window: joined after the coordinator answered.
    const qint64 third_pid = s.pid();
    JoinOffer::Options o;
    o.probe = [d = std::filesystem::path(moved.toStdString())](const InviteLink& l) {
      return CoordinatorProbe::runAsNode(l, QStringLiteral(ROOKERY_BINARY_DIR "/app/rookery-node"),
                                         d);
    };
    o.base_arguments = launcher.extraArguments();
    JoinOffer offer(node, launcher, o, &window);
    QSignalSpy joined(&offer, &JoinOffer::joined);
    const InviteLink invite(coordinator.endpoint, coordinator.key,
                            QStringLiteral("demo-bytes-gpt"));
    offer.offer(invite.toString());
    QVERIFY(offer.dialog() && offer.dialog()->isVisible());
    QCOMPARE(offer.dialog()->linkEdit()->text(), invite.toString());
    QVERIFY(offer.dialog()->joinButton()->isEnabled());
    offer.dialog()->joinButton()->click();
    QVERIFY(QTest::qWaitFor([&] { return joined.count() == 1; }, 20000));
    QCOMPARE(savedInvite(QSettings()), std::optional<InviteLink>(invite));
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   const auto a = askNode(runtime);
                   if (a.ok) s = a.snapshot;
                   const auto code = s.coordinator().why().code();
                   return a.ok && s.pid() != third_pid && s.state() == pb::CONTRIBUTING &&
                          code != pb::COORDINATOR_CONNECTING && code != pb::COORDINATOR_CONNECTED &&
                          code != pb::REASON_UNKNOWN && code != pb::COORDINATOR_UNREACHABLE;
                 },
                 30000),
             qPrintable(QStringLiteral("pid %1 (before %2), state %3, coordinator %4: %5")
                            .arg(s.pid())
                            .arg(third_pid)
                            .arg(static_cast<int>(s.state()))
                            .arg(static_cast<int>(s.coordinator().why().code()))
                            .arg(QString::fromStdString(s.coordinator().status()))));
    QCOMPARE(QString::fromStdString(s.data_dir()), moved);
    QCOMPARE(QString::fromStdString(s.coordinator().endpoint()), coordinator.endpoint);
    QCOMPARE(s.coordinator().job_id(), std::string("demo-bytes-gpt"));

    // An expert's address: refused when it is none, else saved, and the node restarts to be
    // reached there; cleared, it restarts to find out again.
    QStringList launch_failures;
    connect(&launcher, &NodeLauncher::launchFailed, this,
            [&](const QString& why) { launch_failures << why; });
    const auto restarted = [&](qint64 before) {
      return QTest::qWaitFor(
          [&] {
            const auto a = askNode(runtime);
            if (a.ok) s = a.snapshot;
            return a.ok && s.pid() != before && s.state() == pb::CONTRIBUTING &&
                   s.coordinator().why().code() != pb::REASON_UNKNOWN;
          },
          30000);
    };
    const auto restartReport = [&](qint64 before) {
      return QStringLiteral("pid %1 (before %2), state %3, coordinator %4, launch failures: %5")
          .arg(s.pid())
          .arg(before)
          .arg(static_cast<int>(s.state()))
          .arg(static_cast<int>(s.coordinator().why().code()))
          .arg(launch_failures.join(QStringLiteral("; ")));
    };
    const auto commandLine = [](qint64 pid) {
      QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
      return f.open(QIODevice::ReadOnly) ? f.readAll().split('\0') : QList<QByteArray>{};
    };
    for (const QString& host : {QStringLiteral("127.0.0.1"), QString()}) {
      const qint64 before = s.pid();
      window.openSettings();
      dialog = window.settingsDialog();
      QVERIFY(dialog);
      QCOMPARE(dialog->reachHostEdit()->text(),
               host.isEmpty() ? QStringLiteral("127.0.0.1") : QString());
      if (!host.isEmpty()) {
        dialog->reachHostEdit()->setText(QStringLiteral("not a host!"));
        QVERIFY(!dialog->save());
        QVERIFY2(dialog->errorText().contains(QStringLiteral("not an address")),
                 qPrintable(dialog->errorText()));
      }
      dialog->reachHostEdit()->setText(host);
      if (const QString shots = qEnvironmentVariable("ROOKERY_GUI_SCREENSHOTS"); !shots.isEmpty())
        dialog->grab().save(QDir(shots).filePath(QStringLiteral("settings-reached-at.png")));
      QVERIFY(dialog->save());
      QVERIFY2(restarted(before), qPrintable(restartReport(before)));
      QCOMPARE(NodeLauncher::chosenHost(), host);
      const auto args = commandLine(s.pid());
      QCOMPARE(args.contains("--host"), !host.isEmpty());
      if (!host.isEmpty()) QCOMPARE(args.at(args.indexOf("--host") + 1), host.toUtf8());
      QCOMPARE(s.coordinator().job_id(), std::string("demo-bytes-gpt"));  // still in the swarm
      QVERIFY(QTest::qWaitFor([&] { return !window.settingsDialog(); }, 5000));
    }
    stopNode(runtime, s.pid());
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestSettingsSwarm)
#include "test_settings_swarm.moc"
