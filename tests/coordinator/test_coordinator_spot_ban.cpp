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
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>

#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"
#include "net/identity.hpp"
#include "net/rpc.hpp"
#include "rookery/envelope.pb.h"
#include "support/coordinator_rpc.hpp"
#include "support/demo_job.hpp"
#include "support/processes.hpp"
#include "support/swarm_test.hpp"

using namespace rookery;
using namespace rookery::testing;
namespace pb = wire::pb;

class TestCoordinatorSpotBan : public SwarmTest {
  Q_OBJECT

  static constexpr int kVolunteers = 6;
  static constexpr int kLiar = kVolunteers - 1;

  template <typename Pred>
  std::optional<pb::RunStatus> wait_for(Pred pred, int timeout_ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeout_ms) {
      if (auto s = status(); s && pred(*s)) return s;
      QTest::qWait(300);
    }
    return std::nullopt;
  }

  static std::int64_t total_samples(const pb::RunStatus& s) {
    std::int64_t n = 0;
    for (const auto& node : s.nodes()) n += node.samples();
    return n;
  }

 private Q_SLOTS:
  void aLyingStageIsCaughtByItsNeighboursAndBanned() {
    QVERIFY(dir_.isValid());
    const QString job_path = dir_.filePath("job.json");
    auto job = write_demo_job(job_path, "spot-ban-demo", [](job::JobSpec& j) {
      j.micro_batch_size = 8;
      j.staleness = 2;
    });
    QVERIFY(job);
    // Half of what the whole model needs: three volunteers make a pipeline.
    const auto need = cluster::model_memory_bytes(coordinator::block_profiles(*job),
                                                  coordinator::training_settings(*job));
    const auto memory_mb =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(0.5 * static_cast<double>(need)) >> 20);
    QVERIFY2(start_swarm(dir_.path(), {"--job", job_path, "--heartbeat-ms", "300",
                                       "--averaging-interval-ms", "1000", "--planner", "uniform"}),
             "the coordinator did not start");
    for (int i = 0; i < kVolunteers; ++i) {
      QStringList extra{"--memory-limit-mb", QString::number(memory_mb)};
      if (i == kLiar)
        extra << "--fault"
              << "corrupt-work";
      QVERIFY(volunteers_.add("spot-ban-demo", extra));
    }
    const auto liar = volunteers_.keys[kLiar].toStdString();
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
        if (n.key() == liar && n.pipeline() >= 0) {
          seat_pipeline = n.pipeline();
          seat_stage = n.stage();
        }
      }
      for (const auto& b : s->banned()) banned = banned || b.key() == liar;
    }
    QVERIFY2(banned, "the lying stage was not banned within 150 s");
    QCOMPARE(s->banned_size(), 1);  // nobody honest
    const QString reason = QString::fromStdString(s->banned(0).reason());
    qInfo("the liar (pipeline %d, stage %d of 3) was banned after %.1f s: %s", seat_pipeline + 1,
          seat_stage + 1, t.elapsed() / 1000.0, qPrintable(reason));
    QVERIFY2(seat_stage >= 0, "the liar was never seated");
    QVERIFY2(reason.contains("spot-checks"), "banned for something else than its spot-checks");
    // Which side caught it follows from its seat: a first stage sends only activations, a last
    // stage only gradients.
    if (seat_stage == 0) QVERIFY(reason.contains("activations"));
    if (seat_stage == 2) QVERIFY(reason.contains("gradients"));
    // Planned out, refused when it asks again, and the honest five train on.
    s = wait_for(
        [&](const pb::RunStatus& st) {
          for (const auto& n : st.nodes()) {
            if (n.key() == liar) return false;
          }
          return st.pipelines() >= 1;
        },
        20000);
    QVERIFY2(s, "the banned volunteer is still planned");
    const std::int64_t before = total_samples(*s);
    s = wait_for([&](const pb::RunStatus& st) { return total_samples(st) > before; }, 30000);
    QVERIFY2(s, "the honest volunteers stopped training");
    QTRY_VERIFY_WITH_TIMEOUT(
        QString::fromUtf8(volunteers_.output[kLiar]).contains("banned from this job"), 10000);
  }
};

QTEST_GUILESS_MAIN(TestCoordinatorSpotBan)
#include "test_coordinator_spot_ban.moc"
