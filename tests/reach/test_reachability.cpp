// Where peers will dial a node, from its report, the address the coordinator sees and which
// candidates answered the dial-back.
#include <QtTest>

#include "reach/reachability.hpp"

using namespace rookery;
using namespace rookery::reach;
namespace pb = rookery::wire::pb;

namespace {
pb::ReachReport report(bool mapped) {
  pb::ReachReport r;
  r.add_hosts("192.168.77.10");
  if (mapped) {
    r.set_mapping_protocol("UPnP IGD");
    r.set_mapped_address("198.20.0.2");
    for (auto [in, out] : {std::pair{7000u, 17000u}, {7001u, 17001u}, {7002u, 17002u}}) {
      auto* m = r.add_mapped();
      m->set_internal_port(in);
      m->set_external_port(out);
    }
  }
  return r;
}
// Registered with a relay at 198.20.0.1, which opened 31000-31002 for it.
pb::ReachReport relayed(pb::ReachReport r) {
  r.mutable_relay()->set_host("198.20.0.1");
  r.mutable_relay()->set_control_port(30999);
  r.mutable_relay()->set_key("relay-key");
  for (auto [in, out] : {std::pair{7000u, 31000u}, {7001u, 31001u}, {7002u, 31002u}}) {
    auto* m = r.add_relayed();
    m->set_internal_port(in);
    m->set_external_port(out);
  }
  return r;
}
const NodePorts kPorts{7000, 7001, 7002};
}  // namespace

class TestReachability : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void candidatesBestFirst() {
    const auto c = reach_candidates(report(true), "198.20.0.2", kPorts);
    QCOMPARE(c.size(), std::size_t(3));
    QCOMPARE(QString::fromStdString(tcp_endpoint(c[0].host, c[0].port)), "tcp://198.20.0.2:17002");
    QCOMPARE(QString::fromStdString(tcp_endpoint(c[1].host, c[1].port)), "tcp://198.20.0.2:7002");
    QCOMPARE(QString::fromStdString(tcp_endpoint(c[2].host, c[2].port)),
             "tcp://192.168.77.10:7002");
  }

  // A node that joins through a relay (nothing else answered it) is dialled there only.
  void aRelayedNodeIsDialledAtItsRelay() {
    const auto c = reach_candidates(relayed(report(true)), "198.20.0.2", kPorts);
    QCOMPARE(c.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(tcp_endpoint(c[0].host, c[0].port)), "tcp://198.20.0.1:31002");
    QVERIFY(c[0].kind == CandidateKind::relayed);
    // A report naming a relay without its ports adds no candidate.
    auto no_ports = report(false);
    no_ports.mutable_relay()->set_host("198.20.0.1");
    QCOMPARE(reach_candidates(no_ports, "198.20.0.2", kPorts).size(), std::size_t(2));
  }

  void decides_data() {
    QTest::addColumn<bool>("mapped");
    QTest::addColumn<QList<bool>>("answered");
    QTest::addColumn<int>("way");
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QString>("shard");
    QTest::newRow("through the router") << true << QList<bool>{true, false, false}
                                        << int(pb::REACH_ROUTER_MAPPING) << "tcp://198.20.0.2:17000"
                                        << "tcp://198.20.0.2:17002";
    QTest::newRow("a public address of its own")
        << false << QList<bool>{true, false} << int(pb::REACH_DIRECT) << "tcp://198.20.0.2:7000"
        << "tcp://198.20.0.2:7002";
    QTest::newRow("only on the LAN the coordinator shares")
        << false << QList<bool>{false, true} << int(pb::REACH_DIRECT) << "tcp://192.168.77.10:7000"
        << "tcp://192.168.77.10:7002";
    QTest::newRow("through its relay")
        << false << QList<bool>{true} << int(pb::REACH_RELAYED) << "tcp://198.20.0.1:31000"
        << "tcp://198.20.0.1:31002";
    QTest::newRow("its relay does not answer")
        << false << QList<bool>{false} << int(pb::REACH_UNREACHABLE) << ""
        << "";
    QTest::newRow("nobody answers")
        << true << QList<bool>{false, false, false} << int(pb::REACH_UNREACHABLE) << ""
        << "";
  }
  void decides() {
    QFETCH(bool, mapped);
    QFETCH(QList<bool>, answered);
    QFETCH(int, way);
    QFETCH(QString, stage);
    QFETCH(QString, shard);
    // One candidate: a node that joins through its relay.
    const auto r = answered.size() == 1 ? relayed(report(mapped)) : report(mapped);
    const auto c = reach_candidates(r, "198.20.0.2", kPorts);
    QCOMPARE(c.size(), std::size_t(answered.size()));
    const std::vector<bool> flags(answered.cbegin(), answered.cend());
    const auto d = decide_reach(r, "198.20.0.2", kPorts, c, flags);
    QCOMPARE(int(d.verdict.way()), way);
    QCOMPARE(QString::fromStdString(d.stage), stage);
    QCOMPARE(QString::fromStdString(d.shard), shard);
    QCOMPARE(QString::fromStdString(d.verdict.endpoint()), stage);
    QCOMPARE(QString::fromStdString(d.verdict.observed_address()), QStringLiteral("198.20.0.2"));
  }
};

QTEST_GUILESS_MAIN(TestReachability)
#include "test_reachability.moc"
