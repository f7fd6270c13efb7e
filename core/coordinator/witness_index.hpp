#pragma once
// The ban vote's witnesses counted from an index of the plan's seats. ban_witnesses lists them
// by a scan of every seat, and with one averaging ring per range a seat's ring partners are a
// large part of the swarm; the vote needs only how many witnesses of each kind there are and
// which reporters are among them. Built once per plan; a vote then costs O(log S) in the plan's
// S seats plus O(1) per reporter, whatever the swarm's size. Where nodes see views of the plan
// (plan_view.hpp), a seat's witnesses are those of its view's pipelines, counted by a scan of
// them (bounded by the groups' size, not the swarm's).
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "coordinator/ban_vote.hpp"
#include "coordinator/plan_view.hpp"
#include "coordinator/swarm_planner.hpp"

namespace rookery::coordinator {

class WitnessIndex {
 public:
  // `averaging_max_group`: the job's, which decides the views.
  void build(const Assignment& plan, std::int64_t averaging_max_group = 0);
  // ban_vote(*ban_witnesses(plan, key), reports), counted from the index; nullopt when `key`
  // holds no seat in the plan.
  std::optional<BanVerdict> vote(const std::string& key, const BanReports& reports) const;
  // The witnesses' counts alone (no reporter), for tests against ban_witnesses.
  std::optional<WitnessCounts> counts(const std::string& key) const;

 private:
  struct Place {
    std::size_t pipeline = 0;
    std::int64_t first = 0, last = 0;
  };
  std::optional<WitnessCounts> count(const std::string& key, const BanReports* reports) const;

  PlanViews views_;
  std::unordered_map<std::string, Place> seats_;
  std::vector<std::int64_t> firsts_, lasts_;  // every seat's, sorted
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> pipelines_;  // their seats
};

}  // namespace rookery::coordinator
