// Where one coordinator ends. For each swarm size (1,000 / 2,000 / 5,000 / 10,000 volunteers by
// default), side by side in one run: a real rookery-coordinator process (its state in SQLite,
// the embedded default) and a crowd of volunteers over real CURVE connections on loopback
// (support/volunteer_crowd.hpp, in child processes of this program of at most 4,000 each, as one
// process may not hold the descriptors of more), each heartbeating every 500 ms and asking for
// the run's status every 3 s as a node does. The crowd joins and is planned; 5% more join during
// the measured window so that the swarm is planned again in it, and the re-planner's periodic
// check runs in it too. Printed per size: heartbeat round trips (p50, p99, max), the longest
// silence, requests lost; the state file's transaction per tick (mean, max) and its size; the
// coordinator's resident memory; the last plan's time; the plan's size and the largest view of
// it a node is sent (the job averages in groups of 16, as a swarm of thousands must, so nodes
// are sent views: plan_view.hpp) against what a reply may carry, and the member list's size
// (sent as changes or in pages: member_list_sync.hpp), from the coordinator's load report
// (load_report.hpp); the plans and member lists the crowd completed; then which limit each size
// breaks, and the first resource to break, which is where one coordinator ends on this machine.
// Everything shares this machine's cores: the crowd's CURVE work too.
// Usage: bench_coordinator_capacity [--volunteers 1000,2000,5000,10000] [--seconds 20]
//                                   [--max-group 16] (0: one ring, every node sent the whole plan)
// Exit 1 only when a measurement could not be taken, never for the figures.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStringList>
#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cluster/planning.hpp"
#include "coordinator/swarm_planner.hpp"
#include "support/demo_job.hpp"
#include "support/processes.hpp"
#include "support/volunteer_crowd.hpp"

using namespace rookery;
using namespace rookery::testing;

namespace {

constexpr int kPerProcess = 4000;
constexpr double kDeadAfterMs = 3000;
constexpr double kGoalP99Ms = 50;

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// --- a part of the crowd, in a child process ------------------------------------------------

// Plays `n` volunteers: joins, waits for the first plan, settles, then measures for `seconds`
// (writing `<out>.window` when the window opens) and writes its figures to `out`.
int play(const QStringList& a) {
  const auto arg = [&a](const char* name) { return a.value(a.indexOf(name) + 1); };
  CrowdOptions o;
  o.volunteers = arg("--play").toInt();
  o.port_base = arg("--port-base").toInt();
  o.free_memory = arg("--memory").toLongLong();
  o.threads = 2;
  const int start_after = arg("--start-after").toInt(), seconds = arg("--seconds").toInt();
  const auto out = arg("--out").toStdString();
  if (!raise_file_limit(static_cast<rlim_t>(2 * o.volunteers + 512))) return 3;
  std::this_thread::sleep_for(std::chrono::seconds(start_after));
  VolunteerCrowd crowd(arg("--endpoint").toStdString(), arg("--key").toStdString(),
                       arg("--job").toStdString(), o);
  crowd.start();
  const bool joined = crowd.wait_joined(std::chrono::seconds(300));
  const auto planned_by = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (joined && crowd.figures().newest_plan == 0 &&
         std::chrono::steady_clock::now() < planned_by) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  if (start_after == 0) std::this_thread::sleep_for(std::chrono::seconds(5));  // settles
  crowd.figures(/*reset=*/true);
  { std::ofstream(out + ".window") << "open\n"; }
  std::this_thread::sleep_for(std::chrono::seconds(seconds));
  crowd.stop();
  const auto f = crowd.figures();
  std::ofstream file(out);
  file << f.joined << ' ' << f.refused << ' ' << f.lost << ' ' << f.unknown << ' ' << f.undecodable
       << ' ' << f.longest_silence_ms << ' ' << f.plans_received << ' ' << f.member_lists_received
       << ' ' << f.newest_plan << '\n';
  for (const double ms : f.heartbeat_ms) file << ms << ' ';
  file << '\n';
  return joined ? 0 : 4;
}

// --- the measurement, in the parent -----------------------------------------------------------

struct Figures {
  int n = 0;
  std::size_t joined = 0, refused = 0, lost = 0, unknown = 0, undecodable = 0;
  double longest_silence_ms = 0, p50 = 0, p99 = 0, max = 0;
  std::size_t plans = 0, lists = 0;
  double handled_mean_ms = 0, handled_max_ms = 0;
  double tx_mean_ms = 0, tx_max_ms = 0, tick_max_ms = 0, db_mib = 0, rss_mib = 0, hwm_mib = 0;
  double plan_s = 0;
  int plan_of = 0;
  int plan_kib = 0, view_kib = 0, list_kib = 0, reply_kib = 0;
  int withheld_plans = 0;
  bool complete = true;  // every part of the crowd joined and measured its window
};

double status_mib(qint64 pid, const char* field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string word;
  while (status >> word) {
    if (word == field) {
      double kib = 0;
      status >> kib;
      return kib / 1024;
    }
  }
  return 0;
}

// The coordinator's load reports in `log` from the `skip`th to the `end`th: the window's.
void read_load(const QString& log, int skip, int end, Figures& f) {
  QFile file(log);
  if (!file.open(QIODevice::ReadOnly)) return;
  const QString text = QString::fromUtf8(file.readAll());
  // One line of the coordinator's --load-report (coordinator/load_report.cpp), its figures by name.
  static const QRegularExpression load(
      "handled in mean (?<handled_mean>[0-9.]+) ms max (?<handled_max>[0-9.]+) ms; "
      "tick max (?<tick_max>[0-9.]+) ms, state transaction per tick mean (?<tx_mean>[0-9.]+) ms "
      "max (?<tx_max>[0-9.]+) ms; state file (?<db_mib>[0-9.]+) MiB; last plan (?<plan_s>[0-9.]+) "
      "s for (?<plan_of>[0-9]+) volunteers; plan (?<plan_kib>[0-9]+) KiB, largest view "
      "(?<view_kib>[0-9]+) KiB, member list "
      "(?<list_kib>[0-9]+) KiB \\(a reply holds (?<reply_kib>[0-9]+) KiB\\)");
  int seen = 0;
  for (auto it = load.globalMatch(text); it.hasNext();) {
    const auto m = it.next();
    if (seen++ < skip || seen > end) continue;
    const auto number = [&m](const char* name) { return m.captured(name).toDouble(); };
    // The window's worst of each cost; the state file's and the reply limit's latest; the
    // slowest plan with the swarm it planned.
    f.handled_mean_ms = std::max(f.handled_mean_ms, number("handled_mean"));
    f.handled_max_ms = std::max(f.handled_max_ms, number("handled_max"));
    f.tick_max_ms = std::max(f.tick_max_ms, number("tick_max"));
    f.tx_mean_ms = std::max(f.tx_mean_ms, number("tx_mean"));
    f.tx_max_ms = std::max(f.tx_max_ms, number("tx_max"));
    f.db_mib = number("db_mib");
    if (number("plan_s") >= f.plan_s) {
      f.plan_s = number("plan_s");
      f.plan_of = static_cast<int>(number("plan_of"));
    }
    f.plan_kib = std::max(f.plan_kib, static_cast<int>(number("plan_kib")));
    f.view_kib = std::max(f.view_kib, static_cast<int>(number("view_kib")));
    f.list_kib = std::max(f.list_kib, static_cast<int>(number("list_kib")));
    f.reply_kib = static_cast<int>(number("reply_kib"));
  }
  f.withheld_plans =
      static_cast<int>(text.count("over the 256 KiB a node accepts in a reply: volunteers"));
}

int load_reports(const QString& log) {
  QFile file(log);
  if (!file.open(QIODevice::ReadOnly)) return 0;
  return static_cast<int>(QString::fromUtf8(file.readAll()).count("load: "));
}

std::optional<Figures> measure(int n, int seconds, std::int64_t max_group) {
  {
    std::ifstream load("/proc/loadavg");
    std::string one;
    load >> one;
    std::printf("%6d volunteers: the machine's load average as it starts: %s\n", n, one.c_str());
  }
  Figures f;
  f.n = n;
  QTemporaryDir dir;
  // Averaging in groups (16 pipelines by default): one ring across thousands would never meet,
  // and the nodes are sent their views of the plan.
  const auto job =
      write_demo_job(dir.filePath("job.json"), "capacity",
                     [max_group](job::JobSpec& j) { j.averaging_max_group = max_group; });
  if (!job) return std::nullopt;
  const auto memory = static_cast<std::int64_t>(
      0.6 * double(cluster::model_memory_bytes(coordinator::block_profiles(*job),
                                               coordinator::training_settings(*job))));
  if (!raise_file_limit(static_cast<rlim_t>(n + 2048))) return std::nullopt;
  QProcess coord;
  const QString log = dir.filePath("coordinator.log");
  coord.setStandardErrorFile(log);
  coord.setStandardOutputFile(dir.filePath("coordinator.out"));
  coord.start(
      coordinator_bin(),
      {"--bind", "tcp://127.0.0.1:0", "--data-dir", dir.filePath("data"), "--ready-file",
       dir.filePath("ready"), "--open", "--job", dir.filePath("job.json"), "--archive-interval",
       "0", "--load-report", "5", "--heartbeat-ms", "500", "--dead-after-ms", "3000"});
  const auto address = wait_for_coordinator_ready(dir.filePath("ready"), 20000, &coord);
  if (!address) return std::nullopt;
  // The crowd, and 5% more that join while the window is open.
  struct Part {
    int n, start_after;
    QString out;
    std::unique_ptr<QProcess> process;
  };
  std::vector<Part> parts;
  const int late = std::max(1, n / 20);
  int port = 40000;
  for (int left = n; left > 0; left -= kPerProcess) {
    parts.push_back({std::min(left, kPerProcess), 0, {}, nullptr});
  }
  const auto start = std::chrono::steady_clock::now();
  const auto spawn = [&](Part& p) {
    p.out = dir.filePath(QString("crowd-%1").arg(port));
    p.process = std::make_unique<QProcess>();
    p.process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.process->start(
        QCoreApplication::applicationFilePath(),
        {"--play", QString::number(p.n), "--port-base", QString::number(port), "--memory",
         QString::number(memory), "--endpoint", address->endpoint, "--key", address->key, "--job",
         QString::fromStdString(job->id), "--start-after", QString::number(p.start_after),
         "--seconds", QString::number(p.start_after ? seconds / 2 : seconds), "--out", p.out});
    port += 3 * p.n;
  };
  for (auto& p : parts) spawn(p);
  // The window opens when every part of the crowd has joined, been planned and settled.
  const auto window_deadline = start + std::chrono::seconds(600);
  for (auto& p : parts) {
    while (!QFile::exists(p.out + ".window") &&
           std::chrono::steady_clock::now() < window_deadline &&
           p.process->state() != QProcess::NotRunning) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  const double join_s = seconds_since(start);
  const int skip = load_reports(log);
  f.rss_mib = status_mib(coord.processId(), "VmRSS:");
  parts.push_back({late, 1, {}, nullptr});
  spawn(parts.back());
  std::vector<double> beats;
  bool complete = true;
  for (auto& p : parts) {
    complete = p.process->waitForFinished(1000 * (seconds + 400)) && complete;
    complete = p.process->exitCode() == 0 && complete;
    std::ifstream file(p.out.toStdString());
    std::size_t joined = 0, refused = 0, lost = 0, unknown = 0, undecodable = 0, plans = 0,
                lists = 0;
    double silence = 0;
    unsigned long long newest = 0;
    if (!(file >> joined >> refused >> lost >> unknown >> undecodable >> silence >> plans >>
          lists >> newest)) {
      complete = false;
      continue;
    }
    f.joined += joined;
    f.refused += refused;
    f.lost += lost;
    f.unknown += unknown;
    f.undecodable += undecodable;
    f.longest_silence_ms = std::max(f.longest_silence_ms, silence);
    f.plans += plans;
    f.lists += lists;
    for (double ms; file >> ms;) beats.push_back(ms);
  }
  f.rss_mib = std::max(f.rss_mib, status_mib(coord.processId(), "VmRSS:"));
  f.hwm_mib = status_mib(coord.processId(), "VmHWM:");
  const int end = load_reports(log);
  coord.terminate();
  coord.waitForFinished(30000);
  read_load(log, skip, end, f);
  f.p50 = CrowdFigures::percentile(beats, 0.5);
  f.p99 = CrowdFigures::percentile(beats, 0.99);
  f.max = CrowdFigures::percentile(beats, 1);
  std::printf(
      "%6d volunteers: heartbeat p50 %6.1f ms p99 %7.1f ms max %7.1f ms, longest silence %5.0f "
      "ms, lost %zu, told to join again %zu, undecodable %zu | in the coordinator's handler mean "
      "%.2f ms max %.1f ms | state transaction per tick mean "
      "%.2f ms max %.1f ms, tick max %.1f ms, state file %.1f MiB | resident %.0f MiB (peak %.0f) "
      "| last plan %.2f s for %d | plan %d KiB, largest view %d KiB, member list %d KiB, a reply "
      "holds %d KiB "
      "(plans withheld: %d) | %zu heartbeats, %zu plans and %zu member lists completed | "
      "joined in %.0f s%s\n",
      n, f.p50, f.p99, f.max, f.longest_silence_ms, f.lost, f.unknown, f.undecodable,
      f.handled_mean_ms, f.handled_max_ms, f.tx_mean_ms, f.tx_max_ms, f.tick_max_ms, f.db_mib,
      f.rss_mib, f.hwm_mib, f.plan_s, f.plan_of, f.plan_kib, f.view_kib, f.list_kib, f.reply_kib,
      f.withheld_plans, beats.size(), f.plans, f.lists, join_s, complete ? "" : " (INCOMPLETE)");
  std::fflush(stdout);
  f.complete = complete;
  if (beats.empty()) return std::nullopt;
  return f;
}

// The limits a size breaks, in words ("" when none).
std::string broken(const Figures& f) {
  std::string b;
  const auto add = [&b](const std::string& s) { b += (b.empty() ? "" : "; ") + s; };
  if (!f.complete) add("not every volunteer got in and measured (joins wait behind the load)");
  if (f.lost + f.unknown + f.undecodable > 0 || f.max >= kDeadAfterMs ||
      f.longest_silence_ms >= kDeadAfterMs) {
    add("heartbeats miss the 3 s death deadline (volunteers declared dead)");
  }
  if (f.p99 > kGoalP99Ms) add("heartbeat p99 over the 50 ms goal");
  if (f.view_kib > f.reply_kib || f.withheld_plans > 0) {
    add("a node's view of the plan is over what a reply may carry (withheld: volunteers keep "
        "their old plan)");
  }
  if (f.tx_max_ms > 100) add("the state file's transaction takes longer than a tick (100 ms)");
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  const auto a = app.arguments();
  if (a.contains("--play")) return play(a);
  std::vector<int> sizes{1000, 2000, 5000, 10000};
  int seconds = 20;
  std::int64_t max_group = 16;
  for (int i = 1; i + 1 < a.size(); i += 2) {
    if (a[i] == "--volunteers") {
      sizes.clear();
      for (const auto& s : a[i + 1].split(',')) sizes.push_back(s.toInt());
    } else if (a[i] == "--seconds") {
      seconds = a[i + 1].toInt();
    } else if (a[i] == "--max-group") {
      max_group = a[i + 1].toLongLong();
    }
  }
  std::printf(
      "one rookery-coordinator process, its state in SQLite; heartbeats every 500 ms, "
      "status every 3 s, death after 3 s; %d s windows; %u core(s) shared with the crowd; the "
      "job averages in groups of %lld (0: one ring)\n",
      seconds, std::thread::hardware_concurrency(), static_cast<long long>(max_group));
  std::fflush(stdout);
  std::string ends;
  bool ok = true;
  for (const int n : sizes) {
    const auto f = measure(n, seconds, max_group);
    if (!f) {
      ok = false;
      continue;
    }
    const auto b = broken(*f);
    std::printf("%6d volunteers: %s\n", n, b.empty() ? "within every limit" : b.c_str());
    if (ends.empty() && !b.empty()) ends = std::to_string(n) + " volunteers: " + b;
  }
  std::printf("where one coordinator ends on this machine: %s\n",
              ends.empty() ? "beyond the sizes measured" : ends.c_str());
  return ok ? 0 : 1;
}
