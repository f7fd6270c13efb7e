// SWARM's wiring for one stage: weighted interleaving by measured round trip, trying the
// unmeasured, rerouting around a next hop that stops answering, and shunning one caught lying.
#include <QTest>

#include <set>

#include "pipeline/next_hop_router.hpp"

using rookery::pipeline::NextHopRouter;
using namespace std::chrono_literals;

namespace {
std::vector<rookery::net::PeerAddress> hops(int n) {
  std::vector<rookery::net::PeerAddress> out;
  for (int i = 0; i < n; ++i)
    out.push_back({"tcp://127.0.0.1:" + std::to_string(7000 + i), std::string(40, char('a' + i))});
  return out;
}
}  // namespace

class TestNextHopRouter : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void picksInterleaveInProportionToMeasuredSpeed() {
    NextHopRouter r(hops(2));
    auto now = NextHopRouter::Clock::now();
    std::uint64_t mb = 0;
    // Hop 0 answers in 100 ms, hop 1 in 300 ms: weights 10 and 3.33, so 3 picks to 1.
    int picks[2] = {0, 0};
    for (int i = 0; i < 400; ++i) {
      const auto h = r.pick(now);
      r.sent(h, ++mb, now);
      r.returned(mb, now + (h == 0 ? 100ms : 300ms));
      if (i >= 20) ++picks[h];  // after both are measured
    }
    const double ratio = double(picks[0]) / picks[1];
    qInfo("picks %d : %d (ratio %.2f, expected 3)", picks[0], picks[1], ratio);
    QVERIFY(ratio > 2.7 && ratio < 3.3);
    // Interleaved, not in runs: hop 1 never waits more than 4 picks.
    int since = 0, longest = 0;
    for (int i = 0; i < 60; ++i) {
      const auto h = r.pick(now);
      r.sent(h, ++mb, now);
      r.returned(mb, now + (h == 0 ? 100ms : 300ms));
      since = h == 1 ? 0 : since + 1;
      longest = std::max(longest, since);
    }
    QVERIFY(longest <= 4);
  }

  void anUnmeasuredHopIsTried() {
    NextHopRouter r(hops(3));
    const auto now = NextHopRouter::Clock::now();
    std::set<std::size_t> seen;
    for (int i = 0; i < 3; ++i) seen.insert(r.pick(now));
    QCOMPARE(seen.size(), std::size_t(3));
  }

  void aHopThatStopsAnsweringIsRoutedAround() {
    NextHopRouter r(hops(2));
    auto t = NextHopRouter::Clock::now();
    std::uint64_t mb = 0;
    for (int i = 0; i < 10; ++i) {
      const auto h = r.pick(t);
      r.sent(h, ++mb, t);
      r.returned(mb, t + 50ms);
    }
    // Hop 1 takes two micro-batches and dies; hop 0 goes on answering.
    t += 1s;
    r.sent(1, 100, t);
    r.sent(1, 101, t + 10ms);
    QVERIFY(r.check(t + 1s).empty());  // not yet: patience is at least 2 s
    for (int i = 0; i < 5; ++i) {
      r.sent(0, 200 + i, t + 100ms * i);
      r.returned(200 + i, t + 100ms * i + 50ms);
    }
    const auto dropped = r.check(t + 2500ms);
    QCOMPARE(dropped.size(), std::size_t(2));
    QCOMPARE(r.hops()[1].in_flight, std::int64_t(0));
    QCOMPARE(r.hops()[1].dropped, std::int64_t(2));
    for (int i = 0; i < 20; ++i) QCOMPARE(r.pick(t + 3s), std::size_t(0));
    // After the cool-down it is tried again.
    bool tried = false;
    for (int i = 0; i < 4; ++i) tried = tried || r.pick(t + 20s) == 1;
    QVERIFY(tried);
  }

  void aLoneHopIsNeverSuspected() {
    NextHopRouter r(hops(1));
    const auto t = NextHopRouter::Clock::now();
    r.sent(0, 1, t);
    QVERIFY(r.check(t + 60s).empty());
    QCOMPARE(r.pick(t + 60s), std::size_t(0));
  }

  void aSlowButAnsweringHopIsNotSuspected() {
    NextHopRouter r(hops(2));
    const auto t = NextHopRouter::Clock::now();
    r.sent(1, 1, t);
    r.sent(1, 2, t + 1s);
    r.returned(1, t + 2500ms);  // slow, but it answers
    QVERIFY(r.check(t + 3s).empty());
  }

  void aCaughtHopGetsNothingWhileAnotherIsLeft() {
    NextHopRouter r(hops(3));
    auto t = NextHopRouter::Clock::now();
    r.sent(1, 7, t);
    QCOMPARE(r.holder(7), std::optional<std::size_t>(1));
    QVERIFY(!r.holder(8));
    QVERIFY(r.exclude(std::string(40, 'b')));
    QVERIFY(!r.exclude(std::string(40, 'b')));  // once
    QVERIFY(!r.exclude(std::string(40, 'z')));  // not a candidate
    r.returned(7, t + 100ms);                   // answering does not clear it
    std::set<std::size_t> seen;
    for (int i = 0; i < 30; ++i) seen.insert(r.pick(t));
    QCOMPARE(seen, (std::set<std::size_t>{0, 2}));
    // Both others suspect: still not the caught one.
    r.sent(0, 1, t);
    r.sent(2, 2, t);
    QCOMPARE(r.check(t + 10s).size(), std::size_t(2));
    QVERIFY(r.pick(t + 10s) != 1);
  }
};

QTEST_GUILESS_MAIN(TestNextHopRouter)
#include "test_next_hop_router.moc"
