#pragma once
// Activation checkpointing: run a block without keeping its intermediate activations, and
// recompute them in the backward pass (as torch.utils.checkpoint's reentrant variant does).
// A stage then holds one tensor per block per micro-batch in flight instead of all of them.
#include <functional>
#include <optional>

#include <ATen/core/Tensor.h>
#include <c10/core/DeviceType.h>
#include <c10/core/ScalarType.h>

namespace rookery::model {

using BlockFunction = std::function<at::Tensor(const at::Tensor&)>;

// fn(x), whose activations are recomputed when the gradient arrives. The recomputation sees
// the same random numbers (dropout) and the same autocast as the first pass. Parameters that
// fn uses receive their gradients as with a plain call, also when x needs none (token ids).
// With grad mode off, it is just fn(x).
at::Tensor checkpointed(const BlockFunction& fn, const at::Tensor& x, c10::DeviceType device,
                        std::optional<at::ScalarType> autocast);

}  // namespace rookery::model
