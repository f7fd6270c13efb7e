// bench_coverage_steering: what steering toward check coverage (cluster/coverage_steering.hpp)
// buys and costs, on the same synthetic swarms planned with and without it. For each shape
// (volunteers, bandwidth tiers, GPT layers) it plans N random swarms (form_pipelines up to
// --exact-max volunteers, pack_pipelines above, as the coordinator does) and prints, side by
// side, the fraction of seats with an exact replica, the fraction with two ban-vote witnesses on
// each side they have (SWARM's wiring: every stage, in any pipeline, that starts where the seat
// ends, and every one that ends where it starts), the mean predicted samples/s, their ratio,
// the worst swarm's ratio, and the planner's and steering's CPU time (one core; the worst
// swarm's). Shapes of 1,000 volunteers and more are planned twice, not N times, and get a line
// for an incremental update after one leave and one join, steered with its kept pipelines
// frozen as plan_swarm steers it.
//
//   bench_coverage_steering [--swarms N] [--seed S] [--exact-max N] [--scale-max N]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <random>
#include <set>
#include <string>

#include "cluster/check_coverage.hpp"
#include "cluster/coverage_steering.hpp"
#include "cluster/planning.hpp"
#include "cluster/swarm_profiles.hpp"

#include "swarm_shape.hpp"

using namespace rookery;
using namespace rookery::cluster;

namespace {

using bench::Shape;
using bench::thread_cpu_ms;

struct Seats {
  long seats = 0, exact = 0, two_witnesses = 0;
};

// Exact seats (check_coverage) and seats with two witnesses on each side they have.
Seats count_seats(const ClusterPlan& plan) {
  Seats out;
  const auto coverage = check_coverage(plan);
  out.seats = long(coverage.stages.size());
  out.exact = coverage.exact;
  std::map<int, long> starting, ending;
  for (const auto& p : plan.pipelines) {
    for (const auto& s : p.stages) {
      ++starting[s.first_block];
      ++ending[s.last_block];
    }
  }
  for (const auto& p : plan.pipelines) {
    for (std::size_t k = 0; k < p.stages.size(); ++k) {
      const auto& s = p.stages[k];
      const bool before = k == 0 || ending[s.first_block] >= 2;
      const bool after = k + 1 == p.stages.size() || starting[s.last_block] >= 2;
      if (p.stages.size() > 1 && before && after) ++out.two_witnesses;
    }
  }
  return out;
}

// One leave and one join on the steered plan: update_pipelines, then steering with the kept
// pipelines frozen (as plan_swarm does), timed.
void update_row(const ClusterPlan& steered, std::vector<NodeProfile> nodes,
                const std::vector<BlockProfile>& blocks, const TrainingSettings& settings,
                int64_t model, std::mt19937_64& rng) {
  const auto gone = steered.pipelines.front().stages.back().node_id;
  std::erase_if(nodes, [&](const NodeProfile& n) { return n.id == gone; });
  auto newcomer = testing::random_swarm(rng, 1, 2, model).front();
  newcomer.id = "newcomer";
  nodes.push_back(newcomer);
  const double t0 = thread_cpu_ms();
  const auto updated = update_pipelines(steered, nodes, blocks, settings);
  const double update_ms = thread_cpu_ms() - t0;
  const auto signature = [](const PipelinePlan& p) {
    std::string out;
    for (const auto& s : p.stages)
      out += s.node_id + "[" + std::to_string(s.first_block) + "," + std::to_string(s.last_block) +
             ")";
    return out;
  };
  std::set<std::string> before;
  for (const auto& p : steered.pipelines) before.insert(signature(p));
  SteeringOptions options;
  int frozen = 0;
  for (const auto& p : updated.pipelines) {
    options.frozen.push_back(before.count(signature(p)) > 0);
    frozen += options.frozen.back() ? 1 : 0;
  }
  const double t1 = thread_cpu_ms();
  const auto again = steer_for_coverage(updated, nodes, blocks, settings, options);
  const double steer_ms = thread_cpu_ms() - t1;
  const auto b = count_seats(updated), a = count_seats(again);
  std::printf(
      "%6s after one leave and one join: update_pipelines %.1f ms, steering %.1f ms (%d of %zu "
      "pipelines kept, frozen); exact %.3f -> %.3f, samples/s x%.4f\n",
      "", update_ms, steer_ms, frozen, updated.pipelines.size(), double(b.exact) / double(b.seats),
      double(a.exact) / double(a.seats), again.samples_per_s / updated.samples_per_s);
}

}  // namespace

int main(int argc, char** argv) {
  int swarms = 10, exact_max = 32, scale_max = 10000;
  unsigned long long seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr,
                   "usage: bench_coverage_steering [--swarms N] [--seed S] [--exact-max N] "
                   "[--scale-max N]\n");
      return 2;
    }
    if (arg == "--swarms") {
      swarms = std::atoi(argv[++i]);
    } else if (arg == "--seed") {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--exact-max") {
      exact_max = std::atoi(argv[++i]);
    } else if (arg == "--scale-max") {
      scale_max = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "bench_coverage_steering: unknown option %s\n", arg.c_str());
      return 2;
    }
  }
  if (swarms < 1) {
    std::fprintf(stderr, "bench_coverage_steering: --swarms must be at least 1\n");
    return 2;
  }
  const Shape shapes[] = {{6, 1, 6},    {12, 1, 12},   {24, 1, 12},   {24, 2, 24},   {32, 2, 24},
                          {100, 2, 24}, {1000, 2, 24}, {3000, 2, 24}, {10000, 2, 24}};
  std::printf("steering margin %.0f%%, sets of up to %zu pipelines; %d swarms per shape\n",
              kCoverageRateMargin * 100, kMaxAlignedPipelines, swarms);
  std::printf("%6s %5s %6s %8s | %7s %7s | %7s %7s | %12s %12s %7s %7s | %9s %9s\n", "nodes",
              "tiers", "layers", "planner", "exact", "exact", "2wit", "2wit", "samples/s",
              "samples/s", "ratio", "worst", "plan ms", "steer ms");
  std::printf("%6s %5s %6s %8s | %7s %7s | %7s %7s | %12s %12s %7s %7s | %9s %9s\n", "", "", "", "",
              "before", "after", "before", "after", "before", "after", "", "", "worst", "worst");
  std::mt19937_64 rng(seed);
  for (const auto& shape : shapes) {
    if (shape.nodes > scale_max) continue;
    const auto blocks = testing::gpt_blocks(shape.layers);
    const auto settings = testing::gpt_settings();
    const auto model = model_memory_bytes(blocks, settings);
    const bool exact = shape.nodes <= exact_max;
    const int runs = shape.nodes >= 1000 ? std::min(swarms, 2) : swarms;
    Seats before, after;
    double rate_before = 0, rate_after = 0, worst_ratio = 1, worst_ms = 0, plan_ms = 0;
    std::vector<NodeProfile> last_nodes;
    ClusterPlan last_steered;
    for (int r = 0; r < runs; ++r) {
      const auto nodes = testing::random_swarm(rng, shape.nodes, shape.tiers, model);
      const double tp = thread_cpu_ms();
      const auto plan =
          exact ? form_pipelines(nodes, blocks, settings) : pack_pipelines(nodes, blocks, settings);
      plan_ms = std::max(plan_ms, thread_cpu_ms() - tp);
      const double t0 = thread_cpu_ms();
      SteeringReport report;
      const auto steered = steer_for_coverage(plan, nodes, blocks, settings, {}, &report);
      worst_ms = std::max(worst_ms, thread_cpu_ms() - t0);
      const auto b = count_seats(plan), a = count_seats(steered);
      before.seats += b.seats;
      before.exact += b.exact;
      before.two_witnesses += b.two_witnesses;
      after.seats += a.seats;
      after.exact += a.exact;
      after.two_witnesses += a.two_witnesses;
      rate_before += plan.samples_per_s;
      rate_after += steered.samples_per_s;
      if (plan.samples_per_s > 0)
        worst_ratio = std::min(worst_ratio, steered.samples_per_s / plan.samples_per_s);
      last_nodes = nodes;
      last_steered = steered;
    }
    const auto frac = [](long x, long n) { return n > 0 ? double(x) / double(n) : 0.0; };
    std::printf(
        "%6d %5d %6d %8s | %7.2f %7.2f | %7.2f %7.2f | %12.1f %12.1f %7.3f %7.3f | %9.1f %9.1f\n",
        shape.nodes, shape.tiers, shape.layers, exact ? "form" : "pack",
        frac(before.exact, before.seats), frac(after.exact, after.seats),
        frac(before.two_witnesses, before.seats), frac(after.two_witnesses, after.seats),
        rate_before / runs, rate_after / runs, rate_before > 0 ? rate_after / rate_before : 0.0,
        worst_ratio, plan_ms, worst_ms);
    if (shape.nodes >= 1000 && !last_steered.pipelines.empty())
      update_row(last_steered, last_nodes, blocks, settings, model, rng);
    std::fflush(stdout);
  }
  return 0;
}
