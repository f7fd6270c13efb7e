#pragma once
// The coordinator's assignment: which live volunteers form which pipelines, which blocks each
// holds, and, when a plan replaces another, where each node finds the parameters of blocks it
// did not hold. Pure functions over plain structs (no network, no clock, no torch), so the
// service's decisions can be tested one by one. The planning itself is core/cluster's:
// bandwidth tiers, memory-feasible groups, the exact partition DP.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cluster/check_coverage.hpp"
#include "cluster/planning.hpp"
#include "job/job_spec.hpp"
#include "rookery/coordinator.pb.h"

namespace rookery::coordinator {

// A volunteer as the coordinator knows it.
struct Member {
  std::string key;               // CURVE public key (Z85): the node's identity
  cluster::NodeProfile profile;  // profile.id is ignored (the key is the id)
  std::string stage_endpoint;    // where its stage listens
  std::string reduce_endpoint;   // its ring transport
  std::string shard_endpoint;    // its shard server
  // Connection reversal (reach.proto): no peer can dial it, so it dials every peer it links
  // with, and each of them must run a reversal service.
  bool reversed = false;
  std::uint16_t reversal_control_port = 0;  // its reversal service, where peers dial it (0: none)
  std::uint16_t reversal_data_port = 0;
};

struct Seat {
  std::string key;
  std::int64_t first_block = 0;  // shard [first_block, last_block)
  std::int64_t last_block = 0;
  friend bool operator==(const Seat&, const Seat&) = default;
};

struct Assignment {
  std::uint64_t version = 0;                 // 0: no plan yet
  std::vector<std::vector<Seat>> pipelines;  // each covers the whole model, in stage order
  std::vector<cluster::Unassigned> unassigned;
  double predicted_samples_per_s = 0;  // the planner's time model, all pipelines
  wire::pb::Verdict infeasible;        // why there is no pipeline at all (code NONE: there is one)
  // Reversed members left out because no seating gives all their links a reachable end: a
  // relay must carry them (reversal_seating.hpp). Not saved with the plan.
  std::vector<std::string> needs_relay;
  // Which seats spot-checks can reach (exact replica, a chain of holders, or none), worked out
  // with the plan on the planner's thread. Null for a plan read back from the state file
  // (check_coverage_of works it out then). Not saved with the plan.
  std::shared_ptr<const cluster::CoverageReport> coverage;

  bool empty() const { return pipelines.empty(); }
  // {pipeline, stage} of `key`, or {-1, -1}.
  std::pair<int, int> find(const std::string& key) const;
  // The same pipelines, seats and boundaries (versions aside).
  bool same_layout(const Assignment& other) const { return pipelines == other.pipelines; }
};

// The model's chain as the planner sees it.
std::vector<cluster::BlockProfile> block_profiles(const job::JobSpec& job);
cluster::TrainingSettings training_settings(const job::JobSpec& job);

// Up to this many volunteers `ours` plans with core/cluster's form_pipelines, above it with
// pack_pipelines. form_pipelines' search grows as N³ (4.5 s at 64 volunteers, 392 s at 256,
// and planning runs under the coordinator's lock while volunteers are declared dead after 3 s
// of silence); pack_pipelines is near-linear (10,000 in well under 2 s) and its plans predict
// within 5% of form_pipelines' on the swarms both solve (tests/cluster/test_cluster_packing).
inline constexpr std::size_t kExactPlanningMaxVolunteers = 32;

enum class Planner {
  ours,  // core/cluster's form_pipelines: bandwidth tiers, memory-feasible groups, exact partition
         // DP; above kExactPlanningMaxVolunteers its near-linear pack_pipelines; then pipelines
         // of one length share cuts where that costs little (cluster/coverage_steering.hpp)
  uniform,  // the same groups, then pipelines of equal length share one set of cuts (SWARM's
            // regime: each stage group is a set of replicas, and every node of the next group
            // is a next hop, so a dead node is routed around at once)
  ravnest,  // Ravnest's plan, for comparison: nodes in key order, equal parameter counts per stage
};
Planner parse_planner(
    const std::string& name);  // "ours", "uniform" or "ravnest"; throws std::invalid_argument

// Plans `members` (any order; the result does not depend on it) into pipelines. version is
// left 0 for the caller to set. `previous`: the plan in force, when membership changed since.
// Above kExactPlanningMaxVolunteers, `ours` then re-plans only the pipelines the change
// touched (cluster::update_pipelines): every other pipeline keeps its volunteers and cuts, so a
// join or a leave in a large swarm moves no shard but those it must; the re-planner's
// periodic check still installs a fresh plan when one predicts enough more.
Assignment plan_swarm(std::vector<Member> members, const job::JobSpec& job,
                      Planner planner = Planner::ours, const Assignment* previous = nullptr);

// Which of `plan`'s seats spot-checks can reach: the coverage planned with it, or worked out
// now (the seats in stage order, pipeline by pipeline). Where the job averages in groups of at
// most `averaging_max_group` and nodes see views of the plan (plan_view.hpp), each seat's
// verifiers come from its view, as its checkers draw them.
std::shared_ptr<const cluster::CoverageReport> check_coverage_of(const Assignment& plan,
                                                                 std::int64_t averaging_max_group);

// The coverage for a log line: the summary, then either every seat ("abc12[0,3) exact x2",
// pipelines apart by "|") or, when `per_seat` is false, the first few seats nobody can check
// and why.
std::string describe_coverage(const cluster::CoverageReport& coverage, bool per_seat);

// Samples/s the time model predicts for `plan`'s seats and cuts with the members' profiles
// as they are now (a seat whose member is gone, or that overruns its memory, counts 0).
double predicted_rate(const Assignment& plan, const std::map<std::string, Member>& members,
                      const job::JobSpec& job);

// Whether a fresh plan is worth moving shards for: it must predict `margin` more throughput
// than the current seats do with today's profiles (re-planning costs a refill of every
// pipeline and a shard transfer).
bool worth_replanning(double current_rate, double new_rate, double margin = 0.2);

// Planning with the speed volunteers show, not only the one they benchmark. A volunteer's
// efficiency is the training FLOP it does per second of compute (over the last half minute)
// over its benchmark FLOP/s. How far below the benchmark's large matmul a stage's kernels run
// depends on its blocks (5x apart between the seats of one swarm here), so a volunteer is
// compared with itself on the same blocks: SpeedHistory. One that has slowed below
// kSlowEfficiency of its best (its owner's programs took the cores, a thermal limit) is
// planned with what it shows, `offered` x that ratio; every other volunteer keeps `offered`
// (what its owner allows: benchmark x duty cycle).
inline constexpr double kSlowEfficiency = 0.5;
double planned_flops(double offered, double slowdown);

// A volunteer's slowdown, chained across seats: on each seat its best efficiency so far is the
// reference; one that arrived slow keeps the slowdown it came with, measured from its first
// reading there (a volunteer that slowed and was moved onto cheaper blocks stays slow there
// until it speeds up again, instead of being moved back the next time the planner looks).
struct SpeedHistory {
  std::pair<std::int64_t, std::int64_t> seat{-1, -1};  // the blocks of the readings below
  double best = 0;                                     // its best efficiency on them
  double first_reading = 0;                            // its first there
  double at_arrival = 1;                               // its slowdown when it took the seat
  double slowdown = 1;                                 // now: 1 is as fast as it has been
  // One reading on blocks [first, last); returns the slowdown.
  double observe(std::int64_t first, std::int64_t last, double efficiency);
};

// The plan as the nodes receive it: every seat with the endpoints its member listens on.
// Throws std::invalid_argument when a seated key is not in `members`.
wire::pb::Plan plan_message(const Assignment& plan, const std::map<std::string, Member>& members,
                            std::int64_t averaging_interval_ms);

}  // namespace rookery::coordinator
