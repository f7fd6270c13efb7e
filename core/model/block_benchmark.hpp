#pragma once
// The node's benchmark of the real work: forward and backward passes of the job's own blocks,
// at the job's micro-batch size and precision, on the device that will run them. Its FLOP/s
// (the cost model's FLOPs over the measured time) is what the planner divides block costs by,
// so it is measured in the planner's own units, unlike a square fp32 matmul.
#include <string>

#include "job/job_spec.hpp"

namespace rookery::model {

struct BlockBenchmark {
  double flops_per_s = 0;
  double samples_per_s = 0;  // through the blocks measured
  std::string blocks;        // what ran, e.g. "gpt.layer × 1 (blocks [1, 2))"
  std::string precision;     // "bf16 autocast", "fp32", ...
  int passes = 0;            // forward+backward passes timed
  double seconds = 0;
};

// Runs for about `seconds` after one warm-up pass. A model of at most ~50M parameters runs
// whole; a larger one runs its first transformer layer (all its layers are alike), with
// random activations of the right shape. Throws std::runtime_error when the device fails
// (out of memory included).
BlockBenchmark measure_blocks(const job::JobSpec& job, const std::string& device, double seconds);

}  // namespace rookery::model
