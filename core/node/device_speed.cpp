#include "node/device_speed.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <exception>

namespace rookery::node {

DeviceSpeed::DeviceSpeed(double benchmark_flops_per_s, bool on_job_blocks, DutyPercent duty,
                         MeasureJob measure)
    : benchmark_(benchmark_flops_per_s),
      on_job_blocks_(on_job_blocks),
      duty_(std::move(duty)),
      measure_(std::move(measure)) {}

double DeviceSpeed::offered_flops_per_s() const {
  const int duty = duty_ ? std::clamp(duty_(), 1, 100) : 100;
  return benchmark_.load() * duty / 100.0;
}

bool DeviceSpeed::measure_job(const job::JobSpec& job) {
  if (!wants_job()) return false;
  try {
    const double flops = measure_(job);
    if (!(flops > 0) || !std::isfinite(flops)) throw std::runtime_error("no speed measured");
    spdlog::info("first time in job {}: its blocks run at {:.1f} GFLOP/s here (the matmul "
                 "measured {:.1f}); offered from now on",
                 job.id, flops / 1e9, benchmark_.load() / 1e9);
    benchmark_ = flops;
    on_job_blocks_ = true;
    return true;
  } catch (const std::exception& e) {
    spdlog::warn("could not measure job {}'s blocks ({}): the coordinator keeps the matmul's "
                 "figure and learns the rest from the work",
                 job.id, e.what());
    gave_up_ = true;
    return false;
  }
}

}  // namespace rookery::node
