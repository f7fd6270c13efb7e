#pragma once
// Mixed precision: which arithmetic a device trains in (job::Precision resolved against what the
// device has), and how a shard computes in it. Master weights, their gradients and the optimizer
// state stay fp32; so do activations at stage boundaries.
#include <optional>
#include <string>

#include <c10/core/DeviceType.h>
#include <c10/core/ScalarType.h>

#include "job/job_spec.hpp"

namespace rookery::model {

class Shard;

struct PrecisionPlan {
  std::optional<at::ScalarType> autocast;  // the arithmetic's dtype; none: fp32 throughout
  bool loss_scaling = false;               // fp16: gradients scaled against underflow
  std::string describe()
      const;  // "bf16, fp32 master weights", "fp16 autocast, loss scaling", "fp32"
};

// `device_has_bf16`: native bfloat16 arithmetic (a GPU of compute capability 8.0 or newer).
PrecisionPlan resolve_precision(job::Precision wanted, c10::DeviceType device,
                                bool device_has_bf16);

// How a shard whose weights are copies of fp32 master weights (a stage's weight versions, the
// device benchmark's shard) computes in `dtype`. bf16: on bf16 copies of the weights, so no
// weight is cast per op and activations, norms and element-wise kernels stay bf16 (a step of a
// 354M GPT is 1.15x faster than under autocast on an H200; tests/gpu/README.md). fp16: autocast
// over fp32 weights, since fp16's range needs norms and reductions in fp32.
void set_copy_precision(Shard& copy, std::optional<at::ScalarType> dtype);

// Autocast on `device` in `dtype` for the scope's lifetime (nothing when dtype is empty).
// Nests; restores what was set before. Thread-local, like autocast itself.
class AutocastScope {
 public:
  AutocastScope(c10::DeviceType device, std::optional<at::ScalarType> dtype);
  ~AutocastScope();
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

 private:
  bool active_ = false;
  c10::DeviceType device_ = c10::DeviceType::CPU;
  bool was_enabled_ = false;
  at::ScalarType previous_dtype_ = at::kFloat;
};

}  // namespace rookery::model
