// bench_cluster: modelled samples/s of our plan (form_pipelines) against Ravnest's plan
// (bandwidth groups, nodes as listed, equal parameter-count split) on the same synthetic
// swarms, side by side, with the planner's wall time. The throughput is the planning model's
// (core/cluster/planning.hpp), not a measurement of training: the real-swarm comparison is
// the coordinator's benchmark.
//
//   bench_cluster [--swarms N] [--seed S] [--max-nodes N] [--scale-max N] [--exact-max N]
//
// For each shape (nodes, bandwidth tiers, GPT layers) it plans N random swarms and prints
// the mean samples/s of each plan, the ratio of the means, Ravnest's groups that would run
// out of memory, the partition-only ratio (our split and order vs Ravnest's on our groups),
// what the clustering's local moves add (ours vs ours with max_local_search_passes = 0), the
// near-linear planner's samples/s over the exact one's (pack_pipelines / form_pipelines) and
// the planning times.
//
// Then the scaling table: swarms of 64 up to --scale-max volunteers (two bandwidth tiers, a
// 24-layer GPT), each planned by pack_pipelines and, up to --exact-max volunteers, by
// form_pipelines (about N³: 4.5 s at 64, 44 s at 128, 392 s at 256), with both planning
// times and the ratio of their predicted samples/s; and the incremental update after one
// leave and one join (update_pipelines), its time and the pipelines it changed. These times
// are the planning thread's CPU time (one core), so that a machine busy with other work does
// not inflate them.
#include "cluster/planning.hpp"
#include "cluster/swarm_profiles.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <ctime>
#include <random>
#include <set>
#include <string>

#include "swarm_shape.hpp"

using namespace rookery;
using namespace rookery::cluster;

namespace {

using bench::Shape;
using bench::thread_cpu_ms;

}  // namespace

int main(int argc, char** argv) {
  int swarms = 5, max_nodes = 64, scale_max = 10000, exact_max = 64;
  unsigned long long seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr,
                   "usage: bench_cluster [--swarms N] [--seed S] [--max-nodes N] "
                   "[--scale-max N] [--exact-max N]\n");
      return 2;
    }
    if (arg == "--swarms")
      swarms = std::atoi(argv[++i]);
    else if (arg == "--seed")
      seed = std::strtoull(argv[++i], nullptr, 10);
    else if (arg == "--max-nodes")
      max_nodes = std::atoi(argv[++i]);
    else if (arg == "--scale-max")
      scale_max = std::atoi(argv[++i]);
    else if (arg == "--exact-max")
      exact_max = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "unknown option %s\n", arg.c_str());
      return 2;
    }
  }
  const Shape shapes[] = {{8, 1, 12}, {16, 2, 12}, {32, 2, 24}, {64, 3, 24}};
  const TrainingSettings settings = testing::gpt_settings();
  std::printf("%-24s %12s %12s %7s %12s %10s %10s %10s %10s %10s %10s\n", "swarm", "ours smp/s",
              "ravnest", "ratio", "ravnest OOM", "split only", "moves", "pack/ours", "plan ms",
              "pack ms", "ravnest ms");
  ClusteringOptions no_moves;
  no_moves.max_local_search_passes = 0;
  std::mt19937_64 rng(seed);
  double ratio_product = 1;
  int ratio_count = 0;
  for (const Shape& shape : shapes) {
    if (shape.nodes > max_nodes) continue;
    const auto blocks = testing::gpt_blocks(shape.layers);
    const int64_t model = model_memory_bytes(blocks, settings);
    double ours = 0, unmoved = 0, theirs = 0, packed = 0, split_ratio = 0, plan_ms = 0, pack_ms = 0,
           ravnest_ms = 0;
    int oom = 0, groups = 0, split_count = 0;
    for (int w = 0; w < swarms; ++w) {
      const auto nodes = testing::random_swarm(rng, shape.nodes, shape.tiers, model);
      auto t0 = std::chrono::steady_clock::now();
      const ClusterPlan a = form_pipelines(nodes, blocks, settings);
      auto t1 = std::chrono::steady_clock::now();
      const ClusterPlan b = ravnest_plan(nodes, blocks, settings);
      auto t2 = std::chrono::steady_clock::now();
      const ClusterPlan c = pack_pipelines(nodes, blocks, settings);
      auto t3 = std::chrono::steady_clock::now();
      plan_ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
      ravnest_ms += std::chrono::duration<double, std::milli>(t2 - t1).count();
      pack_ms += std::chrono::duration<double, std::milli>(t3 - t2).count();
      packed += c.samples_per_s;
      ours += a.samples_per_s;
      unmoved += form_pipelines(nodes, blocks, settings, no_moves).samples_per_s;
      theirs += b.samples_per_s;
      oom += int(b.out_of_memory.size());
      groups += int(b.out_of_memory.size() + b.pipelines.size());
      for (const auto& p : a.pipelines) {
        std::vector<NodeProfile> listed;
        std::vector<int> members;
        for (const Stage& s : p.stages) members.push_back(s.node_index);
        std::sort(members.begin(), members.end());
        for (int i : members) listed.push_back(nodes[size_t(i)]);
        const PartitionResult r = ravnest_partition(listed, blocks, settings);
        if (!r.ok()) continue;
        split_ratio += p.samples_per_s / r.plan->samples_per_s;
        ++split_count;
      }
    }
    const double ratio = theirs > 0 ? ours / theirs : 0;
    if (theirs > 0) {
      ratio_product *= ratio;
      ++ratio_count;
    }
    char name[64];
    std::snprintf(name, sizeof name, "%d nodes %d tier(s) %d L", shape.nodes, shape.tiers,
                  shape.layers);
    char oom_text[32];
    std::snprintf(oom_text, sizeof oom_text, "%d/%d", oom, groups);
    std::printf("%-24s %12.2f %12.2f %6.2fx %12s %9.2fx %9.2fx %9.3fx %10.1f %10.1f %10.1f\n", name,
                ours / swarms, theirs / swarms, ratio, oom_text,
                split_count ? split_ratio / split_count : 0.0, unmoved > 0 ? ours / unmoved : 0.0,
                ours > 0 ? packed / ours : 0.0, plan_ms / swarms, pack_ms / swarms,
                ravnest_ms / swarms);
  }
  if (ratio_count > 0)
    std::printf("geometric mean of our/Ravnest samples/s over %d shape(s): %.2fx\n", ratio_count,
                std::pow(ratio_product, 1.0 / ratio_count));

  // Scaling: one swarm per size, the near-linear planner at every size, the exact one where
  // it finishes in reasonable time.
  std::printf("\n%-10s %10s %12s %12s %12s %12s %10s %12s %9s\n", "volunteers", "pipelines",
              "pack smp/s", "pack cpu ms", "exact cpu ms", "pack/exact", "unseated",
              "update cpu ms", "changed");
  const auto blocks = testing::gpt_blocks(24);
  const int64_t model = model_memory_bytes(blocks, settings);
  for (int n : {64, 128, 256, 512, 1000, 2000, 5000, 10000}) {
    if (n > scale_max) break;
    const auto nodes = testing::random_swarm(rng, n, 2, model);
    const double t0 = thread_cpu_ms();
    const ClusterPlan fast = pack_pipelines(nodes, blocks, settings);
    const double t1 = thread_cpu_ms();
    const double fast_ms = t1 - t0;
    char exact_ms[32] = "-", ratio_text[32] = "-";
    if (n <= exact_max) {
      const ClusterPlan exact = form_pipelines(nodes, blocks, settings);
      const double t2 = thread_cpu_ms();
      std::snprintf(exact_ms, sizeof exact_ms, "%.1f", t2 - t1);
      if (exact.samples_per_s > 0)
        std::snprintf(ratio_text, sizeof ratio_text, "%.3fx",
                      fast.samples_per_s / exact.samples_per_s);
    }
    // The first stage of the middle pipeline leaves and a newcomer joins.
    std::vector<NodeProfile> changed_nodes;
    const std::string gone =
        fast.ok() ? fast.pipelines[fast.pipelines.size() / 2].stages.front().node_id : "";
    for (const auto& node : nodes)
      if (node.id != gone) changed_nodes.push_back(node);
    NodeProfile newcomer = testing::random_swarm(rng, 1, 2, model).front();
    newcomer.id = "newcomer";
    changed_nodes.push_back(newcomer);
    const double t3 = thread_cpu_ms();
    const ClusterPlan updated = update_pipelines(fast, changed_nodes, blocks, settings);
    const double t4 = thread_cpu_ms();
    std::set<std::vector<std::pair<std::string, int>>> before;
    auto layout = [](const PipelinePlan& p) {
      std::vector<std::pair<std::string, int>> out;
      for (const Stage& s : p.stages) out.emplace_back(s.node_id, s.last_block);
      return out;
    };
    for (const auto& p : fast.pipelines) before.insert(layout(p));
    int changed = 0;
    for (const auto& p : updated.pipelines) changed += before.count(layout(p)) ? 0 : 1;
    std::printf("%-10d %10zu %12.1f %12.1f %12s %12s %10zu %12.1f %9d\n", n, fast.pipelines.size(),
                fast.samples_per_s, fast_ms, exact_ms, ratio_text, fast.unassigned.size(), t4 - t3,
                changed);
  }
  return 0;
}
