// The member list kept in step between the coordinator and a node (net/member_list_sync.hpp),
// as heartbeats and replies carry it, over random changes to a list of thousands:
//  - a node that holds a recent list is sent the changes since, which bring it to the latest
//    exactly (keys that came and went in between cancel out);
//  - a newcomer is sent pages and holds the whole list after ceil(N / page) replies; the old list
//    stays in force until the new one is complete;
//  - a node whose pages belong to a list replaced meanwhile starts over with the new one;
//  - a node further behind than the kept publications is sent pages, and so is one whose
//    changes would not fit in a page.
#include <QTest>

#include <random>
#include <set>
#include <string>

#include "net/member_list_sync.hpp"

using namespace rookery;

namespace {

std::string key_of(int i) {
  std::string k = "member" + std::to_string(i);
  k.resize(40, '.');
  return k;
}

// A digest that is a function of the set, as the coordinator's is.
std::uint64_t digest_of(const std::set<std::string>& s) {
  std::uint64_t d = 1469598103934665603ull;
  for (const auto& k : s)
    for (const unsigned char c : k) d = (d ^ c) * 1099511628211ull;
  return d == 0 ? 1 : d;
}

// The node heartbeats and takes the reply, as its coordinator client does; the list it admits.
struct Node {
  net::MemberListFollower follower;
  std::set<std::string> admitted;
  int replies = 0;

  void beat(const net::MemberListLog& log, std::size_t page) {
    wire::pb::Heartbeat h;
    follower.describe(h);
    wire::pb::HeartbeatReply r;
    net::add_member_list(log, h, page, r);
    ++replies;
    if (auto list = follower.apply(r)) admitted = std::set<std::string>(list->begin(), list->end());
  }
  void catch_up(const net::MemberListLog& log, std::size_t page, int most = 100) {
    for (int i = 0; i < most && follower.digest() != log.digest(); ++i) beat(log, page);
  }
};

}  // namespace

class TestMemberListSync : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void changesAndPagesKeepANodeInStep() {
    std::mt19937 rng(3);
    net::MemberListLog log;
    std::set<std::string> members;
    for (int i = 0; i < 7000; ++i) members.insert(key_of(i));
    log.publish(members, digest_of(members));
    int next = 7000;

    Node newcomer;
    newcomer.catch_up(log, 3000);
    QCOMPARE(newcomer.admitted, members);
    QCOMPARE(newcomer.replies, 3);  // pages of 3,000: ceil(7,000 / 3,000)

    Node steady = newcomer;
    for (int round = 0; round < 40; ++round) {
      // Some come, some go, and some come and go between two of the node's heartbeats.
      const int publications = 1 + int(rng() % 3);
      for (int p = 0; p < publications; ++p) {
        for (int c = int(rng() % 20); c > 0; --c) members.insert(key_of(next++));
        for (int c = int(rng() % 10); c > 0 && !members.empty(); --c) {
          auto it = members.begin();
          std::advance(it, rng() % members.size());
          members.erase(it);
        }
        log.publish(members, digest_of(members));
      }
      const int before = steady.replies;
      steady.beat(log, 3000);
      QCOMPARE(steady.replies - before, 1);  // one reply of changes brings it to the latest
      QCOMPARE(steady.follower.digest(), log.digest());
      QCOMPARE(steady.admitted, members);
    }
    // Up to date: nothing is sent.
    wire::pb::Heartbeat h;
    steady.follower.describe(h);
    wire::pb::HeartbeatReply r;
    QCOMPARE(net::add_member_list(log, h, 3000, r), std::size_t(0));
    QCOMPARE(r.members_size() + r.members_added_size() + r.members_removed_size(), 0);
  }

  void pagesOfAReplacedListStartOver() {
    net::MemberListLog log;
    std::set<std::string> members;
    for (int i = 0; i < 5000; ++i) members.insert(key_of(i));
    log.publish(members, digest_of(members));
    Node node;
    node.beat(log, 2000);  // the first page of 5,000
    QVERIFY(node.admitted.empty());
    wire::pb::Heartbeat h;
    node.follower.describe(h);
    QCOMPARE(h.members_have(), 2000u);
    QCOMPARE(h.members_digest(), std::uint64_t(0));
    members.erase(key_of(17));
    log.publish(members, digest_of(members));
    node.catch_up(log, 2000);
    QCOMPARE(node.admitted, members);
    QVERIFY(!node.admitted.count(key_of(17)));
  }

  void aNodeTooFarBehindIsSentPages() {
    net::MemberListLog log;
    std::set<std::string> members{key_of(0), key_of(1)};
    log.publish(members, digest_of(members));
    Node node;
    node.catch_up(log, 100);
    QCOMPARE(node.admitted, members);
    // More publications than are kept, then more changes than fit in a page.
    for (int i = 2; i < int(net::MemberListLog::kKeptPublications) + 10; ++i) {
      members.insert(key_of(i));
      log.publish(members, digest_of(members));
    }
    QVERIFY(!log.since(node.follower.digest()).has_value());
    node.catch_up(log, 100);
    QCOMPARE(node.admitted, members);
    const auto held = node.follower.digest();
    for (int i = 0; i < 150; ++i) members.insert(key_of(1000 + i));
    log.publish(members, digest_of(members));
    QVERIFY(log.since(held).has_value());
    wire::pb::Heartbeat h;
    node.follower.describe(h);
    // The part chosen is what the reply carries, and what the coordinator sizes the reply by:
    // a page of at most 100 keys, not the 150 changes.
    const auto part = net::member_list_part(log, h, 100);
    QVERIFY(part && !part->changes);
    QCOMPARE(part->keys(), std::size_t(100));
    wire::pb::HeartbeatReply r;
    QCOMPARE(net::add_member_list(log, h, 100, r), part->keys());
    QCOMPARE(r.members_base(), std::uint64_t(0));  // 150 changes do not fit a page of 100
    QVERIFY(r.members_total() > 0);
    QCOMPARE(std::size_t(r.members_size()), part->keys());
    node.catch_up(log, 100);
    QCOMPARE(node.admitted, members);
  }

  void aReplyForAnotherListChangesNothing() {
    net::MemberListLog log;
    std::set<std::string> members{key_of(0)};
    log.publish(members, digest_of(members));
    Node node;
    node.catch_up(log, 10);
    // Changes from a list this node does not hold: ignored, and the list it holds stays.
    wire::pb::HeartbeatReply r;
    r.set_members_digest(99);
    r.set_members_base(12345);
    r.add_members_added(key_of(5));
    QVERIFY(!node.follower.apply(r).has_value());
    QCOMPARE(node.follower.digest(), log.digest());
    // A page that does not follow on from the keys held of a list: ignored.
    wire::pb::HeartbeatReply page;
    page.set_members_digest(77);
    page.set_members_total(10);
    page.set_members_page_first(4);
    page.add_members(key_of(9));
    QVERIFY(!node.follower.apply(page).has_value());
    QCOMPARE(node.follower.digest(), log.digest());
  }
};

QTEST_GUILESS_MAIN(TestMemberListSync)
#include "test_member_list_sync.moc"
