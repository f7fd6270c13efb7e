// Ravnest's plan, evaluated with our memory and time models (see planning.hpp).
#include "cluster/planning.hpp"
#include "cluster/planning_detail.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace rookery::cluster {
using namespace detail;

PartitionResult ravnest_partition(const std::vector<NodeProfile>& nodes,
                                  const std::vector<BlockProfile>& blocks,
                                  const TrainingSettings& settings) {
  check_inputs(nodes, blocks, settings);
  const Chain chain(blocks, settings);
  const int k = int(nodes.size()), count = chain.blocks;
  PartitionResult result;
  if (k == 0 || k > count) {
    result.infeasible = explain_infeasible(chain, nodes, false, 0, 0);
    return result;
  }
  // Cut s goes where the cumulative parameter count is nearest s/k of the total, every
  // shard keeping at least one block.
  const double total = double(chain.params[size_t(count)]);
  std::vector<int> bounds{0};
  for (int s = 1; s < k; ++s) {
    const double target = total * s / k;
    const int lo = bounds.back() + 1, hi = count - (k - s);
    int cut = lo;
    for (int b = lo; b <= hi; ++b)
      if (std::abs(double(chain.params[size_t(b)]) - target) <
          std::abs(double(chain.params[size_t(cut)]) - target))
        cut = b;
    bounds.push_back(cut);
  }
  bounds.push_back(count);
  std::vector<int> order(static_cast<size_t>(k));
  std::iota(order.begin(), order.end(), 0);
  return make_plan(chain, nodes, order, bounds);
}

ClusterPlan ravnest_plan(const std::vector<NodeProfile>& nodes,
                         const std::vector<BlockProfile>& blocks,
                         const TrainingSettings& settings) {
  check_inputs(nodes, blocks, settings);
  ClusterPlan result;
  if (nodes.empty()) return result;
  const Chain chain(blocks, settings);
  // Groups close once their memory covers the whole model as one shard under our memory
  // model. Ravnest's own estimate is softer (a penalty, not a constraint); giving it ours
  // keeps the comparison about the split and the order, not about a worse memory count.
  const int64_t estimate = chain.memory(0, chain.blocks);
  std::vector<int> by_bandwidth(nodes.size());
  std::iota(by_bandwidth.begin(), by_bandwidth.end(), 0);
  std::stable_sort(by_bandwidth.begin(), by_bandwidth.end(), [&](int a, int b) {
    return link_bandwidth(nodes[size_t(a)]) > link_bandwidth(nodes[size_t(b)]);
  });
  std::vector<std::vector<int>> groups{{}};
  int64_t memory = 0;
  for (int i : by_bandwidth) {
    if (memory >= estimate || int(groups.back().size()) >= chain.blocks) {
      groups.emplace_back();
      memory = 0;
    }
    groups.back().push_back(i);
    memory += nodes[size_t(i)].free_memory_bytes;
  }
  if (memory < estimate && groups.size() > 1 &&
      int(groups[groups.size() - 2].size() + groups.back().size()) <= chain.blocks) {
    auto& previous = groups[groups.size() - 2];
    previous.insert(previous.end(), groups.back().begin(), groups.back().end());
    groups.pop_back();
  }
  for (auto& group : groups) {
    std::sort(group.begin(), group.end());  // the order listed
    std::vector<NodeProfile> sub;
    for (int i : group) sub.push_back(nodes[size_t(i)]);
    PartitionResult r = ravnest_partition(sub, blocks, settings);
    if (!r.ok()) {
      result.out_of_memory.push_back(r.infeasible);
      continue;
    }
    for (Stage& s : r.plan->stages) s.node_index = group[size_t(s.node_index)];
    result.samples_per_s += r.plan->samples_per_s;
    result.pipelines.push_back(std::move(*r.plan));
    result.tier.push_back(0);
  }
  return result;
}

}  // namespace rookery::cluster
