#include "pipeline/loss_scaler.hpp"

#include <torch/torch.h>

#include <algorithm>

#include <spdlog/spdlog.h>

namespace rookery::pipeline {

namespace {
// fp16's largest finite value is 65504: a scale beyond 2^24 only manufactures overflows.
constexpr double kMaxScale = 16777216.0;
constexpr double kMinScale = 1.0 / 65536.0;
}  // namespace

LossScaler::LossScaler(bool enabled, double initial_scale, std::int64_t growth_interval)
    : enabled_(enabled), scale_(initial_scale), growth_interval_(std::max<std::int64_t>(1, growth_interval)) {}

at::Tensor LossScaler::scaled(const at::Tensor& t) const {
  return enabled_ ? t * scale_ : t;
}

bool LossScaler::unscale(const std::vector<at::Tensor>& params, at::Tensor& input_grad) {
  if (!enabled_) return true;
  torch::NoGradGuard no_grad;
  const double inverse = 1.0 / scale_;
  bool finite = true;
  std::vector<at::Tensor> grads;
  for (const auto& p : params)
    if (p.grad().defined()) grads.push_back(p.grad());
  if (input_grad.defined()) grads.push_back(input_grad);
  for (auto& g : grads) {
    g.mul_(inverse);
    if (finite && !torch::isfinite(g).all().item<bool>()) finite = false;
  }
  if (finite) {
    if (++finite_in_a_row_ >= growth_interval_) {
      scale_ = std::min(kMaxScale, scale_ * 2);
      finite_in_a_row_ = 0;
    }
    return true;
  }
  for (auto& g : grads) g.zero_();
  ++overflows_;
  finite_in_a_row_ = 0;
  scale_ = std::max(kMinScale, scale_ / 2);
  spdlog::debug("fp16 gradients overflowed: skipped, loss scale now {}", scale_);
  return false;
}

}  // namespace rookery::pipeline
