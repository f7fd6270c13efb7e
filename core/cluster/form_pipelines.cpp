// Clustering: bandwidth tiers, greedy balanced groups, local moves (see planning.hpp).
#include "cluster/planning.hpp"
#include "cluster/planning_detail.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

namespace rookery::cluster {
using namespace detail;

namespace {

constexpr int kQuickExactNodes = 4;
constexpr double kMemorySlack = 1.1;

class GroupPlanner {
 public:
  GroupPlanner(const std::vector<NodeProfile>& nodes, const Chain& chain)
      : nodes_(nodes), chain_(chain) {}

  /// Bottleneck of a group with the cheaper order search, kInf when it cannot hold the model.
  double quick(std::vector<int> group) {
    std::sort(group.begin(), group.end());
    if (group.empty() || int(group.size()) > chain_.blocks) return kInf;
    auto found = cache_.find(group);
    if (found != cache_.end()) return found->second;
    const std::vector<NodeProfile> sub = gather(group);
    const double value = solve_order(time_costs(chain_, sub), sub, kQuickExactNodes, 0).value;
    cache_.emplace(std::move(group), value);
    return value;
  }

  double rate(const std::vector<int>& group) {
    const double b = quick(group);
    return b < kInf ? 1.0 / b : 0.0;
  }

  double flops(int node) const { return nodes_[size_t(node)].flops_per_s; }

  std::vector<NodeProfile> gather(const std::vector<int>& group) const {
    std::vector<NodeProfile> sub;
    for (int i : group) sub.push_back(nodes_[size_t(i)]);
    return sub;
  }

 private:
  const std::vector<NodeProfile>& nodes_;
  const Chain& chain_;
  std::map<std::vector<int>, double> cache_;
};

struct TierPlan {
  std::vector<std::vector<int>> groups;
  std::vector<int> leftover;  ///< no group had room (one node per block)
  std::vector<int> spares;    ///< every group is faster without them (see improve)
  double rate = 0;
};

/// Fewer pipelines (each deeper) win only when the model predicts this much more throughput.
constexpr double kDeeperPipelineMargin = 0.05;

/// One pipeline in place of several must predict this much more: with one, every block is
/// held by one node only, so a volunteer that vanishes takes its blocks' training with it
/// (with two or more, a re-plan fetches them from a replica, SWARM's and Ravnest's point).
/// Measured FLOP/s are noisy (a short benchmark beside other programs), and one deep
/// pipeline can always give a node measured slow a smaller block: without this margin, noise
/// alone chose one pipeline of six over two of three for equal volunteers.
constexpr double kRedundancyMargin = 0.25;

/// Step 3: first-improvement moves and swaps between the tier's groups, and spares: a node
/// whose group is faster without it by the depth margin (its link or its speed is the
/// bottleneck, and the rest hold the model) leaves the group and waits as a spare, to be
/// planned back in when it would help a group or when a seat falls empty.
void improve(TierPlan& plan, const Chain& chain, GroupPlanner& planner, int passes) {
  auto& groups = plan.groups;
  std::vector<double> rate(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) rate[g] = planner.rate(groups[g]);
  auto gain = [](double after, double before) { return after > before * (1 + 1e-9); };
  for (int pass = 0; pass < passes; ++pass) {
    bool improved = false;
    for (size_t g = 0; g < groups.size(); ++g)
      for (size_t h = 0; h < groups.size(); ++h) {
        if (g == h) continue;
        // Move one node of g to h.
        for (size_t i = 0; i < groups[g].size() && groups[g].size() > 1; ++i) {
          if (int(groups[h].size()) >= chain.blocks) break;
          std::vector<int> from = groups[g], to = groups[h];
          to.push_back(from[i]);
          from.erase(from.begin() + long(i));
          const double rf = planner.rate(from), rt = planner.rate(to);
          if (rf > 0 && rt > 0 && gain(rf + rt, rate[g] + rate[h])) {
            groups[g] = std::move(from);
            groups[h] = std::move(to);
            rate[g] = rf;
            rate[h] = rt;
            improved = true;
            --i;  // the next node now sits at i
          }
        }
        if (g > h) continue;  // swaps once per pair of groups
        for (size_t i = 0; i < groups[g].size(); ++i)
          for (size_t j = 0; j < groups[h].size(); ++j) {
            std::vector<int> a = groups[g], b = groups[h];
            std::swap(a[i], b[j]);
            const double ra = planner.rate(a), rb = planner.rate(b);
            if (ra > 0 && rb > 0 && gain(ra + rb, rate[g] + rate[h])) {
              groups[g] = std::move(a);
              groups[h] = std::move(b);
              rate[g] = ra;
              rate[h] = rb;
              improved = true;
            }
          }
      }
    // Seat a spare where it makes a group faster by the margin; unseat a node whose group
    // is faster without it by the margin.
    for (size_t k = 0; k < plan.spares.size(); ++k)
      for (size_t g = 0; g < groups.size(); ++g) {
        if (int(groups[g].size()) >= chain.blocks) continue;
        std::vector<int> with = groups[g];
        with.push_back(plan.spares[k]);
        const double r = planner.rate(with);
        if (r > rate[g] * (1 + kDeeperPipelineMargin)) {
          groups[g] = std::move(with);
          rate[g] = r;
          plan.spares.erase(plan.spares.begin() + long(k--));
          improved = true;
          break;
        }
      }
    // Unseating peels the group: drop the node whose absence costs least, again and again,
    // and keep the best group seen. One node at a time would stop where each single removal
    // still leaves a slow node holding a layer (two slow nodes whose absence together lets
    // the fast ones take their blocks).
    for (size_t g = 0; g < groups.size(); ++g) {
      std::vector<int> peeled = groups[g], best = groups[g];
      double best_rate = rate[g];
      while (peeled.size() > 1) {
        size_t drop = peeled.size();
        double drop_rate = 0;
        for (size_t i = 0; i < peeled.size(); ++i) {
          std::vector<int> without = peeled;
          without.erase(without.begin() + long(i));
          const double r = planner.rate(without);
          // Ties (a slow node still holds a layer either way) drop the slower node.
          const bool tie = drop < peeled.size() && std::abs(r - drop_rate) <= 1e-9 * drop_rate;
          if (tie ? planner.flops(peeled[i]) < planner.flops(peeled[drop]) : r > drop_rate) {
            drop = i;
            drop_rate = r;
          }
        }
        if (drop == peeled.size()) break;  // no smaller group holds the model
        peeled.erase(peeled.begin() + long(drop));
        if (drop_rate > best_rate) {
          best = peeled;
          best_rate = drop_rate;
        }
      }
      if (best_rate > rate[g] * (1 + kDeeperPipelineMargin)) {
        for (int i : groups[g])
          if (std::find(best.begin(), best.end(), i) == best.end()) plan.spares.push_back(i);
        groups[g] = std::move(best);
        rate[g] = best_rate;
        improved = true;
      }
    }
    if (!improved) break;
  }
  plan.rate = std::accumulate(rate.begin(), rate.end(), 0.0);
}

/// Step 2: the best pipeline count P for this tier, groups built greedily and then improved
/// by step 3's local search, so that every count is judged by its best grouping found (the
/// greedy grouping alone can pair the slow volunteers together and so undersell a count).
TierPlan build_tier(const std::vector<int>& tier, const std::vector<NodeProfile>& nodes,
                    const Chain& chain, GroupPlanner& planner, int passes) {
  const int64_t model = chain.memory(0, chain.blocks);
  int64_t total = 0;
  for (int i : tier) total += nodes[size_t(i)].free_memory_bytes;
  const int most =
      int(std::min<int64_t>(int64_t(tier.size()), total / std::max<int64_t>(1, model)));
  std::vector<int> by_memory = tier;
  std::stable_sort(by_memory.begin(), by_memory.end(), [&](int a, int b) {
    return nodes[size_t(a)].free_memory_bytes > nodes[size_t(b)].free_memory_bytes;
  });
  TierPlan best;
  for (int count = most; count >= 1; --count) {
    TierPlan plan;
    plan.groups.assign(size_t(count), {});
    std::vector<int64_t> memory(size_t(count), 0);
    std::vector<double> flops(size_t(count), 0);
    for (int i : by_memory) {
      int pick = -1;
      bool short_of_memory = false;
      for (int g = 0; g < count; ++g)
        if (int(plan.groups[size_t(g)].size()) < chain.blocks &&
            double(memory[size_t(g)]) < kMemorySlack * double(model))
          short_of_memory = true;
      for (int g = 0; g < count; ++g) {
        if (int(plan.groups[size_t(g)].size()) >= chain.blocks) continue;
        if (pick < 0) {
          pick = g;
          continue;
        }
        const bool closer = short_of_memory ? memory[size_t(g)] < memory[size_t(pick)]
                                            : flops[size_t(g)] < flops[size_t(pick)];
        if (closer) pick = g;
      }
      if (pick < 0) {
        plan.leftover.push_back(i);
        continue;
      }
      plan.groups[size_t(pick)].push_back(i);
      memory[size_t(pick)] += nodes[size_t(i)].free_memory_bytes;
      flops[size_t(pick)] += nodes[size_t(i)].flops_per_s;
    }
    bool feasible = true;
    for (const auto& g : plan.groups) {
      if (planner.rate(g) <= 0) {
        feasible = false;
        break;
      }
    }
    if (feasible) improve(plan, chain, planner, passes);
    // Counts are tried from the most pipelines down; fewer, longer pipelines must beat
    // more, shorter ones by a margin, because the time model leaves out what depth costs:
    // staleness grows with the stages in flight, every stage is one more node whose loss
    // stalls the pipeline, and activations cross one more link. Giving up every replica
    // (one pipeline) needs a larger margin still.
    const double margin = best.groups.empty()                     ? 0.0
                          : count == 1 && best.groups.size() >= 2 ? kRedundancyMargin
                                                                  : kDeeperPipelineMargin;
    if (feasible && plan.rate > best.rate * (1.0 + margin)) {
      best = std::move(plan);
    }
  }
  return best;
}

}  // namespace

std::vector<std::vector<int>> detail::bandwidth_tiers(const std::vector<NodeProfile>& nodes,
                                                      double tier_bandwidth_ratio) {
  std::vector<int> by_bandwidth(nodes.size());
  std::iota(by_bandwidth.begin(), by_bandwidth.end(), 0);
  std::stable_sort(by_bandwidth.begin(), by_bandwidth.end(), [&](int a, int b) {
    return link_bandwidth(nodes[size_t(a)]) > link_bandwidth(nodes[size_t(b)]);
  });
  std::vector<std::vector<int>> tiers;
  for (int i : by_bandwidth) {
    if (tiers.empty() || link_bandwidth(nodes[size_t(i)]) * tier_bandwidth_ratio <
                             link_bandwidth(nodes[size_t(tiers.back().front())]))
      tiers.emplace_back();
    tiers.back().push_back(i);
  }
  return tiers;
}

ClusterPlan form_pipelines(const std::vector<NodeProfile>& nodes,
                           const std::vector<BlockProfile>& blocks,
                           const TrainingSettings& settings, const ClusteringOptions& options) {
  ClusterPlan result;
  check_inputs(nodes, blocks, settings);
  if (nodes.empty()) return result;
  const Chain chain(blocks, settings);
  GroupPlanner planner(nodes, chain);

  // Step 1: bandwidth tiers, fastest first.
  std::vector<std::vector<int>> tiers = bandwidth_tiers(nodes, options.tier_bandwidth_ratio);

  // Step 2: groups per tier; a tier that cannot form one pipeline joins its slower neighbour.
  std::vector<TierPlan> plans;
  for (bool merged = true; merged;) {
    merged = false;
    plans.clear();
    for (size_t t = 0; t < tiers.size(); ++t) {
      TierPlan plan = build_tier(tiers[t], nodes, chain, planner, options.max_local_search_passes);
      if (plan.groups.empty() && tiers.size() > 1) {
        const size_t into = t + 1 < tiers.size() ? t + 1 : t - 1;
        tiers[into].insert(tiers[into].end(), tiers[t].begin(), tiers[t].end());
        tiers.erase(tiers.begin() + long(t));
        merged = true;
        break;
      }
      plans.push_back(std::move(plan));
    }
  }

  if (plans.size() == 1 && plans.front().groups.empty()) {
    // Not even all nodes together hold the model: say why, with the best-placed nodes.
    std::vector<NodeProfile> biggest = nodes;
    std::stable_sort(biggest.begin(), biggest.end(),
                     [](const NodeProfile& a, const NodeProfile& b) {
                       return a.free_memory_bytes > b.free_memory_bytes;
                     });
    if (int(biggest.size()) > chain.blocks) biggest.resize(size_t(chain.blocks));
    const PartitionOptions& po = options.partition;
    const Infeasible why = explain_infeasible(
        chain, biggest, true, std::min(po.exact_order_max_nodes, 7), po.local_search_rounds);
    for (const auto& n : nodes)
      result.unassigned.push_back({n.id, Unseated::NoPipelineHoldsModel, why.reason});
    return result;
  }

  // The final plans (step 3 ran inside build_tier, for every count).
  for (size_t t = 0; t < plans.size(); ++t) {
    for (const auto& group : plans[t].groups) {
      PartitionResult r =
          partition_pipeline(planner.gather(group), blocks, settings, options.partition);
      if (!r.ok()) {  // cannot happen: the group was checked feasible; never plan it anyway
        for (int i : group)
          result.unassigned.push_back(
              {nodes[size_t(i)].id, Unseated::NoPipelineHoldsModel, r.infeasible.reason});
        continue;
      }
      for (Stage& s : r.plan->stages) s.node_index = group[size_t(s.node_index)];
      result.samples_per_s += r.plan->samples_per_s;
      result.pipelines.push_back(std::move(*r.plan));
      result.tier.push_back(int(t));
    }
    for (int i : plans[t].leftover)
      result.unassigned.push_back({nodes[size_t(i)].id, Unseated::TierFull, {}});
    for (int i : plans[t].spares)
      result.unassigned.push_back({nodes[size_t(i)].id, Unseated::Spare, {}});
  }
  return result;
}

std::string describe(const Unassigned& u) {
  switch (u.why) {
    case Unseated::NoPipelineHoldsModel:
      return "no pipeline of the available nodes holds the model: " + u.detail;
    case Unseated::TierFull:
      return "every pipeline of its bandwidth tier already has one node per block";
    case Unseated::Spare:
      return "a spare: its pipeline is faster without it (its link or its speed would be the "
             "bottleneck), so it waits to fill a seat that falls empty";
  }
  return "not planned";
}

}  // namespace rookery::cluster
