#include <torch/torch.h>

#include "pipeline/checkpoint.hpp"

#include <chrono>
#include <sstream>
#include <string_view>

#include "rookery/checkpoint.pb.h"

namespace rookery::pipeline {

namespace {
constexpr std::string_view kMagic = "RKCKPT01";
constexpr std::uint32_t kFormat = 1;

std::string serialize_parameters(const model::Shard& shard) {
  torch::serialize::OutputArchive archive;
  for (const auto& p : shard.parameters()) archive.write(p.name, p.tensor.detach().to(torch::kCPU));
  std::ostringstream out;
  archive.save_to(out);
  return out.str();
}

wire::pb::StageCheckpoint read_verified(const std::filesystem::path& path) {
  const std::string content = read_checkpoint_file(path, kMagic);
  wire::pb::StageCheckpoint ckpt;
  if (!ckpt.ParseFromString(content))
    throw CheckpointError("checkpoint " + path.string() + " is corrupt: content does not parse");
  if (ckpt.format() != kFormat) {
    throw CheckpointError("checkpoint " + path.string() + " is corrupt: unknown format " +
                          std::to_string(ckpt.format()));
  }
  return ckpt;
}

std::vector<model::NamedTensor> parse_parameters(const std::string& bytes,
                                                 const std::vector<std::string>& names,
                                                 const std::filesystem::path& path) {
  std::vector<model::NamedTensor> out;
  try {
    std::istringstream in(bytes);
    torch::serialize::InputArchive archive;
    archive.load_from(in);
    for (const auto& n : names) {
      torch::Tensor t;
      archive.read(n, t);
      out.push_back({n, t});
    }
  } catch (const c10::Error& e) {
    throw CheckpointError("checkpoint " + path.string() + ": parameters do not fit this shard (" +
                          e.what_without_backtrace() + ")");
  }
  return out;
}
}  // namespace

void save_checkpoint(const std::filesystem::path& path, const model::Shard& shard,
                     const model::Optimizer& optimizer, const CheckpointCounters& c) {
  wire::pb::StageCheckpoint ckpt;
  ckpt.set_format(kFormat);
  ckpt.set_job_id(c.job_id);
  ckpt.set_pipeline(c.pipeline);
  ckpt.set_first_block(c.blocks.first);
  ckpt.set_last_block(c.blocks.last);
  ckpt.set_optimizer_steps(optimizer.steps_taken());
  ckpt.set_micro_batches(c.micro_batches);
  ckpt.set_samples(c.samples);
  ckpt.set_next_sample(c.next_sample);
  ckpt.set_unix_ms(std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count());
  ckpt.set_parameters(serialize_parameters(shard));
  ckpt.set_optimizer_state(optimizer.save_state());
  write_checkpoint_file(path, kMagic, ckpt.SerializeAsString());
}

CheckpointCounters load_checkpoint(const std::filesystem::path& path, model::Shard& shard,
                                   model::Optimizer& optimizer, const std::string& expected_job,
                                   model::BlockRange expected_blocks) {
  const auto ckpt = read_verified(path);
  if (ckpt.job_id() != expected_job) {
    throw CheckpointError("checkpoint " + path.string() + " belongs to job '" + ckpt.job_id() +
                          "', not '" + expected_job + "'");
  }
  if (ckpt.first_block() != expected_blocks.first || ckpt.last_block() != expected_blocks.last) {
    throw CheckpointError(
        "checkpoint " + path.string() + " holds blocks [" + std::to_string(ckpt.first_block()) +
        ", " + std::to_string(ckpt.last_block()) + "), this stage holds [" +
        std::to_string(expected_blocks.first) + ", " + std::to_string(expected_blocks.last) + ")");
  }
  auto live = shard.parameters();
  std::vector<std::string> names;
  for (const auto& p : live) names.push_back(p.name);
  auto loaded = parse_parameters(ckpt.parameters(), names, path);
  for (std::size_t i = 0; i < live.size(); ++i) {
    if (!loaded[i].tensor.sizes().equals(live[i].tensor.sizes())) {
      throw CheckpointError("checkpoint " + path.string() + ": parameter " + names[i] +
                            " has the wrong shape");
    }
  }
  // Everything verified: now change state.
  {
    torch::NoGradGuard no_grad;
    for (std::size_t i = 0; i < live.size(); ++i) live[i].tensor.copy_(loaded[i].tensor);
  }
  optimizer.load_state(ckpt.optimizer_state());
  optimizer.set_steps_taken(ckpt.optimizer_steps());
  CheckpointCounters c;
  c.job_id = ckpt.job_id();
  c.pipeline = ckpt.pipeline();
  c.blocks = {ckpt.first_block(), ckpt.last_block()};
  c.micro_batches = ckpt.micro_batches();
  c.samples = ckpt.samples();
  c.next_sample = ckpt.next_sample();
  return c;
}

std::vector<model::NamedTensor> read_checkpoint_parameters(const std::filesystem::path& path,
                                                           CheckpointCounters* counters) {
  const auto ckpt = read_verified(path);
  std::istringstream in(ckpt.parameters());
  torch::serialize::InputArchive archive;
  std::vector<model::NamedTensor> out;
  try {
    archive.load_from(in);
    for (const auto& key : archive.keys()) {
      torch::Tensor t;
      archive.read(key, t);
      out.push_back({key, t});
    }
  } catch (const c10::Error& e) {
    throw CheckpointError("checkpoint " + path.string() + ": " + e.what_without_backtrace());
  }
  if (counters) {
    counters->job_id = ckpt.job_id();
    counters->pipeline = ckpt.pipeline();
    counters->blocks = {ckpt.first_block(), ckpt.last_block()};
    counters->micro_batches = ckpt.micro_batches();
    counters->samples = ckpt.samples();
    counters->next_sample = ckpt.next_sample();
  }
  return out;
}

}  // namespace rookery::pipeline
