#include "pipeline/global_norm_clip.hpp"

#include <algorithm>
#include <cmath>

namespace rookery::pipeline {

GlobalNormClip::GlobalNormClip(double max_norm, bool first) : max_norm_(max_norm), first_(first) {}

void GlobalNormClip::note_downstream(double sq_norm) {
  if (std::isfinite(sq_norm) && sq_norm >= 0) downstream_ = sq_norm;
}

double GlobalNormClip::complete(std::uint64_t micro_batch, double own) {
  const double through = own + downstream_;
  downstream_ = 0;  // a later step's share comes with its own backward
  pending_ = Step{micro_batch, through, first_ ? std::optional<double>(through) : std::nullopt};
  recent_.emplace_back(micro_batch, through);
  if (recent_.size() > kRemembered) recent_.pop_front();
  return through;
}

void GlobalNormClip::learn_total(std::uint64_t micro_batch, double total) {
  if (!std::isfinite(total) || total < 0) return;
  const auto it = std::find_if(recent_.begin(), recent_.end(),
                               [&](const auto& r) { return r.first == micro_batch; });
  if (it == recent_.end()) return;  // a step this stage did not take part in
  // The total includes this stage's share: a smaller one is not the whole model's.
  total = std::max(total, it->second);
  upstream_ = total - it->second;
  if (pending_ && pending_->micro_batch == micro_batch) pending_->total = total;
}

std::optional<double> GlobalNormClip::exact_total() const {
  return pending_ ? pending_->total : std::nullopt;
}

double GlobalNormClip::total() const {
  if (!pending_) return 0;
  return pending_->total ? *pending_->total : pending_->through + upstream_;
}

double GlobalNormClip::factor(double total_sq) const {
  if (!enabled()) return 1;
  return std::min(1.0, max_norm_ / (std::sqrt(total_sq) + 1e-6));
}

}  // namespace rookery::pipeline
