#include "reduce/outer_optimizer.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace rookery::reduce {

namespace {
// Throws std::invalid_argument (`what` first) for a span that is not inside [0, size).
void check_spans(const Spans& spans, std::size_t size, const std::string& what) {
  for (const auto& [first, last] : spans) {
    if (first > last || last > size) throw std::invalid_argument(what);
  }
}
}  // namespace

OuterOptimizer::OuterOptimizer(const job::OuterSpec& spec) : lr_(spec.lr), mu_(spec.momentum) {}

void OuterOptimizer::step(std::span<float> anchor, std::span<const float> g, const Spans& spans) {
  if (anchor.size() != g.size()) {
    throw std::invalid_argument("outer step: the pseudo-gradient has " + std::to_string(g.size()) +
                                " values, the anchor " + std::to_string(anchor.size()));
  }
  check_spans(spans, anchor.size(), "outer step: a span lies outside the anchor");
  if (mu_ > 0 && momentum_.size() != anchor.size()) momentum_.assign(anchor.size(), 0.0f);
  const float lr = static_cast<float>(lr_), mu = static_cast<float>(mu_);
  for (const auto& [first, last] : spans) {
    if (mu_ == 0) {
      for (std::size_t i = first; i < last; ++i) anchor[i] -= lr * g[i];
      continue;
    }
    for (std::size_t i = first; i < last; ++i) {
      momentum_[i] = mu * momentum_[i] + g[i];
      anchor[i] -= lr * (g[i] + mu * momentum_[i]);
    }
  }
}

void OuterOptimizer::set_momentum(std::span<const float> values, const Spans& spans) {
  if (mu_ == 0) return;
  check_spans(spans, values.size(), "outer momentum: a span lies outside the values");
  if (momentum_.size() != values.size()) momentum_.assign(values.size(), 0.0f);
  for (const auto& [first, last] : spans)
    std::copy(values.begin() + std::ptrdiff_t(first), values.begin() + std::ptrdiff_t(last),
              momentum_.begin() + std::ptrdiff_t(first));
}

}  // namespace rookery::reduce
