// The analytic cost of each block of a model, computed from the spec alone (no torch), so
// the coordinator's planner can cut a chain of blocks into shards without building it.
//
// What is counted:
//  - FLOPs are matrix-product FLOPs (2·m·n·k), including attention's two T×T products and
//    convolutions as implicit GEMMs. Element-wise work (norms, softmax, activations,
//    residual adds) is left out: per sample it is O(T·w) against the O(T·w²) of the matmuls.
//    Backward is twice forward (gradients for inputs and for weights), except for block 0,
//    whose input needs no gradient, so only weight gradients are computed.
//  - Memory is what LibTorch's autograd actually keeps on the CPU (verified by
//    tests/model/test_cost_model), in bytes per sample, fp32.
#pragma once

#include "job/job_spec.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rookery::model {

struct BlockCost {
  std::string
      kind;  ///< "gpt.embedding", "gpt.layer", "gpt.head", "cnn.stage", "cnn.head", "mlp.hidden", "mlp.output"
  int64_t params = 0;
  double forward_flops_per_sample = 0;
  double backward_flops_per_sample = 0;
  /// The block's output activation: what a stage sends to the next one per sample.
  int64_t activation_bytes_per_sample = 0;
  /// Memory a forward pins until its backward, beyond the block's input and output
  /// (which the stage holds anyway): saved intermediates, dropout masks, and for the last
  /// block the loss's log-probabilities. Multiply by micro-batches in flight (staleness).
  int64_t stash_bytes_per_sample = 0;

  friend bool operator==(const BlockCost&, const BlockCost&) = default;
};

/// Number of blocks: gpt depth + 2; cnn stages + 1; mlp hidden layers + 1.
int64_t block_count(const job::ModelSpec& model);

/// One entry per block, in chain order.
std::vector<BlockCost> block_costs(const job::ModelSpec& model);

}  // namespace rookery::model
