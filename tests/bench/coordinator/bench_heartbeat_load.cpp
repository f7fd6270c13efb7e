// What a crowd of volunteers costs the coordinator: heartbeat and status round trips at 1,000,
// 2,000 (and more) volunteers, played by this process over real CURVE connections to a
// coordinator in this process (support/volunteer_crowd.hpp), each heartbeating every 500 ms and
// asking for the run's status every 3 s as a node does. For each crowd: a fresh coordinator, the
// crowd joins, is planned, then 5% more join so that the swarm is planned again within the
// measured window; a re-planning check also runs every 10 s. Printed per crowd: heartbeat p50,
// p99 and max, status p50 and p99, the longest silence, and beside them the time one plan of that
// many volunteers takes on one core (plan_swarm in this process, as the plan thread runs it).
// Usage: bench_heartbeat_load [--volunteers 1000,2000,4000] [--seconds 20] [--threads 2]
// Exit 1 only when a measurement could not be taken, never for speed.
#include <QCoreApplication>
#include <QStringList>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "cluster/planning.hpp"
#include "coordinator/swarm_planner.hpp"
#include "support/inprocess_coordinator.hpp"
#include "support/volunteer_crowd.hpp"

using namespace rookery;
using namespace rookery::testing;

namespace {

struct Args {
  std::vector<int> volunteers{1000, 2000, 4000};
  int seconds = 20;
  int threads = 2;
};

Args parse(const QStringList& a) {
  Args args;
  for (int i = 1; i + 1 < a.size(); i += 2) {
    if (a[i] == "--volunteers") {
      args.volunteers.clear();
      for (const auto& n : a[i + 1].split(',')) args.volunteers.push_back(n.toInt());
    } else if (a[i] == "--seconds") {
      args.seconds = a[i + 1].toInt();
    } else if (a[i] == "--threads") {
      args.threads = a[i + 1].toInt();
    }
  }
  return args;
}

// One plan of `n` volunteers like the crowd's, on this thread.
double planning_seconds(int n, const job::JobSpec& job, std::int64_t memory) {
  std::vector<coordinator::Member> members;
  for (int i = 0; i < n; ++i) {
    coordinator::Member m;
    m.key = "volunteer-" + std::to_string(i);
    m.profile.flops_per_s = 50e9;
    m.profile.free_memory_bytes = memory;
    m.profile.upload_bytes_per_s = m.profile.download_bytes_per_s = 1e9;
    m.profile.rtt_s = 1e-3;
    members.push_back(m);
  }
  const auto start = std::chrono::steady_clock::now();
  const auto plan = coordinator::plan_swarm(members, job);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (plan.empty()) std::fprintf(stderr, "the plan of %d seats nobody\n", n);
  return s;
}

// One crowd of `n`; false when it could not be measured.
bool measure(int n, const Args& args) {
  if (!raise_file_limit(static_cast<rlim_t>(4 * n + 1024))) {
    std::fprintf(stderr, "cannot open enough files for %d connections (ulimit -n)\n", n);
    return false;
  }
  InProcessCoordinator coordinator("bench-heartbeats", [](coordinator::CoordinatorConfig& c) {
    c.heartbeat_interval = std::chrono::milliseconds(500);
    c.dead_after = std::chrono::milliseconds(3000);
    c.settle = std::chrono::milliseconds(1000);
  });
  if (!coordinator.ok()) {
    std::fprintf(stderr, "the coordinator did not start\n");
    return false;
  }
  CrowdOptions options;
  options.volunteers = n;
  options.threads = args.threads;
  options.free_memory = static_cast<std::int64_t>(
      0.6 * double(cluster::model_memory_bytes(coordinator::block_profiles(coordinator.job()),
                                               coordinator::training_settings(coordinator.job()))));
  VolunteerCrowd crowd(coordinator.endpoint(), coordinator.key(), coordinator.job().id, options);
  const auto join_start = std::chrono::steady_clock::now();
  crowd.start();
  if (!crowd.wait_joined(std::chrono::seconds(120))) {
    std::fprintf(stderr, "only %zu of %d volunteers joined\n", crowd.figures().joined, n);
    return false;
  }
  const double join_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - join_start).count();
  const auto planned_by = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (crowd.figures().newest_plan == 0 && std::chrono::steady_clock::now() < planned_by) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  crowd.figures(/*reset=*/true);
  // 5% more join: planned again within the window.
  options.volunteers = std::max(1, n / 20);
  options.port_base += 3 * n;
  VolunteerCrowd late(coordinator.endpoint(), coordinator.key(), coordinator.job().id, options);
  late.start();
  std::this_thread::sleep_for(std::chrono::seconds(args.seconds));
  late.stop();
  crowd.stop();
  const auto f = crowd.figures();
  const double plan_s =
      planning_seconds(n + options.volunteers, coordinator.job(), options.free_memory);
  std::printf(
      "%6d volunteers: heartbeat p50 %7.1f ms  p99 %7.1f ms  max %7.1f ms | status p50 %7.1f ms  "
      "p99 %7.1f ms | longest silence %5.0f ms | lost %zu, told to join again %zu, undecodable "
      "%zu | plans delivered %zu, member lists %zu, newest plan %llu | joins %.1f s | one plan "
      "of %d: %.2f s\n",
      n, CrowdFigures::percentile(f.heartbeat_ms, 0.5),
      CrowdFigures::percentile(f.heartbeat_ms, 0.99), CrowdFigures::percentile(f.heartbeat_ms, 1),
      CrowdFigures::percentile(f.status_ms, 0.5), CrowdFigures::percentile(f.status_ms, 0.99),
      f.longest_silence_ms, f.lost, f.unknown, f.undecodable, f.plans_received,
      f.member_lists_received, static_cast<unsigned long long>(f.newest_plan), join_s,
      n + options.volunteers, plan_s);
  std::fflush(stdout);
  return coordinator.stop() == 0;
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  const auto args = parse(app.arguments());
  std::printf(
      "heartbeats every 500 ms, status every 3 s, death after 3 s; %d s window, %d "
      "client thread(s), %u core(s)\n",
      args.seconds, args.threads, std::thread::hardware_concurrency());
  bool ok = true;
  for (int n : args.volunteers) ok = measure(n, args) && ok;
  return ok ? 0 : 1;
}
