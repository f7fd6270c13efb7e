#pragma once
// What this PC can compute: the device LibTorch would train on, its thread count, and its
// measured speed. In core/model because it asks LibTorch; core/device reads hardware only.
#include <cstdint>
#include <string>

namespace rookery::model {

struct ComputeDevice {
  bool cuda_available = false;
  int cuda_device_count = 0;
  std::string device;     // "cuda:0" or "cpu"
  std::string cuda_name;  // from LibTorch, when CUDA is available
};

ComputeDevice detect_compute_device();

// Sets LibTorch's intra-op thread count (the governor's "cores allowed").
void set_compute_threads(int threads);
int compute_threads();

struct MatmulResult {
  double gflops = 0;  // achieved rate
  double flops = 0;   // work done
  double seconds = 0;
  int rounds = 0;
};

// Multiplies n x n fp32 matrices on `device` for about `seconds` (at least one round) and
// reports the achieved rate: the device's measured FLOP/s.
MatmulResult measure_matmul(const std::string& device, int n = 1024, double seconds = 0.5);

}  // namespace rookery::model
