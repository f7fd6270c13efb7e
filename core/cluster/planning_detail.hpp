// Internals shared by the planning sources: prefix sums of the chain, cost tables and the
// exact / heuristic solvers over them. Not part of the public interface.
#pragma once

#include "cluster/planning.hpp"

#include <limits>
#include <optional>
#include <vector>

namespace rookery::cluster::detail {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Prefix sums of a chain so every shard's cost is O(1) and computed the same way everywhere.
struct Chain {
  Chain(const std::vector<BlockProfile>& blocks, const TrainingSettings& settings);
  int blocks = 0;
  TrainingSettings settings;
  std::vector<double> flops;        ///< prefix of flops_per_sample
  std::vector<int64_t> params;      ///< prefix of params
  std::vector<int64_t> held;        ///< prefix of activation + stash bytes per sample
  std::vector<int64_t> activation;  ///< per block output bytes per sample

  int64_t memory(int first, int last) const;
  double compute(const NodeProfile& node, int first, int last) const;
  double link(const NodeProfile& from, const NodeProfile& to, int cut) const;
};

/// Cost tables over K "nodes" (real nodes, or stage columns in uniform mode).
struct Costs {
  int nodes = 0;
  int blocks = 0;
  std::vector<double> stage_cost;  ///< kInf where the shard does not fit
  std::vector<double> link_cost;
  double stage(int n, int a, int b) const {
    return stage_cost[(size_t(n) * (blocks + 1) + a) * (blocks + 1) + b];
  }
  double link(int p, int q, int a) const {
    return link_cost[(size_t(p) * nodes + q) * (blocks + 1) + a];
  }
  void resize(int k, int b);
  double& stage_at(int n, int a, int b) {
    return stage_cost[(size_t(n) * (blocks + 1) + a) * (blocks + 1) + b];
  }
  double& link_at(int p, int q, int a) {
    return link_cost[(size_t(p) * nodes + q) * (blocks + 1) + a];
  }
};

/// Time costs of `nodes` (stage = compute or kInf when over memory; link = transfer).
Costs time_costs(const Chain& chain, const std::vector<NodeProfile>& nodes);
/// Memory overrun costs (bytes over the cap, 0 when it fits; links cost nothing).
Costs overrun_costs(const Chain& chain, const std::vector<NodeProfile>& nodes);

struct Solution {
  double value = kInf;
  std::vector<int> order;   ///< indices into the cost table's nodes
  std::vector<int> bounds;  ///< order.size() + 1 entries
};

Solution solve_fixed(const Costs& costs, const std::vector<int>& order);
Solution solve_subsets(const Costs& costs);
Solution solve_heuristic(const Costs& costs, const std::vector<std::vector<int>>& seeds,
                         int rounds);
/// Seed orders for the heuristic: as given, FLOP/s desc and asc, memory desc, bandwidth desc.
std::vector<std::vector<int>> seed_orders(const std::vector<NodeProfile>& nodes);
/// Exact for ≤ exact_max nodes, else heuristic from the seed orders.
Solution solve_order(const Costs& costs, const std::vector<NodeProfile>& nodes, int exact_max,
                     int rounds);

PartitionResult make_plan(const Chain& chain, const std::vector<NodeProfile>& nodes,
                          const std::vector<int>& order, const std::vector<int>& bounds);
/// The Infeasible of nodes that admit no plan (order searched or fixed).
Infeasible explain_infeasible(const Chain& chain, const std::vector<NodeProfile>& nodes,
                              bool search_order, int exact_max, int rounds);

/// Step 1 of the clustering: node indices by bandwidth tier, fastest tier first, each tier in
/// bandwidth-descending order (no merging).
std::vector<std::vector<int>> bandwidth_tiers(const std::vector<NodeProfile>& nodes,
                                              double tier_bandwidth_ratio);

// ---- Packing against a target bottleneck (bottleneck_packing.cpp), shared with the
// incremental update.
/// Bandwidth tiers with every tier that cannot hold one pipeline merged into its slower
/// neighbour; empty when not even all the nodes together hold one.
std::vector<std::vector<int>> packing_tiers(const std::vector<NodeProfile>& nodes,
                                            const Chain& chain, double tier_bandwidth_ratio);
/// Packs pools[t] (nodes of tier t not yet seated) into new pipelines appended to `plan`
/// (steps 2-4), then seats the rest in the plan's pipelines of tier t or lists them as
/// unassigned (step 5).
void pack_pools(ClusterPlan& plan, const std::vector<std::vector<int>>& pools,
                const std::vector<NodeProfile>& nodes, const Chain& chain,
                const PackingOptions& options);
/// `group` (indices into `nodes`) cut by partition's DP, node_index mapped back to `nodes`;
/// nullopt when it holds no plan.
std::optional<PipelinePlan> cut_group(const std::vector<int>& group,
                                      const std::vector<NodeProfile>& nodes, const Chain& chain,
                                      const PartitionOptions& options);
/// The node indices of a pipeline, in stage order.
std::vector<int> members(const PipelinePlan& plan);
/// Moves and swaps of one node between plan.pipelines[first..] of the same tier while Σ
/// samples/s rises, within options.local_search_cuts cuts (bounded_local_search.cpp).
void polish_pipelines(ClusterPlan& plan, size_t first, const std::vector<NodeProfile>& nodes,
                      const Chain& chain, const PackingOptions& options);
/// Every node unassigned with the reason no pipeline holds the model.
void unseat_all(ClusterPlan& plan, const std::vector<NodeProfile>& nodes, const Chain& chain,
                const PartitionOptions& options);

double link_bandwidth(const NodeProfile& node);
/// Throws std::invalid_argument for an empty model, non-positive settings, FLOP/s or bandwidth.
void check_inputs(const std::vector<NodeProfile>& nodes, const std::vector<BlockProfile>& blocks,
                  const TrainingSettings& settings);

}  // namespace rookery::cluster::detail
