#pragma once
// LossScaler: dynamic loss scaling for fp16 autocast, per stage.
//
// fp16 gradients underflow; scaling the loss by S keeps them representable, and dividing the
// fp32 parameter gradients by S afterwards restores their values. In a pipeline each stage
// scales for itself: stage boundaries carry fp32 tensors, so a stage multiplies the gradient it
// receives (or its loss) by its own S, runs its backward, and divides both its parameter
// gradients and the gradient it sends upstream by S. No stage needs another's scale.
//
// A backward whose gradients are not finite contributes nothing (its gradients are zeroed) and
// halves S; every `growth_interval` finite backwards in a row double it, as torch.amp's
// GradScaler does per step. Disabled, it changes nothing and costs nothing.
#include <cstdint>
#include <vector>

#include <ATen/core/Tensor.h>

namespace rookery::pipeline {

class LossScaler {
 public:
  explicit LossScaler(bool enabled, double initial_scale = 65536.0,
                      std::int64_t growth_interval = 2000);

  bool enabled() const { return enabled_; }
  double scale() const { return enabled_ ? scale_ : 1.0; }
  std::int64_t overflows() const { return overflows_; }

  // `t` times the scale (the loss, or the gradient a backward starts from).
  at::Tensor scaled(const at::Tensor& t) const;

  // After one backward: divides the gradients of `params` and `input_grad` (when defined) by
  // the scale. Returns false when any of them was not finite: they are then zeroed, and the
  // scale halves.
  bool unscale(const std::vector<at::Tensor>& params, at::Tensor& input_grad);

 private:
  bool enabled_;
  double scale_;
  std::int64_t growth_interval_;
  std::int64_t finite_in_a_row_ = 0;
  std::int64_t overflows_ = 0;
};

}  // namespace rookery::pipeline
