#pragma once
// The C interface between rookery_model (which loads it) and librookery_cuda.so: plain C so
// that nothing of LibTorch's CUDA part leaks into a CPU-only program's symbols.
#include <stddef.h>
#include <stdint.h>

#define ROOKERY_CUDA_ABI_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rookery_cuda_device {
  char name[256];
  int major;
  int minor;
  uint64_t total_bytes;
  uint64_t free_bytes;
  int bf16;
} rookery_cuda_device;

// ROOKERY_CUDA_ABI_VERSION of the module.
int rookery_cuda_abi_version(void);
// The number of GPUs the CUDA runtime sees (0 with `why` filled when none, or on an error).
int rookery_cuda_device_count(char* why, size_t why_size);
// 0 on success; otherwise `why` says what failed.
int rookery_cuda_device_info(int device, rookery_cuda_device* out, char* why, size_t why_size);
// Caps LibTorch's caching allocator on `device` at `fraction` of its memory: beyond it an
// allocation fails as out-of-memory instead of taking more. 0 on success.
int rookery_cuda_set_memory_fraction(int device, double fraction, char* why, size_t why_size);

#ifdef __cplusplus
}
#endif
