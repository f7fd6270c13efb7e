// A volunteer at home joins a coordinator on the internet with no address to type: behind a
// router with UPnP it is reached through the router's mapping (and the mapping is gone when it
// stops); behind a router without port mapping the coordinator finds that nobody can dial it:
// it dials its neighbours itself (connection reversal), or, when it will not, is carried by
// the relay on the job owner's host (with no relay either, it is told it is unreachable), and
// the node's snapshot says so. Real processes in network namespaces
// (home_router_lab.sh), a real miniupnpd.
#include <QtTest>

#include "reach/lab.hpp"
#include "reach/node_snapshot.hpp"
#include "support/processes.hpp"

namespace pb = rookery::wire::pb;

using rookery::testing::kHomeRouterLab;
using rookery::testing::run_command;

class TestReachHomeRouter : public QObject {
  Q_OBJECT

  QString tag_ = QStringLiteral("rq%1").arg(QCoreApplication::applicationPid() % 100000);
  QTemporaryDir dir_;

  QString routerRules() { return rookery::testing::router_rules(tag_); }

  // The coordinator on the internet side, a volunteer in the home; returns the volunteer's
  // snapshot once the coordinator has said how it is reached.
  pb::NodeSnapshot joinFromHome(QProcess& coordinator, QProcess& node, const QString& name,
                                pb::ReachWay until, const QStringList& coordinator_args = {},
                                const QStringList& node_args = {}) {
    const QString ready = dir_.filePath(name + ".ready");
    coordinator.setProcessChannelMode(QProcess::ForwardedChannels);
    coordinator.start(
        "ip",
        QStringList{"netns", "exec", tag_ + "i", ROOKERY_BINARY_DIR "/app/rookery-coordinator",
                    "--bind", "tcp://198.20.0.1:0", "--data-dir", dir_.filePath(name + "-c"),
                    "--ready-file", ready, "--job",
                    ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json", "--open"} +
            coordinator_args);
    const auto address = rookery::testing::wait_for_coordinator_ready(ready, 20000, &coordinator);
    if (!address) return {};
    const QString run_dir = dir_.filePath(name + "-n/run");
    node.setProcessChannelMode(QProcess::ForwardedChannels);
    node.start(
        "ip",
        QStringList{"netns", "exec", tag_ + "h", ROOKERY_BINARY_DIR "/app/rookery-node",
                    "--data-dir", dir_.filePath(name + "-n"), "--runtime-dir", run_dir, "--join",
                    "demo-bytes-gpt", "--coordinator", address->endpoint, "--coordinator-key",
                    address->key, "--contribute", "--threads", "1", "--benchmark-seconds", "0.05"} +
            node_args);
    rookery::control::ControlClient client(
        rookery::control::ControlEndpoints::in(run_dir.toStdString()));
    pb::NodeSnapshot snapshot;
    (void)QTest::qWaitFor(
        [&] {
          const auto a = client.status();
          if (a.ok) snapshot = a.snapshot;
          return a.ok && snapshot.reach().way() == until;
        },
        60000);
    return snapshot;
  }

  pb::NodeSnapshot snapshotOf(const QString& name) {
    return rookery::testing::node_snapshot(dir_.filePath(name + "-n/run"));
  }

 private Q_SLOTS:
  void cleanup() { run_command({kHomeRouterLab, "down", tag_}); }

  void reachedThroughTheRoutersMapping() {
    const int rc = run_command({kHomeRouterLab, "up", tag_, "upnp"});
    if (rc == 77) QSKIP("needs root, ip, nft and miniupnpd (scripts/install-deps.sh)");
    QCOMPARE(rc, 0);
    QProcess coordinator, node;
    const auto s = joinFromHome(coordinator, node, "upnp", pb::REACH_ROUTER_MAPPING);
    QCOMPARE(pb::ReachWay_Name(s.reach().way()), std::string("REACH_ROUTER_MAPPING"));
    QVERIFY2(QString::fromStdString(s.reach().endpoint()).startsWith("tcp://198.20.0.2:"),
             s.reach().endpoint().c_str());
    QCOMPARE(s.reach().mapping_protocol(), std::string("UPnP IGD"));
    QCOMPARE(s.reach().observed_address(), std::string("198.20.0.2"));
    QVERIFY2(routerRules().contains("192.168.77.10"), qPrintable(routerRules()));
    rookery::testing::stop_process(node);
    // The node removed its mappings on its way out.
    QTRY_VERIFY_WITH_TIMEOUT(!routerRules().contains("192.168.77.10"), 5000);
    rookery::testing::stop_process(coordinator);
  }

  void behindAPlainRouterItDialsItsNeighbours() {
    const int rc = run_command({kHomeRouterLab, "up", tag_, "none"});
    if (rc == 77) QSKIP("needs root, ip, nft and miniupnpd (scripts/install-deps.sh)");
    QCOMPARE(rc, 0);
    QProcess coordinator, node;
    const auto s = joinFromHome(coordinator, node, "reversed", pb::REACH_REVERSED);
    QCOMPARE(pb::ReachWay_Name(s.reach().way()), std::string("REACH_REVERSED"));
    QCOMPARE(s.reach().observed_address(), std::string("198.20.0.2"));
    QVERIFY(s.reach().relay().empty());
    // Alone in its swarm it links with nobody, so it is seated: nobody needs to dial it.
    QTRY_VERIFY_WITH_TIMEOUT(snapshotOf("reversed").has_stage(), 30000);
    rookery::testing::stop_process(node);
    rookery::testing::stop_process(coordinator);
  }

  void behindAPlainRouterWithoutReversalItIsRelayed() {
    const int rc = run_command({kHomeRouterLab, "up", tag_, "none"});
    if (rc == 77) QSKIP("needs root, ip, nft and miniupnpd (scripts/install-deps.sh)");
    QCOMPARE(rc, 0);
    QProcess coordinator, node;
    const auto s =
        joinFromHome(coordinator, node, "relayed", pb::REACH_RELAYED, {}, {"--no-reversal"});
    QCOMPARE(pb::ReachWay_Name(s.reach().way()), std::string("REACH_RELAYED"));
    // Peers dial the relay on the owner's host, which the coordinator dialled through to the
    // node's own key.
    QVERIFY2(QString::fromStdString(s.reach().endpoint()).startsWith("tcp://198.20.0.1:"),
             s.reach().endpoint().c_str());
    QCOMPARE(s.reach().relay(), std::string("198.20.0.1"));
    QCOMPARE(s.reach().observed_address(), std::string("198.20.0.2"));
    rookery::testing::stop_process(node);
    rookery::testing::stop_process(coordinator);
  }

  void aRouterWithoutMappingReversalOrRelayLeavesItUnreachable() {
    const int rc = run_command({kHomeRouterLab, "up", tag_, "none"});
    if (rc == 77) QSKIP("needs root, ip, nft and miniupnpd (scripts/install-deps.sh)");
    QCOMPARE(rc, 0);
    QProcess coordinator, node;
    const auto s = joinFromHome(coordinator, node, "plain", pb::REACH_UNREACHABLE, {"--no-relay"},
                                {"--no-reversal"});
    QCOMPARE(pb::ReachWay_Name(s.reach().way()), std::string("REACH_UNREACHABLE"));
    QCOMPARE(s.reach().observed_address(), std::string("198.20.0.2"));
    QVERIFY2(QString::fromStdString(s.reach().mapping_error()).contains("UPnP"),
             s.reach().mapping_error().c_str());
    // Not planned: seated, it would stall its pipeline. The window is told why.
    QTRY_COMPARE_WITH_TIMEOUT(snapshotOf("plain").coordinator().why().detail().code(),
                              pb::VERDICT_UNREACHABLE, 10000);
    rookery::testing::stop_process(node);
    rookery::testing::stop_process(coordinator);
  }
};

QTEST_GUILESS_MAIN(TestReachHomeRouter)
#include "test_reach_home_router.moc"
