// Which endpoints a node announces, from what it knows of itself; and the address ranges that
// decide it.
#include <QtTest>

#include "reach/candidates.hpp"

using namespace rookery::reach;

Q_DECLARE_METATYPE(CandidateInputs)
Q_DECLARE_METATYPE(std::vector<Candidate>)

class TestCandidates : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void gathers_data() {
    QTest::addColumn<CandidateInputs>("in");
    QTest::addColumn<std::vector<Candidate>>("expected");
    using K = CandidateKind;
    CandidateInputs lan_only{7000, "", "", "", std::nullopt, {"192.168.1.20", "fd00::20"}};
    QTest::newRow("LAN only") << lan_only
                              << std::vector<Candidate>{{"192.168.1.20", 7000, K::lan},
                                                        {"fd00::20", 7000, K::lan}};
    CandidateInputs observed{7000, "", "198.20.0.9", "", std::nullopt, {"192.168.1.20"}};
    QTest::newRow("observed first") << observed
                                    << std::vector<Candidate>{{"198.20.0.9", 7000, K::observed},
                                                              {"192.168.1.20", 7000, K::lan}};
    CandidateInputs mapped{7000, "", "198.20.0.9", "198.20.0.9", 7100, {"192.168.1.20"}};
    QTest::newRow("mapped, one public address")
        << mapped
        << std::vector<Candidate>{{"198.20.0.9", 7100, K::mapped},
                                  {"198.20.0.9", 7000, K::observed},
                                  {"192.168.1.20", 7000, K::lan}};
    CandidateInputs double_nat{7000, "", "198.20.0.9", "100.64.3.4", 7000, {"192.168.1.20"}};
    QTest::newRow("double NAT: the router's address is not public")
        << double_nat
        << std::vector<Candidate>{{"198.20.0.9", 7000, K::mapped}, {"192.168.1.20", 7000, K::lan}};
    CandidateInputs configured{7000,         "volunteer.example.org", "198.20.0.9", "",
                               std::nullopt, {"192.168.1.20"}};
    QTest::newRow("configured stands alone")
        << configured << std::vector<Candidate>{{"volunteer.example.org", 7000, K::configured}};
    CandidateInputs loopback{7000, "", "127.0.0.1", "", std::nullopt, {"::1", "10.0.0.2"}};
    QTest::newRow("loopback is never announced")
        << loopback << std::vector<Candidate>{{"10.0.0.2", 7000, K::lan}};
  }
  void gathers() {
    QFETCH(CandidateInputs, in);
    QFETCH(std::vector<Candidate>, expected);
    const auto got = gather_candidates(in);
    QCOMPARE(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      QCOMPARE(QString::fromStdString(got[i].host), QString::fromStdString(expected[i].host));
      QCOMPARE(got[i].port, expected[i].port);
      QCOMPARE(int(got[i].kind), int(expected[i].kind));
    }
  }

  void ranges_data() {
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("loopback");
    QTest::addColumn<bool>("isPrivate");
    QTest::newRow("127.0.0.1") << "127.0.0.1" << true << false;
    QTest::newRow("0.0.0.0") << "0.0.0.0" << true << false;
    QTest::newRow("::1") << "::1" << true << false;
    QTest::newRow("v4-mapped loopback") << "::ffff:127.0.0.1" << true << false;
    QTest::newRow("10/8") << "10.1.2.3" << false << true;
    QTest::newRow("172.16/12") << "172.31.0.1" << false << true;
    QTest::newRow("172.32 is public") << "172.32.0.1" << false << false;
    QTest::newRow("192.168/16") << "192.168.0.1" << false << true;
    QTest::newRow("CGNAT 100.64/10") << "100.127.255.1" << false << true;
    QTest::newRow("100.128 is public") << "100.128.0.1" << false << false;
    QTest::newRow("fd00::/8") << "fd12::1" << false << true;
    QTest::newRow("2001:db8::1") << "2001:db8::1" << false << false;
  }
  void ranges() {
    QFETCH(QString, host);
    QFETCH(bool, loopback);
    QFETCH(bool, isPrivate);
    QCOMPARE(is_loopback(host.toStdString()), loopback);
    QCOMPARE(is_private(host.toStdString()), isPrivate);
  }

  void endpoints() {
    QCOMPARE(QString::fromStdString(tcp_endpoint("10.0.0.1", 7000)), "tcp://10.0.0.1:7000");
    QCOMPARE(QString::fromStdString(tcp_endpoint("fd00::1", 7000)), "tcp://[fd00::1]:7000");
  }

  void endpointParts_data() {
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::newRow("v4") << "tcp://10.0.0.1:7000"
                        << "10.0.0.1" << 7000;
    QTest::newRow("v6") << "tcp://[fd00::1]:7000"
                        << "fd00::1" << 7000;
    QTest::newRow("any") << "tcp://*:7000"
                         << "*" << 7000;
    QTest::newRow("no scheme") << "10.0.0.1:7000"
                               << "" << 0;
    QTest::newRow("no port") << "tcp://10.0.0.1"
                             << "" << 0;
    QTest::newRow("port out of range") << "tcp://10.0.0.1:70000"
                                       << "10.0.0.1" << 0;
    QTest::newRow("port not a number") << "tcp://10.0.0.1:7x"
                                       << "10.0.0.1" << 0;
  }
  void endpointParts() {
    QFETCH(QString, endpoint);
    QFETCH(QString, host);
    QFETCH(int, port);
    QCOMPARE(QString::fromStdString(host_of(endpoint.toStdString())), host);
    QCOMPARE(int(port_of(endpoint.toStdString())), port);
  }

  void interfacesHaveNoLoopback() {
    for (const auto& a : interface_addresses()) QVERIFY2(!is_loopback(a), a.c_str());
  }
};

QTEST_GUILESS_MAIN(TestCandidates)
#include "test_candidates.moc"
