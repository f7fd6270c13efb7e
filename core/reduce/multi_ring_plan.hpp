#pragma once
// Ravnest's parallel multi-ring all-reduce, planned: which parameters each ring averages and
// who its members are, derived only from the pipelines' partitions (a pure function, so a
// re-partition simply re-derives it on every node alike).
//
// Every pipeline holds the whole model, cut at its own block boundaries. The union of all
// pipelines' boundaries cuts the model's flat parameter vector into ranges; inside a range
// every pipeline has exactly one owner, and at each cut some pipeline's owner changes. Each
// range with owners in two or more pipelines is one ring whose members are those owners,
// in pipeline order. A node sits in every ring whose range lies in its shard, and runs
// them all at once.
//
// In groups (averaging_groups.hpp), a round's rings are cut by the boundaries of the group's
// own pipelines, so the members of a group agree on them knowing only the pipelines they
// average with: a node of a large swarm is sent the plan's view of those (its sweep_partners'
// pipelines; the others come as empty partitions, which keep their places in the grid).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rookery::reduce {

struct PipelinePartition {
  std::vector<std::int64_t> boundaries;  // [0, b1, ..., block_count]: stage s holds [b_s, b_{s+1})
  std::vector<std::string> nodes;        // nodes[s] holds stage s (member ids: CURVE public keys)
  // Both empty: a pipeline outside the node's view of the plan (it keeps its index).
  bool unknown() const { return boundaries.empty() && nodes.empty(); }
};

struct ReduceRange {
  std::int64_t first_block = 0, last_block = 0;  // blocks [first, last)
  std::uint64_t first = 0, last = 0;  // flat parameter offsets [first, last) in the whole model
  std::vector<std::string> members;   // one owner per pipeline, in pipeline order
  std::uint64_t size() const { return last - first; }
  friend bool operator==(const ReduceRange&, const ReduceRange&) = default;
};

// What one node averages: its shard's flat span and the ranges (rings) inside it.
struct NodeRanges {
  std::string node;
  std::uint64_t shard_first = 0,
                shard_last = 0;     // the node's flat parameters, in whole-model offsets
  std::vector<ReduceRange> ranges;  // rings it sits in; local offset = first - shard_first
};

class MultiRingPlan {
 public:
  // `block_values[b]`: values block b contributes (parameters and buffers, in the shard's
  // flat order). Throws std::invalid_argument for partitions that do not cover the model
  // with non-empty stages (but unknown ones), or a node that appears twice.
  MultiRingPlan(std::vector<std::int64_t> block_values, std::vector<PipelinePartition> pipelines);

  // All ranges of the known pipelines, in order.
  const std::vector<ReduceRange>& ranges() const { return ranges_; }
  std::vector<ReduceRange> rings() const;              // ranges with >= 2 members
  NodeRanges for_node(const std::string& node) const;  // throws if `node` is unknown
  // Averaging round `round` when a ring may span at most `max_group` pipelines: the round's
  // averaging groups of the pipelines (averaging_groups.hpp) each average in the rings of their
  // own pipelines' cuts (the same group for every range, so a pipeline averages all its blocks
  // with the same pipelines in a round); groups with an unknown pipeline are left out. With
  // `max_group` pipelines or fewer, or max_group 0 (no bound): rings() and for_node() as above.
  // Throws std::invalid_argument when the pipelines fit no grid of such groups
  // (averaging_grid).
  std::vector<ReduceRange> rings(std::uint64_t round, std::size_t max_group) const;
  NodeRanges for_node(const std::string& node, std::uint64_t round, std::size_t max_group) const;
  std::uint64_t total_values() const { return offsets_.back(); }
  std::uint64_t block_offset(std::int64_t block) const { return offsets_.at(std::size_t(block)); }

 private:
  // {pipeline, stage} of `node`; throws std::invalid_argument when it is in none.
  std::pair<std::size_t, std::size_t> place(const std::string& node) const;
  // `node`'s shard span at that place, with no ranges yet.
  NodeRanges shard_of(const std::string& node, std::size_t pipeline, std::size_t stage) const;
  // The ranges cut by the union of `pipelines`' boundaries (all known), one member each.
  std::vector<ReduceRange> ranges_of(const std::vector<std::size_t>& pipelines) const;

  std::vector<std::uint64_t> offsets_;  // offsets_[b]: flat offset of block b; back() = total
  std::vector<PipelinePartition> pipelines_;
  std::vector<ReduceRange> ranges_;
};

}  // namespace rookery::reduce
