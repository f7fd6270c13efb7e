#pragma once
// StageCounters: a stage's StageStats, shared by its threads (the receiver counts what it
// refuses, the compute thread its work, anyone may read them).
#include <mutex>

#include "pipeline/stage_runtime.hpp"

namespace rookery::pipeline {

class StageCounters {
 public:
  template <typename Update>
  void update(Update&& update) {
    std::lock_guard lock(mutex_);
    update(stats_);
  }
  StageStats snapshot() const {
    std::lock_guard lock(mutex_);
    return stats_;
  }

 private:
  mutable std::mutex mutex_;
  StageStats stats_;
};

}  // namespace rookery::pipeline
