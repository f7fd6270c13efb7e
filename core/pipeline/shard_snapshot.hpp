#pragma once
// A shard as it leaves a stage: the parameters of blocks [first, last), the optimizer's state
// for them (the moments travel with the weights) and each block's moment step (how long it
// has trained since it last started afresh). A node's shard server hands it to peers, its
// swarm checkpoint keeps it on disk, and the coordinator's model archive keeps the whole
// model in this form. Torch-free.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/stage_runtime.hpp"

namespace rookery::pipeline {

struct ShardSnapshot {
  std::int64_t first_block = 0, last_block = 0;
  std::int64_t optimizer_steps = 0;
  std::uint64_t plan_version = 0;
  std::vector<float> values;
  OptimizerState state;  // each buffer laid out like `values`
  // Each block's moment step (StageRuntime::block_moment_steps). Empty: state.moment_step
  // stands for every block.
  std::vector<std::int64_t> block_moment_steps;
  // Read back from a file, not trained by this process: a copy of a block that trained for
  // longer wins over it.
  bool restored = false;

  // The moment step of blocks [first, last) (inside the snapshot): the longest any trained.
  std::int64_t moment_step_of(std::int64_t first, std::int64_t last) const;
  // The part [first, last) (inside the snapshot), whose values lie `offset`..`offset + size`.
  ShardSnapshot part(std::int64_t first, std::int64_t last, std::int64_t offset,
                     std::int64_t size) const;
};

// Buffers [offset, offset + size) of an optimizer state laid out like a shard's values.
OptimizerState slice_state(const OptimizerState& s, std::int64_t offset, std::int64_t size);

// A shard of job `job_id` in a checkpoint file (checkpoint_file.hpp's framing under `magic`,
// a ShardCheckpoint message). Throws CheckpointError; the file there before stays intact.
void write_shard_file(const std::filesystem::path& path, std::string_view magic,
                      const std::string& job_id, const ShardSnapshot& shard);
// Reads one back, marked restored. Throws CheckpointError saying what is wrong: corrupt,
// another job's, blocks or buffers that do not add up, values that are not finite.
ShardSnapshot read_shard_file(const std::filesystem::path& path, std::string_view magic,
                              const std::string& job_id);

}  // namespace rookery::pipeline
