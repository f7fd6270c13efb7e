// SWARM's rerouting, measured without a coordinator: two pipelines of two real rookery-node
// processes on loopback with the same cut (SWARM-wired: each first stage sends to both second
// stages, picked by measured round trip), training the demo job. After a warm-up one second
// stage is killed with SIGKILL. Nobody re-plans: the first stages' NextHopRouters suspect the
// dead hop once it holds a micro-batch several round trips (at least 2 s) without answering,
// drop what it held and send everything to the survivor. The swarm's throughput (samples/s
// completed by both first stages, from their control sockets every 0.25 s, over a sliding
// 2 s window) is followed until it is back at 90% of what the survivors give once settled
// (their mean over the last 15 s). Printed: throughput before, settled after, and the seconds
// from the kill to 90% of it. Repeats: a fresh swarm each time.
// Usage: bench_reroute [--repeats N]
// Exit 1 only when a measurement could not be taken, never for speed.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include <csignal>
#include <cstdio>
#include <vector>

#include "job/job_spec.hpp"
#include "support/bench_repeats.hpp"
#include "support/demo_job.hpp"
#include "support/swarm_harness.hpp"

using namespace rookery;

namespace {

struct Sample {
  double t = 0;              // seconds since the kill (negative before)
  std::int64_t samples = 0;  // both first stages, all time
};

double rate_at(const std::vector<Sample>& v, std::size_t i, double window, double from = -1e9) {
  std::size_t j = i;
  while (j > 0 && v[i].t - v[j - 1].t <= window && v[j - 1].t >= from) --j;
  if (j == i) return 0;
  return static_cast<double>(v[i].samples - v[j].samples) / (v[i].t - v[j].t);
}

bool once(const QString& job_json, int repeat) {
  testing::SwarmHarness h;
  const std::vector<testing::SwarmHarness::Blocks> plan(
      2, testing::SwarmHarness::Blocks{{0, 3}, {3, 6}});
  if (!h.prepare(job_json, plan, 2000)) return false;
  for (int p = 0; p < 2; ++p) {
    if (!h.start(p, 1)) return false;
  }
  for (int p = 0; p < 2; ++p) {
    if (!h.start(p, 0)) return false;
  }
  const auto total = [&](bool& ok) {
    std::int64_t n = 0;
    ok = true;
    for (int p = 0; p < 2; ++p) {
      const auto a = h.client(p, 0).status(std::chrono::seconds(2));
      ok = ok && a.ok;
      n += a.snapshot.work().samples();
    }
    return n;
  };
  // Both pipelines training.
  QElapsedTimer t;
  t.start();
  for (bool ok = false; !ok;) {
    if (t.elapsed() > 90000) return false;
    QTest::qWait(250);
    std::int64_t n = total(ok);
    ok = ok && n > 0;
  }
  std::vector<Sample> v;
  QElapsedTimer clock;
  clock.start();
  const auto poll = [&](double offset) {
    bool ok = false;
    const auto n = total(ok);
    if (ok) v.push_back({clock.elapsed() / 1000.0 - offset, n});
  };
  while (clock.elapsed() < 12000) {
    poll(0);
    QTest::qWait(250);
  }
  const double kill_at = clock.elapsed() / 1000.0;
  for (auto& x : v) x.t -= kill_at;
  const double before = rate_at(v, v.size() - 1, 8.0);
  ::kill(static_cast<pid_t>(h.nodes[std::size_t(h.index(1, 1))]->processId()), SIGKILL);
  while (clock.elapsed() / 1000.0 - kill_at < 35) {
    poll(kill_at);
    QTest::qWait(250);
  }
  const double settled = rate_at(v, v.size() - 1, 15.0);
  double back = -1;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].t >= 1.0 && rate_at(v, i, 2.0, 0.0) >= 0.9 * settled) {
      back = v[i].t;
      break;
    }
  }
  std::int64_t dropped = 0;
  for (int p = 0; p < 2; ++p) dropped += h.snapshot(p, 0).stage().dropped();
  std::printf(
      "repeat %d  before %.1f samples/s (two second stages), survivors settled %.1f samples/s "
      "(one), "
      "back at 90%% of that %.1f s after the kill; %lld micro-batch(es) dropped by the first "
      "stages\n",
      repeat, before, settled, back, static_cast<long long>(dropped));
  std::fflush(stdout);
  h.quit_all();
  return back >= 0 && settled > 0;
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  const auto job = testing::small_demo_job("reroute-bench");
  const QString json = QString::fromStdString(job::to_json(job));
  return testing::run_repeats(argc, argv, [&](int r) { return once(json, r); });
}
