// Verifier chains and check coverage (core/cluster/verifier_chains, check_coverage): who can
// redo a stage's blocks for a spot-check when no other stage holds exactly its blocks, and
// which stages of heterogeneous plans of 12 and 24 volunteers can be checked.
#include "cluster/check_coverage.hpp"
#include "cluster/verifier_chains.hpp"

#include <QTest>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

using namespace rookery::cluster;

namespace {

// Empty when `chain` validly recomputes [first, last) from `holders` without `excluded`;
// otherwise what is wrong.
std::string chain_error(const VerifierChain& chain, const std::vector<HeldRange>& holders,
                        std::int64_t first, std::int64_t last,
                        const std::set<std::string>& excluded) {
  if (chain.empty()) return "empty chain";
  std::int64_t p = first;
  std::set<std::string> seen;
  for (const auto& l : chain) {
    if (l.first != p) return "link starts at " + std::to_string(l.first);
    if (l.last <= l.first) return "empty link";
    if (excluded.count(l.key)) return "excluded holder " + l.key;
    if (!seen.insert(l.key).second) return "holder twice: " + l.key;
    const auto h = std::find_if(holders.begin(), holders.end(),
                                [&](const HeldRange& r) { return r.key == l.key; });
    if (h == holders.end()) return "unknown holder " + l.key;
    if (l.first < h->first || l.last > h->last) return l.key + " does not hold its part";
    p = l.last;
  }
  return p == last ? "" : "chain ends at " + std::to_string(p);
}

bool disjoint(const VerifierChain& a, const VerifierChain& b) {
  for (const auto& x : a)
    for (const auto& y : b)
      if (x.key == y.key) return false;
  return true;
}

// `pipelines` pipelines over `blocks` blocks, `volunteers` stages in all, each cut at random.
std::vector<std::vector<HeldRange>> random_plan(int volunteers, int pipelines, int blocks,
                                                std::mt19937_64& rng) {
  std::vector<std::vector<HeldRange>> plan(static_cast<std::size_t>(pipelines));
  int next = 0;
  for (int p = 0; p < pipelines; ++p) {
    const int stages = volunteers / pipelines + (p < volunteers % pipelines ? 1 : 0);
    std::vector<int> cuts(static_cast<std::size_t>(blocks - 1));
    for (int i = 0; i < blocks - 1; ++i) cuts[static_cast<std::size_t>(i)] = i + 1;
    std::shuffle(cuts.begin(), cuts.end(), rng);
    cuts.resize(static_cast<std::size_t>(stages - 1));
    std::sort(cuts.begin(), cuts.end());
    cuts.insert(cuts.begin(), 0);
    cuts.push_back(blocks);
    for (int s = 0; s < stages; ++s)
      plan[static_cast<std::size_t>(p)].push_back({"v" + std::to_string(next++),
                                                   cuts[static_cast<std::size_t>(s)],
                                                   cuts[static_cast<std::size_t>(s) + 1]});
  }
  return plan;
}

}  // namespace

class TestVerifierChains : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void exactHoldersComeFirst() {
    const std::vector<HeldRange> holders{{"x", 2, 5},  {"e1", 2, 5}, {"super", 0, 8},
                                         {"e2", 2, 5}, {"e3", 2, 5}, {"a", 0, 3}};
    std::mt19937_64 rng(1);
    const auto chains = find_verifier_chains(holders, 2, 5, {"x"}, rng);
    QCOMPARE(chains.size(), std::size_t(2));
    for (const auto& c : chains) {
      QVERIFY(is_exact(c, holders));
      QVERIFY(c.front().key != "x");
    }
    QVERIFY(disjoint(chains[0], chains[1]));
    // One exact holder: it, then the fewest links among the rest (the superset, one link).
    const std::vector<HeldRange> one_exact{
        {"x", 2, 5}, {"e1", 2, 5}, {"super", 0, 8}, {"a", 0, 3}, {"b", 3, 8}};
    const auto mixed = find_verifier_chains(one_exact, 2, 5, {"x"}, rng);
    QCOMPARE(mixed.size(), std::size_t(2));
    QCOMPARE(mixed[0], (VerifierChain{{"e1", 2, 5}}));
    QCOMPARE(mixed[1], (VerifierChain{{"super", 2, 5}}));
    QVERIFY(!is_exact(mixed[1], one_exact));
  }

  void composedFromOverlappingHolders() {
    // Two pipelines cut differently: [0,3) [3,8) and [0,5) [5,8). Stage [3,8) has no replica.
    const std::vector<HeldRange> holders{{"a", 0, 3}, {"x", 3, 8}, {"b", 0, 5}, {"c", 5, 8}};
    std::mt19937_64 rng(7);
    const auto chains = find_verifier_chains(holders, 3, 8, {"x"}, rng);
    QCOMPARE(chains.size(), std::size_t(1));
    QCOMPARE(chains[0], (VerifierChain{{"b", 3, 5}, {"c", 5, 8}}));
    // The checker is left out too: without "c" nobody else holds blocks 5-7.
    QVERIFY(find_verifier_chains(holders, 3, 8, {"x", "c"}, rng).empty());
  }

  void fewestLinksWin() {
    // [0,8) can be covered by p1 [0,4) + p2 [4,8) (2 links) or q1 [0,2) q2 [2,5) q3 [5,8).
    const std::vector<HeldRange> holders{{"x", 0, 8},  {"q1", 0, 2}, {"q2", 2, 5},
                                         {"q3", 5, 8}, {"p1", 0, 4}, {"p2", 4, 8}};
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      std::mt19937_64 rng(seed);
      const auto chains = find_verifier_chains(holders, 0, 8, {"x"}, rng);
      QCOMPARE(chains.size(), std::size_t(2));
      QCOMPARE(chains[0].size(), std::size_t(2));  // the shorter chain is drawn first
      QVERIFY(disjoint(chains[0], chains[1]));
      for (const auto& c : chains) QCOMPARE(chain_error(c, holders, 0, 8, {"x"}), std::string());
    }
  }

  void deterministicButVaried() {
    // Four interchangeable two-link chains: the seed decides, the same seed the same way.
    const std::vector<HeldRange> holders{
        {"x", 0, 6}, {"a1", 0, 3}, {"a2", 0, 3}, {"b1", 3, 6}, {"b2", 3, 6}};
    std::set<std::string> firsts;
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
      std::mt19937_64 r1(seed), r2(seed);
      const auto c1 = find_verifier_chains(holders, 0, 6, {"x"}, r1);
      const auto c2 = find_verifier_chains(holders, 0, 6, {"x"}, r2);
      QCOMPARE(c1, c2);
      QCOMPARE(c1.size(), std::size_t(2));
      QVERIFY(disjoint(c1[0], c1[1]));
      firsts.insert(describe(c1[0]));
    }
    QCOMPARE(firsts.size(), std::size_t(4));
  }

  void aPairIsFoundWhenOneExists() {
    // Chains of two links: {l1 or l2} then {r1, r2}. A draw of l1 -> r_shared leaves only l2,
    // which needs r_shared too unless the first took r_own; redraws find the pair.
    const std::vector<HeldRange> holders{
        {"x", 0, 6}, {"l1", 0, 3}, {"l2", 0, 4}, {"r_shared", 3, 6}, {"r_own", 4, 6}};
    for (std::uint64_t seed = 0; seed < 30; ++seed) {
      std::mt19937_64 rng(seed);
      const auto chains = find_verifier_chains(holders, 0, 6, {"x"}, rng);
      QCOMPARE(chains.size(), std::size_t(2));
      QVERIFY(disjoint(chains[0], chains[1]));
    }
  }

  void badRangeIsRefused() {
    std::mt19937_64 rng(0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             find_verifier_chains({{"a", 0, 4}}, 3, 3, {}, rng));
  }

  void coverageOfHeterogeneousPlans() {
    // Plans of 12 and 24 volunteers in 2 to 6 pipelines cut at random over 24 blocks: with
    // exact replicas alone only some stages are checkable; with chains, every one, each chain
    // valid, and two independent chains wherever three pipelines or more run.
    std::mt19937_64 rng(2024);
    int without_replica = 0, stages_seen = 0;
    for (const int volunteers : {12, 24}) {
      for (int pipelines = 2; pipelines <= 6; ++pipelines) {
        for (int trial = 0; trial < 10; ++trial) {
          const auto plan = random_plan(volunteers, pipelines, 24, rng);
          std::vector<HeldRange> all;
          for (const auto& p : plan) all.insert(all.end(), p.begin(), p.end());
          const auto report = check_coverage(plan, static_cast<std::uint64_t>(trial));
          QCOMPARE(report.stages.size(), static_cast<std::size_t>(volunteers));
          QVERIFY2(report.complete(), summary(report).c_str());
          for (const auto& c : report.stages) {
            ++stages_seen;
            QVERIFY(c.kind != CheckKind::None);
            if (c.kind == CheckKind::Composed) ++without_replica;
            QVERIFY(c.chains >= 1);
            if (pipelines >= 3) QCOMPARE(c.chains, 2);
            // The chains the stage runtime would draw are valid.
            std::mt19937_64 draw(static_cast<std::uint64_t>(c.stage));
            const auto chains = find_verifier_chains(all, c.first, c.last, {c.key}, draw);
            QCOMPARE(static_cast<int>(chains.size()), c.chains);
            for (const auto& ch : chains)
              QCOMPARE(chain_error(ch, all, c.first, c.last, {c.key}), std::string());
            if (chains.size() == 2) QVERIFY(disjoint(chains[0], chains[1]));
          }
        }
      }
    }
    // Random cuts leave most stages without an exact replica: the chains are what checks them.
    QVERIFY2(without_replica > stages_seen / 2,
             (std::to_string(without_replica) + " of " + std::to_string(stages_seen)).c_str());
  }

  void coverageSaysWhyNot() {
    // One pipeline: nobody else holds any block. A lone stage: nobody receives its work.
    const std::vector<std::vector<HeldRange>> one{{{"a", 0, 3}, {"b", 3, 8}}};
    const auto r1 = check_coverage(one);
    QCOMPARE(r1.unchecked, 2);
    QVERIFY(!r1.complete());
    QCOMPARE(r1.stages[1].why, std::string("block 3 is held by nobody else"));
    const std::vector<std::vector<HeldRange>> lone{{{"w", 0, 8}}, {{"a", 0, 3}, {"b", 3, 8}}};
    const auto r2 = check_coverage(lone);
    QCOMPARE(r2.stages[0].kind, CheckKind::None);
    QVERIFY(r2.stages[0].why.find("alone") != std::string::npos);
    QCOMPARE(r2.stages[1].kind, CheckKind::Composed);  // "w" runs blocks 0-2 of its whole model
    QCOMPARE(r2.stages[1].links, 1);
    QCOMPARE(r2.stages[2].kind, CheckKind::Composed);
    // Two alike pipelines: every stage has an exact replica, one chain each.
    const std::vector<std::vector<HeldRange>> alike{{{"a", 0, 3}, {"b", 3, 8}},
                                                    {{"c", 0, 3}, {"d", 3, 8}}};
    const auto r3 = check_coverage(alike);
    QCOMPARE(r3.exact, 4);
    QCOMPARE(r3.two_chains, 0);
    QCOMPARE(summary(r3),
             std::string("4 stages: 4 exact, 0 composed, 0 unchecked; 0 with two chains"));
  }
};

QTEST_GUILESS_MAIN(TestVerifierChains)
#include "test_verifier_chains.moc"
