#pragma once
// The plan as heartbeat replies carry it. A node that runs an older plan is sent the whole
// current one, with every seated member's endpoints; after a re-plan each of thousands of
// volunteers asks for it within a heartbeat, so the message (and the live members it is built
// from) is built once per plan version and change of a seated volunteer, not once per
// heartbeat (volunteers without a seat coming and going only update the members). Where the
// job averages in groups and the plan has more pipelines than a group, a node is sent its view
// of the plan instead (plan_view.hpp), built once per pipeline from the whole message.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_set>

#include "coordinator/membership.hpp"
#include "coordinator/plan_view.hpp"
#include "coordinator/shard_sources.hpp"
#include "coordinator/swarm_planner.hpp"
#include "rookery/coordinator.pb.h"

namespace rookery::coordinator {

class PlanDelivery {
 public:
  // Brings the message up to date with `plan` and the live members; a no-op when neither
  // changed since the last call. `averaging_max_group`: the job's.
  void refresh(const Assignment& plan, const Membership& membership,
               std::int64_t averaging_interval_ms, std::int64_t averaging_max_group = 0);
  // The whole plan's message; nullopt when a seated volunteer is no longer live (error() says
  // which; the next plan will not seat it).
  const std::optional<wire::pb::Plan>& message() const { return message_; }
  const std::string& error() const { return error_; }
  // The whole message's size on the wire.
  std::size_t bytes() const { return bytes_; }

  struct View {
    const wire::pb::Plan* plan = nullptr;
    std::size_t bytes = 0;
  };
  // What a node seated in pipeline `pipeline` is sent (-1: no seat, which sees no pipeline's
  // stages where views apply): the whole message, or its view. Null plan while message() is.
  View view(int pipeline);
  // The largest view built since the last refresh (the whole message's size without views).
  std::size_t largest_view_bytes() const { return largest_view_; }
  // The live members by key, as of the last refresh: where the plan's shards can be fetched.
  const std::map<std::string, Member>& members() const { return members_; }
  // Where `key` fetches the blocks of its seat in `plan` that it did not hold: a few holders of
  // each range under `previous`, the largest overlaps first, then the model archive of the
  // coordinator whose key is `archive_key` (none when empty), which the node asks only for the
  // blocks no peer handed over and finds where it reaches the coordinator (no endpoint).
  // Answered from an index of the two plans, built once per pair (shard_sources.hpp).
  void add_sources(const Assignment& previous, const Assignment& plan, const std::string& key,
                   const std::string& archive_key, wire::pb::HeartbeatReply& out);

 private:
  bool built_ = false;
  std::uint64_t version_ = 0;
  std::uint64_t generation_ = 0;
  std::map<std::string, Member> members_;
  std::unordered_set<std::string> seated_;  // the plan's keys
  std::optional<wire::pb::Plan> message_;
  std::string error_;
  std::size_t bytes_ = 0;
  std::int64_t max_group_ = 0;
  PlanViews views_;
  std::map<int, std::pair<wire::pb::Plan, std::size_t>> built_views_;  // by pipeline
  std::size_t largest_view_ = 0;
  std::optional<ShardSourceIndex> sources_;
};

}  // namespace rookery::coordinator
