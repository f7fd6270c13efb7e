#pragma once
// Check coverage: which stages of a plan spot-checks can reach (core/pipeline/spot_check.hpp).
// A stage is checked by the stages it sends work to or takes gradients from, which need
// others to redo its work: an exact replica of its blocks, or a chain of holders whose
// ranges together cover them (verifier_chains.hpp). So a stage is
//   - exact:    another stage holds exactly its blocks;
//   - composed: no exact replica, but the others' ranges cover every one of its blocks;
//   - none:     some block of it is held by nobody else, or it is alone in its pipeline (no
//               stage receives its work, so nobody checks it).
// With two pipelines or more every block has a second holder, so every stage of a pipeline
// of two stages or more is checkable; `chains` says how many independent chains (at most
// two) the swarm gives it: with two, a lying verifier cannot fail an honest stage alone.
// Pure; the coordinator logs it and reports it in the run's status.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cluster/planning.hpp"
#include "cluster/verifier_chains.hpp"

namespace rookery::cluster {

enum class CheckKind { Exact, Composed, None };
const char* check_kind_name(CheckKind k);  // "exact", "composed", "none"

struct StageCoverage {
  int pipeline = 0;
  int stage = 0;
  std::string key;
  std::int64_t first = 0;  // its blocks [first, last)
  std::int64_t last = 0;
  CheckKind kind = CheckKind::None;
  int chains = 0;   // independent verifier chains the swarm gives it (0 to 2)
  int links = 0;    // links of the first of them (1: one verifier)
  std::string why;  // kind None: why not
};

struct CoverageReport {
  std::vector<StageCoverage> stages;  // pipeline by pipeline, in stage order
  int exact = 0, composed = 0, unchecked = 0;
  int two_chains = 0;  // stages with two independent chains
  bool complete() const { return unchecked == 0; }
};

// Coverage of pipelines given as each stage's key and blocks, in stage order. `seed` fixes the
// chains drawn (the count of chains does not depend on it unless a draw misses a pair).
// `views`, unless empty: the pipelines whose holders each pipeline's stages can draw verifiers
// from (views[p], p among them), where nodes see only part of the plan
// (coordinator/plan_view.hpp). A stage's checker in its own pipeline knows those holders only,
// so its chains come from them, and a block held outside them counts as held by nobody.
CoverageReport check_coverage(const std::vector<std::vector<HeldRange>>& pipelines,
                              std::uint64_t seed = 0,
                              const std::vector<std::vector<std::size_t>>& views = {});
// The same for a planner's plan (stages named by node_id).
CoverageReport check_coverage(const ClusterPlan& plan, std::uint64_t seed = 0);

// One line for logs: "12 stages: 5 exact, 7 composed, 0 unchecked; 9 with two chains".
std::string summary(const CoverageReport& report);

}  // namespace rookery::cluster
