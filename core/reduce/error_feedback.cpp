#include "reduce/error_feedback.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace rookery::reduce {

std::vector<float> ErrorFeedback::compensate(std::span<const float> g) {
  if (residual_.size() != g.size()) residual_.assign(g.size(), 0.0f);
  previous_ = residual_;
  std::vector<float> target(g.size());
  for (std::size_t i = 0; i < g.size(); ++i) target[i] = g[i] + residual_[i];
  std::vector<float> sent(g.size());
  if (codec_ == wire::Codec::None) {
    sent = target;
  } else {
    std::vector<std::byte> bytes(wire::encoded_bytes(codec_, target.size()));
    wire::encode_f32(codec_, target, bytes);
    wire::decode_f32(codec_, bytes, sent);
  }
  for (std::size_t i = 0; i < g.size(); ++i) residual_[i] = target[i] - sent[i];
  return sent;
}

void ErrorFeedback::settle(const Spans& averaged) {
  if (previous_.size() != residual_.size()) return;
  // Averaged spans keep the new residual; the rest take the previous one back.
  std::size_t at = 0;
  auto restore = [&](std::size_t first, std::size_t last) {
    std::copy(previous_.begin() + std::ptrdiff_t(first), previous_.begin() + std::ptrdiff_t(last),
              residual_.begin() + std::ptrdiff_t(first));
  };
  for (const auto& [first, last] : averaged) {
    if (first > at) restore(at, std::min(first, residual_.size()));
    at = std::max(at, std::min(last, residual_.size()));
  }
  if (at < residual_.size()) restore(at, residual_.size());
  previous_.clear();
}

}  // namespace rookery::reduce
