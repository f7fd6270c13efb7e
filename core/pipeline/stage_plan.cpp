#include "pipeline/stage_plan.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "net/identity.hpp"

namespace rookery::pipeline {

namespace {
[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("stage plan: " + what); }
}  // namespace

void StagePlan::validate(std::int64_t block_count) const {
  if (stages.empty()) fail("stages: at least one stage is needed");
  std::int64_t next = 0;
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const auto& s = stages[i];
    const std::string where = "stages[" + std::to_string(i) + "]";
    if (s.first_block != next) {
      fail(where + ".blocks: starts at block " + std::to_string(s.first_block) + ", expected " + std::to_string(next));
    }
    if (s.last_block <= s.first_block) fail(where + ".blocks: empty range");
    if (s.endpoint.rfind("tcp://", 0) != 0) fail(where + ".endpoint: must be tcp://host:port, got '" + s.endpoint + "'");
    if (!net::is_z85_key(s.key)) fail(where + ".key: not a 40-character Z85 CURVE public key");
    next = s.last_block;
  }
  if (next != block_count) {
    fail("stages cover blocks [0, " + std::to_string(next) + ") but the model has " + std::to_string(block_count));
  }
}

StagePlan parse_stage_plan(const std::string& text, const std::filesystem::path& base_dir) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    fail(std::string("not valid JSON: ") + e.what());
  }
  if (!j.is_object()) fail("must be a JSON object");
  for (const auto& [k, v] : j.items()) {
    if (k != "job" && k != "pipeline" && k != "stages") fail("unknown key '" + k + "'");
  }
  StagePlan plan;
  if (!j.contains("job") || !j["job"].is_string()) fail("job: a path to the job spec is required");
  plan.job_path = j["job"].get<std::string>();
  if (plan.job_path.is_relative() && !base_dir.empty()) plan.job_path = base_dir / plan.job_path;
  plan.job = job::load_job_spec(plan.job_path);
  if (j.contains("pipeline")) {
    if (!j["pipeline"].is_number_unsigned()) fail("pipeline: must be a non-negative integer");
    plan.pipeline = j["pipeline"].get<std::uint32_t>();
  }
  if (!j.contains("stages") || !j["stages"].is_array()) fail("stages: an array is required");
  for (std::size_t i = 0; i < j["stages"].size(); ++i) {
    const auto& s = j["stages"][i];
    const std::string where = "stages[" + std::to_string(i) + "]";
    if (!s.is_object()) fail(where + ": must be an object");
    StageAddress a;
    if (!s.contains("blocks") || !s["blocks"].is_array() || s["blocks"].size() != 2 || !s["blocks"][0].is_number_integer() ||
        !s["blocks"][1].is_number_integer()) {
      fail(where + ".blocks: must be [first, last)");
    }
    a.first_block = s["blocks"][0].get<std::int64_t>();
    a.last_block = s["blocks"][1].get<std::int64_t>();
    if (!s.contains("endpoint") || !s["endpoint"].is_string()) fail(where + ".endpoint: required");
    if (!s.contains("key") || !s["key"].is_string()) fail(where + ".key: required");
    a.endpoint = s["endpoint"].get<std::string>();
    a.key = s["key"].get<std::string>();
    plan.stages.push_back(std::move(a));
  }
  return plan;
}

StagePlan load_stage_plan(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("stage plan: cannot read " + path.string());
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    return parse_stage_plan(ss.str(), path.parent_path());
  } catch (const std::exception& e) {
    throw std::runtime_error(path.string() + ": " + e.what());
  }
}

}  // namespace rookery::pipeline
