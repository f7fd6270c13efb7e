#pragma once
// The speed a volunteer offers its coordinator: the device's benchmark times the governor's
// duty cycle. The benchmark is the job's own blocks on the device that runs them
// (model/block_benchmark) whenever the job is known. A node that joins a job for the first time
// does not know it at start-up and measures a matmul; it measures the job's blocks as soon as
// its join brought the job, before its first stage, and its heartbeats carry the new figure
// from then on (the coordinator re-plans when it moved by more than a quarter).
#include <atomic>
#include <functional>
#include <string>

#include "job/job_spec.hpp"

namespace rookery::node {

class DeviceSpeed {
 public:
  using DutyPercent = std::function<int()>;  // the governor's CPU-time share now, 1..100
  using MeasureJob = std::function<double(const job::JobSpec&)>;  // FLOP/s; throws on failure

  // `benchmark_flops_per_s` was measured on the job's blocks when `on_job_blocks`, else on a
  // matmul, which measure_job() replaces once.
  DeviceSpeed(double benchmark_flops_per_s, bool on_job_blocks, DutyPercent duty,
              MeasureJob measure);

  /// The benchmark itself, before the duty cycle. Any thread.
  double benchmark_flops_per_s() const { return benchmark_.load(); }
  /// What the owner lets Rookery use now: benchmark x duty cycle. Any thread.
  double offered_flops_per_s() const;
  bool on_job_blocks() const { return on_job_blocks_.load(); }

  /// The worker's thread, once the job is known: measures its blocks unless the benchmark
  /// already was on them. A failure (the device runs out of memory, say) keeps the matmul's
  /// figure and is not retried. Returns whether the figure changed.
  bool measure_job(const job::JobSpec& job);
  /// Whether measure_job() still has something to do (cheap; the worker asks every unit).
  bool wants_job() const { return !on_job_blocks_.load() && !gave_up_.load() && measure_; }
  /// Stops wanting the job (it cannot be read): the matmul's figure stays.
  void give_up() { gave_up_ = true; }

 private:
  std::atomic<double> benchmark_;
  std::atomic<bool> on_job_blocks_;
  std::atomic<bool> gave_up_{false};
  DutyPercent duty_;
  MeasureJob measure_;
};

}  // namespace rookery::node
