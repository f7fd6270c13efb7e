#pragma once
// What the cluster benchmarks share: the shape of a synthetic swarm, and the CPU time they
// measure planning by.
#include <ctime>

namespace rookery::bench {

// CPU time of this thread in milliseconds.
inline double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

// A synthetic swarm: how many volunteers, in how many bandwidth tiers, for a model of how many
// layers.
struct Shape {
  int nodes;
  int tiers;
  int layers;
};

}  // namespace rookery::bench
