// Check coverage with a real coordinator: six rookery-node processes, each holding half the
// model, join a rookery-coordinator planning with its own planner (`ours`, which cuts each
// pipeline to its volunteers, so a seat need not have an exact replica). One volunteer lies with
// every message it sends through the pipeline ('--fault corrupt-work'). The run's status
// reports every seat's check coverage (exact, composed or none, with the chains), none is
// unchecked with two pipelines, and the liar, wherever it sits, is caught and banned. (In the
// runs measured the planner cut both pipelines alike, so the seats were exact; checks composed
// of chains are run by real nodes in tests/pipeline/test_spot_check_chains.)
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

class TestCoordinatorCheckCoverage : public SwarmTest {
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
  void everySeatsCoverageIsReportedAndALiarIsBanned() {
    QVERIFY(dir_.isValid());
    const QString job_path = dir_.filePath("job.json");
    auto job = write_demo_job(job_path, "coverage-demo", [](job::JobSpec& j) {
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
                                       "--averaging-interval-ms", "1000", "--planner", "ours"}),
             "the coordinator did not start");
    for (int i = 0; i < kVolunteers; ++i) {
      QStringList extra{"--memory-limit-mb", QString::number(memory_mb)};
      if (i == kLiar)
        extra << "--fault"
              << "corrupt-work";
      QVERIFY(volunteers_.add("coverage-demo", extra));
    }
    const auto liar = volunteers_.keys[kLiar].toStdString();
    // The liar's seat, whichever the planner chose, while it still has one.
    int seat_pipeline = -1, seat_stage = -1;
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
      for (const auto& n : s->nodes()) {
        if (n.pipeline() < 0) continue;
        ++seated;
        all = all && n.check() != pb::CHECK_UNKNOWN;
        if (n.key() == liar) {
          seat_pipeline = n.pipeline();
          seat_stage = n.stage();
          liar_check = n.check();
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
      for (const auto& b : s->banned()) banned = banned || b.key() == liar;
    }
    QVERIFY2(reported, "no status reported every seat's check coverage");
    qInfo("the liar's seat: %s; %u seat(s) without an exact replica",
          pb::CheckCoverage_Name(liar_check).c_str(), composed);
    QVERIFY2(banned, "the lying stage was not banned within 150 s");
    QCOMPARE(s->banned_size(), 1);  // nobody honest
    const QString reason = QString::fromStdString(s->banned(0).reason());
    qInfo("the liar (pipeline %d, stage %d) was banned after %.1f s: %s", seat_pipeline + 1,
          seat_stage + 1, t.elapsed() / 1000.0, qPrintable(reason));
    QVERIFY2(seat_stage >= 0, "the liar was never seated");
    QVERIFY2(reason.contains("spot-checks"), "banned for something else than its spot-checks");
    // Which side caught it follows from its seat: a first stage sends only activations, a last
    // stage only gradients.
    if (seat_stage == 0) QVERIFY(reason.contains("activations"));

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

QTEST_GUILESS_MAIN(TestCoordinatorCheckCoverage)
#include "test_coordinator_check_coverage.moc"
