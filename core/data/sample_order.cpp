#include "data/sample_order.hpp"

#include <stdexcept>
#include <string>

namespace rookery::data {
namespace {

uint64_t mix(uint64_t x) {  // splitmix64
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

constexpr int kRounds = 4;  // four Feistel rounds give a well-mixed permutation (Luby–Rackoff)

}  // namespace

SampleOrder::SampleOrder(int64_t size, uint64_t seed, bool shuffle)
    : size_(size), seed_(seed), shuffle_(shuffle), half_bits_(1) {
  if (size < 1)
    throw std::invalid_argument("SampleOrder: size must be >= 1, got " + std::to_string(size));
  while ((uint64_t{1} << (2 * half_bits_)) < uint64_t(size)) ++half_bits_;
}

uint64_t SampleOrder::permute(uint64_t index, uint64_t epoch) const {
  const uint64_t mask = (uint64_t{1} << half_bits_) - 1;
  const uint64_t key = mix(seed_ ^ mix(epoch + 0x5eed));
  uint64_t left = index >> half_bits_, right = index & mask;
  for (int round = 0; round < kRounds; ++round) {
    const uint64_t next =
        left ^ (mix(key + uint64_t(round) * 0x632BE59BD9B4E019ULL + right) & mask);
    left = right;
    right = next;
  }
  return (left << half_bits_) | right;
}

int64_t SampleOrder::position(int64_t sample_id) const {
  if (sample_id < 0)
    throw std::invalid_argument("SampleOrder: negative sample id " + std::to_string(sample_id));
  const uint64_t epoch = uint64_t(sample_id / size_);
  const uint64_t index = uint64_t(sample_id % size_);
  if (!shuffle_ || size_ == 1) return int64_t(index);
  // Cycle-walking: a permutation of the power-of-four domain restricted to [0, size) by
  // re-applying it until the value lands inside; still a bijection, < 4 steps on average.
  uint64_t x = permute(index, epoch);
  while (x >= uint64_t(size_)) x = permute(x, epoch);
  return int64_t(x);
}

}  // namespace rookery::data
