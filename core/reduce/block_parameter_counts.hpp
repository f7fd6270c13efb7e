#pragma once
// The values each block of a model holds, from its spec alone: what a MultiRingPlan and a
// shard server need, without torch (defined with shard_buffers, in rookery_reduce_model).
#include <cstdint>
#include <vector>

#include "job/job_spec.hpp"

namespace rookery::reduce {

// Values per block for MultiRingPlan, from the spec alone (model::block_costs).
std::vector<std::int64_t> block_parameter_counts(const job::ModelSpec& model);

}  // namespace rookery::reduce
