#pragma once
// Shared by the reduce tests: deterministic member inputs and the reference average.
#include <cmath>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "wire/codec.hpp"

namespace rookery::reduce::testing {

// Member `member`'s values: seeded, so a test and a member process compute the same ones.
inline std::vector<float> member_values(std::size_t count, std::uint32_t member,
                                        float scale = 3.f) {
  std::mt19937 rng(1234u + 7919u * member);
  std::uniform_real_distribution<float> d(-scale, scale);
  std::vector<float> v(count);
  for (auto& x : v) x = d(rng);
  return v;
}

// The weighted mean computed directly, in double.
inline std::vector<double> weighted_mean(const std::vector<std::vector<float>>& values,
                                         const std::vector<double>& weights) {
  std::vector<double> out(values.at(0).size(), 0.0);
  double total = 0;
  for (std::size_t m = 0; m < values.size(); ++m) {
    total += weights[m];
    for (std::size_t i = 0; i < out.size(); ++i) out[i] += weights[m] * double(values[m][i]);
  }
  for (auto& v : out) v /= total;
  return out;
}

// How far the ring's result may be from the direct weighted mean: every partial sum is
// encoded once per hop (n - 1 hops) and the finished slice once more, each within the
// codec's bound relative to the values it encodes (|x| for fp16/bf16, the block's absmax
// for int8), all of which are at most S = sum_m |w_m x_m| (the int8 case: S's maximum over
// the buffer, since blocks start at segment boundaries); f32 sums round once per add.
inline double codec_relative_bound(wire::Codec c) {
  switch (c) {
    case wire::Codec::None:
      return std::ldexp(1.0, -23);
    case wire::Codec::Fp16:
      return std::ldexp(1.0, -11);
    case wire::Codec::Bf16:
      return std::ldexp(1.0, -8);
    case wire::Codec::Int8Block:
      return 1.0 / 254.0;
  }
  return 0;
}

inline std::vector<double> error_bounds(const std::vector<std::vector<float>>& values,
                                        const std::vector<double>& weights, wire::Codec codec) {
  const std::size_t n = values.size();
  std::vector<double> s(values.at(0).size(), 0.0);
  double total = 0;
  for (std::size_t m = 0; m < n; ++m) {
    total += weights[m];
    for (std::size_t i = 0; i < s.size(); ++i) s[i] += std::fabs(weights[m] * double(values[m][i]));
  }
  double smax = 0;
  for (auto v : s) smax = std::max(smax, v);
  const double rel = codec_relative_bound(codec);
  const double f32 = (double(n) + 3) * std::ldexp(1.0, -23);
  std::vector<double> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double scale = codec == wire::Codec::Int8Block ? smax : s[i];
    out[i] = ((double(n) + 1) * rel * scale + f32 * s[i]) / total * 1.01 + 1e-30;
  }
  return out;
}

}  // namespace rookery::reduce::testing
