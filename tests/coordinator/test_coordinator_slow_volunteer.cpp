// Re-planning on measured speed with real processes and a real slowdown, no fault injected:
// three rookery-node volunteers form one pipeline. The volunteer on the costliest seat is
// pinned alone to one core, the two others to the other core. Then a program of its owner's
// (a busy loop at nice 19) starts on its core: the node's compute runs at SCHED_IDLE, so it
// gets a sliver of the core. Its benchmark and its owner's allowance (the governor's duty
// cycle) are unchanged; only the training FLOP per second of compute it reports falls. The
// coordinator sees it against the volunteer's own past on those blocks (SpeedHistory) and
// re-plans it onto cheaper blocks.
//
// Needs two cores and `taskset`; skipped (77) where either is missing. Label slow (~2 min).
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <thread>

#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"
#include "net/identity.hpp"
#include "rookery/envelope.pb.h"
#include "support/coordinator_rpc.hpp"
#include "support/demo_job.hpp"
#include "support/processes.hpp"
#include "support/swarm_test.hpp"

using namespace rookery;
using namespace rookery::testing;
namespace pb = wire::pb;

class TestCoordinatorSlowVolunteer : public SwarmTest {
  Q_OBJECT

  job::JobSpec job_;
  QProcess hog_;

  // Training FLOP per sample of the blocks a volunteer holds (0: unseated or unknown).
  double seat_flops(const pb::RunStatus& s, const std::string& key) const {
    const auto blocks = coordinator::block_profiles(job_);
    for (const auto& n : s.nodes()) {
      if (n.key() != key || n.pipeline() < 0) continue;
      double f = 0;
      for (auto b = n.first_block(); b < n.last_block(); ++b)
        f += blocks[static_cast<std::size_t>(b)].flops_per_sample;
      return f;
    }
    return 0;
  }

  // Pins every thread of process `pid` to `core` (threads it starts later inherit it).
  static bool pin(qint64 pid, int core) {
    QProcess t;
    t.start("taskset", {"-a", "-p", "-c", QString::number(core), QString::number(pid)});
    return t.waitForFinished(5000) && t.exitStatus() == QProcess::NormalExit && t.exitCode() == 0;
  }

 private Q_SLOTS:
  void initTestCase() {
    if (std::thread::hardware_concurrency() < 2) QSKIP("needs two cores");
    {
      QProcess probe;
      probe.start("taskset", {"-p", QString::number(QCoreApplication::applicationPid())});
      if (!probe.waitForFinished(5000) || probe.exitCode() != 0)
        QSKIP("needs taskset (util-linux)");
    }
    QVERIFY(dir_.isValid());
    const auto job =
        write_demo_job(dir_.filePath("job.json"), "slow-volunteer", [](job::JobSpec& j) {
          j.micro_batch_size = 8;
          j.staleness = 2;
        });
    QVERIFY(job);
    job_ = *job;
    QVERIFY(start_swarm(dir_.filePath("volunteers"),
                        {"--job", dir_.filePath("job.json"), "--heartbeat-ms", "300",
                         "--dead-after-ms", "5000", "--planner", "ours"}));
  }

  void aVolunteerWhoseCoreIsTakenIsMovedToCheaperBlocks() {
    // Each may hold half the model: three form one pipeline.
    const auto need = cluster::model_memory_bytes(coordinator::block_profiles(job_),
                                                  coordinator::training_settings(job_));
    const auto mb = QString::number(
        std::max<std::int64_t>(1, static_cast<std::int64_t>(0.5 * double(need)) >> 20));
    // Their benchmarks one after the other and long enough to agree: the planner's view of the
    // two others must not be skewed by a 50 ms benchmark run while the others start.
    volunteers_.benchmark_seconds = "0.5";
    for (int i = 0; i < 3; ++i) {
      QVERIFY(volunteers_.add("slow-volunteer", {"--memory-limit-mb", mb}));
      QTest::qWait(1500);
    }

    // One training pipeline of three.
    std::optional<pb::RunStatus> planned;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 90000 && !planned) {
      if (const auto s = status(); s && s->pipelines() == 1) {
        int training = 0;
        for (const auto& n : s->nodes()) training += n.pipeline() >= 0 && n.samples() > 0;
        if (training == 3) planned = s;
      }
      QTest::qWait(300);
    }
    QVERIFY2(planned, "three volunteers did not form a training pipeline within 90 s");

    // The victim: the costliest seat, alone on core 1; the others on core 0.
    int victim = -1;
    double most = 0;
    for (int i = 0; i < 3; ++i) {
      const double f = seat_flops(*planned, volunteers_.keys[std::size_t(i)].toStdString());
      if (f > most) most = f, victim = i;
    }
    QVERIFY(victim >= 0);
    const auto victim_key = volunteers_.keys[std::size_t(victim)].toStdString();
    for (int i = 0; i < 3; ++i)
      QVERIFY(pin(volunteers_.processes[std::size_t(i)]->processId(), i == victim ? 1 : 0));
    qInfo("victim %s holds blocks costing %.2f MFLOP/sample (plan %llu)",
          victim_key.substr(0, 8).c_str(), most / 1e6,
          static_cast<unsigned long long>(planned->plan_version()));
    // Its speed alone on its core: the readings its slowdown is judged against.
    QTest::qWait(15000);

    // Its owner's program takes the core.
    hog_.start("taskset", {"-c", "1", "nice", "-n", "19", "sh", "-c", "while :; do :; done"});
    QVERIFY(hog_.waitForStarted(5000));
    t.restart();
    std::optional<pb::RunStatus> moved;
    while (t.elapsed() < 120000 && !moved) {
      if (const auto s = status();
          s && s->plan_version() > planned->plan_version() && seat_flops(*s, victim_key) < most) {
        moved = s;
      }
      QTest::qWait(500);
    }
    hog_.kill();
    hog_.waitForFinished(5000);
    QVERIFY2(moved, "the slowed volunteer kept its costly seat for 120 s");
    // Moved because of what it showed: the coordinator plans it with under half its speed.
    const auto planned_speed = [&](const pb::RunStatus& s) {
      for (const auto& n : s.nodes()) {
        if (n.key() == victim_key) return n.profile().flops_per_s();
      }
      return 0.0;
    };
    qInfo("planned with %.2f GFLOP/s (was %.2f)", planned_speed(*moved) / 1e9,
          planned_speed(*planned) / 1e9);
    QVERIFY(planned_speed(*moved) < 0.5 * planned_speed(*planned));
    const double now = seat_flops(*moved, victim_key);
    qInfo(
        "%.1f s after its core was taken: plan %llu, the victim on blocks costing %.2f "
        "MFLOP/sample (was %.2f)%s",
        double(t.elapsed()) / 1000, static_cast<unsigned long long>(moved->plan_version()),
        now / 1e6, most / 1e6, now == 0 ? ", a spare" : "");
  }

  void cleanupTestCase() {
    if (hog_.state() != QProcess::NotRunning) {
      hog_.kill();
      hog_.waitForFinished(5000);
    }
  }
};

QTEST_MAIN(TestCoordinatorSlowVolunteer)
#include "test_coordinator_slow_volunteer.moc"
