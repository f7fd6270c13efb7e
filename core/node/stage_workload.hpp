#pragma once
// A pipeline stage as the node's unit of work: one StageRuntime (core/pipeline) for this
// node's place in a plan, from a plan file (static pipelines) or from the coordinator's
// assignment (CoordinatedWorkload swaps one for another when the plan changes).
#include <cstdint>
#include <memory>
#include <utility>

#include "net/secure_context.hpp"
#include "node/workload.hpp"
#include "pipeline/stage_plan.hpp"

namespace rookery::pipeline {
class StageRuntime;
}

namespace rookery::node {

class StageWorkload final : public Workload {
 public:
  // The stage `options.stage` of the plan file `options.plan_path`.
  StageWorkload(const StageWorkloadOptions& options, const net::CurveKeyPair& identity);
  // Stage `placed.second` of the pipeline `placed.first` (already select()ed). Sample ids
  // start at pipeline x 10^12 + `sample_offset`. Throws for a plan that does not list
  // this node there, with the reason.
  StageWorkload(std::pair<pipeline::StagePlan, std::size_t> placed,
                const StageWorkloadOptions& options, const net::CurveKeyPair& identity,
                std::int64_t sample_offset);
  ~StageWorkload() override;

  std::string description() const override;
  WorkUnitResult run_unit() override;
  // The stage's own counters (StageStats), less what a resumed checkpoint brought along.
  WorkCounters counters() const override;
  void finish() override;
  void describe(pb::NodeSnapshot& snapshot) const override;
  void set_draining(bool draining) override;
  bool drained() const override;

  pipeline::StageRuntime& runtime() { return *stage_; }
  const pipeline::StagePlan& plan() const { return plan_; }
  std::size_t stage_index() const { return stage_index_; }

 private:
  net::SecureContext ctx_;
  pipeline::StagePlan plan_;
  std::size_t stage_index_ = 0;
  std::unique_ptr<pipeline::StageRuntime> stage_;
  WorkCounters resumed_;  // the stage's counters when it started
  bool reported_finished_ = false;
};

}  // namespace rookery::node
