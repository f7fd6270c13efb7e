// PeerExclusion: a ring partner clipped hard or rejected in every slice of 3 rounds in a row
// is left out of this node's aggregates for a while; anything else clears its strikes.
#include <QTest>

#include <cmath>

#include "reduce/centered_clip.hpp"
#include "reduce/peer_exclusion.hpp"

using namespace rookery::reduce;

class TestPeerExclusion : public QObject {
  Q_OBJECT

  using Counts = AggregationTally::Counts;

 private Q_SLOTS:
  void threeBadRoundsInARowExclude() {
    PeerExclusion ex(3, 2);
    std::map<std::string, Counts> c;
    auto round = [&](std::uint64_t liar_seen, std::uint64_t liar_bad) {
      c["liar"].seen += liar_seen;
      c["liar"].clipped_hard += liar_bad;
      c["honest"].seen += liar_seen;
      return ex.end_round(c);
    };
    QVERIFY(round(4, 4).empty());
    QVERIFY(round(4, 4).empty());
    QCOMPARE(round(4, 4), std::vector<std::string>{"liar"});
    QVERIFY(ex.excluded("liar"));
    QVERIFY(!ex.excluded("honest"));
    QCOMPARE(ex.excluded_members(), std::vector<std::string>{"liar"});
    // Excluded for 2 rounds, then heard again.
    round(0, 0);
    QVERIFY(ex.excluded("liar"));
    round(0, 0);
    QVERIFY(!ex.excluded("liar"));
    // Lying again: excluded again, now for twice as long (4 rounds).
    round(4, 4);
    round(4, 4);
    QCOMPARE(round(4, 4), std::vector<std::string>{"liar"});
    for (int r = 0; r < 3; ++r) {
      round(0, 0);
      QVERIFY(ex.excluded("liar"));
    }
    round(0, 0);
    QVERIFY(!ex.excluded("liar"));
  }

  void oneGoodSliceClearsTheStrikes() {
    PeerExclusion ex(3, 10);
    std::map<std::string, Counts> c;
    auto round = [&](std::uint64_t seen, std::uint64_t hard, std::uint64_t rejected) {
      c["m"].seen += seen;
      c["m"].clipped_hard += hard;
      c["m"].rejected += rejected;
      return ex.end_round(c);
    };
    round(2, 2, 0);
    round(2, 1, 1);                   // rejected counts as bad too
    QVERIFY(round(2, 1, 0).empty());  // one slice accepted: strikes cleared
    round(2, 2, 0);
    round(2, 2, 0);
    QVERIFY(!ex.excluded("m"));
    QVERIFY(round(0, 0, 0).empty());  // absent from a round: strikes stand
    QCOMPARE(round(3, 3, 0), std::vector<std::string>{"m"});
  }

  // Caught with evidence (verified aggregation): out at once, for as long as a repeat offender,
  // and longer each time.
  void aMemberCaughtIsExcludedAtOnce() {
    PeerExclusion ex(3, 2);
    std::map<std::string, Counts> c{{"liar", {1, 0, 0, 0}}};
    ex.exclude("liar");
    QVERIFY(ex.excluded("liar"));
    QCOMPARE(ex.excluded_members(), std::vector<std::string>{"liar"});
    ex.end_round(c);
    ex.end_round(c);
    QVERIFY(!ex.excluded("liar"));  // two rounds
    ex.exclude("liar");
    for (int r = 0; r < 3; ++r) ex.end_round(c);
    QVERIFY(ex.excluded("liar"));  // four the second time
    ex.end_round(c);
    QVERIFY(!ex.excluded("liar"));
  }

  // Parameters and optimizer state are tallied apart: lies about either one strike, however
  // honest the other is (a liar cannot dilute them); a tally that did not see the member in a
  // round (no optimizer state that round) neither strikes nor clears.
  void eachTallyIsJudgedOnItsOwn() {
    PeerExclusion ex(3, 10);
    std::vector<PeerExclusion::Tally> t(2);
    auto round = [&](std::uint64_t params_seen, std::uint64_t params_bad, std::uint64_t state_seen,
                     std::uint64_t state_bad) {
      t[0]["m"].seen += params_seen;
      t[0]["m"].clipped_hard += params_bad;
      t[1]["m"].seen += state_seen;
      t[1]["m"].rejected += state_bad;
      return ex.end_round(t);
    };
    QVERIFY(round(3, 3, 6, 0).empty());  // lies about the parameters, honest moments: strike 1
    QVERIFY(round(3, 3, 0, 0).empty());  // a parameters-only round: strike 2
    QCOMPARE(round(3, 3, 6, 0), std::vector<std::string>{"m"});
    QVERIFY(ex.excluded("m"));

    PeerExclusion ex2(3, 10);
    std::vector<PeerExclusion::Tally> u(2);
    auto round2 = [&](std::uint64_t params_seen, std::uint64_t params_bad, std::uint64_t state_seen,
                      std::uint64_t state_bad) {
      u[0]["m"].seen += params_seen;
      u[0]["m"].clipped_hard += params_bad;
      u[1]["m"].seen += state_seen;
      u[1]["m"].clipped_hard += state_bad;
      return ex2.end_round(u);
    };
    QVERIFY(round2(3, 0, 6, 6).empty());  // honest parameters, lying moments: strike 1
    QVERIFY(round2(3, 0, 0, 0).empty());  // honest in a parameters-only round: cleared
    QVERIFY(round2(3, 0, 6, 6).empty());
    QVERIFY(round2(3, 0, 6, 6).empty());
    QCOMPARE(round2(3, 0, 6, 6), std::vector<std::string>{"m"});
    // A tally that never names the member is fine (a node with SGD without momentum).
    PeerExclusion ex3(1, 10);
    std::vector<PeerExclusion::Tally> w(2);
    w[0]["m"] = {2, 0, 2, 0};
    QCOMPARE(ex3.end_round(w), std::vector<std::string>{"m"});
  }

  void excludingAggregatorLeavesTheExcludedOut() {
    auto ex = std::make_shared<PeerExclusion>(1, 5);
    std::map<std::string, Counts> c{{"liar", {1, 0, 1, 1}}};
    QCOMPARE(ex->end_round(c), std::vector<std::string>{"liar"});
    ExcludingAggregator agg(std::make_shared<CenteredClip>(), ex);
    const std::vector<float> a{1, 1}, b{3, 3}, liar{-1000, -1000};
    std::vector<Contribution> in{{"a", 1, a}, {"b", 1, b}, {"liar", 1, liar}};
    std::vector<float> out(2);
    agg.aggregate(in, out);
    QVERIFY(std::abs(out[0] - 2.0f) < 1e-5f);
    QVERIFY(std::abs(out[1] - 2.0f) < 1e-5f);
    // With everyone excluded it keeps them all rather than produce nothing.
    std::vector<Contribution> only_liar{{"liar", 1, liar}};
    agg.aggregate(only_liar, out);
    QCOMPARE(out[0], -1000.0f);
  }
};

QTEST_GUILESS_MAIN(TestPeerExclusion)
#include "test_peer_exclusion.moc"
