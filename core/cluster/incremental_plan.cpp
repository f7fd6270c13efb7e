// Incremental plans: a membership change re-plans only the pipelines it touches (see
// planning.hpp, "Incremental plans").
#include "cluster/planning.hpp"
#include "cluster/planning_detail.hpp"

#include <stdexcept>
#include <unordered_map>

namespace rookery::cluster {
using namespace detail;

ClusterPlan update_pipelines(const ClusterPlan& previous, const std::vector<NodeProfile>& nodes,
                             const std::vector<BlockProfile>& blocks,
                             const TrainingSettings& settings, const PackingOptions& options) {
  ClusterPlan result;
  check_inputs(nodes, blocks, settings);
  if (nodes.empty()) return result;
  const Chain chain(blocks, settings);
  std::unordered_map<std::string, int> index;
  index.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i)
    if (!index.emplace(nodes[i].id, int(i)).second)
      throw std::invalid_argument("cluster: node " + nodes[i].id + " is listed twice");

  // Tiers as a fresh plan would draw them today: a kept pipeline is labelled with its first
  // node's, and the pools below go to the tier they would be planned in.
  const auto tiers = packing_tiers(nodes, chain, options.tier_bandwidth_ratio);
  if (tiers.empty()) {
    unseat_all(result, nodes, chain, options.partition);
    return result;
  }
  std::vector<int> tier_of(nodes.size(), 0);
  for (size_t t = 0; t < tiers.size(); ++t)
    for (int i : tiers[t]) tier_of[size_t(i)] = int(t);

  // Kept: every node still here and every shard still within its node's memory. The cuts
  // stay (a node keeps its blocks, so nothing is fetched); the times are today's.
  std::vector<bool> seated(nodes.size(), false);
  for (const PipelinePlan& p : previous.pipelines) {
    std::vector<int> order, bounds{0};
    for (const Stage& s : p.stages) {
      const auto it = index.find(s.node_id);
      if (it == index.end() || seated[size_t(it->second)]) break;
      order.push_back(it->second);
      bounds.push_back(s.last_block);
    }
    if (order.size() != p.stages.size() || bounds.back() != chain.blocks) continue;
    PartitionResult r = make_plan(chain, nodes, order, bounds);
    if (!r.ok()) continue;
    for (int i : order) seated[size_t(i)] = true;
    result.samples_per_s += r.plan->samples_per_s;
    result.tier.push_back(tier_of[size_t(order.front())]);
    result.pipelines.push_back(std::move(*r.plan));
  }

  // The pools: survivors of broken pipelines, newcomers and earlier spares, per tier.
  std::vector<std::vector<int>> pools(tiers.size());
  for (size_t t = 0; t < tiers.size(); ++t)
    for (int i : tiers[t])
      if (!seated[size_t(i)]) pools[t].push_back(i);
  pack_pools(result, pools, nodes, chain, options);
  return result;
}

}  // namespace rookery::cluster
