#pragma once
// Which blocks each stage of each pipeline holds and where it listens. Written by hand (or by
// scripts/run-pipeline.sh) for static pipelines; the coordinator sends the same thing as an
// assignment once pipelines are formed dynamically. Torch-free.
//
// With several pipelines, each holds the whole model cut at its own boundaries; the stages
// that hold the same parameters in different pipelines average them in Ravnest's parallel
// multi-ring all-reduce (core/reduce), each on its `reduce_endpoint`.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "job/job_spec.hpp"

namespace rookery::wire::pb {
class Plan;
}

namespace rookery::pipeline {

struct StageAddress {
  std::int64_t first_block = 0;
  std::int64_t last_block = 0;
  std::string endpoint;         // tcp://host:port the stage listens on
  std::string key;              // the stage node's CURVE public key
  std::string reduce_endpoint;  // tcp://host:port of its ring transport; required with 2+ pipelines
};

struct StagePlan {
  std::filesystem::path job_path;
  job::JobSpec job;
  std::uint32_t pipeline = 0;                        // the pipeline `stages` describes
  std::vector<StageAddress> stages;                  // = pipelines[pipeline]
  std::vector<std::vector<StageAddress>> pipelines;  // every pipeline of the job
  std::int64_t averaging_interval_ms = 10000;        // with 2+ pipelines: how often they average
  // The coordinator's view of a large swarm for this node (coordinator/plan_view.hpp): the
  // pipelines it exchanges nothing with come without stages, in their places.
  bool view = false;

  // Validates every pipeline: stages cover [0, blocks) contiguously, keys are Z85 and each
  // appears once in the whole plan, endpoints are tcp://, and with two or more pipelines
  // every stage has a reduce_endpoint. In a view, pipelines without stages are left out.
  void validate(std::int64_t block_count) const;
  // Where `key` is listed: {pipeline, stage}, or nullopt.
  std::optional<std::pair<std::uint32_t, std::size_t>> find(const std::string& key) const;
  // The same plan with `stages` = pipelines[p]. Throws std::runtime_error when there is no p.
  StagePlan select(std::uint32_t p) const;
};

// Reads one pipeline, {"job": "<path>", "pipeline": 0, "stages": [{"blocks": [0, 2],
// "endpoint": "...", "key": "..."}, ...]}, or several, {"job": "<path>", "pipelines":
// [{"stages": [...]}, ...], "averaging_interval_ms": 10000} with a "reduce_endpoint" on
// every stage; `stages` is then the first pipeline's (select() picks another). Relative job
// paths resolve against the plan file's folder. Throws std::runtime_error naming the file and
// the field.
StagePlan load_stage_plan(const std::filesystem::path& path);
StagePlan parse_stage_plan(const std::string& json, const std::filesystem::path& base_dir);
// The coordinator's plan for the job spec at `job_path`, or this node's view of it (`view`: some
// pipelines come without stages). Throws std::runtime_error for a plan of no pipelines or an
// averaging interval out of range; validate() checks the stages.
StagePlan stage_plan_from_message(const wire::pb::Plan& plan,
                                  const std::filesystem::path& job_path);

}  // namespace rookery::pipeline
