// PeerExclusion: a ring partner rejected, or clipped hard far out of the round's spread, in every
// slice of 3 rounds in a row is left out of this node's aggregates for a while; anything else
// clears its strikes. Through CenteredClip: an honest replica that lags (clipped hard in every
// slice) is not excluded, a sign-flipping liar beside it is.
#include <QTest>

#include <cmath>
#include <random>

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
      c["liar"].far += liar_bad;
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
      c["m"].far += hard;
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
      t[0]["m"].far += params_bad;
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
      u[0]["m"].far += params_bad;
      u[1]["m"].seen += state_seen;
      u[1]["m"].clipped_hard += state_bad;
      u[1]["m"].far += state_bad;
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
    w[0]["m"] = {2, 0, 2, 0, 2};
    QCOMPARE(ex3.end_round(w), std::vector<std::string>{"m"});
  }

  // Replicas slowed by load drift apart: a lagging one's pseudo-gradient is a fraction of the
  // others'. CenteredClip clips it hard in every slice, so the old rule (clipped hard 3 rounds
  // in a row) excluded it; it is well inside the round's spread, so it is never far. A liar
  // sending -50x the update is far in every slice (-1000x: rejected for its norm) and excluded
  // in the third round.
  void honestDriftIsNotExcludedButALiarIs_data() {
    QTest::addColumn<float>("lie");  // the liar's multiple of the update; 0: no liar
    QTest::newRow("honest drift") << 0.f;
    QTest::newRow("drift and a liar x-50") << -50.f;
    QTest::newRow("drift and a liar x-1000") << -1000.f;
  }
  void honestDriftIsNotExcludedButALiarIs() {
    QFETCH(float, lie);
    const bool liar = lie != 0;
    constexpr std::size_t kValues = 1000, kSlices = 4;
    auto tally = std::make_shared<AggregationTally>();
    const CenteredClip clip({}, tally);
    PeerExclusion ex(3, 10);
    std::mt19937 rng(7);
    std::normal_distribution<float> normal;
    std::vector<std::string> names{"own", "b", "c", "slow"};
    if (liar) names.push_back("liar");
    double worst_ratio = 0;  // the lagging replica's distance over the others' median
    for (int round = 0; round < 5; ++round) {
      for (std::size_t slice = 0; slice < kSlices; ++slice) {
        std::vector<float> update(kValues);
        for (auto& u : update) u = normal(rng);
        std::vector<std::vector<float>> values(names.size(), std::vector<float>(kValues));
        for (std::size_t m = 0; m < names.size(); ++m) {
          const float scale = names[m] == "slow" ? 0.2f : names[m] == "liar" ? lie : 1.f;
          for (std::size_t i = 0; i < kValues; ++i)
            values[m][i] = scale * update[i] + 0.3f * normal(rng);
        }
        std::vector<Contribution> in;
        for (std::size_t m = 0; m < names.size(); ++m)
          in.push_back({names[m], 1, values[m], names[m] == "own"});
        std::vector<float> out(kValues);
        const auto report = clip.aggregate_with_report(in, out);
        std::vector<double> others;
        for (const auto& r : report.members) {
          if (r.member != "slow" && r.member != "liar") others.push_back(r.distance);
        }
        std::sort(others.begin(), others.end());
        worst_ratio = std::max(worst_ratio, report.members[3].distance / others[1]);
      }
      const auto newly = ex.end_round(tally->counts());
      if (liar && round == 2) {
        QCOMPARE(newly, std::vector<std::string>{"liar"});
      } else {
        QVERIFY(newly.empty());
      }
    }
    const auto counts = tally->counts();
    const auto& slow = counts.at("slow");
    if (!liar) QCOMPARE(slow.clipped_hard, slow.seen);  // what excluded it before
    QCOMPARE(slow.far, 0u);
    QVERIFY(!ex.excluded("slow"));
    qInfo("the lagging replica: at most %.1fx the others' median distance (far: 8x)", worst_ratio);
    if (liar) {
      const auto& l = counts.at("liar");
      QCOMPARE(lie > -100 ? l.far : l.rejected, l.seen);
      QVERIFY(ex.excluded("liar"));
    }
  }

  void excludingAggregatorLeavesTheExcludedOut() {
    auto ex = std::make_shared<PeerExclusion>(1, 5);
    std::map<std::string, Counts> c{{"liar", {1, 0, 1, 1, 1}}};
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
