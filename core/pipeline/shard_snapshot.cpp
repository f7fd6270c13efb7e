#include "pipeline/shard_snapshot.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "pipeline/checkpoint_file.hpp"
#include "rookery/checkpoint.pb.h"

namespace rookery::pipeline {

namespace {

constexpr std::uint32_t kFormat = 1;

std::string as_bytes(const std::vector<float>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

// f32 values from `bytes`, all finite, or why not.
std::vector<float> as_floats(const std::string& bytes, const std::string& what,
                             const std::filesystem::path& path) {
  const std::string corrupt = "checkpoint " + path.string() + " is corrupt: ";
  if (bytes.size() % sizeof(float) != 0)
    throw CheckpointError(corrupt + what + " is not a whole number of f32 values");
  std::vector<float> v(bytes.size() / sizeof(float));
  std::memcpy(v.data(), bytes.data(), bytes.size());
  if (!std::all_of(v.begin(), v.end(), [](float x) { return std::isfinite(x); }))
    throw CheckpointError(corrupt + what + " holds values that are not finite");
  return v;
}

}  // namespace

OptimizerState slice_state(const OptimizerState& s, std::int64_t offset, std::int64_t size) {
  OptimizerState out;
  out.moment_step = s.moment_step;
  for (const auto& [name, v] : s.buffers) {
    if (offset + size > static_cast<std::int64_t>(v.size()))
      continue;  // cannot happen: laid out like the values
    out.buffers.emplace_back(name,
                             std::vector<float>(v.begin() + offset, v.begin() + offset + size));
  }
  return out;
}

std::int64_t ShardSnapshot::moment_step_of(std::int64_t first, std::int64_t last) const {
  if (block_moment_steps.size() != static_cast<std::size_t>(last_block - first_block))
    return state.moment_step;
  std::int64_t step = 0;
  for (auto b = std::max(first, first_block); b < std::min(last, last_block); ++b)
    step = std::max(step, block_moment_steps[static_cast<std::size_t>(b - first_block)]);
  return step;
}

ShardSnapshot ShardSnapshot::part(std::int64_t first, std::int64_t last, std::int64_t offset,
                                  std::int64_t size) const {
  ShardSnapshot p;
  p.first_block = first;
  p.last_block = last;
  p.optimizer_steps = optimizer_steps;
  p.plan_version = plan_version;
  p.restored = restored;
  p.values.assign(values.begin() + offset, values.begin() + offset + size);
  p.state = slice_state(state, offset, size);
  p.state.moment_step = moment_step_of(first, last);
  if (block_moment_steps.size() == static_cast<std::size_t>(last_block - first_block)) {
    p.block_moment_steps.assign(block_moment_steps.begin() + (first - first_block),
                                block_moment_steps.begin() + (last - first_block));
  }
  return p;
}

void write_shard_file(const std::filesystem::path& path, std::string_view magic,
                      const std::string& job_id, const ShardSnapshot& shard) {
  wire::pb::ShardCheckpoint c;
  c.set_format(kFormat);
  c.set_job_id(job_id);
  c.set_first_block(shard.first_block);
  c.set_last_block(shard.last_block);
  c.set_optimizer_steps(shard.optimizer_steps);
  c.set_plan_version(shard.plan_version);
  c.set_unix_ms(std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count());
  c.set_values(as_bytes(shard.values));
  c.set_moment_step(shard.state.moment_step);
  for (const auto& [name, v] : shard.state.buffers) {
    auto* b = c.add_state();
    b->set_name(name);
    b->set_values(as_bytes(v));
  }
  for (const auto s : shard.block_moment_steps) c.add_block_moment_steps(s);
  write_checkpoint_file(path, magic, c.SerializeAsString());
}

ShardSnapshot read_shard_file(const std::filesystem::path& path, std::string_view magic,
                              const std::string& job_id) {
  wire::pb::ShardCheckpoint c;
  const std::string corrupt = "checkpoint " + path.string() + " is corrupt: ";
  if (!c.ParseFromString(read_checkpoint_file(path, magic)))
    throw CheckpointError(corrupt + "content does not parse");
  if (c.format() != kFormat)
    throw CheckpointError(corrupt + "unknown format " + std::to_string(c.format()));
  if (c.job_id() != job_id) {
    throw CheckpointError("checkpoint " + path.string() + " belongs to job '" + c.job_id() +
                          "', not '" + job_id + "'");
  }
  if (c.first_block() < 0 || c.last_block() <= c.first_block() || c.optimizer_steps() < 0 ||
      c.moment_step() < 0) {
    throw CheckpointError(corrupt + "blocks [" + std::to_string(c.first_block()) + ", " +
                          std::to_string(c.last_block()) + ") or its step counts are impossible");
  }
  ShardSnapshot s;
  s.restored = true;
  s.first_block = c.first_block();
  s.last_block = c.last_block();
  s.optimizer_steps = c.optimizer_steps();
  s.plan_version = c.plan_version();
  s.values = as_floats(c.values(), "the parameters", path);
  s.state.moment_step = c.moment_step();
  for (const auto& b : c.state()) {
    auto v = as_floats(b.values(), "optimizer buffer '" + b.name() + "'", path);
    if (v.size() != s.values.size())
      throw CheckpointError(corrupt + "optimizer buffer '" + b.name() +
                            "' is not laid out like the parameters");
    s.state.buffers.emplace_back(b.name(), std::move(v));
  }
  const auto blocks = static_cast<std::size_t>(s.last_block - s.first_block);
  if (c.block_moment_steps_size() != 0) {
    if (static_cast<std::size_t>(c.block_moment_steps_size()) != blocks)
      throw CheckpointError(corrupt + "a moment step for each block is missing");
    for (const auto m : c.block_moment_steps()) {
      if (m < 0) throw CheckpointError(corrupt + "a negative moment step");
      s.block_moment_steps.push_back(m);
    }
  }
  return s;
}

}  // namespace rookery::pipeline
