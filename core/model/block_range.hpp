#pragma once
// A range of a model's blocks, torch-free: what plans, stage configs and checkpoints name,
// so that headers read outside the torch folders need not include model/block_chain.hpp.
#include <cstdint>

namespace rookery::model {

/// Blocks [first, last) of a chain.
struct BlockRange {
  std::int64_t first = 0;
  std::int64_t last = 0;
  std::int64_t size() const { return last - first; }
  friend bool operator==(const BlockRange&, const BlockRange&) = default;
};

}  // namespace rookery::model
