// Moshpit-style averaging groups (averaging_groups.hpp): bounded groups, every member in exactly
// one group per round, and every member's values reaching every other after any d consecutive
// rounds; on a full grid, d rounds of group means give everyone the exact mean. A member's sweep
// partners (the pipelines of its view of a large plan) hold every group it is in, each way, and
// stay bounded as members grow; the group bound a job's option gives.
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "reduce/averaging_groups.hpp"

using namespace rookery::reduce;

namespace {

// Whether, over rounds first..first+rounds-1, every member hears from every other: reach[m] is
// the set of members whose values m holds a share of.
bool everyone_reaches_everyone(std::size_t members, std::size_t max_group, std::uint64_t first,
                               std::size_t rounds) {
  std::vector<std::vector<bool>> reach(members, std::vector<bool>(members, false));
  for (std::size_t m = 0; m < members; ++m) reach[m][m] = true;
  for (std::uint64_t r = first; r < first + rounds; ++r) {
    for (const auto& group : averaging_groups(members, max_group, r)) {
      std::vector<bool> all(members, false);
      for (const auto m : group)
        for (std::size_t k = 0; k < members; ++k) all[k] = all[k] || reach[m][k];
      for (const auto m : group) reach[m] = all;
    }
  }
  for (const auto& row : reach)
    for (const bool b : row)
      if (!b) return false;
  return true;
}

}  // namespace

class TestAveragingGroups : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void fewMembersAreOneGroup() {
    for (std::size_t n = 1; n <= 16; ++n) {
      QCOMPARE(averaging_grid(n, 16).dimensions, std::size_t(1));
      const auto groups = averaging_groups(n, 16, 7);
      QCOMPARE(groups.size(), std::size_t(1));
      QCOMPARE(groups.front().size(), n);
    }
    QVERIFY(averaging_groups(0, 16, 0).empty());
  }

  void groupsAreBoundedAndCoverEveryoneOnce() {
    for (const std::size_t bound : {4, 5, 8, 16, 32}) {
      for (std::size_t n = 1; n <= 1200; n += (n < 100 ? 1 : 37)) {
        const auto grid = averaging_grid(n, bound);
        for (std::uint64_t r = 0; r < 2 * grid.dimensions + 1; ++r) {
          std::vector<int> seen(n, 0);
          for (const auto& g : averaging_groups(n, bound, r)) {
            QVERIFY2(g.size() <= bound, qPrintable(QString("%1 members, bound %2, round %3: %4")
                                                       .arg(n)
                                                       .arg(bound)
                                                       .arg(r)
                                                       .arg(g.size())));
            for (const auto m : g) ++seen[m];
          }
          for (std::size_t m = 0; m < n; ++m) QCOMPARE(seen[m], 1);
        }
      }
    }
  }

  void dRoundsReachEveryone() {
    for (const std::size_t bound : {4, 8, 16}) {
      for (std::size_t n = 2; n <= 300; n += (n < 70 ? 1 : 23)) {
        const auto d = averaging_grid(n, bound).dimensions;
        for (std::uint64_t first = 0; first < d; ++first)
          QVERIFY2(
              everyone_reaches_everyone(n, bound, first, d),
              qPrintable(
                  QString("%1 members, bound %2, from round %3").arg(n).arg(bound).arg(first)));
      }
    }
    // Fewer rounds than dimensions do not (the grid is no shortcut).
    QVERIFY(!everyone_reaches_everyone(64, 4, 0, 2));
  }

  void fullGridAveragesExactly() {
    const std::size_t n = 64;  // 4 x 4 x 4 with groups of 4
    QCOMPARE(averaging_grid(n, 4).dimensions, std::size_t(3));
    QCOMPARE(averaging_grid(n, 4).side, std::size_t(4));
    std::vector<double> x(n);
    for (std::size_t m = 0; m < n; ++m) x[m] = double(m * m % 17);
    double mean = 0;
    for (const double v : x) mean += v / double(n);
    for (std::uint64_t r = 5; r < 8; ++r) {
      for (const auto& g : averaging_groups(n, 4, r)) {
        double s = 0;
        for (const auto m : g) s += x[m] / double(g.size());
        for (const auto m : g) x[m] = s;
      }
    }
    for (const double v : x) QVERIFY(std::abs(v - mean) < 1e-9);
  }

  void roundSizeStaysBoundedAsMembersGrow() {
    // One ring across every pipeline grows with them; the groups do not.
    for (const std::size_t n : {100, 1000, 10000}) {
      std::size_t largest = 0;
      for (const auto& g : averaging_groups(n, 16, 0)) largest = std::max(largest, g.size());
      QVERIFY(largest <= 16);
      QVERIFY(averaging_grid(n, 16).dimensions <= 4);
    }
  }

  void sweepPartnersHoldEveryGroupBothWays() {
    for (const std::size_t bound : {4, 8, 16}) {
      for (const std::size_t n : {3, 5, 17, 40, 130, 300, 2000}) {
        const auto partners = sweep_partners(n, bound);
        QCOMPARE(partners.size(), n);
        const auto grid = averaging_grid(n, bound);
        std::size_t largest = 0;
        for (std::size_t m = 0; m < n; ++m) {
          const auto& view = partners[m];
          QVERIFY(std::is_sorted(view.begin(), view.end()));
          QVERIFY(std::binary_search(view.begin(), view.end(), m));
          largest = std::max(largest, view.size());
          for (const auto q : view) {  // symmetric
            const auto& back = partners[q];
            QVERIFY(std::binary_search(back.begin(), back.end(), m));
          }
        }
        // Every group of any round (not only the first sweep's) lies in each member's partners.
        for (std::uint64_t r = 7; r < 7 + 2 * grid.dimensions; ++r) {
          for (const auto& g : averaging_groups(n, bound, r)) {
            for (const auto m : g) {
              for (const auto q : g)
                QVERIFY(std::binary_search(partners[m].begin(), partners[m].end(), q));
            }
          }
        }
        if (n <= bound) {
          QCOMPARE(largest, n);  // one group: everybody
        } else {
          QVERIFY2(largest <= grid.dimensions * (bound - 1) + 1,
                   qPrintable(QString("%1 members, groups of %2: a view of %3")
                                  .arg(n)
                                  .arg(bound)
                                  .arg(largest)));
        }
      }
    }
    QCOMPARE(sweep_partners(2000, 16)[0].size() < 60, true);
    QCOMPARE(sweep_partners(7, 0)[3].size(), std::size_t(7));  // no bound: one ring of all
  }

  void groupBoundFollowsTheJob() {
    QCOMPARE(averaging_group_bound(0, 100), std::size_t(0));  // the job asks for one ring
    QCOMPARE(averaging_group_bound(16, 16), std::size_t(0));  // they fit in one group
    QCOMPARE(averaging_group_bound(16, 100), std::size_t(16));
    QCOMPARE(averaging_group_bound(2, 6), std::size_t(4));  // no grid of 2s: groups of 4
    QCOMPARE(averaging_group_bound(2, 3), std::size_t(0));  // 3 fit in one group of 4
  }

  void tinyBoundsFitSomeCounts() {
    // Groups of 2: a full binary grid, so exactly the powers of 2.
    QCOMPARE(averaging_grid(4, 2).dimensions, std::size_t(2));
    QCOMPARE(averaging_grid(8, 2).dimensions, std::size_t(3));
    for (const std::size_t n : {3, 5, 6, 7, 12})
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, averaging_grid(n, 2));
    // Groups of 3: also some counts with extras beside hosts (6 on a 2 x 2 grid).
    QCOMPARE(averaging_grid(6, 3).dimensions, std::size_t(2));
    QCOMPARE(averaging_grid(9, 3).side, std::size_t(3));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, averaging_grid(7, 3));
    QCOMPARE(averaging_grid(3, 3).dimensions, std::size_t(1));  // they fit in one group
    for (const std::size_t bound : {2, 3}) {
      for (std::size_t n = 1; n <= 70; ++n) {
        AveragingGrid grid;
        try {
          grid = averaging_grid(n, bound);
        } catch (const std::invalid_argument&) {
          continue;
        }
        for (std::uint64_t r = 0; r < grid.dimensions; ++r)
          for (const auto& g : averaging_groups(n, bound, r)) QVERIFY(g.size() <= bound);
        QVERIFY(everyone_reaches_everyone(n, bound, 0, grid.dimensions));
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestAveragingGroups)
#include "test_averaging_groups.moc"
