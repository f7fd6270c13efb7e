#pragma once
// Where a node fetches the blocks of its new seat: the live members that held any of them under
// the previous plan. After a re-plan every node is sent its sources with the plan, so the
// coordinator answers this for thousands of nodes per plan version, under its lock; the index
// answers each from the holders of the seat's own blocks, not a scan of both plans.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "coordinator/swarm_planner.hpp"

namespace rookery::coordinator {

struct ShardSource {
  std::string key;
  std::string endpoint;  // the holder's shard server
  std::int64_t first_block = 0;
  std::int64_t last_block = 0;
  friend bool operator==(const ShardSource&, const ShardSource&) = default;
};

// Where `key`, seated in `next`, can fetch the blocks of its new shard: the members of
// `alive` that held any of them in `previous`, each with the overlap it can give, the
// largest overlaps first (in plan order among equals). The node itself is left out (it has its
// own state).
std::vector<ShardSource> shard_sources(const Assignment& previous, const Assignment& next,
                                       const std::string& key,
                                       const std::map<std::string, Member>& alive);

// shard_sources for any key of one pair of plans: the next plan's seats by key, the previous
// plan's by block. A query costs the previous holders of the seat's blocks (about one per
// pipeline), where shard_sources scans every seat of both plans.
class ShardSourceIndex {
 public:
  ShardSourceIndex() = default;
  ShardSourceIndex(const Assignment& previous, const Assignment& next);
  // The same as shard_sources(previous, next, key, alive), but that of each range of blocks
  // only the first `per_range` sources in plan order are kept (what a reply names; the others
  // are not looked up).
  std::vector<ShardSource> sources(const std::string& key,
                                   const std::map<std::string, Member>& alive,
                                   std::size_t per_range = SIZE_MAX) const;
  // `key`'s seat in the next plan: {pipeline, stage}, or {-1, -1}.
  std::pair<int, int> seat_of(const std::string& key) const;
  const Seat* next_seat(const std::string& key) const;
  std::uint64_t previous_version() const { return previous_version_; }
  std::uint64_t next_version() const { return next_version_; }

 private:
  std::uint64_t previous_version_ = 0, next_version_ = 0;
  std::unordered_map<std::string, std::pair<int, int>> next_seats_;
  std::vector<std::vector<Seat>> next_pipelines_;
  std::vector<Seat> previous_;                     // in plan order
  std::vector<std::vector<std::size_t>> holders_;  // by block: indices into previous_, ascending
};

}  // namespace rookery::coordinator
