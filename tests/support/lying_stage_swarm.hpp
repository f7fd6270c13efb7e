#pragma once
// A test class's base for a real swarm with one lying stage: a rookery-coordinator and
// rookery-node volunteers, by default six each holding half the model (three make a pipeline),
// the last of them lying with every message it sends through the pipeline ('--fault
// corrupt-work': activations and gradients sign-flipped x10). The test watches the run's status
// until the liar is banned, then checks the ban the same way whatever the planner: for its
// spot-checks, by the side its seat faces, planned out, told so, and the honest ones training
// on. Needs what SwarmTest needs and rookery::coordinator.
#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"
#include "support/demo_job.hpp"
#include "support/swarm_test.hpp"

namespace rookery::testing {

class LyingStageSwarm : public SwarmTest {
 protected:
  int liar_ = -1;  // the liar's place among volunteers_

  // The status once `pred` holds, polled every 0.3 s; nothing after `timeout_ms`.
  template <typename Pred>
  std::optional<wire::pb::RunStatus> wait_for(Pred pred, int timeout_ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeout_ms) {
      if (auto s = status(); s && pred(*s)) return s;
      QTest::qWait(300);
    }
    return std::nullopt;
  }

  static std::int64_t total_samples(const wire::pb::RunStatus& s) {
    std::int64_t n = 0;
    for (const auto& node : s.nodes()) n += node.samples();
    return n;
  }

  // Writes the demo job `job_name`, starts the coordinator with `planner`, and a volunteer for
  // each of `shares` (its memory, as a share of what the whole model needs), each benchmarking
  // its device for `benchmark_seconds` (its planned FLOP/s; longer is steadier when several start
  // at once); the last one lies, with `fault`. The liar's key, or nothing when something did not
  // start.
  std::optional<std::string> start_with_liar(
      const QString& job_name, const QString& planner,
      const std::vector<double>& shares = std::vector<double>(6, 0.5),
      const QString& benchmark_seconds = "0.05", const QString& fault = "corrupt-work") {
    if (!dir_.isValid()) return std::nullopt;
    const QString job_path = dir_.filePath("job.json");
    const auto job = write_demo_job(job_path, job_name.toStdString(), [](job::JobSpec& j) {
      j.micro_batch_size = 8;
      j.staleness = 2;
    });
    if (!job) return std::nullopt;
    const auto need = cluster::model_memory_bytes(coordinator::block_profiles(*job),
                                                  coordinator::training_settings(*job));
    if (!start_swarm(dir_.path(),
                     QStringList{"--job", job_path, "--heartbeat-ms", "300",
                                 "--averaging-interval-ms", "1000", "--planner", planner}))
      return std::nullopt;
    volunteers_.benchmark_seconds = benchmark_seconds;
    liar_ = static_cast<int>(shares.size()) - 1;
    for (int i = 0; i <= liar_; ++i) {
      const auto memory_mb = std::max<std::int64_t>(
          1, static_cast<std::int64_t>(shares[std::size_t(i)] * static_cast<double>(need)) >> 20);
      QStringList extra{"--memory-limit-mb", QString::number(memory_mb)};
      if (i == liar_) extra << "--fault" << fault;
      if (!volunteers_.add(job_name, extra)) return std::nullopt;
    }
    return volunteers_.keys[std::size_t(liar_)].toStdString();
  }

  // After the liar was banned (`s`: the status that said so, `seat_stage` its last seat of
  // `stages`, -1 when never seated): banned alone and for its spot-checks, by the side its seat
  // faces; then planned out, refused with the reason, and the honest ones train on. Checks with
  // QVERIFY: call it as the test's last statement, then return if QTest::currentTestFailed().
  void verify_liar_banned(std::optional<wire::pb::RunStatus> s, const std::string& liar,
                          int seat_pipeline, int seat_stage, int stages, double seconds) {
    QVERIFY(s);
    QCOMPARE(s->banned_size(), 1);  // nobody honest
    const QString reason = QString::fromStdString(s->banned(0).reason());
    qInfo("the liar (pipeline %d, stage %d of %d) was banned after %.1f s: %s", seat_pipeline + 1,
          seat_stage + 1, stages, seconds, qPrintable(reason));
    QVERIFY2(seat_stage >= 0, "the liar was never seated");
    QVERIFY2(reason.contains("spot-checks"), "banned for something else than its spot-checks");
    // Which side caught it follows from its seat: a first stage sends only activations, a last
    // stage only gradients.
    if (seat_stage == 0) QVERIFY(reason.contains("activations"));
    if (seat_stage == stages - 1) QVERIFY(reason.contains("gradients"));
    s = wait_for(
        [&](const wire::pb::RunStatus& st) {
          for (const auto& n : st.nodes()) {
            if (n.key() == liar) return false;
          }
          return st.pipelines() >= 1;
        },
        20000);
    QVERIFY2(s, "the banned volunteer is still planned");
    const std::int64_t before = total_samples(*s);
    s = wait_for([&](const wire::pb::RunStatus& st) { return total_samples(st) > before; }, 30000);
    QVERIFY2(s, "the honest volunteers stopped training");
    QTRY_VERIFY_WITH_TIMEOUT(
        QString::fromUtf8(volunteers_.output[std::size_t(liar_)]).contains("banned from this job"),
        10000);
  }
};

}  // namespace rookery::testing
