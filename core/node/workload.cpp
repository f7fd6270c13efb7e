#include "node/workload.hpp"

#include <mutex>

#include "model/compute_device.hpp"

namespace rookery::node {

namespace {
class MatmulWorkload final : public Workload {
 public:
  MatmulWorkload(std::string device, int n, double unit_seconds)
      : device_(std::move(device)), n_(n), unit_seconds_(unit_seconds) {}

  std::string description() const override {
    return "benchmark: " + std::to_string(n_) + "x" + std::to_string(n_) + " matrix products on " +
           device_;
  }

  WorkUnitResult run_unit() override {
    const auto r = model::measure_matmul(device_, n_, unit_seconds_);
    std::lock_guard lock(mutex_);
    counters_.flops += r.flops;
    counters_.busy_seconds += r.seconds;
    return {};
  }

  WorkCounters counters() const override {
    std::lock_guard lock(mutex_);
    return counters_;
  }

 private:
  std::string device_;
  int n_;
  double unit_seconds_;
  mutable std::mutex mutex_;  // the worker counts, the node reads
  WorkCounters counters_;
};
}  // namespace

std::unique_ptr<Workload> make_matmul_workload(const std::string& device, int n,
                                               double unit_seconds) {
  return std::make_unique<MatmulWorkload>(device, n, unit_seconds);
}

}  // namespace rookery::node
