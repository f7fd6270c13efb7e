#pragma once

// AdamW's update as one multi-tensor kernel per parameter group (aten::_fused_adamw_, the
// kernel behind PyTorch's `AdamW(fused=True)`), instead of torch::optim::AdamW's loop of about
// eight kernels per parameter. On a GPU the loop is bound by kernel launches: a 354M-parameter
// GPT's ~340 tensors cost ~2,700 launches a step. The arithmetic is torch::optim::AdamW's
// (decoupled weight decay, bias-corrected moments, eps outside the square root), and the
// moments live in the same torch::optim::AdamWParamState, so checkpoints, averaging and
// hand-over see no difference.

namespace torch::optim {
class AdamW;
}

namespace rookery::model {

/// One AdamW step of `optimizer` through the fused kernel: every parameter with a gradient
/// gets state (zero moments) if it has none, its step count advances by one, and its group's
/// learning rate, betas, eps and weight decay apply. Parameters without a gradient are left
/// alone, as torch::optim::AdamW leaves them. Throws std::invalid_argument for AMSGrad (the
/// jobs never ask for it) or a group that mixes devices or dtypes.
void fused_adamw_step(torch::optim::AdamW& optimizer);

/// Whether step() uses fused_adamw_step for parameters on `device_type`: CUDA. On the CPU the
/// per-parameter loop is not the bottleneck, and keeping it keeps CPU results bit-for-bit.
bool fuses_adamw_on(int device_type);

}  // namespace rookery::model
