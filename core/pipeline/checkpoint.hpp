#pragma once
// Checkpoints of a stage: written atomically (temporary file, fsync, rename) with a
// checksum; a corrupt or foreign file is refused with a clear error, never half-loaded.
#include <cstdint>
#include <filesystem>
#include <string>

#include "model/block_chain.hpp"
#include "model/optimizer.hpp"
#include "pipeline/checkpoint_file.hpp"

namespace rookery::pipeline {

struct CheckpointCounters {
  std::string job_id;
  std::uint32_t pipeline = 0;
  model::BlockRange blocks;
  std::int64_t micro_batches = 0;
  std::int64_t samples = 0;
  std::int64_t next_sample = 0;
};

// Writes shard parameters, optimizer state and counters to `path`. Throws CheckpointError
// (e.g. the disk is full); the previous checkpoint stays intact in that case.
void save_checkpoint(const std::filesystem::path& path, const model::Shard& shard,
                     const model::Optimizer& optimizer, const CheckpointCounters& counters);

// Reads a checkpoint into `shard` and `optimizer` (which must be for the same job and
// blocks) and returns its counters. Throws CheckpointError naming what is wrong; the shard
// and optimizer are untouched unless everything verified.
CheckpointCounters load_checkpoint(const std::filesystem::path& path, model::Shard& shard,
                                   model::Optimizer& optimizer, const std::string& expected_job,
                                   model::BlockRange expected_blocks);

// Reads only the parameters of a checkpoint, by global name (tools and tests).
std::vector<model::NamedTensor> read_checkpoint_parameters(const std::filesystem::path& path,
                                                           CheckpointCounters* counters = nullptr);

}  // namespace rookery::pipeline
