// The Sybil caps as a pure function: where a join comes from (an IPv4 address and its /24, an
// IPv6 /64 and its /48, a mapped IPv4 as IPv4), the N+1-th volunteer from one address and from
// one subnet refused with its verdict, caps of 0 off, and loopback uncapped unless asked.
#include <QTest>

#include <string>
#include <vector>

#include "coordinator/sybil_limits.hpp"
#include "coordinator/verdicts.hpp"

using namespace rookery;
using coordinator::sybil_refusal;
using coordinator::SybilCaps;
using V = wire::pb::Verdict;

class TestSybilLimits : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void whereAJoinComesFrom_data() {
    QTest::addColumn<QString>("peer");
    QTest::addColumn<QString>("address");
    QTest::addColumn<QString>("subnet");
    QTest::addColumn<bool>("loopback");
    QTest::newRow("IPv4") << "203.0.113.7"
                          << "203.0.113.7"
                          << "203.0.113.0/24" << false;
    QTest::newRow("IPv4 mapped") << "::ffff:203.0.113.7"
                                 << "203.0.113.7"
                                 << "203.0.113.0/24" << false;
    QTest::newRow("IPv6") << "2001:db8:1:2:aaaa:bbbb:cccc:dddd"
                          << "2001:db8:1:2::/64"
                          << "2001:db8:1::/48" << false;
    QTest::newRow("IPv6 in brackets, with a zone") << "[fe80::1%eth0]"
                                                   << "fe80::/64"
                                                   << "fe80::/48" << false;
    QTest::newRow("loopback") << "127.0.0.1"
                              << "127.0.0.1"
                              << "127.0.0.0/24" << true;
    QTest::newRow("IPv6 loopback") << "::1"
                                   << "::/64"
                                   << "::/48" << true;
  }

  void whereAJoinComesFrom() {
    QFETCH(QString, peer);
    QFETCH(QString, address);
    QFETCH(QString, subnet);
    QFETCH(bool, loopback);
    const auto o = coordinator::origin_of(peer.toStdString());
    QVERIFY(o);
    QCOMPARE(QString::fromStdString(o->address), address);
    QCOMPARE(QString::fromStdString(o->subnet), subnet);
    QCOMPARE(o->loopback, loopback);
  }

  void notAnAddressIsNotCapped() {
    QVERIFY(!coordinator::origin_of(""));
    QVERIFY(!coordinator::origin_of("host.example"));
    const std::vector<std::string> many(10, "");
    QCOMPARE(sybil_refusal({1, 1, true}, "", many).code(), V::NONE);
  }

  // Four PCs behind one home router join; the fifth from that address is refused, with the
  // count, the cap and the address in its verdict. Another address of the same /24 is fine.
  void theFifthFromOneAddressIsRefused() {
    const SybilCaps caps;  // the defaults: 4 per address, 16 per subnet
    std::vector<std::string> live;
    for (int i = 0; i < 4; ++i) {
      QCOMPARE(sybil_refusal(caps, "198.51.100.20", live).code(), V::NONE);
      live.push_back("198.51.100.20");
    }
    const auto no = sybil_refusal(caps, "198.51.100.20", live);
    QCOMPARE(no.code(), V::TOO_MANY_FROM_ADDRESS);
    QCOMPARE(no.value(), 4.0);
    QCOMPARE(no.limit(), 4.0);
    QCOMPARE(no.detail(), std::string("198.51.100.20"));
    QCOMPARE(coordinator::verdict::words(no),
             std::string("the job already has 4 volunteers (at most 4) from the address "
                         "198.51.100.20"));
    QCOMPARE(sybil_refusal(caps, "198.51.100.21", live).code(), V::NONE);
    // A mapped IPv4 address is the same address.
    QCOMPARE(sybil_refusal(caps, "::ffff:198.51.100.20", live).code(), V::TOO_MANY_FROM_ADDRESS);
  }

  // Sixteen volunteers from 16 addresses of one /24; the 17th from a new address of that /24
  // is refused for the subnet, one from the next /24 is admitted.
  void theSeventeenthFromOneSubnetIsRefused() {
    const SybilCaps caps;
    std::vector<std::string> live;
    for (int i = 0; i < 16; ++i) live.push_back("198.51.100." + std::to_string(10 + i));
    const auto no = sybil_refusal(caps, "198.51.100.200", live);
    QCOMPARE(no.code(), V::TOO_MANY_FROM_SUBNET);
    QCOMPARE(no.value(), 16.0);
    QCOMPARE(no.limit(), 16.0);
    QCOMPARE(no.detail(), std::string("198.51.100.0/24"));
    QCOMPARE(sybil_refusal(caps, "198.51.101.200", live).code(), V::NONE);
    live.pop_back();
    QCOMPARE(sybil_refusal(caps, "198.51.100.200", live).code(), V::NONE);
  }

  // An IPv6 host holds a whole /64: its addresses are one address to the cap, and a /48 one
  // subnet.
  void anIPv6SlashSixtyFourIsOneAddress() {
    const SybilCaps caps{2, 3, false};
    const std::vector<std::string> live = {"2001:db8:0:1::a", "2001:db8:0:1::b"};
    auto no = sybil_refusal(caps, "2001:db8:0:1:ffff::c", live);
    QCOMPARE(no.code(), V::TOO_MANY_FROM_ADDRESS);
    QCOMPARE(no.detail(), std::string("2001:db8:0:1::/64"));
    QCOMPARE(sybil_refusal(caps, "2001:db8:0:2::1", live).code(), V::NONE);
    no = sybil_refusal(caps, "2001:db8:0:3::1",
                       {"2001:db8:0:1::a", "2001:db8:0:2::a", "2001:db8:0:4::a"});
    QCOMPARE(no.code(), V::TOO_MANY_FROM_SUBNET);
    QCOMPARE(no.detail(), std::string("2001:db8::/48"));
    QCOMPARE(sybil_refusal(caps, "2001:db8:1::1", live).code(), V::NONE);
  }

  void aCapOfZeroIsNoCap() {
    const std::vector<std::string> live(40, "198.51.100.20");
    QCOMPARE(sybil_refusal({0, 0, false}, "198.51.100.20", live).code(), V::NONE);
    QCOMPARE(sybil_refusal({0, 16, false}, "198.51.100.20", live).code(), V::TOO_MANY_FROM_SUBNET);
  }

  // A swarm on one PC is the owner's own: uncapped, unless the caps are asked for loopback too.
  void loopbackIsUncappedUnlessAsked() {
    const std::vector<std::string> live(8, "127.0.0.1");
    QCOMPARE(sybil_refusal(SybilCaps{}, "127.0.0.1", live).code(), V::NONE);
    QCOMPARE(sybil_refusal(SybilCaps{4, 16, true}, "127.0.0.1", live).code(),
             V::TOO_MANY_FROM_ADDRESS);
  }
};

QTEST_GUILESS_MAIN(TestSybilLimits)
#include "test_sybil_limits.moc"
