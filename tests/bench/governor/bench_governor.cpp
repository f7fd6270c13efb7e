// Resource governor benchmarks against a real rookery-node (the benchmark work: 768^3
// matrix products in 0.2 s units), printed side by side in one run:
//   cpu        CPU-time caps of 25, 50 and 75% on one thread: the node's CPU share from
//              /proc/<pid>/stat against the cap (goal: within ±5 points)
//   pause      "user active" (a presence report with in_use.run off) to no compute: the
//              worker thread's run time from /proc/<pid>/task/<tid>/schedstat stops rising
//              (goal: under 1 s; p50 and p99)
//   probe      a thread that wakes every 10 ms, alone and beside a node computing on every
//              core at full CPU time: p99 lateness (goal: within 1.5x of alone)
//   bandwidth  a two-stage pipeline whose first stage has an upload cap: bytes sent per
//              second against the cap (goal: within 10%)
// Usage: bench_governor [--seconds S] [--repeats N] [cpu|pause|probe|bandwidth ...]
// Exit 1 only when a measurement could not be taken (no node, no work), never for speed.
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "governor/governor_harness.hpp"
#include "support/pipeline_harness.hpp"
#include "support/processes.hpp"

using namespace rookery;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {
double seconds_opt = 2;
int repeats_opt = 8;

control::ControlEndpoints endpoints(const testing::NodeProcess& n) {
  return control::ControlEndpoints::in(n.runtime_dir().toStdString());
}

bool start_node(testing::NodeProcess& node, control::ControlClient& c, const QStringList& extra) {
  if (!node.start(extra)) return false;
  return testing::wait_until(
      [&] {
        auto a = c.status(1s);
        return a.ok && a.snapshot.state() == testing::pb::CONTRIBUTING &&
               a.snapshot.work().work_units() >= 1;
      },
      90000);
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1,
                    static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5))];
}

// Run time in ns of every thread of a process.
std::map<std::string, std::uint64_t> thread_run_ns(qint64 pid) {
  std::map<std::string, std::uint64_t> out;
  const QDir tasks(QString("/proc/%1/task").arg(pid));
  for (const auto& tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    std::ifstream in(QString("/proc/%1/task/%2/schedstat").arg(pid).arg(tid).toStdString());
    std::uint64_t ns = 0;
    if (in >> ns) out[tid.toStdString()] = ns;
  }
  return out;
}

bool bench_cpu() {
  std::printf("\n== CPU-time cap: the node's CPU share (one thread, /proc) ==\n");
  testing::NodeProcess node;
  control::ControlClient c(endpoints(node));
  if (!start_node(node, c, {"--contribute", "--preference", "idle.cpu_cores_percent=1"}))
    return false;
  testing::report_presence(c, 3600);
  std::printf("%8s %12s %12s %10s\n", "cap", "CPU share", "duty cycle", "error");
  for (int cap : {25, 50, 75, 100}) {
    if (!testing::set_preferences(c, {{"idle.cpu_time_percent", std::to_string(cap)}}).ok)
      return false;
    testing::report_presence(c, 3600);
    std::this_thread::sleep_for(1500ms);
    const double cpu0 = testing::process_cpu_seconds(node.process.processId());
    const auto t0 = Clock::now();
    QTest::qWait(static_cast<int>(seconds_opt * 2000));
    const double share = (testing::process_cpu_seconds(node.process.processId()) - cpu0) /
                         std::chrono::duration<double>(Clock::now() - t0).count();
    const double duty = c.status().snapshot.governor().duty_cycle_measured();
    std::printf("%7d%% %11.1f%% %11.1f%% %+9.1f\n", cap, share * 100, duty * 100,
                share * 100 - cap);
  }
  return true;
}

bool bench_pause() {
  std::printf("\n== Pause latency: \"user active\" to no compute (worker thread's run time) ==\n");
  testing::NodeProcess node;
  control::ControlClient c(endpoints(node));
  if (!start_node(node, c, {"--contribute", "--preference", "in_use.run=false"})) return false;
  testing::report_presence(c, 3600);
  std::this_thread::sleep_for(1s);
  std::vector<double> latencies;
  for (int i = 0; i < repeats_opt; ++i) {
    testing::report_presence(c, 3600);  // idle: compute
    std::this_thread::sleep_for(
        std::chrono::milliseconds(400 + 37 * (i % 7)));  // land anywhere in a unit
    // The worker: the thread that ran most over the last stretch.
    const auto before = thread_run_ns(node.process.processId());
    std::this_thread::sleep_for(100ms);
    auto mid = thread_run_ns(node.process.processId());
    std::string worker;
    std::uint64_t most = 0;
    for (const auto& [tid, ns] : mid) {
      const auto d = ns - (before.count(tid) ? before.at(tid) : 0);
      if (d > most) most = d, worker = tid;
    }
    if (worker.empty() || most == 0) return false;
    const auto t0 = Clock::now();
    testing::report_presence(c, 0);  // the owner is back
    auto last = thread_run_ns(node.process.processId())[worker];
    auto last_change = t0;
    while (Clock::now() - last_change < 600ms && Clock::now() - t0 < 5s) {
      std::this_thread::sleep_for(1ms);
      const auto now_ns = thread_run_ns(node.process.processId())[worker];
      if (now_ns > last + 200'000) last_change = Clock::now();  // more than 0.2 ms of compute
      last = now_ns;
    }
    latencies.push_back(std::chrono::duration<double, std::milli>(last_change - t0).count());
  }
  std::printf("%d pauses: p50 %.0f ms, p99 %.0f ms, max %.0f ms (goal: under 1000 ms)\n",
              repeats_opt, percentile(latencies, 0.5), percentile(latencies, 0.99),
              percentile(latencies, 1.0));
  return true;
}

std::vector<double> probe_lateness(double seconds) {
  std::vector<double> late;
  const auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(seconds));
  auto next = Clock::now() + 10ms;
  while (next < end) {
    std::this_thread::sleep_until(next);
    late.push_back(std::chrono::duration<double, std::micro>(Clock::now() - next).count());
    next += 10ms;
  }
  return late;
}

bool bench_probe() {
  std::printf("\n== Responsiveness: a 10 ms periodic probe, alone and beside a training node ==\n");
  const double secs = seconds_opt * 2;
  const auto alone = probe_lateness(secs);
  testing::NodeProcess node;
  control::ControlClient c(endpoints(node));
  // Every core, full CPU time: the node's idle priority is all that protects the probe.
  if (!start_node(node, c,
                  {"--contribute", "--threads", "0", "--preference", "idle.cpu_cores_percent=100"}))
    return false;
  testing::report_presence(c, 3600);
  std::this_thread::sleep_for(1s);
  const auto beside = probe_lateness(secs);
  const double node_cpu = c.status().snapshot.device().node_cpu_percent();
  const double a99 = percentile(alone, 0.99), b99 = percentile(beside, 0.99);
  std::printf("%-22s %10s %10s %10s\n", "", "p50 (us)", "p99 (us)", "max (us)");
  std::printf("%-22s %10.0f %10.0f %10.0f\n", "probe alone", percentile(alone, 0.5), a99,
              percentile(alone, 1));
  std::printf("%-22s %10.0f %10.0f %10.0f\n", "beside training node", percentile(beside, 0.5), b99,
              percentile(beside, 1));
  std::printf(
      "p99 ratio %.2fx (goal: within 1.5x); the node used %.0f%% of the machine meanwhile\n",
      b99 / std::max(1.0, a99), node_cpu);
  return true;
}

bool bench_bandwidth() {
  std::printf("\n== Upload cap: a two-stage pipeline, stage 0's bytes sent per second ==\n");
  testing::PipelineHarness h;
  if (!h.prepare(testing::small_gpt_job("bench-bandwidth"), {{0, 2}, {2, 4}})) return false;
  if (!h.start_all({})) return false;
  auto c0 = h.client(0);
  auto bytes = [&] { return c0.status(2s).snapshot.stage().bytes_sent(); };
  if (!testing::wait_until([&] { return bytes() > 0; }, 90000)) return false;
  auto rate_over = [&](double secs) {
    const auto b0 = bytes();
    const auto t0 = Clock::now();
    QTest::qWait(static_cast<int>(secs * 1000));
    return static_cast<double>(bytes() - b0) /
           std::chrono::duration<double>(Clock::now() - t0).count();
  };
  const double free_rate = rate_over(seconds_opt * 1.5);
  std::printf("%12s %14s %10s\n", "cap (KiB/s)", "sent (KiB/s)", "ratio");
  std::printf("%12s %14.0f %10s\n", "none", free_rate / 1024, "");
  for (int cap : {256, 1024}) {  // several 128 KiB activations per second
    testing::set_preferences(c0, {{"upload_kib_per_s", std::to_string(cap)}});
    QTest::qWait(1500);
    const double r = rate_over(seconds_opt * 3);
    std::printf("%12d %14.1f %9.3f%s\n", cap, r / 1024, r / (cap * 1024.0),
                free_rate < cap * 1024.0 * 1.2
                    ? "  (compute-bound: the uncapped rate is near the cap)"
                    : "");
  }
  h.quit_all();
  return true;
}
}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  std::set<std::string> which;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--seconds" && i + 1 < argc)
      seconds_opt = std::atof(argv[++i]);
    else if (a == "--repeats" && i + 1 < argc)
      repeats_opt = std::atoi(argv[++i]);
    else
      which.insert(a);
  }
  const auto wants = [&](const char* n) { return which.empty() || which.count(n); };
  std::printf("bench_governor: %.0f s per measurement, %d repeats; %u cores\n", seconds_opt,
              repeats_opt, std::thread::hardware_concurrency());
  bool ok = true;
  if (wants("cpu")) ok = bench_cpu() && ok;
  if (wants("pause")) ok = bench_pause() && ok;
  if (wants("probe")) ok = bench_probe() && ok;
  if (wants("bandwidth")) ok = bench_bandwidth() && ok;
  std::fflush(stdout);
  return ok ? 0 : 1;
}
