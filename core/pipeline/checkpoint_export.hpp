#pragma once
// A whole model out of stage checkpoints, for `rookery-coordinator export`: a static plan's
// stages, or volunteers' checkpoint folders, each hold some blocks. For every block the
// checkpoint that holds it and trained on the most samples gives its parameters.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "job/job_spec.hpp"
#include "model/block_chain.hpp"

namespace rookery::pipeline {

struct CheckpointModel {
  std::vector<model::NamedTensor> parameters;  // the whole model, by Rookery's names
  std::int64_t samples = 0;  // the fewest samples any chosen checkpoint trained on
  std::string source;        // "3 checkpoints of job demo: a.ckpt [0, 2), ..."
};

/// `paths`: checkpoint files, or folders whose *.ckpt files are read. Throws CheckpointError
/// naming the problem: nothing found, a corrupt file, a checkpoint of another job, blocks
/// that no checkpoint holds.
CheckpointModel model_from_checkpoints(const job::JobSpec& job,
                                       const std::vector<std::filesystem::path>& paths);

struct ShardSnapshot;

/// The whole model out of a snapshot of every block (the coordinator's model archive), its
/// flat values laid out block by block. Throws CheckpointError when it does not cover the
/// job's model or its size does not match.
CheckpointModel model_from_snapshot(const job::JobSpec& job, const ShardSnapshot& snapshot,
                                    std::string source);

}  // namespace rookery::pipeline
