#pragma once
// Internal to core/reduce: eight-float vectors (GCC/Clang vector extensions, two SSE registers
// where AVX is not available) and function multi-versioning, so the aggregators' hot loops run
// AVX-512 or AVX2 + FMA code on CPUs that have it while the build stays x86-64 baseline.
#include <cstddef>
#include <cstring>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"  // the helpers below are always inlined
#endif

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__SANITIZE_ADDRESS__)
#define ROOKERY_SIMD_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define ROOKERY_SIMD_CLONES
#endif

namespace rookery::reduce {

constexpr std::size_t kLanes = 8;
typedef float f8 __attribute__((vector_size(kLanes * sizeof(float))));

[[gnu::always_inline]] inline f8 load(const float* p) {
  f8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
[[gnu::always_inline]] inline void store(float* p, const f8& v) { std::memcpy(p, &v, sizeof v); }
[[gnu::always_inline]] inline f8 splat(float x) { return f8{x, x, x, x, x, x, x, x}; }
[[gnu::always_inline]] inline float hsum(const f8& v) {
  return ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7]));
}

}  // namespace rookery::reduce
