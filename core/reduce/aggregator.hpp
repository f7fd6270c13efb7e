#pragma once
// How a slice's values from all members become one: the hook where robust aggregation
// (BTARD's CenteredClip) plugs in. The default, WeightedMean, is decomposable, so the ring
// sums partial slices on the way and no member sees another's raw values; an aggregator
// that is not (a clipped mean, a median) gets every member's raw slice at the slice's owner.
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rookery::reduce {

struct Contribution {
  std::string_view member;
  double weight = 0;  // samples this member processed since the last average
  std::span<const float> values;
  // The caller's own values. A robust aggregator may centre its arithmetic on them: an honest
  // caller trusts itself (CenteredClip then needs no coordinate-wise median).
  bool own = false;
};

class Aggregator {
 public:
  virtual ~Aggregator() = default;
  virtual std::string_view name() const = 0;
  // True when the result is exactly sum(w_i * x_i) / sum(w_i), which lets the ring reduce
  // partial sums along the way (reduce-scatter) instead of gathering raw slices.
  virtual bool is_weighted_mean() const { return false; }
  // Writes the aggregate of `contributions` (in ring order, all the same length) into `out`.
  // Called on the slice's owner, from a ring's thread: must be thread-safe.
  virtual void aggregate(std::span<const Contribution> contributions,
                         std::span<float> out) const = 0;
  // Verified aggregation. Which contributions aggregate() leaves out (one flag per
  // contribution; empty: none); the aggregator without such local exclusions, which a verified
  // ring's owner runs (validators could not know its list); and the aggregator a validator
  // reruns: the same arithmetic, reporting to nobody (a validator's recomputation says nothing
  // about how this node judges its own slices).
  virtual std::vector<bool> left_out(std::span<const Contribution> contributions) const {
    (void)contributions;
    return {};
  }
  virtual const Aggregator& without_exclusions() const { return *this; }
  virtual const Aggregator& verifiable() const { return *this; }
};

class WeightedMean final : public Aggregator {
 public:
  std::string_view name() const override { return "weighted-mean"; }
  bool is_weighted_mean() const override { return true; }
  void aggregate(std::span<const Contribution> contributions, std::span<float> out) const override;
};

}  // namespace rookery::reduce
