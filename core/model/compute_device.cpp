#include <torch/torch.h>

#include "model/compute_device.hpp"

#include <chrono>
#include <regex>

#include <torch/version.h>

#include "model/cuda_backend.hpp"

namespace rookery::model {

ComputeDevice detect_compute_device(bool consider_cuda) {
  ComputeDevice d;
  d.device = "cpu";
  if (!consider_cuda) {
    d.no_cuda_why = "the CPU was chosen";
    return d;
  }
  const auto& backend = load_cuda_backend();  // before LibTorch is first asked about CUDA
  d.cuda_available = backend.loaded && backend.devices > 0 && torch::cuda::is_available();
  if (!d.cuda_available) {
    d.no_cuda_why = backend.why.empty() ? "LibTorch sees no GPU" : backend.why;
    return d;
  }
  d.cuda_device_count = static_cast<int>(torch::cuda::device_count());
  d.device = "cuda:0";
  if (const auto info = cuda_device_info(0)) {
    d.cuda_name = info->name;
    d.cuda_total_bytes = info->total_bytes;
    d.cuda_free_bytes = info->free_bytes;
    d.cuda_bf16 = info->bf16;
  }
  return d;
}

std::string math_library(const std::string& device) {
  const std::string torch_version = TORCH_VERSION;
  if (device.rfind("cuda", 0) == 0) {
    const torch::Device dev(device);
    const auto info = cuda_device_info(dev.has_index() ? dev.index() : 0);
    return "cuBLAS and cuDNN" + (info ? " on " + info->name : std::string()) + " (LibTorch " +
           torch_version + ")";
  }
  // LibTorch's build configuration names the BLAS it was built with (MKL, statically inside
  // PyTorch's x86 builds), e.g. "Intel(R) oneAPI Math Kernel Library Version 2024.2-Product...".
  const std::string config = at::show_config();
  std::smatch m;
  if (std::regex_search(config, m, std::regex(R"(Math Kernel Library Version ([0-9.]+))")))
    return "Intel oneMKL " + m[1].str() + " (LibTorch " + torch_version + ")";
  if (std::regex_search(config, m, std::regex(R"(BLAS_INFO=([A-Za-z0-9_]+))")))
    return m[1].str() + " (LibTorch " + torch_version + ")";
  return "LibTorch " + torch_version + "'s own kernels";
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
