#pragma once
// What this PC can compute: the device LibTorch would train on, its thread count, the math
// library behind it, and its measured speed. In core/model because it asks LibTorch;
// core/device reads hardware only.
#include <cstdint>
#include <optional>
#include <string>

#include "job/job_spec.hpp"

namespace rookery::model {

struct ComputeDevice {
  bool cuda_available = false;
  int cuda_device_count = 0;
  std::string device;     // "cuda:0" or "cpu"
  std::string cuda_name;  // the GPU's name, when CUDA is available
  std::uint64_t cuda_total_bytes = 0;
  std::uint64_t cuda_free_bytes = 0;
  bool cuda_bf16 = false;
  std::string no_cuda_why;  // why CUDA is not available, when it is not
};

// With `consider_cuda`, LibTorch's CUDA part is loaded first when there is a driver
// (cuda_backend.hpp); without it (`--device cpu`), nothing of CUDA is loaded.
ComputeDevice detect_compute_device(bool consider_cuda = true);

// The library that does `device`'s arithmetic, e.g. "Intel oneMKL 2024.2 (LibTorch 2.11.0)" or
// "cuBLAS and cuDNN on NVIDIA H100 (LibTorch 2.11.0, CUDA 13.0)".
std::string math_library(const std::string& device);

// Sets LibTorch's intra-op thread count (the governor's "cores allowed"); LibTorch passes it
// on to its BLAS (MKL) and oneDNN.
void set_compute_threads(int threads);
int compute_threads();

struct MatmulResult {
  double gflops = 0;  // achieved rate
  double flops = 0;   // work done
  double seconds = 0;
  int rounds = 0;
};

// Multiplies n x n fp32 matrices on `device` for about `seconds` (at least one round) and
// reports the achieved rate. The node's measure before it knows its job, and the matmul workload.
MatmulResult measure_matmul(const std::string& device, int n = 1024, double seconds = 0.5);

}  // namespace rookery::model
