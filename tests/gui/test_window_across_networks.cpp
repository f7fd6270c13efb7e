// The window on a host of its own on the internet joins a swarm from an invite link, with
// nothing to type, in the small internet of home_router_lab.sh: the coordinator (with its
// relay) and a public volunteer beside it, a volunteer at home behind a router that runs miniupnpd, and one behind a second
// home's router that maps nothing; the window's node runs on the public host (its program
// started in that network namespace; the window speaks to it over its control socket as
// always). The window probes the coordinator through its node, joins, says how its PC is
// reached, and every volunteer is seated and trains: the first home one through its router's
// mapping, the second by connection reversal (it dials its neighbours, which need no relay);
// the loss falls.
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <tuple>

#include "gui_test_node.hpp"
#include "reach/lab.hpp"
#include "reach/node_snapshot.hpp"
#include "support/processes.hpp"
#include "ui/cards/swarm_card.hpp"
#include "ui/first_run_dialog.hpp"
#include "ui/first_run_probe.hpp"
#include "ui/invite_link.hpp"
#include "ui/join_offer.hpp"
#include "ui/main_window.hpp"
#include "ui/node_connection.hpp"
#include "ui/node_launcher.hpp"
#include "ui/reasons.hpp"

using namespace rookery::ui;
using namespace rookery::gui_test;
using rookery::testing::kHomeRouterLab;
using rookery::testing::run_command;

class TestWindowAcrossNetworks : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString tag_ = QStringLiteral("rw%1").arg(QCoreApplication::applicationPid() % 100000);
  QProcess coordinator_, home_, upnp_home_, public_;

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    useTestSettings(dir_, QStringLiteral("RookeryAcrossNetworks"));
  }

  void cleanupTestCase() {
    rookery::testing::stop_process(home_);
    rookery::testing::stop_process(upnp_home_);
    rookery::testing::stop_process(public_);
    rookery::testing::stop_process(coordinator_);
    run_command({kHomeRouterLab, "down", tag_});
  }

  void joinsFromAnInviteLinkOnAnotherNetwork() {
    const int rc = run_command({kHomeRouterLab, "up", tag_, "upnp", "", "none"});
    if (rc == 77) QSKIP("needs root, ip, nft and miniupnpd (scripts/install-deps.sh)");
    QCOMPARE(rc, 0);
    // The job owner's host, a volunteer at home behind UPnP, and one that nobody can dial.
    const QString ready = dir_.filePath(QStringLiteral("coordinator.ready"));
    coordinator_.setProcessChannelMode(QProcess::ForwardedChannels);
    coordinator_.start(
        "ip", {"netns", "exec", tag_ + "i", ROOKERY_BINARY_DIR "/app/rookery-coordinator", "--bind",
               "tcp://198.20.0.1:0", "--data-dir", dir_.filePath("coordinator"), "--ready-file",
               ready, "--job", ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json", "--open",
               "--heartbeat-ms", "250"});
    const auto address = rookery::testing::wait_for_coordinator_ready(ready, 20000, &coordinator_);
    QVERIFY(address);
    for (auto [p, ns, name] : {std::tuple{&home_, tag_ + "t", QStringLiteral("home")},
                               std::tuple{&upnp_home_, tag_ + "h", QStringLiteral("upnp-home")},
                               std::tuple{&public_, tag_ + "i", QStringLiteral("public")}}) {
      p->setProcessChannelMode(QProcess::ForwardedChannels);
      p->start("ip",
               {"netns", "exec", ns, ROOKERY_BINARY_DIR "/app/rookery-node", "--data-dir",
                dir_.filePath(name), "--runtime-dir", dir_.filePath(name + "/run"), "--join",
                "demo-bytes-gpt", "--coordinator", address->endpoint, "--coordinator-key",
                address->key, "--contribute", "--threads", "1", "--benchmark-seconds", "0.05"});
    }

    // The window's PC is the public host: its node program runs in that namespace.
    const QString program = dir_.filePath(QStringLiteral("rookery-node-on-public-host"));
    {
      QFile f(program);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QStringLiteral("#!/bin/sh\nexec ip netns exec %1p %2 \"$@\"\n")
                  .arg(tag_, QStringLiteral(ROOKERY_BINARY_DIR "/app/rookery-node"))
                  .toUtf8());
      f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    qputenv("ROOKERY_NODE_BIN", program.toUtf8());
    const auto runtime = runtimeDirIn(dir_);
    NodeConnection::Timing timing;
    timing.liveness_interval = std::chrono::milliseconds(400);
    NodeConnection node(runtime, timing);
    NodeLauncher::Options options;  // the program comes from $ROOKERY_NODE_BIN
    options.extra_arguments = fastNodeArguments(dir_);
    NodeLauncher launcher(node, options);
    node.start();
    MainWindow window(node, &launcher);
    window.show();
    QVERIFY(launcher.ensureRunning());
    QVERIFY(QTest::qWaitFor([&] { return node.isConnected(); }, 20000));

    // The invite link, clicked: probed through the node, joined, and contributing.
    JoinOffer::Options o;
    o.probe = [program, d = std::filesystem::path(dir_.filePath("data").toStdString())](
                  const InviteLink& l) { return CoordinatorProbe::runAsNode(l, program, d); };
    o.base_arguments = launcher.extraArguments();
    JoinOffer offer(node, launcher, o, &window);
    QSignalSpy joined(&offer, &JoinOffer::joined);
    const InviteLink invite(address->endpoint, address->key, QStringLiteral("demo-bytes-gpt"));
    offer.offer(invite.toString());
    QVERIFY(offer.dialog() && offer.dialog()->isVisible());
    QVERIFY(QTest::qWaitFor([&] { return offer.dialog()->joinButton()->isEnabled(); }, 20000));
    offer.dialog()->joinButton()->click();
    QVERIFY(QTest::qWaitFor([&] { return joined.count() == 1; }, 30000));

    // Reached straight at the public host's address, seated, training; the window says so.
    pb::NodeSnapshot s;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   const auto a = askNode(runtime);
                   if (a.ok) s = a.snapshot;
                   return a.ok && s.reach().way() == pb::REACH_DIRECT && s.has_stage() &&
                          s.work().samples() > 0;
                 },
                 90000),
             s.coordinator().status().c_str());
    QVERIFY2(QString::fromStdString(s.reach().endpoint()).startsWith("tcp://198.21.0.2:"),
             s.reach().endpoint().c_str());
    auto* reached = window.findChild<QLabel*>(QStringLiteral("reachedAs"));
    QVERIFY(reached);
    QVERIFY(QTest::qWaitFor([&] { return reached->text().contains(QStringLiteral("198.21.0.2")); },
                            10000));
    QCOMPARE(reached->text(), Reasons::reach(node.snapshot().reach()));
    QVERIFY(reached->isVisibleTo(&window));
    // What the window shows of its contribution follows (its snapshots come every 200 ms).
    QVERIFY(QTest::qWaitFor([&] { return node.snapshot().work().samples() > 0; }, 10000));
    QTest::qWait(1000);
    if (const QString shots = qEnvironmentVariable("ROOKERY_GUI_SCREENSHOTS"); !shots.isEmpty())
      window.grab().save(QDir(shots).filePath(QStringLiteral("window-across-networks.png")));

    // The volunteer behind the UPnP router is reached through its mapping; the one behind the
    // plain router dials its neighbours itself (the window's node among them): no relay.
    pb::NodeSnapshot home;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   home = rookery::testing::node_snapshot(dir_.filePath("upnp-home/run"));
                   return home.reach().way() == pb::REACH_ROUTER_MAPPING && home.has_stage() &&
                          home.work().samples() > 0;
                 },
                 60000),
             home.coordinator().status().c_str());
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   home = rookery::testing::node_snapshot(dir_.filePath("home/run"));
                   return home.reach().way() == pb::REACH_REVERSED && home.has_stage() &&
                          home.reach().reversal_links() >= 1 && home.work().samples() > 0;
                 },
                 60000),
             home.coordinator().status().c_str());
    QVERIFY(home.reach().relay().empty());
    QCOMPARE(home.reach().observed_address(), std::string("198.22.0.2"));
    pb::NodeSnapshot beside;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   beside = rookery::testing::node_snapshot(dir_.filePath("public/run"));
                   return beside.reach().way() == pb::REACH_DIRECT && beside.has_stage() &&
                          beside.work().samples() > 0;
                 },
                 60000),
             beside.coordinator().status().c_str());

    // The run's loss falls, as the coordinator keeps it.
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   const auto a = askNode(runtime);
                   return a.ok && rookery::testing::loss_fell(a.snapshot.run());
                 },
                 120000),
             "the run's loss did not fall");
    stopNode(runtime, askNode(runtime).snapshot.pid());
  }
};

QTEST_MAIN(TestWindowAcrossNetworks)
#include "test_window_across_networks.moc"
