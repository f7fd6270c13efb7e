// The near-linear planner: nodes packed into pipelines against a target bottleneck, the best
// target found on a geometric grid (see planning.hpp, "Packing against a target bottleneck").
#include "cluster/planning.hpp"
#include "cluster/planning_detail.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace rookery::cluster {
using namespace detail;

namespace {

/// form_pipelines' margin for a deeper pipeline: a node joins one only when it predicts this
/// much more, since depth costs staleness and fragility that the time model does not charge.
constexpr double kJoinMargin = 0.05;
/// Targets tried per round at most, whatever the spread of speeds and links.
constexpr int kMaxTargets = 1000;

struct Packing {
  std::vector<std::vector<int>> groups;  ///< node indices in stage order
  std::vector<int> rest;                 ///< skipped, or left in the unfinished last pipeline
  double rate = 0;                       ///< Σ 1 / bottleneck over the groups (per micro-batch)
};

/// The nodes of one packing not yet placed, in FLOP/s-ascending order: the slowest that has
/// at least some FLOP/s and memory in O(log N) (a max-tree of memory over the positions), and
/// the first left in an order of preference.
class Available {
 public:
  Available(const std::vector<int>& ascending, const std::vector<NodeProfile>& nodes)
      : ascending_(ascending), nodes_(nodes) {
    while (size_ < ascending.size()) size_ *= 2;
    tree_.assign(2 * size_, -1);
    for (size_t k = 0; k < ascending.size(); ++k)
      // -1 marks a node placed: a node reporting less than nothing free still counts as there.
      tree_[size_ + k] = std::max<int64_t>(0, nodes[size_t(ascending[k])].free_memory_bytes);
    for (size_t k = size_ - 1; k > 0; --k) tree_[k] = std::max(tree_[2 * k], tree_[2 * k + 1]);
  }

  /// The first position of `preference` from `cursor` on that is left, or -1; moves `cursor`
  /// past the taken ones (each is passed once per packing).
  int first_left(const std::vector<int>& preference, size_t& cursor) const {
    while (cursor < preference.size() && tree_[size_ + size_t(preference[cursor])] < 0) ++cursor;
    return cursor < preference.size() ? preference[cursor] : -1;
  }

  /// Position of the slowest node left with at least `flops` FLOP/s and `memory` bytes, or -1.
  int slowest_with(double flops, int64_t memory) const {
    const auto first =
        std::lower_bound(ascending_.begin(), ascending_.end(), flops,
                         [&](int i, double f) { return nodes_[size_t(i)].flops_per_s < f; });
    return first_from(size_t(first - ascending_.begin()), memory);
  }

  void take(int position) {
    size_t k = size_ + size_t(position);
    tree_[k] = -1;
    for (k /= 2; k > 0; k /= 2) tree_[k] = std::max(tree_[2 * k], tree_[2 * k + 1]);
  }

  int node(int position) const { return ascending_[size_t(position)]; }

 private:
  /// The first position at or after `from` whose memory is at least `memory`.
  int first_from(size_t from, int64_t memory) const {
    if (from >= ascending_.size()) return -1;
    // Walk up from the leaf, looking right of the path for the first subtree that qualifies.
    size_t k = size_ + from;
    if (tree_[k] >= memory) return int(from);
    while (true) {
      while (k % 2 == 1) {  // a right child: climb until there is a right sibling
        k /= 2;
        if (k <= 1) return -1;
      }
      ++k;  // the right sibling
      if (tree_[k] >= memory) break;
    }
    while (k < size_) k = tree_[2 * k] >= memory ? 2 * k : 2 * k + 1;
    return int(k - size_);
  }

  const std::vector<int>& ascending_;
  const std::vector<NodeProfile>& nodes_;
  size_t size_ = 1;
  std::vector<int64_t> tree_;
};

/// One packing against `target` (step 2) of `ascending` (FLOP/s-ascending node indices);
/// when no node finishes the pipeline, the first left in `extenders` (positions in
/// `ascending`) takes the longest run it can. Every test is monotone in a shard's end (memory
/// and compute only grow with it).
Packing pack_at(const std::vector<int>& ascending, const std::vector<int>& extenders,
                const std::vector<NodeProfile>& nodes, const Chain& chain, double target) {
  Packing out;
  if (ascending.empty()) return out;
  Available left(ascending, nodes);
  size_t cursor = 0;
  const double micro_batch = double(chain.settings.micro_batch);
  std::vector<int> current;
  int next = 0;
  double worst = 0;
  auto place = [&](int i, int end, double in) {
    worst = std::max({worst, in, chain.compute(nodes[size_t(i)], next, end)});
    current.push_back(i);
    next = end;
    if (next < chain.blocks) return;
    // A chain of zero-cost blocks on zero-latency links would divide by zero: count it as the
    // fastest any pipeline can be, which ranks it first either way.
    out.rate += 1.0 / std::max(worst, 1e-12);
    out.groups.push_back(std::move(current));
    current.clear();
    next = 0;
    worst = 0;
  };
  auto link_in = [&](int i) {
    return current.empty() ? 0.0
                           : chain.link(nodes[size_t(current.back())], nodes[size_t(i)], next);
  };
  while (true) {
    // Best fit: the slowest node that finishes the pipeline, so that no faster node's
    // capacity is spent on a tail a slower one can carry.
    const double need =
        micro_batch * (chain.flops[size_t(chain.blocks)] - chain.flops[size_t(next)]);
    const int fit = left.slowest_with(need / target, chain.memory(next, chain.blocks));
    if (fit >= 0) {
      const int i = left.node(fit);
      const double in = link_in(i);
      if (in <= target && chain.compute(nodes[size_t(i)], next, chain.blocks) <= target) {
        left.take(fit);
        place(i, chain.blocks, in);
        continue;
      }
    }
    // None finishes it: the next extender takes the longest run it can.
    const int top = left.first_left(extenders, cursor);
    if (top < 0) break;
    left.take(top);
    const int i = left.node(top);
    const NodeProfile& node = nodes[size_t(i)];
    const double in = link_in(i);
    int lo = next, hi = chain.blocks;  // the largest end in (next, blocks] that fits, or next
    if (in <= target)
      while (lo < hi) {
        const int mid = lo + (hi - lo + 1) / 2;
        if (chain.memory(next, mid) <= node.free_memory_bytes &&
            chain.compute(node, next, mid) <= target)
          lo = mid;
        else
          hi = mid - 1;
      }
    if (lo == next) {
      out.rest.push_back(i);
      continue;
    }
    place(i, lo, in);
  }
  out.rest.insert(out.rest.end(), current.begin(), current.end());
  return out;
}

/// FLOP/s ascending, then memory ascending (among equals, the best fit is found first), then
/// index: the packing's order, deterministic.
void sort_slowest_first(std::vector<int>& order, const std::vector<NodeProfile>& nodes) {
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const NodeProfile &x = nodes[size_t(a)], &y = nodes[size_t(b)];
    if (x.flops_per_s != y.flops_per_s) return x.flops_per_s < y.flops_per_s;
    if (x.free_memory_bytes != y.free_memory_bytes)
      return x.free_memory_bytes < y.free_memory_bytes;
    return a < b;
  });
}

/// The grid of step 3 for `order`: from the lightest block with work on the fastest node, or
/// the fastest link, up to the whole model on the slowest node, or the slowest link. Below
/// the low end no node takes a block with work; above the high end every node takes all
/// that its memory allows, so no larger target packs differently.
std::vector<double> targets(const std::vector<int>& ascending,
                            const std::vector<NodeProfile>& nodes, const Chain& chain,
                            double step) {
  double lo = kInf, hi = 0;
  const NodeProfile& slowest = nodes[size_t(ascending.front())];
  const NodeProfile& fastest = nodes[size_t(ascending.back())];
  for (int b = 0; b < chain.blocks; ++b) {
    const double c = chain.compute(fastest, b, b + 1);
    if (c > 0) lo = std::min(lo, c);
  }
  hi = chain.compute(slowest, 0, chain.blocks);
  for (int i : ascending)
    for (int cut = 1; cut < chain.blocks; ++cut) {
      const double l = chain.link(nodes[size_t(i)], nodes[size_t(i)], cut);
      lo = std::min(lo, l);
      hi = std::max(hi, l);
    }
  hi *= 1.5;  // links pair two nodes; a node's link with itself only estimates them
  if (!(lo < kInf) || !(lo > 0)) lo = hi > 0 ? hi * 1e-6 : 1e-9;
  if (!(hi > lo)) hi = lo * 2;
  const int count = std::min(
      kMaxTargets, 2 + int(std::ceil(std::log(hi / lo) / std::log(std::max(step, 1.001)))));
  std::vector<double> out;
  for (int k = 0; k < count; ++k) out.push_back(lo * std::pow(hi / lo, double(k) / (count - 1)));
  out.push_back(kInf);  // memory alone: one node per pipeline wherever memory allows
  return out;
}

/// The `keep` best packings of `pool` over the grid of targets, by their own rate, best first;
/// targets that pack alike (the same rate and pipeline count) count once.
std::vector<Packing> best_packings(std::vector<int> pool, const std::vector<NodeProfile>& nodes,
                                   const Chain& chain, double step, size_t keep) {
  std::vector<Packing> best;
  if (pool.empty() || keep == 0) return best;
  sort_slowest_first(pool, nodes);
  // Two kinds of extender: the fastest node, where compute is what pipelines lack, and the
  // one with the least memory, where memory is: it then gets a node with room to spare as
  // its finisher, where the fastest (often a large memory too) would pair with another large
  // one and leave the small ones without a partner.
  std::vector<int> fastest(pool.size()), least_memory(pool.size());
  std::iota(least_memory.begin(), least_memory.end(), 0);
  for (size_t k = 0; k < pool.size(); ++k) fastest[k] = int(pool.size() - 1 - k);
  std::stable_sort(least_memory.begin(), least_memory.end(), [&](int a, int b) {
    return nodes[size_t(pool[size_t(a)])].free_memory_bytes <
           nodes[size_t(pool[size_t(b)])].free_memory_bytes;
  });
  for (double target : targets(pool, nodes, chain, step))
    for (const auto* extenders : {&fastest, &least_memory}) {
      Packing p = pack_at(pool, *extenders, nodes, chain, target);
      if (p.groups.empty()) continue;
      const bool seen = std::any_of(best.begin(), best.end(), [&](const Packing& b) {
        return b.groups.size() == p.groups.size() && std::abs(b.rate - p.rate) <= 1e-12 * b.rate;
      });
      if (seen || (best.size() == keep && p.rate <= best.back().rate)) continue;
      if (best.size() == keep) best.pop_back();
      best.insert(
          std::upper_bound(best.begin(), best.end(), p,
                           [](const Packing& a, const Packing& b) { return a.rate > b.rate; }),
          std::move(p));
    }
  return best;
}

/// What `pool` is worth packed greedily, each round at its own best target: the lookahead's
/// estimate of the nodes a packing leaves.
double greedy_value(std::vector<int> pool, const std::vector<NodeProfile>& nodes,
                    const Chain& chain, double step, int rounds) {
  double rate = 0;
  for (int round = 0; round < rounds && !pool.empty(); ++round) {
    auto best = best_packings(std::move(pool), nodes, chain, step, 1);
    if (best.empty()) break;
    rate += best.front().rate;
    pool = std::move(best.front().rest);
  }
  return rate;
}

/// Steps 2-3 over one tier's pool, `rounds` rounds: each keeps the packing that, with what
/// its leftover nodes are worth packed greedily, is best among the best few by their own
/// rate. Without the lookahead, the round's best target alone can spread the fast nodes
/// over pipelines that each need a slow one, where a faster target leaves the slow nodes to
/// pipelines of their own (one pipeline of four fast nodes and one of three slow beat two of
/// a mix).
Packing pack_tier(std::vector<int> pool, const std::vector<NodeProfile>& nodes, const Chain& chain,
                  const PackingOptions& options) {
  Packing out;
  const int rounds = std::max(1, options.rounds);
  for (int round = 0; round < rounds && !pool.empty(); ++round) {
    // A small pool affords every distinct packing; a large one the `lookahead` best, so that
    // the work stays O(pool · targets) per round.
    const size_t keep = size_t(std::max<long>(std::max(1, options.lookahead),
                                              options.lookahead_nodes / long(pool.size())));
    auto candidates = best_packings(pool, nodes, chain, options.target_step, keep);
    if (candidates.empty()) break;
    size_t pick = 0;
    double pick_value = -1;
    for (size_t c = 0; c < candidates.size(); ++c) {
      const double value =
          candidates[c].rate + (candidates.size() > 1
                                    ? greedy_value(candidates[c].rest, nodes, chain,
                                                   options.target_step, rounds - round - 1)
                                    : 0.0);
      if (value > pick_value * (1 + 1e-12)) {
        pick = c;
        pick_value = value;
      }
    }
    Packing& best = candidates[pick];
    out.rate += best.rate;
    for (auto& g : best.groups) out.groups.push_back(std::move(g));
    pool = std::move(best.rest);
  }
  out.rest = std::move(pool);
  return out;
}

/// Step 5: `node` joins the slowest pipelines of `tier` with room when one gets faster by the
/// margin; otherwise it is a spare, or TierFull when no pipeline of the tier has room.
void seat(ClusterPlan& plan, int node, int tier, const std::vector<NodeProfile>& nodes,
          const Chain& chain, const PackingOptions& options) {
  std::vector<size_t> room;
  for (size_t p = 0; p < plan.pipelines.size(); ++p)
    if (plan.tier[p] == tier && int(plan.pipelines[p].stages.size()) < chain.blocks)
      room.push_back(p);
  if (room.empty()) {
    plan.unassigned.push_back({nodes[size_t(node)].id, Unseated::TierFull, {}});
    return;
  }
  const size_t tries = std::min(room.size(), size_t(std::max(0, options.seat_candidates)));
  std::partial_sort(room.begin(), room.begin() + long(tries), room.end(), [&](size_t a, size_t b) {
    return plan.pipelines[a].samples_per_s < plan.pipelines[b].samples_per_s;
  });
  size_t pick = room.size();
  std::optional<PipelinePlan> best;
  double best_gain = 0;
  for (size_t k = 0; k < tries; ++k) {
    const PipelinePlan& old = plan.pipelines[room[k]];
    std::vector<int> group = members(old);
    group.push_back(node);
    auto with = cut_group(group, nodes, chain, options.partition);
    if (!with || with->samples_per_s <= old.samples_per_s * (1 + kJoinMargin)) continue;
    const double gain = with->samples_per_s - old.samples_per_s;
    if (gain > best_gain) {
      best_gain = gain;
      best = std::move(with);
      pick = room[k];
    }
  }
  if (!best) {
    plan.unassigned.push_back({nodes[size_t(node)].id, Unseated::Spare, {}});
    return;
  }
  plan.samples_per_s += best_gain;
  plan.pipelines[pick] = std::move(*best);
}

/// Whether `tier` holds one pipeline, memory alone: largest memory first, each node taking
/// all the blocks it holds.
bool holds_model(std::vector<int> tier, const std::vector<NodeProfile>& nodes, const Chain& chain) {
  std::sort(tier.begin(), tier.end(), [&](int a, int b) {
    return nodes[size_t(a)].free_memory_bytes > nodes[size_t(b)].free_memory_bytes;
  });
  int next = 0;
  for (int i : tier) {
    if (next == chain.blocks) break;
    int end = next;
    while (end < chain.blocks && chain.memory(next, end + 1) <= nodes[size_t(i)].free_memory_bytes)
      ++end;
    next = end;
  }
  return next == chain.blocks;
}

}  // namespace

std::optional<PipelinePlan> detail::cut_group(const std::vector<int>& group,
                                              const std::vector<NodeProfile>& nodes,
                                              const Chain& chain, const PartitionOptions& options) {
  if (group.empty() || int(group.size()) > chain.blocks) return std::nullopt;
  std::vector<NodeProfile> sub;
  for (int i : group) sub.push_back(nodes[size_t(i)]);
  const Costs costs = time_costs(chain, sub);
  std::vector<int> given(sub.size());
  std::iota(given.begin(), given.end(), 0);
  const Solution best =
      options.search_order
          ? solve_order(costs, sub, options.exact_order_max_nodes, options.local_search_rounds)
          : solve_fixed(costs, given);
  if (!(best.value < kInf)) return std::nullopt;
  PartitionResult r = make_plan(chain, sub, best.order, best.bounds);
  if (!r.ok()) return std::nullopt;
  for (Stage& s : r.plan->stages) s.node_index = group[size_t(s.node_index)];
  return std::move(*r.plan);
}

std::vector<int> detail::members(const PipelinePlan& plan) {
  std::vector<int> out;
  for (const Stage& s : plan.stages) out.push_back(s.node_index);
  return out;
}

std::vector<std::vector<int>> detail::packing_tiers(const std::vector<NodeProfile>& nodes,
                                                    const Chain& chain,
                                                    double tier_bandwidth_ratio) {
  std::vector<std::vector<int>> tiers = bandwidth_tiers(nodes, tier_bandwidth_ratio);
  // A tier that holds no pipeline joins its slower neighbour (the slowest its faster one),
  // as in form_pipelines; a few tiers, so restarting after each merge costs little.
  for (bool merged = true; merged && tiers.size() > 1;) {
    merged = false;
    for (size_t t = 0; t < tiers.size(); ++t) {
      if (holds_model(tiers[t], nodes, chain)) continue;
      const size_t into = t + 1 < tiers.size() ? t + 1 : t - 1;
      tiers[into].insert(tiers[into].end(), tiers[t].begin(), tiers[t].end());
      tiers.erase(tiers.begin() + long(t));
      merged = true;
      break;
    }
  }
  if (tiers.size() == 1 && !holds_model(tiers.front(), nodes, chain)) tiers.clear();
  return tiers;
}

void detail::pack_pools(ClusterPlan& plan, const std::vector<std::vector<int>>& pools,
                        const std::vector<NodeProfile>& nodes, const Chain& chain,
                        const PackingOptions& options) {
  const size_t first = plan.pipelines.size();
  std::vector<std::vector<int>> left(pools.size());
  for (size_t t = 0; t < pools.size(); ++t) {
    if (pools[t].empty()) continue;
    Packing packed = pack_tier(pools[t], nodes, chain, options);
    for (const auto& group : packed.groups) {
      auto cut = cut_group(group, nodes, chain, options.partition);
      if (!cut) {  // the packing's own order and cuts fit, so the DP finds a plan; never seat
        left[t].insert(left[t].end(), group.begin(), group.end());
        continue;
      }
      plan.samples_per_s += cut->samples_per_s;
      plan.pipelines.push_back(std::move(*cut));
      plan.tier.push_back(int(t));
    }
    left[t].insert(left[t].end(), packed.rest.begin(), packed.rest.end());
  }
  polish_pipelines(plan, first, nodes, chain, options);
  for (size_t t = 0; t < pools.size(); ++t) {
    std::vector<int>& rest = left[t];
    // Fastest first: a fast node is the likelier to speed a pipeline up by the margin.
    sort_slowest_first(rest, nodes);
    std::reverse(rest.begin(), rest.end());
    for (int i : rest) seat(plan, i, int(t), nodes, chain, options);
  }
}

void detail::unseat_all(ClusterPlan& plan, const std::vector<NodeProfile>& nodes,
                        const Chain& chain, const PartitionOptions& options) {
  // Say why with the best-placed nodes: the largest memories, one per block at most.
  std::vector<NodeProfile> biggest = nodes;
  std::stable_sort(biggest.begin(), biggest.end(), [](const NodeProfile& a, const NodeProfile& b) {
    return a.free_memory_bytes > b.free_memory_bytes;
  });
  if (int(biggest.size()) > chain.blocks) biggest.resize(size_t(chain.blocks));
  const Infeasible why =
      explain_infeasible(chain, biggest, true, std::min(options.exact_order_max_nodes, 7),
                         options.local_search_rounds);
  for (const auto& n : nodes)
    plan.unassigned.push_back({n.id, Unseated::NoPipelineHoldsModel, why.reason});
}

ClusterPlan pack_pipelines(const std::vector<NodeProfile>& nodes,
                           const std::vector<BlockProfile>& blocks,
                           const TrainingSettings& settings, const PackingOptions& options) {
  ClusterPlan result;
  check_inputs(nodes, blocks, settings);
  if (nodes.empty()) return result;
  const Chain chain(blocks, settings);
  const auto tiers = packing_tiers(nodes, chain, options.tier_bandwidth_ratio);
  if (tiers.empty()) {
    unseat_all(result, nodes, chain, options.partition);
    return result;
  }
  pack_pools(result, tiers, nodes, chain, options);
  return result;
}

}  // namespace rookery::cluster
