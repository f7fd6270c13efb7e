#pragma once
// Error feedback for compressed pseudo-gradients (as in 1-bit SGD, EF-SGD and SparseLoCo): what
// the codec drops from a replica's pseudo-gradient this round is kept as a residual and added
// to the next round's, so over rounds everything is sent:
//
//   sent_t = C(g_t + e_{t-1}),   e_t = g_t + e_{t-1} - sent_t,   so   sum sent + e = sum g.
//
// C is the job's codec applied here, as the ring's first hop applies it. The ring re-encodes
// partial sums on later hops; that error is the aggregate's, shared by every replica alike,
// and not fed back. Where a round did not average (no partner), nothing was applied and the
// next pseudo-gradient still carries those steps, so the residual goes back to what it was.
#include <span>
#include <vector>

#include "reduce/outer_optimizer.hpp"
#include "wire/codec.hpp"

namespace rookery::reduce {

class ErrorFeedback {
 public:
  explicit ErrorFeedback(wire::Codec codec) : codec_(codec) {}

  /// What to send for pseudo-gradient `g`: the codec's rendering of g + residual. The new
  /// residual is pending until settle().
  std::vector<float> compensate(std::span<const float> g);
  /// The round's outcome: inside `averaged` the new residual stands; elsewhere the previous
  /// one comes back. Without a compensate() before it, does nothing.
  void settle(const Spans& averaged);

  const std::vector<float>& residual() const { return residual_; }

 private:
  wire::Codec codec_;
  std::vector<float> residual_, previous_;
};

}  // namespace rookery::reduce
