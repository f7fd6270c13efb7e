#include "reach/link_partners.hpp"

#include <algorithm>
#include <set>

namespace rookery::reach {

std::vector<std::string> link_partners(const std::vector<PlannedSeat>& seats,
                                       const std::string& key) {
  std::set<std::string> partners;
  for (const auto& own : seats) {
    if (own.key != key) continue;
    for (const auto& other : seats) {
      if (other.key == key) continue;
      const bool adjacent =
          other.last_block == own.first_block || other.first_block == own.last_block;
      const bool overlapping =
          other.first_block < own.last_block && own.first_block < other.last_block;
      if (adjacent || overlapping) partners.insert(other.key);
    }
  }
  return {partners.begin(), partners.end()};
}

}  // namespace rookery::reach
