// What a relay and connection reversal cost, measured: the small internet of
// home_router_lab.sh with every link a tbf of --rate-mbit in both directions (the public
// host's and the router's), a coordinator with its relay on the internet host, a public
// volunteer and a volunteer at home, each offering just over half the memory the demo model
// needs so that they train as one pipeline of two stages. Three arms, in turn in one run on
// fresh labs: "direct", where the home router maps the home volunteer's ports (UPnP);
// "reversed", where it maps nothing and the home volunteer dials the public one, which reaches
// it back through that connection; and "relayed", the same router with the home volunteer
// refusing reversal (--no-reversal), so that the relay on the coordinator's host carries it.
// Printed per arm: samples/s of the pipeline over --seconds after a warm-up, the coordinator
// process's CPU (its relay and its own work), the public volunteer's CPU (it splices the
// reversed connections) and the bytes the internet host forwarded per second.
// Usage: bench_relay [--repeats N] [--seconds S] [--rate-mbit R]
// Exit 1 only when a measurement could not be taken, never for speed.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <unistd.h>
#include <vector>

#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"
#include "reach/lab.hpp"
#include "reach/node_snapshot.hpp"
#include "support/processes.hpp"

namespace pb = rookery::wire::pb;

namespace {

using rookery::testing::run_command;
const QString& kLab = rookery::testing::kHomeRouterLab;
const QString kJob = QStringLiteral(ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");

// CPU seconds a process has used (user + system).
double cpu_seconds(qint64 pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(f, line);
  const auto close = line.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream rest(line.substr(close + 2));
  std::string field;
  double utime = 0, stime = 0;
  for (int i = 3; rest >> field; ++i) {
    if (i == 14) utime = std::stod(field);
    if (i == 15) {
      stime = std::stod(field);
      break;
    }
  }
  return (utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

// Bytes the internet host's interfaces sent, all of them.
double forwarded_bytes(const QString& tag) {
  double total = 0;
  for (const QString& dev : QStringList{tag + "wi", tag + "pi"}) {
    QString out;
    run_command(
        {"ip", "netns", "exec", tag + "i", "cat", "/sys/class/net/" + dev + "/statistics/tx_bytes"},
        &out);
    total += out.trimmed().toDouble();
  }
  return total;
}

struct Arm {
  double samples_per_s = 0;
  double relay_cpu_percent = 0;   // the coordinator's process, which runs the relay
  double public_cpu_percent = 0;  // the public volunteer's process
  double forwarded_mb_per_s = 0;
};

// How the home volunteer is reached in an arm.
struct Way {
  const char* name;
  QString router;         // home_router_lab.sh's mode
  QStringList home_args;  // the home volunteer's extra arguments
  pb::ReachWay expected;
};

class Swarm {
 public:
  Swarm(QString tag, QTemporaryDir& dir) : tag_(std::move(tag)), dir_(dir) {}
  ~Swarm() {
    for (auto* p : {&home_, &pub_, &coordinator_}) {
      if (p->state() == QProcess::NotRunning) continue;
      p->terminate();
      if (!p->waitForFinished(15000)) p->kill();
      p->waitForFinished(3000);
    }
    run_command({kLab, "down", tag_});
  }

  std::optional<Arm> measure(const Way& arm, int rate_mbit, std::int64_t memory_mb, int seconds) {
    if (const int rc = run_command({kLab, "up", tag_, arm.router, QString::number(rate_mbit)});
        rc != 0) {
      std::fprintf(stderr, "bench_relay: the lab did not come up (%d)\n", rc);
      return std::nullopt;
    }
    const QString ready = dir_.filePath(tag_ + ".ready");
    coordinator_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    coordinator_.start(
        "ip", {"netns", "exec", tag_ + "i", ROOKERY_BINARY_DIR "/app/rookery-coordinator", "--bind",
               "tcp://198.20.0.1:0", "--data-dir", dir_.filePath(tag_ + "-c"), "--ready-file",
               ready, "--job", kJob, "--open", "--log-level", "warn"});
    const auto address = rookery::testing::wait_for_coordinator_ready(ready, 20000, &coordinator_);
    if (!address) return std::nullopt;
    start(pub_, "pub", tag_ + "p", *address, memory_mb, {});
    start(home_, "home", tag_ + "h", *address, memory_mb, arm.home_args);
    // One pipeline of two, trained through the link the arm gives the home volunteer.
    const auto way = arm.expected;
    pb::NodeSnapshot s;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 120000) {
      s = snapshot("home");
      if (s.reach().way() == way && s.has_stage() && s.stage().stage_count() == 2 &&
          s.run().samples() > 0) {
        break;
      }
      QTest::qWait(250);
    }
    if (s.reach().way() != way || !s.has_stage() || s.stage().stage_count() != 2) {
      std::fprintf(stderr,
                   "bench_relay: %s: the home volunteer is not seated in a 2-stage "
                   "pipeline (%s; %s)\n",
                   arm.name, pb::ReachWay_Name(s.reach().way()).c_str(),
                   s.coordinator().status().c_str());
      return std::nullopt;
    }
    QTest::qWait(5000);  // warm-up
    const auto samples0 = snapshot("home").run().samples();
    const double cpu0 = cpu_seconds(coordinator_.processId());
    const double public_cpu0 = cpu_seconds(pub_.processId());
    const double bytes0 = forwarded_bytes(tag_);
    QElapsedTimer window;
    window.start();
    QTest::qWait(seconds * 1000);
    const double elapsed = window.elapsed() / 1000.0;
    const auto samples1 = snapshot("home").run().samples();
    Arm a;
    a.samples_per_s = static_cast<double>(samples1 - samples0) / elapsed;
    a.relay_cpu_percent = 100 * (cpu_seconds(coordinator_.processId()) - cpu0) / elapsed;
    a.public_cpu_percent = 100 * (cpu_seconds(pub_.processId()) - public_cpu0) / elapsed;
    a.forwarded_mb_per_s = (forwarded_bytes(tag_) - bytes0) / elapsed / 1e6;
    return a;
  }

 private:
  void start(QProcess& p, const QString& name, const QString& ns,
             const rookery::testing::CoordinatorAddress& address, std::int64_t memory_mb,
             const QStringList& extra) {
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.start("ip", rookery::testing::lab_volunteer(
                      ns, dir_.filePath(tag_ + name), address.endpoint, address.key,
                      QStringList{"--memory-limit-mb", QString::number(memory_mb), "--log-level",
                                  "warn"} +
                          extra));
  }
  pb::NodeSnapshot snapshot(const QString& name) {
    return rookery::testing::node_snapshot(dir_.filePath(tag_ + name + "/run"));
  }

  QString tag_;
  QTemporaryDir& dir_;
  QProcess coordinator_, pub_, home_;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  int repeats = 2, seconds = 20, rate_mbit = 100;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--repeats") repeats = std::atoi(argv[i + 1]);
    if (flag == "--seconds") seconds = std::atoi(argv[i + 1]);
    if (flag == "--rate-mbit") rate_mbit = std::atoi(argv[i + 1]);
  }
  if (::geteuid() != 0) {
    std::printf("bench_relay: needs root for network namespaces; skipped\n");
    return 77;
  }
  // Just over half the model's memory each: neither holds it alone, both together do.
  const auto job = rookery::job::load_job_spec(kJob.toStdString());
  const auto need = rookery::cluster::model_memory_bytes(
      rookery::coordinator::block_profiles(job), rookery::coordinator::training_settings(job));
  const std::int64_t memory_mb = std::max<std::int64_t>(1, (need * 6 / 10) >> 20);
  QTemporaryDir dir;
  const std::vector<Way> arms{
      {"direct", "upnp", {}, pb::REACH_ROUTER_MAPPING},
      {"reversed", "none", {}, pb::REACH_REVERSED},
      {"relayed", "none", {"--no-reversal"}, pb::REACH_RELAYED},
  };
  std::vector<std::vector<Arm>> measured(arms.size());
  std::printf(
      "== bench_relay: a pipeline of 2 (home volunteer + public one), tbf %d Mbit/s, "
      "%d s windows, %d repeat(s), %lld MiB each\n",
      rate_mbit, seconds, repeats, static_cast<long long>(memory_mb));
  for (int r = 0; r < repeats; ++r) {
    for (std::size_t k = 0; k < arms.size(); ++k) {
      Swarm swarm(QStringLiteral("rb%1%2").arg(r).arg(k), dir);
      const auto a = swarm.measure(arms[k], rate_mbit, memory_mb, seconds);
      if (!a) return 1;
      std::printf(
          "  repeat %d %-8s %7.1f samples/s, coordinator CPU %5.1f%%, public volunteer CPU "
          "%5.1f%%, forwarded %6.2f MB/s\n",
          r + 1, arms[k].name, a->samples_per_s, a->relay_cpu_percent, a->public_cpu_percent,
          a->forwarded_mb_per_s);
      measured[k].push_back(*a);
    }
  }
  auto med = [&](std::size_t k, double Arm::*field) {
    std::vector<double> v;
    for (const auto& a : measured[k]) v.push_back(a.*field);
    return median(v);
  };
  const double direct = med(0, &Arm::samples_per_s);
  for (std::size_t k = 1; k < arms.size(); ++k) {
    std::printf("%s/direct samples/s: %.2f (medians %.1f / %.1f)\n", arms[k].name,
                med(k, &Arm::samples_per_s) / std::max(1e-9, direct), med(k, &Arm::samples_per_s),
                direct);
  }
  std::printf(
      "the relay's cost to its host: +%.1f%% of a core (%.1f%% relayed vs %.1f%% direct), "
      "%.2f MB/s relayed\n",
      med(2, &Arm::relay_cpu_percent) - med(0, &Arm::relay_cpu_percent),
      med(2, &Arm::relay_cpu_percent), med(0, &Arm::relay_cpu_percent),
      med(2, &Arm::forwarded_mb_per_s));
  std::printf(
      "reversal's cost to the public volunteer, which splices: +%.1f%% of a core (%.1f%% "
      "reversed vs %.1f%% direct)\n",
      med(1, &Arm::public_cpu_percent) - med(0, &Arm::public_cpu_percent),
      med(1, &Arm::public_cpu_percent), med(0, &Arm::public_cpu_percent));
  return 0;
}
