#include <torch/torch.h>

#include "pipeline/nesterov_lookahead.hpp"

#include <cmath>
#include <stdexcept>

namespace rookery::pipeline {

void NesterovLookahead::note_update(const std::vector<at::Tensor>& update) {
  torch::NoGradGuard no_grad;
  if (direction_.empty()) {
    for (const auto& u : update) direction_.push_back(torch::zeros_like(u));
  }
  if (direction_.size() != update.size())
    throw std::invalid_argument("look-ahead: an update for another set of parameters");
  for (std::size_t i = 0; i < update.size(); ++i) {
    direction_[i].mul_(momentum_).add_(update[i], 1 - momentum_);
  }
  ++updates_;
}

void NesterovLookahead::point_into(std::vector<at::Tensor>& out,
                                   const std::vector<at::Tensor>& master, double delay) const {
  torch::NoGradGuard no_grad;
  if (delay <= 0 || updates_ == 0) {
    for (std::size_t i = 0; i < master.size(); ++i) out[i].copy_(master[i]);
    return;
  }
  const double correction = 1 - std::pow(momentum_, static_cast<double>(updates_));
  for (std::size_t i = 0; i < master.size(); ++i) {
    torch::add_out(out[i], master[i], direction_.at(i), delay / correction);
  }
}

void NesterovLookahead::forget() {
  for (auto& d : direction_) d.zero_();
  updates_ = 0;
}

}  // namespace rookery::pipeline
