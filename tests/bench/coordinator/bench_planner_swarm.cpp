// Our planner against Ravnest's with real volunteers: a rookery-coordinator (--planner ours,
// then --planner ravnest, alternating) and three rookery-node processes on loopback, one at
// full speed and two whose owners allow 30% of the CPU time (the governor's duty cycle; the
// node reports its measured FLOP/s times that share, which is what the planner sees). Each
// volunteer offers three quarters of the memory the demo model needs, so the three always
// form one pipeline; what differs is where the cuts go. Ravnest splits the parameters equally
// in the order listed; ours gives the fast node the blocks the slow ones cannot carry.
// Printed: the plans, samples/s of each run measured over the same window after warm-up, and
// the ratio (goal: >= 1.3x).
// On unequal links: planner_links.sh puts every volunteer in a network namespace of its own
// behind a tbf-shaped link and passes --hosts/--netns (one per volunteer) and the
// coordinator's --coordinator-host/--coordinator-netns; each process then starts in its
// namespace and the coordinator measures the shaped links when the volunteers join.
// Usage: bench_planner_swarm [--repeats N] [--seconds S] [--duty 100,30,30]
//        [--hosts A,B,C --netns NA,NB,NC --coordinator-host H --coordinator-netns NC]
// Exit 1 only when a measurement could not be taken, never for speed.
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"
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

struct Run {
  double samples_per_s = 0;
  std::string layout;
};

// Where the processes run: all on loopback, or each in its own network namespace.
struct Layout {
  std::vector<int> duty{100, 30, 30};  // each volunteer's CPU-time share, %
  QStringList hosts, netns;            // per volunteer; empty: loopback
  QString coordinator_host, coordinator_netns;
  bool namespaced() const { return !hosts.isEmpty(); }
};

// Starts `program` with `args`, inside `netns` when one is named (`ip netns exec` execs it, so
// the QProcess is the program itself and terminate() reaches it).
void start_in(QProcess& p, const QString& netns, const QString& program, const QStringList& args) {
  if (netns.isEmpty()) {
    p.start(program, args);
  } else {
    p.start(QStringLiteral("ip"), QStringList{"netns", "exec", netns, program} + args);
  }
}

std::int64_t first_stage_samples(const pb::RunStatus& s) {
  std::int64_t n = 0;
  for (const auto& node : s.nodes()) {
    if (node.pipeline() >= 0 && node.stage() == 0) n += node.samples();
  }
  return n;
}

std::optional<Run> measure(const QString& planner, const QString& job_path, std::int64_t memory_mb,
                           double seconds, const Layout& layout) {
  QTemporaryDir dir;
  // In its own namespace the coordinator has every port to itself.
  const int port = layout.namespaced() ? 47100 : testing::free_tcp_port();
  const std::string host =
      layout.namespaced() ? layout.coordinator_host.toStdString() : "127.0.0.1";
  const std::string endpoint = "tcp://" + host + ":" + std::to_string(port);
  QProcess coordinator;
  coordinator.setStandardOutputFile(QProcess::nullDevice());
  coordinator.setStandardErrorFile(dir.filePath("coordinator.log"));
  const QString ready = dir.filePath("ready");
  start_in(coordinator, layout.coordinator_netns, testing::coordinator_bin(),
           {"--bind", QString::fromStdString(endpoint), "--data-dir", dir.filePath("coordinator"),
            "--job", job_path, "--ready-file", ready, "--planner", planner, "--heartbeat-ms", "300",
            // open, and uncapped: the lab's volunteers are ours, many from one subnet
            "--open", "--max-per-address", "0", "--max-per-subnet", "0"});
  const auto address = testing::wait_for_coordinator_ready(ready, 5000, &coordinator);
  if (!address) return std::nullopt;
  const QString key = address->key;
  std::vector<std::unique_ptr<QProcess>> nodes;
  const int volunteers = static_cast<int>(layout.duty.size());
  for (int i = 0; i < volunteers; ++i) {
    auto p = std::make_unique<QProcess>();
    p->setStandardOutputFile(QProcess::nullDevice());
    p->setStandardErrorFile(dir.filePath(QString("node%1.log").arg(i)));
    const QString d = dir.filePath(QString("node%1").arg(i));
    QStringList where;
    if (layout.namespaced()) where = {"--host", layout.hosts[i]};
    start_in(*p, layout.namespaced() ? layout.netns[i] : QString(), testing::node_bin(),
             where + QStringList{"--data-dir",
                                 d,
                                 "--runtime-dir",
                                 d + "/run",
                                 "--join",
                                 "planner-bench",
                                 "--coordinator",
                                 QString::fromStdString(endpoint),
                                 "--coordinator-key",
                                 key,
                                 "--memory-limit-mb",
                                 QString::number(memory_mb),
                                 "--contribute",
                                 "--threads",
                                 "1",
                                 "--benchmark-seconds",
                                 "0.3",
                                 "--preference",
                                 QString("in_use.cpu_time_percent=%1").arg(layout.duty[i]),
                                 "--preference",
                                 QString("idle.cpu_time_percent=%1").arg(layout.duty[i])});
    nodes.push_back(std::move(p));
  }
  net::SecureContext ctx(1);
  const auto me = net::CurveKeyPair::generate();
  // Warm-up: planned, every node training.
  QElapsedTimer t;
  t.start();
  std::optional<pb::RunStatus> s;
  while (t.elapsed() < 90000) {
    s = run_status(ctx, me, endpoint, key.toStdString());
    bool ok = s && s->pipelines() == 1 && s->nodes_size() == volunteers;
    for (int i = 0; ok && i < s->nodes_size(); ++i) ok = s->nodes(i).samples() > 0;
    if (ok) break;
    QTest::qWait(250);
  }
  if (!s || s->nodes_size() != volunteers) {
    // Say why: the last lines each process logged.
    for (const QString& log : QDir(dir.path()).entryList({"*.log"})) {
      QFile f(dir.filePath(log));
      if (!f.open(QIODevice::ReadOnly)) continue;
      const auto lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
      std::fprintf(stderr, "--- %s (last lines)\n", qPrintable(log));
      for (qsizetype i = std::max<qsizetype>(0, lines.size() - 6); i < lines.size(); ++i)
        std::fprintf(stderr, "%s\n", qPrintable(lines[i]));
    }
    return std::nullopt;
  }
  QTest::qWait(5000);
  const auto a = run_status(ctx, me, endpoint, key.toStdString());
  QElapsedTimer w;
  w.start();
  QTest::qWait(static_cast<int>(seconds * 1000));
  const auto b = run_status(ctx, me, endpoint, key.toStdString());
  if (!a || !b) return std::nullopt;
  Run r;
  r.samples_per_s = static_cast<double>(first_stage_samples(*b) - first_stage_samples(*a)) /
                    (w.elapsed() / 1000.0);
  std::vector<std::pair<int, std::string>> seats;
  for (const auto& n : b->nodes()) {
    const double gflops = n.profile().flops_per_s() / 1e9;
    const double mbit =
        8 * std::min(n.profile().upload_bytes_per_s(), n.profile().download_bytes_per_s()) / 1e6;
    const std::string node = std::to_string(static_cast<int>(gflops + 0.5)) + " GFLOP/s, " +
                             std::to_string(static_cast<int>(mbit + 0.5)) + " Mbit/s node";
    if (n.pipeline() < 0) {
      seats.push_back({1 << 20, "a spare " + node});
    } else {
      seats.push_back({n.stage(), "[" + std::to_string(n.first_block()) + "," +
                                      std::to_string(n.last_block()) + ") on a " + node});
    }
  }
  std::sort(seats.begin(), seats.end());
  for (const auto& [stage, text] : seats) r.layout += (r.layout.empty() ? "" : ", ") + text;
  for (auto& p : nodes) {
    p->terminate();
    if (!p->waitForFinished(15000)) p->kill();
  }
  coordinator.terminate();
  coordinator.waitForFinished(5000);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  int repeats = 2;
  double seconds = 20;
  Layout layout;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    const QString v = QString::fromLocal8Bit(argv[i + 1]);
    if (a == "--repeats") repeats = std::atoi(argv[i + 1]);
    if (a == "--seconds") seconds = std::atof(argv[i + 1]);
    if (a == "--hosts") layout.hosts = v.split(',');
    if (a == "--netns") layout.netns = v.split(',');
    if (a == "--coordinator-host") layout.coordinator_host = v;
    if (a == "--coordinator-netns") layout.coordinator_netns = v;
    if (a == "--duty") {
      layout.duty.clear();
      for (const auto& d : v.split(',')) layout.duty.push_back(d.toInt());
    }
  }
  if (layout.namespaced()) {
    if (layout.netns.size() != layout.hosts.size() || layout.coordinator_host.isEmpty()) {
      std::fprintf(stderr,
                   "--hosts and --netns need one entry per volunteer, and --coordinator-host\n");
      return 2;
    }
    if (static_cast<int>(layout.duty.size()) != layout.hosts.size())
      layout.duty.resize(layout.hosts.size(), 100);
  }
  QTemporaryDir dir;
  auto job = job::load_job_spec(ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
  job.id = "planner-bench";
  const QString job_path = dir.filePath("job.json");
  {
    QFile f(job_path);
    if (!f.open(QIODevice::WriteOnly)) return 1;
    f.write(QByteArray::fromStdString(job::to_json(job)));
  }
  const auto need = cluster::model_memory_bytes(coordinator::block_profiles(job),
                                                coordinator::training_settings(job));
  const std::int64_t memory_mb = static_cast<std::int64_t>(0.75 * static_cast<double>(need)) >> 20;
  std::string duties;
  for (int d : layout.duty) duties += (duties.empty() ? "" : "/") + std::to_string(d);
  std::printf(
      "%zu volunteers (duty cycles %s%%)%s, each offering %lld MiB of the %.0f MiB the model "
      "needs\n",
      layout.duty.size(), duties.c_str(),
      layout.namespaced() ? " in network namespaces" : " on loopback",
      static_cast<long long>(memory_mb), need / 1048576.0);
  std::vector<double> ours, ravnest;
  for (int r = 0; r < repeats; ++r) {
    for (const QString planner : {"ours", "ravnest"}) {
      const auto m = measure(planner, job_path, memory_mb, seconds, layout);
      if (!m) {
        std::printf("%s: no measurement (the swarm did not train)\n", qPrintable(planner));
        return 1;
      }
      std::printf("repeat %d  %-8s %6.1f samples/s   %s\n", r + 1, qPrintable(planner),
                  m->samples_per_s, m->layout.c_str());
      std::fflush(stdout);
      (planner == "ours" ? ours : ravnest).push_back(m->samples_per_s);
    }
  }
  double so = 0, sr = 0;
  for (double v : ours) so += v;
  for (double v : ravnest) sr += v;
  std::printf("ours / ravnest: %.2fx (mean of %d runs each; goal >= 1.3x)\n",
              sr > 0 ? so / sr : 0.0, repeats);
  return 0;
}
