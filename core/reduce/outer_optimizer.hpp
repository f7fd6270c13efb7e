#pragma once
// The outer step of averaging as DiLoCo does it: the rings average the replicas'
// pseudo-gradients g (anchor weights at the last outer step minus the weights now), and every
// replica applies the same update to the same anchor:
//
//   m = momentum * m + g
//   anchor -= lr * (g + momentum * m)          (Nesterov)
//
// lr 1 and momentum 0 make the anchor the plain average of the replicas' weights. Only the
// spans where the round averaged are touched: elsewhere the round did not happen, the anchor
// stays, and the next round's pseudo-gradient still carries those steps.
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "job/job_spec.hpp"

namespace rookery::reduce {

using Spans = std::vector<std::pair<std::size_t, std::size_t>>;  // [first, last), local offsets

class OuterOptimizer {
 public:
  explicit OuterOptimizer(const job::OuterSpec& spec);

  /// Applies the outer step to `anchor` over `spans` with the averaged pseudo-gradient `g`
  /// (both the shard's size). Throws std::invalid_argument for sizes that differ or a span
  /// outside them.
  void step(std::span<float> anchor, std::span<const float> g, const Spans& spans);

  /// The momentum buffer (empty until the first step; zeros where no step touched it).
  const std::vector<float>& momentum() const { return momentum_; }
  /// Replaces the momentum over `spans` with `values` (the shard's size): the replicas' average
  /// in a round that syncs the anchors, so replicas whose momentum parted (one missed a round)
  /// take the same steps again. A no-op without momentum. Throws std::invalid_argument for a
  /// span outside `values`.
  void set_momentum(std::span<const float> values, const Spans& spans);

 private:
  double lr_, mu_;
  std::vector<float> momentum_;
};

}  // namespace rookery::reduce
