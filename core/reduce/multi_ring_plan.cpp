#include "reduce/multi_ring_plan.hpp"

#include "reduce/averaging_groups.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace rookery::reduce {

MultiRingPlan::MultiRingPlan(std::vector<std::int64_t> block_values,
                             std::vector<PipelinePartition> pipelines)
    : pipelines_(std::move(pipelines)) {
  const auto blocks = std::int64_t(block_values.size());
  if (blocks == 0) throw std::invalid_argument("multi-ring plan: the model has no blocks");
  offsets_.assign(1, 0);
  for (auto v : block_values) {
    if (v < 0) throw std::invalid_argument("multi-ring plan: a block cannot have a negative size");
    offsets_.push_back(offsets_.back() + std::uint64_t(v));
  }
  std::set<std::string> seen;
  std::vector<std::size_t> known;
  for (std::size_t p = 0; p < pipelines_.size(); ++p) {
    const auto& part = pipelines_[p];
    if (part.unknown()) continue;
    known.push_back(p);
    const auto& b = part.boundaries;
    const std::string where = "multi-ring plan: pipeline " + std::to_string(p) + ": ";
    if (b.size() < 2 || b.front() != 0 || b.back() != blocks) {
      throw std::invalid_argument(where + "boundaries must run from 0 to " +
                                  std::to_string(blocks));
    }
    if (part.nodes.size() + 1 != b.size())
      throw std::invalid_argument(where + "one node per stage expected");
    for (std::size_t s = 0; s + 1 < b.size(); ++s) {
      if (b[s] >= b[s + 1])
        throw std::invalid_argument(where + "stages must be non-empty and in order");
    }
    for (const auto& n : part.nodes) {
      if (n.empty() || !seen.insert(n).second)
        throw std::invalid_argument(where + "node '" + n + "' is empty or repeated");
    }
  }
  ranges_ = ranges_of(known);
}

std::vector<ReduceRange> MultiRingPlan::ranges_of(const std::vector<std::size_t>& pipelines) const {
  std::vector<ReduceRange> out;
  if (pipelines.empty()) return out;
  std::set<std::int64_t> cuts;
  for (const auto p : pipelines)
    cuts.insert(pipelines_[p].boundaries.begin(), pipelines_[p].boundaries.end());
  const std::vector<std::int64_t> c(cuts.begin(), cuts.end());
  for (std::size_t i = 0; i + 1 < c.size(); ++i) {
    ReduceRange r;
    r.first_block = c[i];
    r.last_block = c[i + 1];
    r.first = offsets_[std::size_t(c[i])];
    r.last = offsets_[std::size_t(c[i + 1])];
    for (const auto p : pipelines) {
      const auto& part = pipelines_[p];
      // The stage whose [b_s, b_{s+1}) contains the range's first block.
      const auto it = std::upper_bound(part.boundaries.begin(), part.boundaries.end(), c[i]);
      r.members.push_back(part.nodes[std::size_t(it - part.boundaries.begin() - 1)]);
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<ReduceRange> MultiRingPlan::rings() const {
  std::vector<ReduceRange> out;
  for (const auto& r : ranges_) {
    if (r.members.size() >= 2 && r.size() > 0) out.push_back(r);
  }
  return out;
}

std::vector<ReduceRange> MultiRingPlan::rings(std::uint64_t round, std::size_t max_group) const {
  if (max_group == 0 || pipelines_.size() <= max_group) return rings();
  std::vector<ReduceRange> out;
  for (const auto& group : averaging_groups(pipelines_.size(), max_group, round)) {
    if (group.size() < 2) continue;
    if (std::any_of(group.begin(), group.end(), [&](auto p) { return pipelines_[p].unknown(); }))
      continue;
    for (auto& r : ranges_of(group)) {
      if (r.size() > 0) out.push_back(std::move(r));
    }
  }
  return out;
}

NodeRanges MultiRingPlan::for_node(const std::string& node, std::uint64_t round,
                                   std::size_t max_group) const {
  if (max_group == 0 || pipelines_.size() <= max_group) return for_node(node);
  const auto [mine, stage] = place(node);
  NodeRanges out = shard_of(node, mine, stage);
  for (const auto& group : averaging_groups(pipelines_.size(), max_group, round)) {
    if (group.size() < 2 || !std::binary_search(group.begin(), group.end(), mine)) continue;
    for (const auto p : group) {
      if (pipelines_[p].unknown()) {
        throw std::invalid_argument("multi-ring plan: pipeline " + std::to_string(p) +
                                    " averages with node '" + node + "' in round " +
                                    std::to_string(round) + " but is not in its view");
      }
    }
    for (auto& r : ranges_of(group)) {
      if (r.size() > 0 && std::find(r.members.begin(), r.members.end(), node) != r.members.end())
        out.ranges.push_back(std::move(r));
    }
  }
  return out;
}

std::pair<std::size_t, std::size_t> MultiRingPlan::place(const std::string& node) const {
  for (std::size_t p = 0; p < pipelines_.size(); ++p) {
    const auto& nodes = pipelines_[p].nodes;
    if (const auto it = std::find(nodes.begin(), nodes.end(), node); it != nodes.end())
      return {p, std::size_t(it - nodes.begin())};
  }
  throw std::invalid_argument("multi-ring plan: node '" + node + "' is in no pipeline");
}

NodeRanges MultiRingPlan::shard_of(const std::string& node, std::size_t pipeline,
                                   std::size_t stage) const {
  const auto& b = pipelines_[pipeline].boundaries;
  NodeRanges out;
  out.node = node;
  out.shard_first = offsets_[std::size_t(b[stage])];
  out.shard_last = offsets_[std::size_t(b[stage + 1])];
  return out;
}

NodeRanges MultiRingPlan::for_node(const std::string& node) const {
  const auto [pipeline, stage] = place(node);
  NodeRanges out = shard_of(node, pipeline, stage);
  for (const auto& r : rings()) {
    if (std::find(r.members.begin(), r.members.end(), node) != r.members.end())
      out.ranges.push_back(r);
  }
  return out;
}

}  // namespace rookery::reduce
