#include "pipeline/stage_plan.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "net/identity.hpp"
#include "rookery/coordinator.pb.h"

namespace rookery::pipeline {

namespace {
[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("stage plan: " + what); }

std::vector<StageAddress> parse_stages(const nlohmann::json& j, const std::string& prefix) {
  if (!j.contains("stages") || !j["stages"].is_array())
    fail(prefix + "stages: an array is required");
  std::vector<StageAddress> stages;
  for (std::size_t i = 0; i < j["stages"].size(); ++i) {
    const auto& s = j["stages"][i];
    const std::string where = prefix + "stages[" + std::to_string(i) + "]";
    if (!s.is_object()) fail(where + ": must be an object");
    for (const auto& [k, v] : s.items()) {
      if (k != "blocks" && k != "endpoint" && k != "key" && k != "reduce_endpoint")
        fail(where + ": unknown key '" + k + "'");
    }
    StageAddress a;
    if (!s.contains("blocks") || !s["blocks"].is_array() || s["blocks"].size() != 2 ||
        !s["blocks"][0].is_number_integer() || !s["blocks"][1].is_number_integer()) {
      fail(where + ".blocks: must be [first, last)");
    }
    a.first_block = s["blocks"][0].get<std::int64_t>();
    a.last_block = s["blocks"][1].get<std::int64_t>();
    if (!s.contains("endpoint") || !s["endpoint"].is_string()) fail(where + ".endpoint: required");
    if (!s.contains("key") || !s["key"].is_string()) fail(where + ".key: required");
    a.endpoint = s["endpoint"].get<std::string>();
    a.key = s["key"].get<std::string>();
    if (s.contains("reduce_endpoint")) {
      if (!s["reduce_endpoint"].is_string()) fail(where + ".reduce_endpoint: must be a string");
      a.reduce_endpoint = s["reduce_endpoint"].get<std::string>();
    }
    stages.push_back(std::move(a));
  }
  return stages;
}
}  // namespace

void StagePlan::validate(std::int64_t block_count) const {
  if (pipelines.empty()) fail("stages: at least one stage is needed");
  std::set<std::string> keys;
  for (std::size_t p = 0; p < pipelines.size(); ++p) {
    const auto& stages_p = pipelines[p];
    const std::string prefix = pipelines.size() > 1 ? "pipelines[" + std::to_string(p) + "]." : "";
    if (stages_p.empty() && view) continue;  // outside this node's view
    if (stages_p.empty()) fail(prefix + "stages: at least one stage is needed");
    std::int64_t next = 0;
    for (std::size_t i = 0; i < stages_p.size(); ++i) {
      const auto& s = stages_p[i];
      const std::string where = prefix + "stages[" + std::to_string(i) + "]";
      if (s.first_block != next) {
        fail(where + ".blocks: starts at block " + std::to_string(s.first_block) + ", expected " +
             std::to_string(next));
      }
      if (s.last_block <= s.first_block) fail(where + ".blocks: empty range");
      if (s.endpoint.rfind("tcp://", 0) != 0)
        fail(where + ".endpoint: must be tcp://host:port, got '" + s.endpoint + "'");
      if (!net::is_z85_key(s.key)) fail(where + ".key: not a 40-character Z85 CURVE public key");
      if (!keys.insert(s.key).second)
        fail(where + ".key: listed twice in the plan (one node holds one stage)");
      if (pipelines.size() > 1 && s.reduce_endpoint.rfind("tcp://", 0) != 0) {
        fail(where +
             ".reduce_endpoint: with several pipelines every stage needs tcp://host:port for its "
             "rings");
      }
      next = s.last_block;
    }
    if (next != block_count) {
      fail(prefix + "stages cover blocks [0, " + std::to_string(next) + ") but the model has " +
           std::to_string(block_count));
    }
  }
}

std::optional<std::pair<std::uint32_t, std::size_t>> StagePlan::find(const std::string& key) const {
  for (std::size_t p = 0; p < pipelines.size(); ++p) {
    for (std::size_t s = 0; s < pipelines[p].size(); ++s) {
      if (pipelines[p][s].key == key) return std::pair{static_cast<std::uint32_t>(p), s};
    }
  }
  return std::nullopt;
}

StagePlan StagePlan::select(std::uint32_t p) const {
  if (pipelines.size() == 1 && p == pipeline) return *this;
  if (p >= pipelines.size()) {
    fail("pipeline " + std::to_string(p) + " is not in the plan (it has " +
         std::to_string(pipelines.size()) + ")");
  }
  StagePlan out = *this;
  out.pipeline = p;
  out.stages = pipelines[p];
  return out;
}

StagePlan parse_stage_plan(const std::string& text, const std::filesystem::path& base_dir) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    fail(std::string("not valid JSON: ") + e.what());
  }
  if (!j.is_object()) fail("must be a JSON object");
  for (const auto& [k, v] : j.items()) {
    if (k != "job" && k != "pipeline" && k != "stages" && k != "pipelines" &&
        k != "averaging_interval_ms") {
      fail("unknown key '" + k + "'");
    }
  }
  StagePlan plan;
  if (!j.contains("job") || !j["job"].is_string()) fail("job: a path to the job spec is required");
  plan.job_path = j["job"].get<std::string>();
  if (plan.job_path.is_relative() && !base_dir.empty()) plan.job_path = base_dir / plan.job_path;
  plan.job = job::load_job_spec(plan.job_path);
  const bool several = j.contains("pipelines");
  if (several && (j.contains("stages") || j.contains("pipeline"))) {
    fail("give either \"pipelines\" or \"pipeline\" and \"stages\", not both");
  }
  if (j.contains("pipeline")) {
    if (!j["pipeline"].is_number_unsigned()) fail("pipeline: must be a non-negative integer");
    plan.pipeline = j["pipeline"].get<std::uint32_t>();
  }
  if (several) {
    if (!j["pipelines"].is_array() || j["pipelines"].empty())
      fail("pipelines: a non-empty array is required");
    for (std::size_t p = 0; p < j["pipelines"].size(); ++p) {
      const auto& pj = j["pipelines"][p];
      const std::string where = "pipelines[" + std::to_string(p) + "]";
      if (!pj.is_object()) fail(where + ": must be an object");
      for (const auto& [k, v] : pj.items()) {
        if (k != "stages") fail(where + ": unknown key '" + k + "'");
      }
      plan.pipelines.push_back(parse_stages(pj, where + "."));
    }
  } else {
    plan.pipelines.push_back(parse_stages(j, ""));
  }
  plan.stages = plan.pipelines.front();
  if (j.contains("averaging_interval_ms")) {
    const auto& v = j["averaging_interval_ms"];
    if (!v.is_number_integer() || v.get<std::int64_t>() < 100 ||
        v.get<std::int64_t>() > 86'400'000) {
      fail("averaging_interval_ms: must be an integer from 100 (0.1 s) to 86400000 (a day)");
    }
    plan.averaging_interval_ms = v.get<std::int64_t>();
  }
  return plan;
}

StagePlan stage_plan_from_message(const wire::pb::Plan& m, const std::filesystem::path& job_path) {
  if (m.pipelines().empty()) fail("pipelines: the plan has none");
  StagePlan plan;
  plan.job_path = job_path;
  plan.job = job::load_job_spec(job_path);
  for (int p = 0; p < m.pipelines_size(); ++p) {
    const auto& stages = m.pipelines(p).stages();
    plan.view = plan.view || stages.empty();  // a pipeline outside this node's view
    auto& pipeline = plan.pipelines.emplace_back();
    for (const auto& s : stages)
      pipeline.push_back(
          {s.first_block(), s.last_block(), s.endpoint(), s.key(), s.reduce_endpoint()});
  }
  plan.stages = plan.pipelines.front();
  if (m.averaging_interval_ms() != 0) {
    if (m.averaging_interval_ms() < 100 || m.averaging_interval_ms() > 86'400'000)
      fail("averaging_interval_ms: must be from 100 (0.1 s) to 86400000 (a day)");
    plan.averaging_interval_ms = m.averaging_interval_ms();
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
