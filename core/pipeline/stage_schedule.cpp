#include "pipeline/stage_schedule.hpp"

#include <algorithm>
#include <random>
#include <set>

namespace rookery::pipeline {

StageSchedule::StageSchedule(const StageConfig& config, bool first)
    : config_(config),
      first_(first),
      incarnation_(static_cast<std::uint64_t>(std::random_device{}()) << 32) {}

bool StageSchedule::can_feed() const {
  if (!first_ || draining_.load()) return false;
  if (config_.max_micro_batches > 0 && fed_ >= config_.max_micro_batches) return false;
  if (config_.flush_every > 0) {  // GPipe: a group of micro-batches, then a flush
    return fed_ % config_.flush_every != 0 || in_flight_.empty();
  }
  return static_cast<std::int64_t>(in_flight_.size()) < config_.job.staleness;
}

bool StageSchedule::can_forward() const {
  if (draining_.load()) return false;
  const auto limit = std::max<std::int64_t>(1, config_.job.staleness - config_.stages_before);
  return config_.flush_every > 0 || static_cast<std::int64_t>(in_flight_.size()) < limit;
}

std::uint64_t StageSchedule::feed() {
  ++fed_;
  return incarnation_ | micro_batch_counter_++;
}

bool StageSchedule::finished() const {
  return first_ && config_.max_micro_batches > 0 && fed_ >= config_.max_micro_batches &&
         in_flight_.empty();
}

std::vector<std::uint64_t> StageSchedule::expired(std::chrono::steady_clock::time_point now) const {
  std::vector<std::uint64_t> out;
  for (const auto& [mb, f] : in_flight_) {
    if (now - f.started > config_.micro_batch_timeout) out.push_back(mb);
  }
  return out;
}

std::int64_t StageSchedule::live_versions(const WeightVersion* current) const {
  std::set<const WeightVersion*> live{current};
  for (const auto& [id, f] : in_flight_) live.insert(f.version.get());
  return static_cast<std::int64_t>(live.size());
}

}  // namespace rookery::pipeline
