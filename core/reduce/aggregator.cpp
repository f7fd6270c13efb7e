#include "reduce/aggregator.hpp"

#include <stdexcept>

#include "reduce/simd.hpp"

namespace rookery::reduce {

namespace {
ROOKERY_SIMD_CLONES
void add_scaled(float* out, const float* in, float w, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] += in[i] * w;
}
}  // namespace

void WeightedMean::aggregate(std::span<const Contribution> contributions,
                             std::span<float> out) const {
  double total = 0;
  for (const auto& c : contributions) {
    if (c.values.size() != out.size())
      throw std::invalid_argument("weighted mean: slices differ in length");
    total += c.weight;
  }
  if (!(total > 0)) throw std::invalid_argument("weighted mean: total weight must be positive");
  // Same arithmetic as the ring path: f32 sum of weight-scaled values, then one division.
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = 0;
  for (const auto& c : contributions) {
    add_scaled(out.data(), c.values.data(), static_cast<float>(c.weight), out.size());
  }
  for (auto& v : out) v = static_cast<float>(v / total);
}

}  // namespace rookery::reduce
