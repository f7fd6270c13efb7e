#pragma once
// GlobalNormClip: clipping each optimizer step's gradient by the norm of the whole model's
// gradient (torch's clip_grad_norm_), when the model is cut into stages that step on their own.
//
// A micro-batch's backward runs from the last stage to the first. When a stage's gradient for
// a step is complete it knows its own squared norm and, from the backward message, the sum of
// the stages after it; only the stages before it have yet to run that backward. So the first
// stage knows the exact total: it steps with it at once and sends it down the pipeline
// (GradNormTotal). Every other stage holds its step pending until that total arrives and then
// takes it with the exact total. If its weights or gradient buffers are needed first (a
// forward or another backward is ready, as with staleness > 1), it steps with an estimate
// instead: its own and the later stages' exact share plus the earlier stages' share of the
// latest total it learned, a few steps old. Gradient norms move slowly, and only the clip
// factor depends on the estimate, never the direction. With staleness 1 the total always
// arrives first, so every stage clips exactly as one process would.
//
// Steps are named by the micro-batch that completed them, the same on every stage of a
// pipeline whose backwards pass the stages in order (one pipeline, no rerouting). Pure
// bookkeeping, no tensors.
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

namespace rookery::pipeline {

class GlobalNormClip {
 public:
  // max_norm 0: off. `first`: this stage runs each backward last and knows the exact total.
  GlobalNormClip(double max_norm, bool first);

  bool enabled() const { return max_norm_ > 0; }
  bool first() const { return first_; }

  // A backward arrived from the next stage, carrying its downstream_grad_sq_norm (0: the
  // micro-batch completed no step there).
  void note_downstream(double sq_norm);
  // This stage's gradient for the step completed by `micro_batch` is ready, of squared norm
  // `own`. The step becomes pending. Returns the squared norm of this stage and those after
  // it, which goes upstream with the micro-batch's backward.
  double complete(std::uint64_t micro_batch, double own);
  // The squared norm of the whole model's gradient for the step `micro_batch` completed.
  // Ignored when it is not finite or negative.
  void learn_total(std::uint64_t micro_batch, double total);

  bool pending() const { return pending_.has_value(); }
  // The pending step's total, when it is known exactly.
  std::optional<double> exact_total() const;
  // The pending step's total: exact when known, else estimated.
  double total() const;
  // The pending step was taken.
  void taken() { pending_.reset(); }

  // What the gradient is multiplied by for a total squared norm of `total_sq`:
  // min(1, max_norm / (norm + 1e-6)), as torch's clip_grad_norm_.
  double factor(double total_sq) const;

 private:
  struct Step {
    std::uint64_t micro_batch = 0;
    double through = 0;  // this stage's and later stages' squared norms
    std::optional<double> total;
  };
  static constexpr std::size_t kRemembered = 64;
  double max_norm_;
  bool first_;
  double downstream_ = 0;
  double upstream_ = 0;  // the earlier stages' share of the latest total learned
  std::optional<Step> pending_;
  std::deque<std::pair<std::uint64_t, double>> recent_;  // (micro-batch, through)
};

}  // namespace rookery::pipeline
