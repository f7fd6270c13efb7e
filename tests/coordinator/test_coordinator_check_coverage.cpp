// Check coverage with a real coordinator: six rookery-node processes, each holding half the
// model, join a rookery-coordinator planning with its own planner (`ours`, which cuts each
// pipeline to its volunteers, so a seat need not have an exact replica). One volunteer lies with
// every message it sends through the pipeline ('--fault corrupt-work'). The run's status
// reports every seat's check coverage (exact, composed or none, with the chains), none is
// unchecked with two pipelines, and the liar, wherever it sits, is caught and banned. Where the
// planner cuts both pipelines alike, each seat has an exact replica and two witnesses a side;
// where it cuts them differently, a seat has one witness a side, whose catch moves the liar to
// another seat for a second opinion (coordinator/second_opinion.hpp; the move alone is tested
// with played volunteers in test_coordinator_ban_vote). Checks composed of chains are run by
// real nodes in tests/pipeline/test_spot_check_chains.
#include <QElapsedTimer>
#include <QTest>

#include <algorithm>

#include "support/lying_stage_swarm.hpp"

using namespace rookery;
using namespace rookery::testing;
namespace pb = wire::pb;

class TestCoordinatorCheckCoverage : public LyingStageSwarm {
  Q_OBJECT

 private Q_SLOTS:
  void everySeatsCoverageIsReportedAndALiarIsBanned() {
    const auto liar = start_with_liar("coverage-demo", "ours");
    QVERIFY2(liar, "the swarm did not start");
    // The liar's seat, whichever the planner chose, while it still has one.
    int seat_pipeline = -1, seat_stage = -1, seat_stages = 0;
    pb::CheckCoverage liar_check = pb::CHECK_UNKNOWN;
    bool banned = false, reported = false;
    std::uint32_t composed = 0;
    std::optional<pb::RunStatus> s;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 150000 && !banned) {
      QTest::qWait(300);
      s = status();
      if (!s) continue;
      bool all = s->pipelines() > 0;
      std::uint32_t seated = 0;
      bool liar_seated = false;
      for (const auto& n : s->nodes()) {
        if (n.pipeline() < 0) continue;
        ++seated;
        all = all && n.check() != pb::CHECK_UNKNOWN;
        if (n.key() == *liar) {
          seat_pipeline = n.pipeline();
          seat_stage = n.stage();
          liar_check = n.check();
          liar_seated = true;
        }
      }
      // How many stages the liar's pipeline has: which side faces it at the end.
      if (liar_seated) {
        seat_stages = 0;
        for (const auto& n : s->nodes()) {
          if (n.pipeline() == seat_pipeline) seat_stages = std::max(seat_stages, n.stage() + 1);
        }
      }
      if (all && !reported && seated >= 4) {
        // The first plan with everyone seated: every seat's coverage is there, none unchecked.
        reported = true;
        const auto& c = s->check_coverage();
        composed = c.composed();
        qInfo(
            "plan %llu, %u pipeline(s): %u seats exact, %u composed, %u unchecked, %u with two "
            "chains",
            static_cast<unsigned long long>(s->plan_version()), s->pipelines(), c.exact(),
            c.composed(), c.unchecked(), c.two_chains());
        QCOMPARE(c.exact() + c.composed() + c.unchecked(), seated);
        if (s->pipelines() >= 2) QCOMPARE(c.unchecked(), 0u);
      }
      for (const auto& b : s->banned()) banned = banned || b.key() == *liar;
    }
    QVERIFY2(reported, "no status reported every seat's check coverage");
    qInfo("the liar's seat: %s; %u seat(s) without an exact replica",
          pb::CheckCoverage_Name(liar_check).c_str(), composed);
    QVERIFY2(banned, "the lying stage was not banned within 150 s");
    verify_liar_banned(s, *liar, seat_pipeline, seat_stage, seat_stages, t.elapsed() / 1000.0);
  }
};

QTEST_GUILESS_MAIN(TestCoordinatorCheckCoverage)
#include "test_coordinator_check_coverage.moc"
