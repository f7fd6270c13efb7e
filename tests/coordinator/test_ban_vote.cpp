// The ban vote as a pure function: who sees a volunteer's work (its witnesses, from the plan)
// and when their reports ban it (at least two, and a majority of that kind of witness).
#include <QTest>

#include <string>

#include "coordinator/ban_vote.hpp"
#include "coordinator/verdicts.hpp"

using namespace rookery;
using coordinator::BanReports;
using coordinator::BanWitnesses;

namespace {

std::set<std::string> keys(const std::string& prefix, int n) {
  std::set<std::string> out;
  for (int i = 0; i < n; ++i) out.insert(prefix + std::to_string(i));
  return out;
}

// The first `n` of `from`.
std::set<std::string> first(const std::set<std::string>& from, int n) {
  std::set<std::string> out;
  for (const auto& k : from) {
    if (static_cast<int>(out.size()) == n) break;
    out.insert(k);
  }
  return out;
}

coordinator::Seat seat(const std::string& key, std::int64_t first, std::int64_t last) {
  return {key, first, last};
}

}  // namespace

class TestBanVote : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void vote_data() {
    // Witnesses of each kind, how many of them report, and reporters that witness nothing.
    QTest::addColumn<int>("partners");
    QTest::addColumn<int>("excluding");
    QTest::addColumn<int>("sends_to");
    QTest::addColumn<int>("caught_activations");
    QTest::addColumn<int>("returns_to");
    QTest::addColumn<int>("caught_gradients");
    QTest::addColumn<int>("strangers");   // not witnesses: they exclude it and caught it
    QTest::addColumn<QString>("reason");  // empty: no ban

    namespace verdict = coordinator::verdict;
    const auto said = [](verdict::Code code) {
      return [code](int n, int of) {
        return QString::fromStdString(verdict::words(verdict::counted(code, n, of)));
      };
    };
    const auto ring = said(wire::pb::Verdict::RING_PARTNERS_REJECT);
    const auto activations = said(wire::pb::Verdict::CAUGHT_IN_SPOT_CHECKS);
    const auto gradients = said(wire::pb::Verdict::GRADIENTS_CAUGHT_IN_SPOT_CHECKS);
    QTest::newRow("no reports") << 3 << 0 << 2 << 0 << 2 << 0 << 0 << QString();
    QTest::newRow("no witnesses") << 0 << 0 << 0 << 0 << 0 << 0 << 0 << QString();
    QTest::newRow("one liar, its only partner") << 1 << 1 << 0 << 0 << 0 << 0 << 0 << QString();
    QTest::newRow("one liar of two partners") << 2 << 1 << 0 << 0 << 0 << 0 << 0 << QString();
    QTest::newRow("both partners") << 2 << 2 << 0 << 0 << 0 << 0 << 0 << ring(2, 2);
    QTest::newRow("majority: two of three") << 3 << 2 << 0 << 0 << 0 << 0 << 0 << ring(2, 3);
    QTest::newRow("tie: two of four") << 4 << 2 << 0 << 0 << 0 << 0 << 0 << QString();
    QTest::newRow("majority: three of four") << 4 << 3 << 0 << 0 << 0 << 0 << 0 << ring(3, 4);
    QTest::newRow("minority: two of five") << 5 << 2 << 0 << 0 << 0 << 0 << 0 << QString();
    QTest::newRow("unknown reporters do not count") << 3 << 1 << 2 << 0 << 2 << 0 << 5 << QString();
    QTest::newRow("only unknown reporters") << 0 << 0 << 0 << 0 << 0 << 0 << 4 << QString();
    QTest::newRow("activations: two of three receivers")
        << 0 << 0 << 3 << 2 << 0 << 0 << 0 << activations(2, 3);
    QTest::newRow("activations: one receiver alone")
        << 0 << 0 << 1 << 1 << 0 << 0 << 0 << QString();
    QTest::newRow("activations: tie") << 0 << 0 << 4 << 2 << 0 << 0 << 0 << QString();
    QTest::newRow("gradients: two of two") << 0 << 0 << 0 << 0 << 2 << 2 << 0 << gradients(2, 2);
    QTest::newRow("gradients: minority") << 0 << 0 << 0 << 0 << 5 << 2 << 1 << QString();
    // Two ties are not a majority: each side is judged by the witnesses that see it.
    QTest::newRow("sides judged apart") << 0 << 0 << 4 << 2 << 4 << 2 << 0 << QString();
    QTest::newRow("averaging judged first") << 2 << 2 << 2 << 2 << 2 << 2 << 0 << ring(2, 2);
    QTest::newRow("activations before gradients")
        << 2 << 1 << 3 << 3 << 2 << 2 << 0 << activations(3, 3);
  }

  void vote() {
    QFETCH(int, partners);
    QFETCH(int, excluding);
    QFETCH(int, sends_to);
    QFETCH(int, caught_activations);
    QFETCH(int, returns_to);
    QFETCH(int, caught_gradients);
    QFETCH(int, strangers);
    QFETCH(QString, reason);
    BanWitnesses w{keys("partner", partners), keys("next", sends_to), keys("prev", returns_to)};
    BanReports r;
    r.excluded_by = first(w.ring_partners, excluding);
    for (const auto& k : first(w.sends_to, caught_activations)) r.caught_by.insert(k);
    for (const auto& k : first(w.returns_gradients_to, caught_gradients)) r.caught_by.insert(k);
    for (const auto& k : keys("stranger", strangers)) {
      r.excluded_by.insert(k);
      r.caught_by.insert(k);
    }
    const auto verdict = coordinator::ban_vote(w, r);
    QCOMPARE(verdict.ban, !reason.isEmpty());
    QCOMPARE(QString::fromStdString(verdict.ban ? coordinator::verdict::words(verdict.why) : ""),
             reason);
  }

  // Ring partners hold any of its blocks in another pipeline; it sends activations to the
  // stages starting where it ends, in any pipeline, and gradients back to those ending where it
  // starts.
  void witnesses_from_the_plan() {
    coordinator::Assignment plan;
    plan.pipelines = {{seat("a", 0, 4), seat("b", 4, 8)}, {seat("c", 0, 3), seat("d", 3, 8)}};
    const auto a = coordinator::ban_witnesses(plan, "a");
    QVERIFY(a.has_value());
    QCOMPARE(a->ring_partners, (std::set<std::string>{"c", "d"}));
    QCOMPARE(a->sends_to, (std::set<std::string>{"b"}));
    QVERIFY(a->returns_gradients_to.empty());
    const auto d = coordinator::ban_witnesses(plan, "d");
    QVERIFY(d.has_value());
    QCOMPARE(d->ring_partners, (std::set<std::string>{"a", "b"}));
    QVERIFY(d->sends_to.empty());
    QCOMPARE(d->returns_gradients_to, (std::set<std::string>{"c"}));
    QVERIFY(!coordinator::ban_witnesses(plan, "unseated").has_value());
  }
};

QTEST_APPLESS_MAIN(TestBanVote)
#include "test_ban_vote.moc"
