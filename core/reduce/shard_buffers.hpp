#pragma once
// The adapter between a model shard and the Averager: a shard's parameters as one flat f32
// buffer in Shard::parameters() order (block by block, which is the order of the
// MultiRingPlan's flat offsets), and back.
#include <cstdint>
#include <span>
#include <vector>

#include "model/block_chain.hpp"
#include "reduce/block_parameter_counts.hpp"

namespace rookery::reduce {

// The shard's parameters, copied into one flat buffer.
std::vector<float> flatten_parameters(const model::Shard& shard);
// Writes `values` (flatten_parameters' layout) into the shard's parameters. Throws
// std::invalid_argument when the size differs.
void write_parameters(model::Shard& shard, std::span<const float> values);
// Adds `delta` (same layout) to the shard's parameters: how an AveragingResult is applied
// when the stage trained on during the round.
void add_to_parameters(model::Shard& shard, std::span<const float> delta);

}  // namespace rookery::reduce
