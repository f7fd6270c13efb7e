#pragma once
// NesterovLookahead: where an asynchronous stage runs its forwards (job.nesterov_lookahead).
// A micro-batch's gradient reaches the master `delay` optimizer steps after its forward, so
// its gradient is best taken where the weights will be by then. Nesterov's method takes the
// gradient at the point momentum is about to carry the weights to; here the horizon is the
// stage's delay and the momentum is that of the master's updates:
//   d_k = g d_(k-1) + (1 - g) u_k   (u_k: the k-th step's update, master after - before)
//   forward weights = master + delay x d_k / (1 - g^k)
// The bias correction (Adam's) makes the first look-ahead the last update, as weight
// prediction's, and later ones a smoothed step, so one noisy update does not steer the
// prediction. g = 0 is weight prediction itself. Compute thread only.
#include <cstdint>
#include <vector>

#include <ATen/core/Tensor.h>

namespace rookery::pipeline {

class NesterovLookahead {
 public:
  // `momentum` in [0, 1) (the job's nesterov_lookahead; validated there).
  explicit NesterovLookahead(double momentum) : momentum_(momentum) {}

  // A step moved the master by `update` (one tensor per parameter, the master's layout).
  void note_update(const std::vector<at::Tensor>& update);
  // Writes master + delay x (the bias-corrected direction) into `out` (the master's layout);
  // the master itself before any update was noted, or with delay 0.
  void point_into(std::vector<at::Tensor>& out, const std::vector<at::Tensor>& master,
                  double delay) const;
  // The weights jumped (a hand-over): the updates before the jump say nothing about after.
  void forget();
  std::int64_t updates() const { return updates_; }

 private:
  double momentum_;
  std::vector<at::Tensor> direction_;  // d_k, not bias-corrected
  std::int64_t updates_ = 0;           // k, since the last forget()
};

}  // namespace rookery::pipeline
