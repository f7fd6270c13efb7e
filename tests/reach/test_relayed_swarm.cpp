// A small internet in network namespaces (home_router_lab.sh, no port mapping): the coordinator
// and two public volunteers that offer to relay, and a volunteer at home behind a masquerading
// router that nobody can dial and that does not dial its neighbours (--no-reversal; reversal is
// test_reach_internet's). The coordinator has one of the relays carry the home volunteer;
// the swarm trains with the home volunteer seated, its traffic passing the relay (CURVE end to
// end): its ring partners reach its own ring port through it. Killing that relay: the home volunteer is carried by the other and trains again within
// seconds. Real processes over real sockets; the coordinator runs no relay of its own here.
#include <QElapsedTimer>
#include <QtTest>

#include "reach/lab.hpp"
#include "reach/node_snapshot.hpp"
#include "support/processes.hpp"

namespace pb = rookery::wire::pb;

using rookery::testing::kHomeRouterLab;
using rookery::testing::run_command;

class TestRelayedSwarm : public QObject {
  Q_OBJECT

  QString tag_ = QStringLiteral("rs%1").arg(QCoreApplication::applicationPid() % 100000);
  QTemporaryDir dir_;
  QProcess coordinator_;
  std::map<QString, std::unique_ptr<QProcess>> nodes_;

  pb::NodeSnapshot snapshotOf(const QString& name) {
    return rookery::testing::node_snapshot(dir_.filePath(name + "/run"));
  }

  void startNode(const QString& name, const QString& ns, const QString& endpoint,
                 const QString& key, const QStringList& extra = {}) {
    auto p = std::make_unique<QProcess>();
    p->setProcessChannelMode(QProcess::ForwardedChannels);
    p->start("ip", rookery::testing::lab_volunteer(ns, dir_.filePath(name), endpoint, key, extra));
    nodes_[name] = std::move(p);
  }

  // The home volunteer is relayed, seated, and has trained samples past `after`.
  bool homeTrains(std::uint64_t after, pb::NodeSnapshot& s) {
    s = snapshotOf("home");
    return s.reach().way() == pb::REACH_RELAYED && s.has_stage() && s.work().samples() > after;
  }

 private Q_SLOTS:
  void cleanup() {
    for (auto& [name, p] : nodes_) rookery::testing::stop_process(*p);
    nodes_.clear();
    rookery::testing::stop_process(coordinator_);
    run_command({kHomeRouterLab, "down", tag_});
  }

  void aRelayCarriesTheHomeVolunteerAndAnotherTakesOverWhenItDies() {
    const int rc = run_command({kHomeRouterLab, "up", tag_, "none"});
    if (rc == 77) QSKIP("needs root, ip and nft (scripts/install-deps.sh)");
    QCOMPARE(rc, 0);
    const QString ready = dir_.filePath("coordinator.ready");
    coordinator_.setProcessChannelMode(QProcess::ForwardedChannels);
    const QStringList open = {"--open"};  // a job is invite-only unless opened
    coordinator_.start(
        "ip",
        QStringList{
            "netns", "exec", tag_ + "i", ROOKERY_BINARY_DIR "/app/rookery-coordinator", "--bind",
            "tcp://198.20.0.1:0", "--data-dir", dir_.filePath("coordinator"), "--ready-file", ready,
            "--job", ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json", "--no-relay",
            "--heartbeat-ms", "250", "--dead-after-ms", "2000", "--averaging-interval-ms", "1000"} +
            open);
    const auto address = rookery::testing::wait_for_coordinator_ready(ready, 20000, &coordinator_);
    QVERIFY(address);
    const QString endpoint = address->endpoint;
    const QString key = address->key;
    startNode("relay-a", tag_ + "i", endpoint, key, {"--offer-relay"});
    startNode("relay-b", tag_ + "i", endpoint, key, {"--offer-relay"});
    startNode("home", tag_ + "h", endpoint, key, {"--no-reversal"});

    // Carried by one of the relays, and training through it.
    pb::NodeSnapshot home;
    QVERIFY2(QTest::qWaitFor([&] { return homeTrains(0, home); }, 90000),
             home.coordinator().status().c_str());
    QVERIFY2(QString::fromStdString(home.reach().endpoint()).startsWith("tcp://198.20.0.1:"),
             home.reach().endpoint().c_str());
    // Its ring partners reach its own ring port through the relay: it averages with them.
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   home = snapshotOf("home");
                   return home.stage().averaging_rounds() > 0;
                 },
                 30000),
             qPrintable(QStringLiteral("%1 rounds alone, %2 rings")
                            .arg(home.stage().averaging_alone())
                            .arg(home.stage().averaging_rings())));
    QString carrier, other;
    QVERIFY(QTest::qWaitFor(
        [&] {
          for (const QString& name : QStringList{"relay-a", "relay-b"}) {
            const auto r = snapshotOf(name).reach();
            if (r.relays_for() == 1 && r.relayed_bytes() > 0) carrier = name;
          }
          return !carrier.isEmpty();
        },
        20000));
    other = carrier == "relay-a" ? "relay-b" : "relay-a";
    QCOMPARE(snapshotOf(other).reach().relays_for(), std::uint64_t(0));

    // The relay dies without a word: the home volunteer is carried by the other, and trains
    // again (samples counted after the other took it: as a first stage it may still feed a
    // while on its own, since it dials out).
    QElapsedTimer since_kill;
    nodes_[carrier]->kill();
    since_kill.start();
    nodes_[carrier]->waitForFinished(5000);
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   home = snapshotOf("home");
                   return home.reach().way() == pb::REACH_RELAYED &&
                          snapshotOf(other).reach().relays_for() == 1;
                 },
                 60000),
             home.coordinator().status().c_str());
    const auto carried_again = home.work().samples();
    QVERIFY2(QTest::qWaitFor([&] { return homeTrains(carried_again, home); }, 60000),
             home.coordinator().status().c_str());
    const double seconds = since_kill.elapsed() / 1000.0;
    qInfo("the home volunteer trained again %.1f s after its relay was killed", seconds);
    QVERIFY2(seconds < 10, qPrintable(QString("took %1 s").arg(seconds)));
  }
};

QTEST_GUILESS_MAIN(TestRelayedSwarm)
#include "test_relayed_swarm.moc"
