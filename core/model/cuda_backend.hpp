#pragma once
// The CUDA part of LibTorch, loaded only on a PC that has a GPU to train on.
//
// Every torch user links LibTorch's CPU part alone. Its CUDA part (libtorch_cuda, cuBLAS,
// cuDNN, ...: gigabytes, and a driver) sits behind a module of ours, librookery_cuda.so, that
// links it; loading the module registers CUDA with LibTorch, after which `torch::kCUDA` tensors,
// autocast and fused attention work through the ordinary API. A CPU-only PC never maps a byte of
// it. llama.cpp and Ollama load their GPU backends the same way.
//
// LibTorch decides once, on the first question about CUDA, whether it has CUDA: the module is
// loaded before that (detect_compute_device does it first).
#include <cstdint>
#include <optional>
#include <string>

namespace rookery::model {

struct CudaBackend {
  bool loaded = false;
  std::string module;  // the module's path, when found
  std::string why;     // why it is not loaded: no driver, not built, a missing library...
  int devices = 0;     // GPUs LibTorch sees through it
};

// Loads the module once (thread-safe) when an NVIDIA driver is installed, and returns what
// happened. Where to look: $ROOKERY_CUDA_BACKEND, beside the program, ../lib/rookery from it,
// and the build tree that produced this program.
const CudaBackend& load_cuda_backend();

// What the CUDA part reports of `device` (only with the backend loaded).
struct CudaDeviceInfo {
  std::string name;
  int major = 0;  // compute capability
  int minor = 0;
  std::uint64_t total_bytes = 0;
  std::uint64_t free_bytes = 0;
  bool bf16 = false;  // native bfloat16 arithmetic (compute capability 8.0 and newer)
};
std::optional<CudaDeviceInfo> cuda_device_info(int device);

// Caps what LibTorch may allocate on `device` (the governor's memory cap applied to the GPU).
// False, with a warning logged, when the backend is not loaded or refuses.
bool set_cuda_memory_fraction(int device, double fraction);

}  // namespace rookery::model
