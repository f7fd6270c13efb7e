#pragma once
// Who exchanges messages with whom in a plan, for connection reversal: a node no peer can dial
// must open a connection to every peer that sends to it, so every one of them must be
// reachable. Conservative by design: stochastic wiring may send a micro-batch to any holder of
// the next blocks and its gradient back to any holder of the previous ones, and the holders
// of a node's own blocks average with it, check its work and fetch its shard.
#include <cstdint>
#include <string>
#include <vector>

namespace rookery::reach {

struct PlannedSeat {
  std::string key;
  std::int64_t first_block = 0;  // [first_block, last_block)
  std::int64_t last_block = 0;
};

// The keys that `key` links with in `seats` (each once, never `key` itself): holders of the
// blocks just before and just after its own, and every other holder of any of its blocks.
// Empty when `key` holds no seat.
std::vector<std::string> link_partners(const std::vector<PlannedSeat>& seats,
                                       const std::string& key);

}  // namespace rookery::reach
