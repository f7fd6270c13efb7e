#include "model/mixed_precision.hpp"

#include <ATen/autocast_mode.h>

#include "model/block_chain.hpp"

namespace rookery::model {

std::string PrecisionPlan::describe() const {
  if (!autocast) return "fp32";
  std::string s = *autocast == at::kBFloat16 ? "bf16, fp32 master weights" : "fp16 autocast";
  if (loss_scaling) s += ", loss scaling";
  return s;
}

PrecisionPlan resolve_precision(job::Precision wanted, c10::DeviceType device,
                                bool device_has_bf16) {
  PrecisionPlan p;
  switch (wanted) {
    case job::Precision::fp32:
      return p;
    case job::Precision::bf16:
      p.autocast = at::kBFloat16;
      return p;
    case job::Precision::fp16:
      p.autocast = at::kHalf;
      p.loss_scaling = true;
      return p;
    case job::Precision::automatic:
      // A CPU without AMX-class units multiplies bf16 slower than fp32: fp32 there.
      if (device != c10::DeviceType::CUDA) return p;
      p.autocast = device_has_bf16 ? at::kBFloat16 : at::kHalf;
      p.loss_scaling = !device_has_bf16;
      return p;
  }
  return p;
}

void set_copy_precision(Shard& copy, std::optional<at::ScalarType> dtype) {
  if (dtype == at::kBFloat16) {
    copy.set_autocast(std::nullopt);
    copy.set_weight_dtype(at::kBFloat16);
  } else {
    copy.set_autocast(dtype);
  }
}

AutocastScope::AutocastScope(c10::DeviceType device, std::optional<at::ScalarType> dtype) {
  if (!dtype) return;
  active_ = true;
  device_ = device;
  was_enabled_ = at::autocast::is_autocast_enabled(device);
  previous_dtype_ = at::autocast::get_autocast_dtype(device);
  at::autocast::set_autocast_enabled(device, true);
  at::autocast::set_autocast_dtype(device, *dtype);
  at::autocast::increment_nesting();
}

AutocastScope::~AutocastScope() {
  if (!active_) return;
  // The outermost scope drops the casts autocast cached for this forward pass.
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
  at::autocast::set_autocast_enabled(device_, was_enabled_);
  at::autocast::set_autocast_dtype(device_, previous_dtype_);
}

}  // namespace rookery::model
