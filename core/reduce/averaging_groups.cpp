#include "reduce/averaging_groups.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rookery::reduce {

namespace {

std::size_t power(std::size_t base, std::size_t exponent) {
  std::size_t p = 1;
  for (std::size_t i = 0; i < exponent; ++i) p *= base;
  return p;
}

// The largest s with s^d <= n.
std::size_t side_for(std::size_t n, std::size_t d) {
  auto s = static_cast<std::size_t>(std::floor(std::pow(double(n), 1.0 / double(d))));
  while (s > 1 && power(s, d) > n) --s;
  while (power(s + 1, d) <= n) ++s;
  return s;
}

// Member m's host on the grid: itself when m < hosts, else a host spread by a stride coprime
// with the side, so that the extras land on different lines of every dimension.
std::size_t host_of(std::size_t m, std::size_t hosts, std::size_t side) {
  return m < hosts ? m : ((m - hosts) * (side + 1)) % hosts;
}

std::vector<std::vector<std::size_t>> groups_on(std::size_t members, const AveragingGrid& g,
                                                std::uint64_t round) {
  if (g.dimensions == 1 && g.side >= members) {
    std::vector<std::size_t> all(members);
    for (std::size_t m = 0; m < members; ++m) all[m] = m;
    return {all};
  }
  const std::size_t hosts = power(g.side, g.dimensions);
  const std::size_t stride = power(g.side, std::size_t(round % g.dimensions));
  // A group is a line along the round's dimension, named by its host with that digit 0.
  std::vector<std::vector<std::size_t>> lines(hosts);
  for (std::size_t m = 0; m < members; ++m) {
    const std::size_t h = host_of(m, hosts, g.side);
    const std::size_t digit = (h / stride) % g.side;
    lines[h - digit * stride].push_back(m);
  }
  std::vector<std::vector<std::size_t>> out;
  for (auto& line : lines) {
    if (line.empty()) continue;
    std::sort(line.begin(), line.end());
    out.push_back(std::move(line));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::size_t largest(const std::vector<std::vector<std::size_t>>& groups) {
  std::size_t n = 0;
  for (const auto& g : groups) n = std::max(n, g.size());
  return n;
}

}  // namespace

AveragingGrid averaging_grid(std::size_t members, std::size_t max_group) {
  if (members <= std::max<std::size_t>(max_group, 1)) return {1, std::max<std::size_t>(members, 1)};
  for (std::size_t d = 2;; ++d) {
    const AveragingGrid g{d, side_for(members, d)};
    if (g.side < 2) break;
    bool fits = true;
    for (std::size_t r = 0; r < d && fits; ++r)
      fits = largest(groups_on(members, g, r)) <= max_group;
    if (fits) return g;
  }
  // Never for max_group >= 4: a side of 2 puts at most one extra beside each host. Below 4 only
  // some counts fit (powers of 2 in groups of 2; in groups of 3 also powers of 3 and a few with
  // extras, 5, 6 or 10 among them).
  throw std::invalid_argument("averaging groups: " + std::to_string(members) +
                              " members do not fit a grid of groups of at most " +
                              std::to_string(max_group) + " (any bound of 4 or more does)");
}

std::vector<std::vector<std::size_t>> averaging_groups(std::size_t members, std::size_t max_group,
                                                       std::uint64_t round) {
  if (members == 0) return {};
  return groups_on(members, averaging_grid(members, max_group), round);
}

std::size_t averaging_group_bound(std::int64_t asked, std::size_t members) {
  if (asked <= 0 || members <= std::size_t(asked)) return 0;
  try {
    averaging_grid(members, std::size_t(asked));
    return std::size_t(asked);
  } catch (const std::invalid_argument&) {
    return members <= 4 ? 0 : 4;
  }
}

std::vector<std::vector<std::size_t>> sweep_partners(std::size_t members, std::size_t max_group) {
  std::vector<std::vector<std::size_t>> out(members);
  if (max_group == 0 || members <= max_group) {
    std::vector<std::size_t> all(members);
    for (std::size_t m = 0; m < members; ++m) all[m] = m;
    for (auto& o : out) o = all;
    return out;
  }
  const auto grid = averaging_grid(members, max_group);
  for (std::uint64_t round = 0; round < grid.dimensions; ++round) {
    for (const auto& group : groups_on(members, grid, round)) {
      for (const auto m : group) out[m].insert(out[m].end(), group.begin(), group.end());
    }
  }
  for (auto& o : out) {
    std::sort(o.begin(), o.end());
    o.erase(std::unique(o.begin(), o.end()), o.end());
  }
  return out;
}

}  // namespace rookery::reduce
