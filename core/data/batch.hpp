// A micro-batch's data: samples [first_sample_id, first_sample_id + count) as tensors.
#pragma once

#include "data/dataset.hpp"

#include <ATen/core/Tensor.h>

namespace rookery::data {

struct Batch {
  at::Tensor inputs;   ///< int64 [count, context] tokens, or fp32 [count, C, H, W] pixels
  at::Tensor targets;  ///< int64 [count, context] next tokens, or [count] class ids
  int64_t first_sample_id = 0;  ///< or, when held_out, the first held-out sample's index
  int64_t count = 0;
  bool held_out = false;  ///< held-out samples, for evaluation only (make_held_out_batch)
};

/// Reads samples first_sample_id .. first_sample_id + count - 1, each from the data position
/// dataset.position_of(id). The same ids give the same batch in every process.
Batch make_batch(const Dataset& dataset, int64_t first_sample_id, int64_t count);

/// Held-out samples first .. first + count - 1 (Dataset::read_held_out): the same batch every
/// time. Throws std::out_of_range unless they are within [0, dataset.held_out_size()).
Batch make_held_out_batch(const Dataset& dataset, int64_t first, int64_t count);

}  // namespace rookery::data
