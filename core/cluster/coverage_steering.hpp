#pragma once
// Coverage steering: a plan's pipelines of the same length share cuts where that costs little
// throughput, so that their seats get exact replicas (check_coverage.hpp). A seat with an exact
// replica is checked by one verifier recomputing its blocks instead of a chain of holders, and
// its boundaries are shared: SWARM's wiring then gives it two witnesses on each side (the next
// stage of its own pipeline and of its replica's), which the ban vote needs to ban a liar
// without moving anybody for a second opinion.
//
// form_pipelines and pack_pipelines cut each pipeline to its own volunteers, so two pipelines of
// the same length are usually cut differently and every seat is only composed. Steering joins
// them into aligned sets, each cut once by partition_uniform (every node within its memory);
// pipelines already cut alike start as one set (joining them would gain nothing):
//   - candidates are two sets of one length group: every pair while the group is small
//     (kAllPairsMaxPipelines), else neighbours in the order of their rates (pipelines of like
//     pace lose least by sharing cuts), so the work stays near-linear in the swarm's size;
//   - a candidate's cost is the samples/s its pipelines lose under the shared cuts, its gain
//     the seats that get an exact replica (a set's size is capped at kMaxAlignedPipelines);
//   - the cheapest per seat gained is taken first, a set that would lose more than
//     `set_margin` of its own pipelines' samples/s never (kAlignedSetRateMargin), and only while
//     the plan's total loss stays within `margin` of the unsteered plan's (kCoverageRateMargin);
//   - then each length group is tried cut as one, as the uniform planner cuts it, and takes that
//     cut when it predicts no less than the sets, or gives more seats exact replicas within
//     both margins.
// Pipelines marked frozen (the kept pipelines of an incremental plan, whose cuts must not move
// shards) keep their cuts: another pipeline of their length may take those cuts as they are
// (evaluate_plan), never the other way round. The result is re-timed with evaluate_plan; should its shared
// cuts leave fewer seats with an exact replica than the plan had (pipelines whose cuts matched
// by chance, now cut apart), the plan is returned as it was. Pure.
#include <cstddef>
#include <vector>

#include "cluster/planning.hpp"

namespace rookery::cluster {

// The throughput steering may give up for coverage, as a fraction of the unsteered plan's. 5%
// is the margin the planners already leave to their time model's blind spots (a deeper
// pipeline must beat a shallower one by 5%; pack_pipelines is held within 5% of
// form_pipelines), so steering costs no more than differences the model is not trusted on; an
// exact replica in return saves a second opinion's move (a refill of two pipelines) for every
// lone-witness catch, and a composed check's second and third recomputations.
inline constexpr double kCoverageRateMargin = 0.05;
// What one aligned set may give up, as a fraction of its pipelines' unaligned samples/s: twice
// the plan's margin, so that the plan's budget is not spent on badly matched pipelines (with
// no cap, bench_coverage_steering's 1,000-volunteer swarms spent the whole 5% for 3% more
// exact seats; with a 5% cap, its 12-volunteer swarms got none).
inline constexpr double kAlignedSetRateMargin = 2 * kCoverageRateMargin;
// Pipelines in one aligned set at most: three replicas of every seat, more than the two chains
// a spot-check draws; larger sets pay more for no more exact seats.
inline constexpr std::size_t kMaxAlignedPipelines = 4;
// Up to this many pipelines in one length group every pair is a candidate; above, neighbours
// in rate order only.
inline constexpr std::size_t kAllPairsMaxPipelines = 24;

struct SteeringOptions {
  double margin = kCoverageRateMargin;        // in [0, 1)
  double set_margin = kAlignedSetRateMargin;  // in [0, 1)
  std::size_t max_aligned = kMaxAlignedPipelines;
  std::vector<bool> frozen;  // per pipeline of the plan (empty: none)
};

struct SteeringReport {
  double unsteered_samples_per_s = 0;
  double steered_samples_per_s = 0;
  int aligned_sets = 0;       // sets of two pipelines or more that now share cuts
  int aligned_pipelines = 0;  // pipelines in them
  int rejected = 0;           // feasible candidates left because they cost too much
  int evaluated = 0;          // shared cuts worked out (partition_uniform calls)
};

// `plan` (form_pipelines', pack_pipelines' or update_pipelines' over `nodes`) with cuts shared
// as above. Pipelines' nodes, order and unassigned volunteers are unchanged; samples_per_s is
// the steered plan's. Throws std::invalid_argument for a margin outside [0, 1), a frozen list
// of the wrong length, or a stage whose node_index is not in `nodes`.
ClusterPlan steer_for_coverage(const ClusterPlan& plan, const std::vector<NodeProfile>& nodes,
                               const std::vector<BlockProfile>& blocks,
                               const TrainingSettings& settings,
                               const SteeringOptions& options = {},
                               SteeringReport* report = nullptr);

}  // namespace rookery::cluster
