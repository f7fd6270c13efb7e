#pragma once
// Swarm checkpoints: a volunteer keeps on its own disk what its shard server holds (the
// blocks it trains, their optimizer state, each block's moment step), written atomically and
// checksummed every checkpoint interval and when the node stops. After a crash or a reboot
// the node reads it back before its first plan and holds it as a *restored* shard: its
// ShardHandover takes a block from it when no peer hands over a copy that trained longer
// (the block's moment step), so blocks whose every holder went down come back where they
// were, not from the job's initial weights. One file per job:
// <data>/checkpoints/swarm-<job id>.ckpt.
#include <filesystem>
#include <string>

#include "node/shard_server.hpp"

namespace rookery::node {

// Where a node keeps its checkpoint of job `job_id` in `dir`.
std::filesystem::path swarm_checkpoint_path(const std::filesystem::path& dir,
                                            const std::string& job_id);

// Writes `shard` of job `job_id` to `path`. Throws pipeline::CheckpointError (a full disk:
// the previous checkpoint is kept).
void save_swarm_checkpoint(const std::filesystem::path& path, const std::string& job_id,
                           const ShardSnapshot& shard);

// Reads the checkpoint at `path` back, marked restored. Throws pipeline::CheckpointError
// saying what is wrong: corrupt, another job's, blocks or buffers that do not add up, values
// that are not finite.
ShardSnapshot load_swarm_checkpoint(const std::filesystem::path& path, const std::string& job_id);

}  // namespace rookery::node
