#pragma once
// Which blocks each stage of a pipeline holds and where it listens. Written by hand (or by
// scripts/run-pipeline.sh) for a static pipeline; the coordinator sends the same thing as
// an assignment once pipelines are formed dynamically. Torch-free.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "job/job_spec.hpp"

namespace rookery::pipeline {

struct StageAddress {
  std::int64_t first_block = 0;
  std::int64_t last_block = 0;
  std::string endpoint;  // tcp://host:port the stage listens on
  std::string key;       // the stage node's CURVE public key
};

struct StagePlan {
  std::filesystem::path job_path;
  job::JobSpec job;
  std::uint32_t pipeline = 0;
  std::vector<StageAddress> stages;

  // Validates: stages cover [0, blocks) contiguously, keys are Z85, endpoints are tcp://.
  void validate(std::int64_t block_count) const;
};

// Reads {"job": "<path>", "pipeline": 0, "stages": [{"blocks": [0, 2], "endpoint": "...",
// "key": "..."}, ...]}. Relative job paths resolve against the plan file's folder. Throws
// std::runtime_error naming the file and the field.
StagePlan load_stage_plan(const std::filesystem::path& path);
StagePlan parse_stage_plan(const std::string& json, const std::filesystem::path& base_dir);

}  // namespace rookery::pipeline
