// A verified ban for a lying pipeline stage, end to end: six rookery-node processes, each too
// small to hold the model alone, join a rookery-coordinator and are planned into two pipelines
// of three with the same cuts (the `uniform` planner), SWARM-wired. One of them lies with every
// message it sends through the pipeline: its activations go forward sign-flipped x10 and its
// gradients go back sign-flipped x10 ('--fault corrupt-work'), so it lies whatever seat the
// planner gives it. The stages that receive its work spot-check it (core/pipeline/spot_check.hpp:
// activations recomputed by the other holder of its blocks; gradients re-derived from what the
// checker sent and what the stage after it confirms sending), refuse it, and name it in their
// heartbeats; the coordinator bans it once a majority of the stages on one side of it agree. It
// is planned out, its joins are refused with the reason, and the honest five train on.
#include <QElapsedTimer>
#include <QTest>

#include "support/lying_stage_swarm.hpp"

using namespace rookery;
using namespace rookery::testing;
namespace pb = wire::pb;

class TestCoordinatorSpotBan : public LyingStageSwarm {
  Q_OBJECT

 private Q_SLOTS:
  void aLyingStageIsCaughtByItsNeighboursAndBanned() {
    const auto liar = start_with_liar("spot-ban-demo", "uniform");
    QVERIFY2(liar, "the swarm did not start");
    // The liar's seat, whichever the planner chose, while it still has one.
    int seat_pipeline = -1, seat_stage = -1;
    bool banned = false;
    std::optional<pb::RunStatus> s;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 150000 && !banned) {
      QTest::qWait(300);
      s = status();
      if (!s) continue;
      for (const auto& n : s->nodes()) {
        if (n.key() == *liar && n.pipeline() >= 0) {
          seat_pipeline = n.pipeline();
          seat_stage = n.stage();
        }
      }
      for (const auto& b : s->banned()) banned = banned || b.key() == *liar;
    }
    QVERIFY2(banned, "the lying stage was not banned within 150 s");
    verify_liar_banned(s, *liar, seat_pipeline, seat_stage, 3, t.elapsed() / 1000.0);
  }
};

QTEST_GUILESS_MAIN(TestCoordinatorSpotBan)
#include "test_coordinator_spot_ban.moc"
