#pragma once
// The swarm benchmarks' `--repeats N` (default 1): N measurements, one after the other,
// stopping at the first that measured nothing (exit status 1).
#include <cstdio>
#include <cstdlib>
#include <string>

namespace rookery::testing {

// `once(r)` runs repeat r (from 1) and says whether it measured anything.
template <typename Once>
int run_repeats(int argc, char** argv, Once once) {
  int repeats = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--repeats") repeats = std::atoi(argv[i + 1]);
  }
  for (int r = 1; r <= repeats; ++r) {
    if (!once(r)) {
      std::printf("repeat %d: no measurement (the swarm did not form, or never recovered)\n", r);
      return 1;
    }
  }
  return 0;
}

}  // namespace rookery::testing
