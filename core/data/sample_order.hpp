// Which data position a sample id reads. Work is handed out as sample-id ranges
// (a micro-batch is `(job, pipeline, sample range)`), so the mapping must be a pure function
// of (id, dataset size, seed): any pipeline can be given any disjoint range, and a resumed
// run continues from the next id without any saved iterator state.
#pragma once

#include <cstdint>

namespace rookery::data {

/// Sample id -> data position. Ids [e·N, (e+1)·N) form epoch e and visit every position
/// exactly once, in an order that is a seeded pseudo-random permutation that changes with
/// the epoch. The permutation is a Feistel network with cycle-walking: a bijection on
/// [0, N) in O(1) time and memory, whatever N is, without materialising N indices.
class SampleOrder {
 public:
  /// size must be >= 1. With shuffle off, position == id mod size.
  SampleOrder(int64_t size, uint64_t seed, bool shuffle = true);

  int64_t size() const { return size_; }
  int64_t position(int64_t sample_id) const;  ///< sample_id >= 0

 private:
  uint64_t permute(uint64_t index, uint64_t epoch) const;

  int64_t size_;
  uint64_t seed_;
  bool shuffle_;
  int half_bits_;  // the Feistel domain is 2^(2·half_bits) >= size, less than 4·size
};

}  // namespace rookery::data
