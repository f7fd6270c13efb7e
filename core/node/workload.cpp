#include "node/workload.hpp"

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
    WorkUnitResult out;
    out.flops = r.flops;
    out.seconds = r.seconds;
    return out;
  }

 private:
  std::string device_;
  int n_;
  double unit_seconds_;
};
}  // namespace

std::unique_ptr<Workload> make_matmul_workload(const std::string& device, int n,
                                               double unit_seconds) {
  return std::make_unique<MatmulWorkload>(device, n, unit_seconds);
}

}  // namespace rookery::node
