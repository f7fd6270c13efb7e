// Hosts with IPv6 addresses only (ipv6_lab.sh): a coordinator on one, two volunteers on the
// others, joining with nothing typed. The coordinator dials each back at its IPv6 address and
// plans it there; both are seated and train, and the loss falls. Real processes, real sockets.
#include <QtTest>

#include "reach/lab.hpp"
#include "reach/node_snapshot.hpp"
#include "support/processes.hpp"

namespace pb = rookery::wire::pb;

using rookery::testing::run_command;

class TestIpv6Swarm : public QObject {
  Q_OBJECT

  const QString lab_ = QStringLiteral(ROOKERY_SOURCE_DIR "/tests/reach/ipv6_lab.sh");
  QString tag_ = QStringLiteral("r6%1").arg(QCoreApplication::applicationPid() % 100000);
  QTemporaryDir dir_;
  QProcess coordinator_;
  std::vector<std::unique_ptr<QProcess>> nodes_;

  pb::NodeSnapshot snapshotOf(int i) {
    return rookery::testing::node_snapshot(dir_.filePath(QStringLiteral("n%1/run").arg(i)));
  }

 private Q_SLOTS:
  void cleanup() {
    for (auto& p : nodes_) rookery::testing::stop_process(*p);
    nodes_.clear();
    rookery::testing::stop_process(coordinator_);
    run_command({lab_, "down", tag_});
  }

  void aSwarmOfIpv6OnlyHostsTrains() {
    const int rc = run_command({lab_, "up", tag_, "3"});
    if (rc == 77) QSKIP("needs root and ip");
    QCOMPARE(rc, 0);
    const QString ready = dir_.filePath("coordinator.ready");
    coordinator_.setProcessChannelMode(QProcess::ForwardedChannels);
    coordinator_.start(
        "ip", {"netns", "exec", tag_ + "0", ROOKERY_BINARY_DIR "/app/rookery-coordinator", "--bind",
               "tcp://[fd77::1]:0", "--data-dir", dir_.filePath("coordinator"), "--ready-file",
               ready, "--job", ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json", "--open",
               "--heartbeat-ms", "250"});
    const auto address = rookery::testing::wait_for_coordinator_ready(ready, 20000, &coordinator_);
    QVERIFY(address);
    QVERIFY2(address->endpoint.startsWith("tcp://[fd77::1]:"), qPrintable(address->endpoint));
    for (int i = 1; i <= 2; ++i) {
      auto p = std::make_unique<QProcess>();
      p->setProcessChannelMode(QProcess::ForwardedChannels);
      p->start("ip",
               {"netns", "exec", tag_ + QString::number(i), ROOKERY_BINARY_DIR "/app/rookery-node",
                "--data-dir", dir_.filePath(QStringLiteral("n%1").arg(i)), "--runtime-dir",
                dir_.filePath(QStringLiteral("n%1/run").arg(i)), "--join", "demo-bytes-gpt",
                "--coordinator", address->endpoint, "--coordinator-key", address->key,
                "--contribute", "--threads", "1", "--benchmark-seconds", "0.05"});
      nodes_.push_back(std::move(p));
    }
    // Each is reached straight at its own IPv6 address, seated, and trains.
    for (int i = 1; i <= 2; ++i) {
      pb::NodeSnapshot s;
      QVERIFY2(QTest::qWaitFor(
                   [&] {
                     s = snapshotOf(i);
                     return s.reach().way() == pb::REACH_DIRECT && s.has_stage() &&
                            s.work().samples() > 0;
                   },
                   90000),
               s.coordinator().status().c_str());
      const QString expected = QStringLiteral("tcp://[fd77::%1]:").arg(i + 1);
      QVERIFY2(QString::fromStdString(s.reach().endpoint()).startsWith(expected),
               s.reach().endpoint().c_str());
      QCOMPARE(QString::fromStdString(s.reach().observed_address()),
               QStringLiteral("fd77::%1").arg(i + 1));
    }
    // The loss falls: the run's curve, as the coordinator keeps it.
    pb::NodeSnapshot s;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   s = snapshotOf(1);
                   return rookery::testing::loss_fell(s.run());
                 },
                 120000),
             qPrintable(QStringLiteral("%1 loss points").arg(s.run().loss_size())));
  }
};

QTEST_GUILESS_MAIN(TestIpv6Swarm)
#include "test_ipv6_swarm.moc"
