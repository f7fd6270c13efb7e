#include <torch/torch.h>

#include "model/compute_device.hpp"

#include <chrono>

namespace rookery::model {

ComputeDevice detect_compute_device() {
  ComputeDevice d;
  d.cuda_available = torch::cuda::is_available();
  d.cuda_device_count = d.cuda_available ? static_cast<int>(torch::cuda::device_count()) : 0;
  d.device = d.cuda_available ? "cuda:0" : "cpu";
  return d;
}

void set_compute_threads(int threads) { at::set_num_threads(std::max(1, threads)); }

int compute_threads() { return at::get_num_threads(); }

MatmulResult measure_matmul(const std::string& device, int n, double seconds) {
  torch::NoGradGuard no_grad;
  const torch::Device dev(device);
  auto opts = torch::TensorOptions().dtype(torch::kFloat32).device(dev);
  auto a = torch::randn({n, n}, opts);
  auto b = torch::randn({n, n}, opts);
  auto c = torch::matmul(a, b);  // warm-up: first call allocates and picks kernels
  if (dev.is_cuda()) torch::cuda::synchronize();
  MatmulResult r;
  const double per_round = 2.0 * n * static_cast<double>(n) * n;
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  do {
    c = torch::matmul(a, b);
    if (dev.is_cuda()) torch::cuda::synchronize();
    ++r.rounds;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } while (elapsed < seconds);
  (void)c.sum().item<float>();
  r.seconds = elapsed;
  r.flops = per_round * r.rounds;
  r.gflops = r.flops / elapsed / 1e9;
  return r;
}

}  // namespace rookery::model
