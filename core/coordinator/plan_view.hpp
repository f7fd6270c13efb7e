#pragma once
// The plan as each node sees it. A node needs the pipelines it exchanges anything with: its own
// (its neighbours), and those it averages with. Where the job averages in groups
// (reduce/averaging_groups.hpp) and the plan has more pipelines than a group, those are its
// pipeline's sweep partners, at most d x (group - 1) others however large the swarm; SWARM's
// rerouting, the spot-checks' verifiers and connection reversal draw from the same pipelines.
// So such a node is sent a view: every pipeline keeps its place (the grid of groups is counted
// over all of them), those outside the view without stages. The reply then no longer grows with
// the swarm (a whole plan of N seats sent to N nodes is N² bytes per change, and from about
// 2,700 seats it no longer fits in a reply), and the relation is symmetric: whoever may send to
// a node is in its view, so the node admits them, and registers with them when it is reversed.
// The ban vote counts the same pipelines' seats as witnesses (ban_vote.hpp). Pure.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rookery::coordinator {

class PlanViews {
 public:
  PlanViews() = default;
  // Views of a plan of `pipelines` for a job that averages in groups of at most
  // `averaging_max_group` (the job's; 0: one ring across every pipeline).
  PlanViews(std::size_t pipelines, std::int64_t averaging_max_group);

  // Whether every node sees the whole plan (its pipelines average in one group).
  bool whole() const { return partners_.empty(); }
  // The pipelines a seat of pipeline `p` sees, ascending, `p` among them. Throws
  // std::out_of_range for a pipeline the plan does not have.
  const std::vector<std::size_t>& of(std::size_t p) const;
  // Whether a seat of pipeline `p` sees pipeline `q` (and, the same, a seat of `q` sees `p`).
  bool sees(std::size_t p, std::size_t q) const;

 private:
  std::vector<std::size_t> all_;
  std::vector<std::vector<std::size_t>> partners_;  // empty: whole
};

}  // namespace rookery::coordinator
