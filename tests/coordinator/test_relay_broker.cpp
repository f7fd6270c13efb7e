// Which relay carries which unreachable volunteer: volunteers' relays before the owner's host's,
// the least loaded first, never a node itself, never past a relay's room; a relay's death hands
// back the nodes it carried; a relayed node's links are its share of the relay's cap.
#include <QtTest>

#include "coordinator/relay_broker.hpp"

using rookery::coordinator::RelayBroker;
namespace pb = rookery::wire::pb;

namespace {
pb::RelayOffer relay(const std::string& key, std::uint64_t cap = 0) {
  pb::RelayOffer o;
  o.set_key(key);
  o.set_host(key + ".example");
  o.set_control_port(7000);
  o.set_bytes_per_s(cap);
  return o;
}
}  // namespace

class TestRelayBroker : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void volunteersFirstThenTheOwnersHost() {
    RelayBroker b;
    b.add(relay("owner"), 8, /*last_resort=*/true);
    b.add(relay("v1"), 1);
    b.add(relay("v2"), 1);
    QCOMPARE(b.assign("h1")->key(), std::string("v1"));
    QCOMPARE(b.assign("h2")->key(), std::string("v2"));  // v1 is full
    QCOMPARE(b.assign("h3")->key(), std::string("owner"));
    // Asked again, a node keeps the relay it was given.
    QCOMPARE(b.assign("h1")->key(), std::string("v1"));
    QCOMPARE(b.relay_of("h3"), std::string("owner"));
  }

  void theLeastLoadedTakesTheNext() {
    RelayBroker b;
    b.add(relay("v1"), 4);
    b.add(relay("v2"), 4);
    b.carried("h1", "v1");
    b.carried("h2", "v1");
    QCOMPARE(b.assign("h3")->key(), std::string("v2"));
    QCOMPARE(b.assign("h4")->key(), std::string("v2"));
    QCOMPARE(b.assign("h5")->key(), std::string("v1"));  // 2 each: the first in key order
  }

  void neverItselfNorPastItsRoom() {
    RelayBroker b;
    b.add(relay("v1"), 1);
    QVERIFY(!b.assign("v1"));  // the only relay is the node itself
    QVERIFY(b.assign("h1"));
    QVERIFY(!b.assign("h2"));  // full
    b.release("h1");
    QCOMPARE(b.assign("h2")->key(), std::string("v1"));
    // A relay nobody offered carries nobody.
    b.carried("h3", "ghost");
    QCOMPARE(b.relay_of("h3"), std::string());
  }

  void aDeadRelayHandsBackWhatItCarried() {
    RelayBroker b;
    b.add(relay("v1"), 4);
    b.add(relay("v2"), 4);
    b.carried("h1", "v1");
    b.carried("h2", "v1");
    b.carried("h3", "v2");
    auto orphans = b.remove("v1");
    std::sort(orphans.begin(), orphans.end());
    QCOMPARE(orphans, (std::vector<std::string>{"h1", "h2"}));
    QVERIFY(!b.has("v1"));
    QCOMPARE(b.relay_of("h3"), std::string("v2"));
    QCOMPARE(b.assign("h1")->key(), std::string("v2"));
    QVERIFY(b.remove("v1").empty());  // gone already
  }

  void aRelayedNodesShareOfTheCap() {
    RelayBroker b;
    b.add(relay("v1", 1'000'000), 4);
    b.add(relay("v2"), 4);
    b.carried("h1", "v1");
    QCOMPARE(b.share_bytes_per_s("v1"), 1e6);
    b.carried("h2", "v1");
    QCOMPARE(b.share_bytes_per_s("v1"), 5e5);
    QCOMPARE(b.share_bytes_per_s("v2"), 0.0);  // no cap
  }
};

QTEST_GUILESS_MAIN(TestRelayBroker)
#include "test_relay_broker.moc"
