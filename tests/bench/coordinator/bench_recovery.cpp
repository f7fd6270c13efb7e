// Recovery from a killed volunteer, measured: a rookery-coordinator (--planner uniform) and
// six rookery-node processes on loopback, each offering half the memory the demo model needs,
// so they train as two pipelines of three. After a warm-up one middle stage is killed with
// SIGKILL. The swarm's throughput (samples/s completed by the pipelines' first stages, from the
// coordinator's run status every 0.5 s, over a sliding 3 s window) is followed until it is back
// at 90% of what the survivors give once settled (their mean over the last 15 s of the run).
// Printed: throughput before, the survivors' settled throughput, and the seconds from the kill
// to 90% of it. Repeats: a fresh swarm each time.
// Usage: bench_recovery [--repeats N]
// Exit 1 only when a measurement could not be taken, never for speed.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <cstdio>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"
#include "support/bench_repeats.hpp"
#include "support/demo_job.hpp"
#include "net/identity.hpp"
#include "net/rpc.hpp"
#include "rookery/envelope.pb.h"
#include "support/coordinator_rpc.hpp"
#include "support/pipeline_harness.hpp"
#include "support/processes.hpp"

using namespace rookery;
using rookery::testing::run_status;
namespace pb = wire::pb;

namespace {

struct Sample {
  double t = 0;              // seconds since the kill (negative before)
  std::int64_t samples = 0;  // first stages, all time
};

std::int64_t first_stage_samples(const pb::RunStatus& s) {
  std::int64_t n = 0;
  for (const auto& node : s.nodes())
    n += node.samples();  // every node's, so a node's role change loses nothing
  return n;
}

// Samples/s over the window (seconds) ending at index i, not reaching back before `from`.
double rate_at(const std::vector<Sample>& v, std::size_t i, double window, double from = -1e9) {
  std::size_t j = i;
  while (j > 0 && v[i].t - v[j - 1].t <= window && v[j - 1].t >= from) --j;
  if (j == i) return 0;
  return static_cast<double>(v[i].samples - v[j].samples) / (v[i].t - v[j].t);
}

bool once(const QString& job_path, std::int64_t memory_mb, int repeat) {
  QTemporaryDir dir;
  const std::string endpoint = "tcp://127.0.0.1:" + std::to_string(testing::free_tcp_port());
  QProcess coordinator;
  coordinator.setStandardOutputFile(QProcess::nullDevice());
  coordinator.setStandardErrorFile(dir.filePath("coordinator.log"));
  const QString ready = dir.filePath("ready");
  coordinator.start(
      testing::coordinator_bin(),
      {"--bind", QString::fromStdString(endpoint), "--data-dir", dir.filePath("coordinator"),
       "--job", job_path, "--open", "--ready-file", ready, "--planner", "uniform", "--heartbeat-ms",
       "300", "--dead-after-ms", "2000", "--averaging-interval-ms", "2000"});
  const auto address = testing::wait_for_coordinator_ready(ready, 5000, &coordinator);
  if (!address) return false;
  const QString key = address->key;
  std::vector<std::unique_ptr<QProcess>> nodes;
  std::vector<QString> keys;
  for (int i = 0; i < 6; ++i) {
    const QString d = dir.filePath(QString("node%1").arg(i));
    QProcess id;
    id.start(testing::node_bin(), {"--data-dir", d, "--print-identity"});
    id.waitForFinished(10000);
    keys.push_back(QString::fromUtf8(id.readAllStandardOutput()).trimmed());
    auto p = std::make_unique<QProcess>();
    p->setStandardOutputFile(QProcess::nullDevice());
    p->setStandardErrorFile(dir.filePath(QString("node%1.log").arg(i)));
    p->start(testing::node_bin(),
             {"--data-dir", d, "--runtime-dir", d + "/run", "--join", "recovery-bench",
              "--coordinator", QString::fromStdString(endpoint), "--coordinator-key", key,
              "--memory-limit-mb", QString::number(memory_mb), "--contribute", "--threads", "1",
              "--benchmark-seconds", "0.05"});
    nodes.push_back(std::move(p));
  }
  net::SecureContext ctx(1);
  const auto me = net::CurveKeyPair::generate();
  QElapsedTimer t;
  t.start();
  std::optional<pb::RunStatus> s;
  while (t.elapsed() < 90000) {
    s = run_status(ctx, me, endpoint, key.toStdString());
    bool ok = s && s->pipelines() == 2 && s->nodes_size() == 6;
    for (int i = 0; ok && i < s->nodes_size(); ++i) ok = s->nodes(i).samples() > 0;
    if (ok) break;
    QTest::qWait(250);
  }
  if (!s || s->pipelines() != 2) return false;
  std::vector<Sample> v;
  QElapsedTimer clock;
  clock.start();
  auto poll = [&](double offset) {
    if (const auto st = run_status(ctx, me, endpoint, key.toStdString())) {
      v.push_back({clock.elapsed() / 1000.0 - offset, first_stage_samples(*st)});
    }
  };
  // 12 s of two full pipelines, then the kill.
  while (clock.elapsed() < 12000) {
    poll(0);
    QTest::qWait(500);
  }
  std::size_t victim = 0;
  const auto at_kill = run_status(ctx, me, endpoint, key.toStdString());
  if (!at_kill) return false;
  for (const auto& n : at_kill->nodes()) {
    if (n.stage() == 1) {
      for (std::size_t i = 0; i < keys.size(); ++i) {
        if (keys[i].toStdString() == n.key()) victim = i;
      }
    }
  }
  const double kill_at = clock.elapsed() / 1000.0;
  for (auto& x : v) x.t -= kill_at;
  const double before = rate_at(v, v.size() - 1, 8.0);
  ::kill(static_cast<pid_t>(nodes[victim]->processId()), SIGKILL);
  while (clock.elapsed() / 1000.0 - kill_at < 45) {
    poll(kill_at);
    QTest::qWait(500);
  }
  // The survivors, settled: the last 15 s.
  double settled = rate_at(v, v.size() - 1, 15.0);
  double back = -1;
  for (std::size_t i = 0; i < v.size(); ++i) {
    // Only samples taken after the kill count, over at least 1.5 s.
    if (v[i].t >= 1.5 && rate_at(v, i, 3.0, 0.0) >= 0.9 * settled) {
      back = v[i].t;
      break;
    }
  }
  std::printf(
      "repeat %d  before %.1f samples/s (6 volunteers), survivors settled %.1f samples/s (5), "
      "back at 90%% of that %.1f s after the kill\n",
      repeat, before, settled, back);
  std::fflush(stdout);
  for (auto& p : nodes) {
    p->terminate();
    if (!p->waitForFinished(15000)) p->kill();
  }
  coordinator.terminate();
  coordinator.waitForFinished(5000);
  return back >= 0;
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  QTemporaryDir dir;
  const auto job = testing::small_demo_job("recovery-bench");
  const QString job_path = dir.filePath("job.json");
  {
    QFile f(job_path);
    if (!f.open(QIODevice::WriteOnly)) return 1;
    f.write(QByteArray::fromStdString(job::to_json(job)));
  }
  const auto need = cluster::model_memory_bytes(coordinator::block_profiles(job),
                                                coordinator::training_settings(job));
  const std::int64_t memory_mb = static_cast<std::int64_t>(0.5 * static_cast<double>(need)) >> 20;
  return testing::run_repeats(argc, argv, [&](int r) { return once(job_path, memory_mb, r); });
}
