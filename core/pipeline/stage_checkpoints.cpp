#include "pipeline/stage_checkpoints.hpp"

#include <filesystem>

#include <spdlog/spdlog.h>

#include "pipeline/checkpoint.hpp"
#include "pipeline/stage_optimizer.hpp"

namespace rookery::pipeline {

StageCheckpoints::StageCheckpoints(const StageConfig& config, bool first, const clock::Clock& clock)
    : config_(config), first_(first), clock_(clock), last_(clock.steady_now()) {}

bool StageCheckpoints::resume(StageOptimizer& optimizer, StageCounters& counters) {
  const auto& path = config_.checkpoint_path;
  if (path.empty() || !std::filesystem::exists(path)) return false;
  auto& opt = optimizer.optimizer();
  const auto c = load_checkpoint(path, optimizer.master(), opt, config_.job.id, config_.blocks);
  counters.update([&](StageStats& s) {
    s.backwards = c.micro_batches;
    s.samples = c.samples;
    s.optimizer_steps = opt.steps_taken();
    if (first_) s.next_sample = c.next_sample;
  });
  spdlog::info("resumed from checkpoint {}: {} optimizer steps, {} samples", path.string(),
               opt.steps_taken(), c.samples);
  return true;
}

void StageCheckpoints::save(const StageOptimizer& optimizer, StageCounters& counters) {
  if (config_.checkpoint_path.empty()) return;
  CheckpointCounters c;
  c.job_id = config_.job.id;
  c.pipeline = config_.pipeline;
  c.blocks = config_.blocks;
  counters.update([&](StageStats& s) {
    c.micro_batches = s.backwards;
    c.samples = s.samples;
    c.next_sample = s.next_sample;
  });
  save_checkpoint(config_.checkpoint_path, optimizer.master(), optimizer.optimizer(), c);
  spdlog::debug("checkpoint after {} steps; measured gradient delay {:.2f} steps",
                optimizer.steps(), optimizer.measured_delay());
  last_ = clock_.steady_now();
  counters.update([](StageStats& s) { ++s.checkpoints; });
}

void StageCheckpoints::maybe_save(const StageOptimizer& optimizer, StageCounters& counters) {
  if (config_.checkpoint_path.empty() || clock_.steady_now() - last_ <= config_.checkpoint_interval)
    return;
  try {
    save(optimizer, counters);
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    last_ = clock_.steady_now();  // try again after the next interval
  }
}

}  // namespace rookery::pipeline
