// A small internet in network namespaces (home_router_lab.sh with a second home): the
// coordinator and two public volunteers, a volunteer behind a home router that runs miniupnpd,
// and one behind a second home router that maps nothing. Nobody types an address, and the
// coordinator runs no relay (--no-relay): the first home volunteer is reached through its
// router's mapping, the second by connection reversal (it dials every peer it links with, and
// they reach it back through those connections). Each holds just over half the memory the demo
// model needs, so the four train as pipelines of two that average in rings: every volunteer is
// seated and trains, the reversed one averages with its ring partners, and the loss falls.
// The mapping is gone once its volunteer quits. Then two volunteers behind one router that
// maps nothing, which would link with each other: one is left to a relay, the other dials its
// neighbours, and both train. Real processes, real routers, real miniupnpd.
#include <QtTest>

#include <map>
#include <memory>
#include <optional>

#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"
#include "reach/lab.hpp"
#include "reach/node_snapshot.hpp"
#include "support/processes.hpp"

namespace pb = rookery::wire::pb;

using rookery::testing::kHomeRouterLab;
using rookery::testing::run_command;

namespace {
const QString kJob = QStringLiteral(ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
}

class TestReachInternet : public QObject {
  Q_OBJECT

  QString tag_ = QStringLiteral("ri%1").arg(QCoreApplication::applicationPid() % 100000);
  QTemporaryDir dir_;
  QProcess coordinator_;
  std::map<QString, std::unique_ptr<QProcess>> nodes_;

  pb::NodeSnapshot snapshotOf(const QString& name) {
    return rookery::testing::node_snapshot(dir_.filePath(name + "/run"));
  }

  void startCoordinator(const QStringList& extra) {
    // A coordinator of its own per test: none resumes another's state.
    const QString name = QStringLiteral("coordinator-%1").arg(++coordinators_);
    const QString ready = dir_.filePath(name + ".ready");
    coordinator_.setProcessChannelMode(QProcess::ForwardedChannels);
    coordinator_.start(
        "ip",
        QStringList{"netns", "exec", tag_ + "i", ROOKERY_BINARY_DIR "/app/rookery-coordinator",
                    "--bind", "tcp://198.20.0.1:0", "--data-dir", dir_.filePath(name),
                    "--ready-file", ready, "--job", kJob, "--open", "--heartbeat-ms", "250",
                    "--averaging-interval-ms", "1000"} +
            extra);
    address_ = rookery::testing::wait_for_coordinator_ready(ready, 20000, &coordinator_);
  }

  // Samples of `name` grow past what they were: it trains on.
  bool trainsOn(const QString& name, int timeout_ms = 30000) {
    const auto before = snapshotOf(name).work().samples();
    return QTest::qWaitFor([&] { return snapshotOf(name).work().samples() > before; }, timeout_ms);
  }

  std::optional<rookery::testing::CoordinatorAddress> address_;
  int coordinators_ = 0;

  void startNode(const QString& name, const QString& ns,
                 const rookery::testing::CoordinatorAddress& address, std::int64_t memory_mb) {
    auto p = std::make_unique<QProcess>();
    p->setProcessChannelMode(QProcess::ForwardedChannels);
    p->start("ip",
             rookery::testing::lab_volunteer(ns, dir_.filePath(name), address.endpoint, address.key,
                                             {"--memory-limit-mb", QString::number(memory_mb)}));
    nodes_[name] = std::move(p);
  }

 private Q_SLOTS:
  void cleanup() {
    for (auto& [name, p] : nodes_) rookery::testing::stop_process(*p);
    nodes_.clear();
    rookery::testing::stop_process(coordinator_);
    run_command({kHomeRouterLab, "down", tag_});
  }

  void everyVolunteerTrainsWithNothingTyped() {
    const int rc = run_command({kHomeRouterLab, "up", tag_, "upnp", "", "none"});
    if (rc == 77) QSKIP("needs root, ip, nft and miniupnpd (scripts/install-deps.sh)");
    QCOMPARE(rc, 0);
    startCoordinator({"--no-relay"});
    const auto address = address_;
    QVERIFY(address);
    // Just over half the model's memory each: no one holds it alone.
    const auto job = rookery::job::load_job_spec(kJob.toStdString());
    const auto need = rookery::cluster::model_memory_bytes(
        rookery::coordinator::block_profiles(job), rookery::coordinator::training_settings(job));
    const std::int64_t memory_mb = std::max<std::int64_t>(1, (need * 6 / 10) >> 20);
    startNode("public-a", tag_ + "p", *address, memory_mb);
    startNode("public-b", tag_ + "i", *address, memory_mb);
    startNode("upnp-home", tag_ + "h", *address, memory_mb);
    startNode("plain-home", tag_ + "t", *address, memory_mb);

    const std::map<QString, pb::ReachWay> expected{
        {"public-a", pb::REACH_DIRECT},
        {"public-b", pb::REACH_DIRECT},
        {"upnp-home", pb::REACH_ROUTER_MAPPING},
        {"plain-home", pb::REACH_REVERSED},
    };
    // Every volunteer reached as its network allows, seated and training.
    for (const auto& [name, way] : expected) {
      pb::NodeSnapshot s;
      QVERIFY2(QTest::qWaitFor(
                   [&] {
                     s = snapshotOf(name);
                     return s.reach().way() == way && s.has_stage() &&
                            s.stage().stage_count() == 2 && s.work().samples() > 0;
                   },
                   120000),
               qPrintable(QStringLiteral("%1: %2, %3")
                              .arg(name, QString::fromStdString(pb::ReachWay_Name(s.reach().way())),
                                   QString::fromStdString(s.coordinator().status()))));
    }
    auto plain = snapshotOf("plain-home");
    QCOMPARE(plain.reach().observed_address(), std::string("198.22.0.2"));
    QVERIFY(plain.reach().relay().empty());
    QVERIFY2(plain.reach().reversal_links() >= 1,
             qPrintable(QString::number(plain.reach().reversal_links())));
    const auto upnp = snapshotOf("upnp-home");
    QVERIFY2(QString::fromStdString(upnp.reach().endpoint()).startsWith("tcp://198.20.0.2:"),
             upnp.reach().endpoint().c_str());

    // No stage stalls: each keeps training, and the reversed volunteer averages with its ring
    // partners, who reach its ring port through the connections it opened.
    std::map<QString, std::uint64_t> before;
    for (const auto& [name, way] : expected) before[name] = snapshotOf(name).work().samples();
    for (const auto& [name, way] : expected) {
      QVERIFY2(
          QTest::qWaitFor([&] { return snapshotOf(name).work().samples() > before[name]; }, 30000),
          qPrintable(name + " stalled"));
    }
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   plain = snapshotOf("plain-home");
                   return plain.stage().averaging_rounds() > 0;
                 },
                 60000),
             qPrintable(QStringLiteral("%1 rounds alone, %2 rings")
                            .arg(plain.stage().averaging_alone())
                            .arg(plain.stage().averaging_rings())));
    // The public volunteers' reversal services carry it.
    std::uint32_t carried = 0;
    for (const QString& name :
         {QStringLiteral("public-a"), QStringLiteral("public-b"), QStringLiteral("upnp-home")}) {
      carried += snapshotOf(name).reach().reversal_links();
    }
    QCOMPARE(carried, plain.reach().reversal_links());

    // The loss falls, as the coordinator keeps it.
    pb::NodeSnapshot s;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   s = snapshotOf("public-a");
                   return rookery::testing::loss_fell(s.run());
                 },
                 120000),
             qPrintable(QStringLiteral("%1 loss points").arg(s.run().loss_size())));

    // The mapping is gone once its volunteer quits.
    QVERIFY2(rookery::testing::router_rules(tag_).contains("192.168.77.10"),
             qPrintable(rookery::testing::router_rules(tag_)));
    rookery::testing::stop_process(*nodes_["upnp-home"]);
    QTRY_VERIFY_WITH_TIMEOUT(!rookery::testing::router_rules(tag_).contains("192.168.77.10"), 5000);
  }

  // Two volunteers behind the same router that maps nothing: each would link with the other
  // (they hold the same blocks), and neither can dial the other. The planner leaves one to the
  // relay on the coordinator's host, and seats the other by reversal: it dials the public
  // volunteers, and the relayed one through its relay. Both train.
  void twoVolunteersBehindOnePlainRouterOneIsRelayed() {
    const int rc = run_command({kHomeRouterLab, "up", tag_, "none"});
    if (rc == 77) QSKIP("needs root, ip and nft (scripts/install-deps.sh)");
    QCOMPARE(rc, 0);
    startCoordinator({});
    QVERIFY(address_);
    const std::int64_t all_free = 0;  // each holds the whole model: one ring of four
    startNode("public-a", tag_ + "p", *address_, all_free);
    startNode("public-b", tag_ + "i", *address_, all_free);
    startNode("home-a", tag_ + "h", *address_, all_free);
    startNode("home-b", tag_ + "h", *address_, all_free);
    QString relayed, reversed;
    QVERIFY2(
        QTest::qWaitFor(
            [&] {
              relayed.clear();
              reversed.clear();
              for (const QString& name : {QStringLiteral("home-a"), QStringLiteral("home-b")}) {
                const auto s = snapshotOf(name);
                if (!s.has_stage() || s.work().samples() == 0) return false;
                if (s.reach().way() == pb::REACH_RELAYED) relayed = name;
                if (s.reach().way() == pb::REACH_REVERSED) reversed = name;
              }
              return !relayed.isEmpty() && !reversed.isEmpty();
            },
            120000),
        qPrintable(QStringLiteral("%1 / %2").arg(
            QString::fromStdString(pb::ReachWay_Name(snapshotOf("home-a").reach().way())),
            QString::fromStdString(pb::ReachWay_Name(snapshotOf("home-b").reach().way())))));
    QCOMPARE(snapshotOf(relayed).reach().relay(), std::string("198.20.0.1"));
    // It dials all three others, the relayed one through the relay.
    QTRY_COMPARE_WITH_TIMEOUT(snapshotOf(reversed).reach().reversal_links(), std::uint32_t(3),
                              20000);
    for (const QString& name : {QStringLiteral("public-a"), QStringLiteral("public-b"),
                                QStringLiteral("home-a"), QStringLiteral("home-b")}) {
      QVERIFY2(trainsOn(name), qPrintable(name + " stalled"));
    }
    // Its first round waits for all four to stand on the plan and for the interval; on two
    // shared cores with six processes and three namespaces that has taken over a minute.
    pb::NodeSnapshot r;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   r = snapshotOf(reversed);
                   return r.stage().averaging_rounds() > 0;
                 },
                 120000),
             qPrintable(QStringLiteral("the reversed volunteer never averaged: %1 rings, %2 "
                                       "rounds alone, %3 intervals skipped")
                            .arg(r.stage().averaging_rings())
                            .arg(r.stage().averaging_alone())
                            .arg(r.stage().averaging_skipped())));
  }
};

QTEST_GUILESS_MAIN(TestReachInternet)
#include "test_reach_internet.moc"
