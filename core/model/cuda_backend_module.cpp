// librookery_cuda.so: the one object that links LibTorch's CUDA part. Loading it runs
// libtorch_cuda's registrations (CUDA hooks, kernels, allocator), so the CPU-only rest of
// Rookery then trains on `cuda:N` through the ordinary LibTorch API. Its C functions answer what
// the CPU part cannot ask without CUDA headers: device properties and free memory.
#include <ATen/Context.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <exception>

#include "model/cuda_backend_abi.h"

namespace {
void say(char* why, size_t n, const char* text) {
  if (why && n > 0) std::snprintf(why, n, "%s", text);
}
}  // namespace

extern "C" {

__attribute__((visibility("default"))) int rookery_cuda_abi_version(void) {
  return ROOKERY_CUDA_ABI_VERSION;
}

__attribute__((visibility("default"))) int rookery_cuda_device_count(char* why, size_t why_size) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    say(why, why_size, cudaGetErrorString(err));
    return 0;
  }
  try {
    // The same count through LibTorch's CUDA part: it answers only when its registration ran.
    const int torch_count = static_cast<int>(c10::cuda::device_count());
    if (torch_count != count) {
      say(why, why_size, "LibTorch's CUDA part does not see the runtime's devices");
      return 0;
    }
  } catch (const std::exception& e) {
    say(why, why_size, e.what());
    return 0;
  }
  if (count == 0) say(why, why_size, "the CUDA runtime sees no GPU");
  return count;
}

__attribute__((visibility("default"))) int rookery_cuda_device_info(int device,
                                                                    rookery_cuda_device* out,
                                                                    char* why, size_t why_size) {
  if (!out) return -1;
  std::memset(out, 0, sizeof(*out));
  cudaDeviceProp prop{};
  cudaError_t err = cudaGetDeviceProperties(&prop, device);
  if (err != cudaSuccess) {
    say(why, why_size, cudaGetErrorString(err));
    return -1;
  }
  std::snprintf(out->name, sizeof(out->name), "%s", prop.name);
  out->major = prop.major;
  out->minor = prop.minor;
  out->total_bytes = prop.totalGlobalMem;
  out->bf16 = prop.major >= 8 ? 1 : 0;
  int previous = 0;
  cudaGetDevice(&previous);
  err = cudaSetDevice(device);
  size_t free_bytes = 0, total_bytes = 0;
  if (err == cudaSuccess) err = cudaMemGetInfo(&free_bytes, &total_bytes);
  cudaSetDevice(previous);
  if (err != cudaSuccess) {
    say(why, why_size, cudaGetErrorString(err));
    return -1;
  }
  out->free_bytes = free_bytes;
  return 0;
}

__attribute__((visibility("default"))) int rookery_cuda_set_memory_fraction(int device,
                                                                            double fraction,
                                                                            char* why,
                                                                            size_t why_size) {
  if (!(fraction > 0 && fraction <= 1)) {
    say(why, why_size, "the memory fraction must be in (0, 1]");
    return -1;
  }
  try {
    // The caching allocator is made on LibTorch's first CUDA use; until then it has no device
    // to cap ("Allocator not initialized for device"). Python's
    // torch.cuda.set_per_process_memory_fraction initialises it the same way first.
    at::globalContext().lazyInitDevice(at::kCUDA);
    c10::cuda::CUDACachingAllocator::setMemoryFraction(fraction,
                                                       static_cast<c10::DeviceIndex>(device));
  } catch (const std::exception& e) {
    say(why, why_size, e.what());
    return -1;
  }
  return 0;
}

}  // extern "C"
