// Memory and time models, the exact partitioning DPs and the order search (see planning.hpp).
#include "cluster/planning.hpp"
#include "cluster/planning_detail.hpp"

#include <algorithm>
#include <bit>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace rookery::cluster {
namespace detail {

Chain::Chain(const std::vector<BlockProfile>& list, const TrainingSettings& s)
    : blocks(int(list.size())), settings(s) {
  flops.assign(list.size() + 1, 0.0);
  params.assign(list.size() + 1, 0);
  held.assign(list.size() + 1, 0);
  activation.resize(list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    flops[i + 1] = flops[i] + list[i].flops_per_sample;
    params[i + 1] = params[i] + list[i].params;
    held[i + 1] = held[i] + list[i].activation_bytes_per_sample + list[i].stash_bytes_per_sample;
    activation[i] = list[i].activation_bytes_per_sample;
  }
}

int64_t Chain::memory(int first, int last) const {
  const TrainingSettings& s = settings;
  const int64_t per_param =
      s.param_bytes + s.grad_bytes + s.optimizer_bytes_per_param + s.staleness * s.param_bytes;
  const int64_t input = first > 0 ? activation[size_t(first - 1)] : 0;
  return (params[size_t(last)] - params[size_t(first)]) * per_param +
         s.staleness * s.micro_batch * (input + held[size_t(last)] - held[size_t(first)]);
}

double Chain::compute(const NodeProfile& node, int first, int last) const {
  return double(settings.micro_batch) * (flops[size_t(last)] - flops[size_t(first)]) /
         node.flops_per_s;
}

double Chain::link(const NodeProfile& from, const NodeProfile& to, int cut) const {
  const double bytes = double(settings.micro_batch) * double(activation[size_t(cut - 1)]);
  const double forward = std::min(from.upload_bytes_per_s, to.download_bytes_per_s);
  const double backward = std::min(to.upload_bytes_per_s, from.download_bytes_per_s);
  return bytes / forward + bytes / backward + std::max(from.rtt_s, to.rtt_s);
}

void Costs::resize(int k, int b) {
  nodes = k;
  blocks = b;
  stage_cost.assign(size_t(k) * (b + 1) * (b + 1), kInf);
  link_cost.assign(size_t(k) * k * (b + 1), 0.0);
}

Costs time_costs(const Chain& chain, const std::vector<NodeProfile>& nodes) {
  Costs c;
  const int k = int(nodes.size()), blocks = chain.blocks;
  c.resize(k, blocks);
  for (int n = 0; n < k; ++n)
    for (int a = 0; a < blocks; ++a)
      for (int b = a + 1; b <= blocks; ++b)
        if (chain.memory(a, b) <= nodes[size_t(n)].free_memory_bytes)
          c.stage_at(n, a, b) = chain.compute(nodes[size_t(n)], a, b);
  for (int p = 0; p < k; ++p)
    for (int q = 0; q < k; ++q)
      if (p != q)
        for (int a = 1; a < blocks; ++a)
          c.link_at(p, q, a) = chain.link(nodes[size_t(p)], nodes[size_t(q)], a);
  return c;
}

Costs overrun_costs(const Chain& chain, const std::vector<NodeProfile>& nodes) {
  Costs c;
  const int k = int(nodes.size()), blocks = chain.blocks;
  c.resize(k, blocks);
  for (int n = 0; n < k; ++n)
    for (int a = 0; a < blocks; ++a)
      for (int b = a + 1; b <= blocks; ++b)
        c.stage_at(n, a, b) =
            double(std::max<int64_t>(0, chain.memory(a, b) - nodes[size_t(n)].free_memory_bytes));
  return c;
}

Solution solve_fixed(const Costs& costs, const std::vector<int>& order) {
  const int k = int(order.size()), blocks = costs.blocks;
  Solution out;
  if (k == 0 || k > blocks) return out;
  const size_t width = size_t(blocks) + 1;
  std::vector<double> f(size_t(k) * width, kInf);
  std::vector<int> from(size_t(k) * width, -1);
  for (int b = 1; b <= blocks - (k - 1); ++b) f[size_t(b)] = costs.stage(order[0], 0, b);
  for (int s = 1; s < k; ++s) {
    const int node = order[size_t(s)], prev = order[size_t(s - 1)];
    for (int b = s + 1; b <= blocks - (k - 1 - s); ++b) {
      double best = kInf;
      int arg = -1;
      for (int a = s; a < b; ++a) {
        double v = f[size_t(s - 1) * width + size_t(a)];
        if (!(v < best)) continue;
        v = std::max({v, costs.link(prev, node, a), costs.stage(node, a, b)});
        if (v < best) {
          best = v;
          arg = a;
        }
      }
      f[size_t(s) * width + size_t(b)] = best;
      from[size_t(s) * width + size_t(b)] = arg;
    }
  }
  const double value = f[size_t(k - 1) * width + size_t(blocks)];
  if (!(value < kInf)) return out;
  out.value = value;
  out.order = order;
  out.bounds.assign(size_t(k) + 1, 0);
  out.bounds[size_t(k)] = blocks;
  for (int s = k - 1, b = blocks; s > 0; --s) {
    b = from[size_t(s) * width + size_t(b)];
    out.bounds[size_t(s)] = b;
  }
  return out;
}

Solution solve_subsets(const Costs& costs) {
  const int k = costs.nodes, blocks = costs.blocks;
  Solution out;
  if (k == 0 || k > blocks) return out;
  if (k > 16) throw std::invalid_argument("cluster: exact order search is limited to 16 nodes");
  const size_t width = size_t(blocks) + 1;
  const size_t sets = size_t(1) << k;
  auto at = [&](size_t set, int last, int b) {
    return (set * size_t(k) + size_t(last)) * width + size_t(b);
  };
  std::vector<double> g(sets * size_t(k) * width, kInf);
  std::vector<int> from_node(g.size(), -1), from_block(g.size(), -1);
  for (size_t set = 1; set < sets; ++set) {
    const int used = std::popcount(set);
    for (int last = 0; last < k; ++last) {
      if (!(set >> last & 1U)) continue;
      if (used == 1) {
        for (int b = 1; b <= blocks - (k - 1); ++b) g[at(set, last, b)] = costs.stage(last, 0, b);
        continue;
      }
      const size_t rest = set ^ (size_t(1) << last);
      for (int b = used; b <= blocks - (k - used); ++b) {
        double best = kInf;
        int best_prev = -1, best_a = -1;
        for (int prev = 0; prev < k; ++prev) {
          if (!(rest >> prev & 1U)) continue;
          for (int a = used - 1; a < b; ++a) {
            double v = g[at(rest, prev, a)];
            if (!(v < best)) continue;
            v = std::max({v, costs.link(prev, last, a), costs.stage(last, a, b)});
            if (v < best) {
              best = v;
              best_prev = prev;
              best_a = a;
            }
          }
        }
        g[at(set, last, b)] = best;
        from_node[at(set, last, b)] = best_prev;
        from_block[at(set, last, b)] = best_a;
      }
    }
  }
  const size_t full = sets - 1;
  int last = -1;
  for (int n = 0; n < k; ++n)
    if (g[at(full, n, blocks)] < out.value) {
      out.value = g[at(full, n, blocks)];
      last = n;
    }
  if (last < 0) return out;
  out.order.assign(size_t(k), 0);
  out.bounds.assign(size_t(k) + 1, 0);
  out.bounds[size_t(k)] = blocks;
  size_t set = full;
  int b = blocks;
  for (int s = k - 1; s >= 0; --s) {
    out.order[size_t(s)] = last;
    const int prev = from_node[at(set, last, b)], a = from_block[at(set, last, b)];
    if (s > 0) out.bounds[size_t(s)] = a;
    set ^= size_t(1) << last;
    last = prev;
    b = a;
  }
  return out;
}

namespace {
bool better(double candidate, double incumbent) {
  if (!(candidate < kInf)) return false;
  if (!(incumbent < kInf)) return true;
  return candidate < incumbent * (1 - 1e-12);
}
}  // namespace

Solution solve_heuristic(const Costs& costs, const std::vector<std::vector<int>>& seeds,
                         int rounds) {
  Solution best;
  for (const auto& seed : seeds) {
    Solution s = solve_fixed(costs, seed);
    if (best.order.empty()) {
      best = s;
      best.order = seed;  // kept as the local search's start even when it does not fit
    } else if (better(s.value, best.value)) {
      best = s;
    }
  }
  if (best.order.empty()) return best;
  const int k = int(best.order.size());
  for (int round = 0; round < rounds; ++round) {
    bool improved = false;
    for (int i = 0; i < k && !improved; ++i)
      for (int j = 0; j < k && !improved; ++j) {
        if (i == j) continue;
        std::vector<int> order = best.order;
        if (i < j) {
          std::swap(order[size_t(i)], order[size_t(j)]);  // swaps once per pair
          Solution s = solve_fixed(costs, order);
          if (better(s.value, best.value)) {
            best = s;
            improved = true;
            continue;
          }
          order = best.order;
        }
        const int node = order[size_t(i)];  // move node i to position j
        order.erase(order.begin() + i);
        order.insert(order.begin() + j, node);
        Solution s = solve_fixed(costs, order);
        if (better(s.value, best.value)) {
          best = s;
          improved = true;
        }
      }
    if (!improved) break;
  }
  return best;
}

double link_bandwidth(const NodeProfile& node) {
  return std::min(node.upload_bytes_per_s, node.download_bytes_per_s);
}

std::vector<std::vector<int>> seed_orders(const std::vector<NodeProfile>& nodes) {
  std::vector<int> given(nodes.size());
  std::iota(given.begin(), given.end(), 0);
  std::vector<std::vector<int>> seeds{given};
  auto sorted = [&](auto key) {
    std::vector<int> order = given;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return key(nodes[size_t(a)]) > key(nodes[size_t(b)]); });
    return order;
  };
  seeds.push_back(sorted([](const NodeProfile& n) { return n.flops_per_s; }));
  seeds.push_back(sorted([](const NodeProfile& n) { return -n.flops_per_s; }));
  seeds.push_back(sorted([](const NodeProfile& n) { return double(n.free_memory_bytes); }));
  seeds.push_back(sorted([](const NodeProfile& n) { return link_bandwidth(n); }));
  return seeds;
}

Solution solve_order(const Costs& costs, const std::vector<NodeProfile>& nodes, int exact_max,
                     int rounds) {
  if (costs.nodes <= exact_max) return solve_subsets(costs);
  return solve_heuristic(costs, seed_orders(nodes), rounds);
}

PartitionResult make_plan(const Chain& chain, const std::vector<NodeProfile>& nodes,
                          const std::vector<int>& order, const std::vector<int>& bounds) {
  PartitionResult result;
  PipelinePlan plan;
  std::ostringstream overruns;
  int64_t worst = 0;
  for (size_t s = 0; s < order.size(); ++s) {
    const NodeProfile& node = nodes[size_t(order[s])];
    Stage stage;
    stage.node_id = node.id;
    stage.node_index = order[s];
    stage.first_block = bounds[s];
    stage.last_block = bounds[s + 1];
    stage.compute_s = chain.compute(node, stage.first_block, stage.last_block);
    stage.link_in_s =
        s > 0 ? chain.link(nodes[size_t(order[s - 1])], node, stage.first_block) : 0.0;
    stage.memory_bytes = chain.memory(stage.first_block, stage.last_block);
    stage.memory_cap_bytes = node.free_memory_bytes;
    plan.bottleneck_s = std::max({plan.bottleneck_s, stage.compute_s, stage.link_in_s});
    if (stage.memory_bytes > stage.memory_cap_bytes) {
      const int64_t over = stage.memory_bytes - stage.memory_cap_bytes;
      overruns << (worst > 0 ? "; " : "") << "node " << node.id << " needs " << stage.memory_bytes
               << " bytes for blocks [" << stage.first_block << ", " << stage.last_block
               << ") and has " << stage.memory_cap_bytes << " free, short by " << over;
      worst = std::max(worst, over);
    }
    plan.stages.push_back(std::move(stage));
  }
  if (worst > 0) {
    result.infeasible.reason = "out of memory: " + overruns.str();
    result.infeasible.shortfall_bytes = worst;
    return result;
  }
  plan.samples_per_s = double(chain.settings.micro_batch) / plan.bottleneck_s;
  result.plan = std::move(plan);
  return result;
}

Infeasible explain_infeasible(const Chain& chain, const std::vector<NodeProfile>& nodes,
                              bool search_order, int exact_max, int rounds) {
  Infeasible why;
  std::ostringstream text;
  if (nodes.empty()) {
    why.reason = "no nodes to plan";
    return why;
  }
  if (int(nodes.size()) > chain.blocks) {
    text << nodes.size() << " nodes but the model has only " << chain.blocks
         << " blocks: every node of a pipeline needs at least one";
    why.reason = text.str();
    return why;
  }
  const Costs costs = overrun_costs(chain, nodes);
  std::vector<int> given(nodes.size());
  std::iota(given.begin(), given.end(), 0);
  const Solution least =
      search_order ? solve_order(costs, nodes, exact_max, rounds) : solve_fixed(costs, given);
  why.shortfall_bytes = int64_t(least.value);
  text << "no split of the " << chain.blocks << " blocks over " << nodes.size() << " node(s)"
       << (search_order ? " in any order" : " in the given order") << " fits in memory";
  for (size_t s = 0; s < least.order.size(); ++s) {
    const NodeProfile& node = nodes[size_t(least.order[s])];
    const int64_t need = chain.memory(least.bounds[s], least.bounds[s + 1]);
    if (need - node.free_memory_bytes == why.shortfall_bytes) {
      text << "; at best node " << node.id << " must hold blocks [" << least.bounds[s] << ", "
           << least.bounds[s + 1] << ") needing " << need << " bytes with "
           << node.free_memory_bytes << " free, short by " << why.shortfall_bytes << " bytes";
      break;
    }
  }
  int64_t total_free = 0;
  for (const auto& n : nodes) total_free += n.free_memory_bytes;
  const int64_t model = chain.memory(0, chain.blocks);
  if (total_free < model)
    text << "; together the nodes have " << total_free
         << " bytes free and the model needs at least " << model;
  why.reason = text.str();
  return why;
}

void check_inputs(const std::vector<NodeProfile>& nodes, const std::vector<BlockProfile>& blocks,
                  const TrainingSettings& settings) {
  if (blocks.empty()) throw std::invalid_argument("cluster: the model has no blocks");
  if (settings.micro_batch < 1 || settings.staleness < 1)
    throw std::invalid_argument("cluster: micro_batch and staleness must be at least 1");
  for (const auto& n : nodes)
    if (!(n.flops_per_s > 0) || !(n.upload_bytes_per_s > 0) || !(n.download_bytes_per_s > 0) ||
        n.rtt_s < 0)
      throw std::invalid_argument("cluster: node " + n.id +
                                  " has a non-positive FLOP/s or bandwidth");
}

}  // namespace detail

using namespace detail;

int64_t shard_memory_bytes(const std::vector<BlockProfile>& blocks, int first, int last,
                           const TrainingSettings& settings) {
  if (first < 0 || last > int(blocks.size()) || first >= last)
    throw std::invalid_argument(
        "cluster: shard [" + std::to_string(first) + ", " + std::to_string(last) +
        ") is not a non-empty range of the model's " + std::to_string(blocks.size()) + " blocks");
  return Chain(blocks, settings).memory(first, last);
}

int64_t model_memory_bytes(const std::vector<BlockProfile>& blocks,
                           const TrainingSettings& settings) {
  return shard_memory_bytes(blocks, 0, int(blocks.size()), settings);
}

double stage_compute_s(const NodeProfile& node, const std::vector<BlockProfile>& blocks, int first,
                       int last, const TrainingSettings& settings) {
  return Chain(blocks, settings).compute(node, first, last);
}

double link_s(const NodeProfile& from, const NodeProfile& to,
              const std::vector<BlockProfile>& blocks, int cut, const TrainingSettings& settings) {
  if (cut <= 0 || cut >= int(blocks.size()))
    throw std::invalid_argument("cluster: a cut lies between two blocks");
  return Chain(blocks, settings).link(from, to, cut);
}

std::vector<int> PipelinePlan::boundaries() const {
  std::vector<int> out;
  for (const Stage& s : stages) out.push_back(s.first_block);
  if (!stages.empty()) out.push_back(stages.back().last_block);
  return out;
}

PartitionResult evaluate_plan(const std::vector<NodeProfile>& nodes, const std::vector<int>& order,
                              const std::vector<int>& bounds,
                              const std::vector<BlockProfile>& blocks,
                              const TrainingSettings& settings) {
  if (order.empty() || bounds.size() != order.size() + 1 || bounds.front() != 0 ||
      bounds.back() != int(blocks.size()))
    throw std::invalid_argument(
        "cluster: boundaries must run from 0 to the block count, one more than the stages");
  for (size_t s = 0; s + 1 < bounds.size(); ++s)
    if (bounds[s] >= bounds[s + 1])
      throw std::invalid_argument("cluster: every shard must be non-empty");
  for (int n : order)
    if (n < 0 || n >= int(nodes.size()))
      throw std::invalid_argument("cluster: node index out of range");
  return make_plan(Chain(blocks, settings), nodes, order, bounds);
}

PartitionResult partition_pipeline(const std::vector<NodeProfile>& nodes,
                                   const std::vector<BlockProfile>& blocks,
                                   const TrainingSettings& settings,
                                   const PartitionOptions& options) {
  check_inputs(nodes, blocks, settings);
  const Chain chain(blocks, settings);
  PartitionResult result;
  if (nodes.empty() || nodes.size() > blocks.size()) {
    result.infeasible =
        explain_infeasible(chain, nodes, options.search_order, options.exact_order_max_nodes,
                           options.local_search_rounds);
    return result;
  }
  const Costs costs = time_costs(chain, nodes);
  std::vector<int> given(nodes.size());
  std::iota(given.begin(), given.end(), 0);
  const Solution best =
      options.search_order
          ? solve_order(costs, nodes, options.exact_order_max_nodes, options.local_search_rounds)
          : solve_fixed(costs, given);
  if (!(best.value < kInf)) {
    result.infeasible =
        explain_infeasible(chain, nodes, options.search_order, options.exact_order_max_nodes,
                           options.local_search_rounds);
    return result;
  }
  return make_plan(chain, nodes, best.order, best.bounds);
}

UniformResult partition_uniform(const std::vector<std::vector<NodeProfile>>& pipelines,
                                const std::vector<BlockProfile>& blocks,
                                const TrainingSettings& settings) {
  UniformResult result;
  if (pipelines.empty()) {
    result.infeasible.reason = "no pipelines to plan";
    return result;
  }
  const size_t k = pipelines.front().size();
  for (const auto& p : pipelines) {
    if (p.size() != k)
      throw std::invalid_argument("cluster: uniform pipelines must all have the same length");
    check_inputs(p, blocks, settings);
  }
  const Chain chain(blocks, settings);
  const int b_count = chain.blocks;
  if (k == 0 || int(k) > b_count) {
    result.infeasible.reason =
        std::to_string(k) + " stages but the model has " + std::to_string(b_count) + " blocks";
    return result;
  }
  // Stage column s's cost is the worst over the pipelines of their s-th node.
  Costs time, over;
  time.resize(int(k), b_count);
  over.resize(int(k), b_count);
  for (size_t s = 0; s < k; ++s)
    for (int a = 0; a < b_count; ++a)
      for (int b = a + 1; b <= b_count; ++b) {
        const int64_t need = chain.memory(a, b);
        double worst_time = 0, worst_over = 0;
        for (const auto& p : pipelines) {
          const NodeProfile& n = p[s];
          worst_over =
              std::max(worst_over, double(std::max<int64_t>(0, need - n.free_memory_bytes)));
          worst_time = std::max(worst_time, chain.compute(n, a, b));
        }
        over.stage_at(int(s), a, b) = worst_over;
        time.stage_at(int(s), a, b) = worst_over > 0 ? kInf : worst_time;
      }
  for (size_t s = 1; s < k; ++s)
    for (int a = 1; a < b_count; ++a) {
      double worst = 0;
      for (const auto& p : pipelines) worst = std::max(worst, chain.link(p[s - 1], p[s], a));
      time.link_at(int(s - 1), int(s), a) = worst;
    }
  std::vector<int> columns(k);
  std::iota(columns.begin(), columns.end(), 0);
  const Solution best = solve_fixed(time, columns);
  if (!(best.value < kInf)) {
    const Solution least = solve_fixed(over, columns);
    result.infeasible.shortfall_bytes = int64_t(least.value);
    result.infeasible.reason = "no shared split of the " + std::to_string(b_count) +
                               " blocks fits every pipeline's " +
                               "nodes in memory; at best some node is short by " +
                               std::to_string(result.infeasible.shortfall_bytes) + " bytes";
    return result;
  }
  result.boundaries = best.bounds;
  for (const auto& p : pipelines) {
    PartitionResult r = make_plan(chain, p, columns, best.bounds);
    result.pipelines.push_back(*r.plan);  // every node fits: checked by the DP's costs
  }
  return result;
}

}  // namespace rookery::cluster
