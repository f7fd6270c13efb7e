#pragma once
// StageOptimizer: a stage's master weights and their optimizer. Each finished backward adds
// the gradients of the weight version it ran on; after grad_accumulation of them it steps.
//
// Weight prediction (SpecTrain, PipeMare): a micro-batch's gradient reaches the master
// `delay` steps after its forward, so the forward runs on the weights predicted for that
// moment, master + delay x (last update), instead of weights already `delay` steps old.
// The delay is measured, not assumed: it is 0 on the last stage and with staleness 1.
//
// Nesterov look-ahead (job.nesterov_lookahead, NesterovLookahead): the forward runs on the
// master moved on by the delay along the momentum of its updates instead of the last one.
//
// Learning-rate rescheduling (PipeMare, job.staleness_lr_anneal_steps): the step is scaled
// by delay^-p, p falling from 1 to 0 over the anneal, by scaling the update the optimizer
// made (for AdamW and SGD that is the same as scaling the learning rate: their state does
// not depend on it).
//
// Global-norm clipping (job.max_grad_norm): see GlobalNormClip. A due step may wait for the
// whole model's norm; the caller settles it before the weights or gradients are needed.
// Compute thread only.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include "job/job_spec.hpp"
#include "model/block_chain.hpp"
#include "model/optimizer.hpp"
#include "pipeline/global_norm_clip.hpp"
#include "pipeline/nesterov_lookahead.hpp"
#include "pipeline/stage_runtime.hpp"

namespace rookery::pipeline {

class StageOptimizer {
 public:
  StageOptimizer(const model::BlockChain& chain, model::BlockRange blocks, c10::Device device,
                 const job::JobSpec& job);

  // The gradients of a finished backward, run on `params` (a weight version made when the
  // master had taken `created_at_step` steps), join the master's; `params`' are cleared.
  void accumulate(std::vector<at::Tensor>& params, std::int64_t created_at_step);
  // Counts one finished backward, of `micro_batch`, whose gradient message carried
  // `downstream` (the later stages' squared norms). After grad_accumulation of them the step
  // is due: taken at once, unless it waits for the whole model's gradient norm (clipping, on
  // a stage after the first).
  struct Counted {
    bool stepped = false;
    double through_sq_norm = 0;  // what goes upstream with the backward (0: no step due)
  };
  Counted count_backward(std::uint64_t micro_batch, double downstream);
  // The whole model's squared gradient norm for the step `micro_batch` completed, learned
  // from upstream. Takes the pending step when it is that one; returns whether it stepped.
  bool learn_total(std::uint64_t micro_batch, double total_sq_norm);
  // Takes a pending step now, with the estimated total: the weights or the gradient buffers
  // are needed. Returns whether it stepped.
  bool settle();
  bool clipping() const { return clip_.enabled(); }
  double last_clip_factor() const { return last_clip_factor_; }
  // Writes the weights forwards use from now on into `params` (the master's layout): the
  // master, moved on by the measured delay when weights are predicted or looked ahead.
  void predict_into(std::vector<at::Tensor>& params) const;
  // The weights jumped (a hand-over): no prediction across the jump.
  void forget_last_update();

  // The blocks' parameters, flat (reduce::flatten_parameters' layout), and back.
  std::vector<float> flat_parameters() const;
  void write_flat_parameters(std::span<const float> values);
  // What StageRuntime::optimizer_state and load_blocks hand over and take (see there).
  OptimizerState state() const;
  std::vector<std::int64_t> block_moment_steps(model::BlockRange shard) const;
  void load_blocks(model::BlockRange shard, std::int64_t first, std::int64_t last,
                   std::span<const float> values, std::int64_t optimizer_steps,
                   const OptimizerState* state);

  model::Shard& master() { return master_; }
  const model::Shard& master() const { return master_; }
  model::Optimizer& optimizer() { return optimizer_; }
  const model::Optimizer& optimizer() const { return optimizer_; }
  std::int64_t steps() const { return steps_; }  // taken by this process
  double measured_delay() const { return delay_ema_; }
  std::int64_t parameter_bytes() const { return param_bytes_; }

 private:
  std::int64_t grad_accumulation_;
  bool predicts_;  // weight prediction is on and there is a delay to predict across
  NesterovLookahead lookahead_;
  bool looks_ahead_;  // the look-ahead is on and there is a delay to look across
  job::ModelSpec model_;
  model::Shard master_;
  std::vector<at::Tensor> params_;
  model::Optimizer optimizer_;
  void step(double total_sq_norm);
  double grad_sq_norm() const;
  double lr_factor() const;

  std::int64_t lr_anneal_steps_;  // 0: no learning-rate rescheduling
  GlobalNormClip clip_;
  double last_clip_factor_ = 1;
  std::vector<at::Tensor> last_update_;  // also the weights before a step, while it is taken
  double delay_ema_ = 0;
  std::int64_t accumulated_ = 0;
  std::int64_t steps_ = 0;
  std::int64_t param_bytes_ = 0;
};

}  // namespace rookery::pipeline
