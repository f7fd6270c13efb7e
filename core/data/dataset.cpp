#include "data/dataset.hpp"

#include <cmath>
#include <cstdio>

namespace rookery::data {

int64_t held_out_units(int64_t count, double fraction, int64_t at_least,
                       const std::filesystem::path& path, const char* unit) {
  if (!(fraction >= 0 && fraction <= 0.5))
    throw DatasetError(path, "held_out must be in [0, 0.5], got " + std::to_string(fraction));
  if (fraction == 0) return 0;
  const auto held = int64_t(std::floor(double(count) * fraction));
  if (held < at_least) {
    char share[32];
    std::snprintf(share, sizeof share, "%g", fraction);
    throw DatasetError(path, "held_out " + std::string(share) + " of its " + std::to_string(count) +
                                 " " + unit + " is " + std::to_string(held) +
                                 ", fewer than one held-out sample needs (" +
                                 std::to_string(at_least) + ")");
  }
  return held;
}

}  // namespace rookery::data
