// Check coverage with a real coordinator, and second opinions run by real nodes: five
// rookery-node processes of two sizes join a rookery-coordinator planning with its own planner
// (`ours`, which cuts each pipeline to its volunteers): two large ones (each 0.8 of what the
// whole model needs) make a pipeline of two halves, three small ones (0.48) a pipeline of three
// thirds, so no seat has an exact replica and each has one witness a side. One small volunteer
// lies with every message it sends through the pipeline ('--fault corrupt-work'). The run's
// status reports every seat's check coverage (exact, composed or none, with the chains), none is
// unchecked with two pipelines, and the liar, wherever it sits, is caught by its lone witness,
// moved (or its witness swapped out) for a second opinion (coordinator/second_opinion.hpp; the
// moves alone are tested in test_second_opinion, with played volunteers in
// test_coordinator_ban_vote), caught again and banned. The volunteers benchmark their devices for
// a second: five starting at once measure steadier speeds, and so are planned the same way run to
// run. Checks composed of chains are run by real nodes in tests/pipeline/test_spot_check_chains.
// The other way round, a slanderer among them: test_coordinator_slander.
#include <QElapsedTimer>
#include <QFile>
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
    const auto liar =
        start_with_liar("coverage-demo", "ours", {0.8, 0.8, 0.48, 0.48, 0.48}, QStringLiteral("1"));
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
    // Where no seat had an exact replica, each had one witness a side: its catch alone bans
    // nobody, so the ban came through a second opinion.
    if (composed == 5) {
      QFile log(coordinator_.dir.filePath("data/logs/coordinator.log"));
      QVERIFY(log.open(QIODevice::ReadOnly));
      QVERIFY2(log.readAll().contains("for a second opinion"), "banned without a second opinion");
    }
    verify_liar_banned(s, *liar, seat_pipeline, seat_stage, seat_stages, t.elapsed() / 1000.0);
  }
};

QTEST_GUILESS_MAIN(TestCoordinatorCheckCoverage)
#include "test_coordinator_check_coverage.moc"
