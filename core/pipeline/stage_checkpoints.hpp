#pragma once
// StageCheckpoints: when a stage writes its checkpoint (every checkpoint_interval, and on
// demand) and how it resumes from one. The file format is checkpoint.hpp's. Compute thread.
#include <chrono>

#include "clock/clock.hpp"
#include "pipeline/stage_counters.hpp"
#include "pipeline/stage_runtime.hpp"

namespace rookery::pipeline {

class StageOptimizer;

class StageCheckpoints {
 public:
  StageCheckpoints(const StageConfig& config, bool first,
                   const clock::Clock& clock = clock::SystemClock::instance());

  // Loads config.checkpoint_path into the master weights, the optimizer and the counters,
  // if there is one. Throws CheckpointError for a corrupt one (never trains from it).
  // True when it resumed from a checkpoint.
  bool resume(StageOptimizer& optimizer, StageCounters& counters);
  // Writes a checkpoint now (no-op without a checkpoint path). Throws CheckpointError.
  void save(const StageOptimizer& optimizer, StageCounters& counters);
  // Writes one when the interval has passed; a failed write is logged and tried again after
  // the next interval.
  void maybe_save(const StageOptimizer& optimizer, StageCounters& counters);

 private:
  const StageConfig& config_;
  bool first_;
  const clock::Clock& clock_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace rookery::pipeline
