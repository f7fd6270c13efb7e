#pragma once
// What the node computes while contributing, one unit at a time. The node pauses, slows
// down and counts work only at unit boundaries, so a unit is short (well under a second).
#include <memory>
#include <string>

namespace rookery::node {

struct WorkUnitResult {
  double flops = 0;
  double seconds = 0;
  long samples = 0;
  double loss = -1;  // < 0: no loss for this unit
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string description() const = 0;
  virtual WorkUnitResult run_unit() = 0;
};

// Runs the device's matmul benchmark as the unit of work: real floating-point work on the
// device the node would train on, used until the node has a pipeline shard to train.
std::unique_ptr<Workload> make_matmul_workload(const std::string& device, int n = 768, double unit_seconds = 0.2);

}  // namespace rookery::node
