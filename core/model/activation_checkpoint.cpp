#include "model/activation_checkpoint.hpp"

#include <torch/torch.h>
#include <ATen/core/ivalue.h>

#include "model/mixed_precision.hpp"

namespace rookery::model {
namespace {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// What the backward pass needs to run the block again: the function, its autocast, and the
// generator's state before the first pass.
struct Recompute : torch::CustomClassHolder {
  BlockFunction fn;
  c10::DeviceType device = c10::DeviceType::CPU;
  std::optional<at::ScalarType> autocast;
  at::Generator generator;
  Tensor generator_state;
};

at::Generator generator_for(const Tensor& x) {
  if (x.is_cuda()) return at::globalContext().defaultGenerator(x.device());
  return at::detail::getDefaultCPUGenerator();
}

struct CheckpointedBlock : torch::autograd::Function<CheckpointedBlock> {
  // `anchor` requires grad, so the backward pass reaches this node even when x does not.
  static Tensor forward(AutogradContext* ctx, const Tensor& x, const Tensor& anchor,
                        c10::intrusive_ptr<Recompute> r) {
    (void)anchor;
    {
      std::lock_guard lock(r->generator.mutex());
      r->generator_state = r->generator.get_state();
    }
    ctx->save_for_backward({x});
    ctx->saved_data["recompute"] = c10::IValue::make_capsule(r);
    AutocastScope autocast(r->device, r->autocast);
    return r->fn(x);  // grad mode is off inside a Function's forward: nothing is kept
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_out) {
    auto r = c10::static_intrusive_pointer_cast<Recompute>(
        ctx->saved_data["recompute"].toCapsule());
    const Tensor x = ctx->get_saved_variables()[0];
    Tensor input = x.detach();
    if (input.is_floating_point()) input.requires_grad_(true);
    // The same random numbers as the first pass (dropout), then the generator back where it
    // was. Not under the generator's lock: the block's own dropout takes it.
    Tensor now;
    {
      std::lock_guard lock(r->generator.mutex());
      now = r->generator.get_state();
      r->generator.set_state(r->generator_state);
    }
    Tensor output;
    {
      torch::AutoGradMode grad(true);
      AutocastScope autocast(r->device, r->autocast);
      output = r->fn(input);
    }
    {
      std::lock_guard lock(r->generator.mutex());
      r->generator.set_state(now);
    }
    // Accumulates the block's parameter gradients, and input's.
    torch::autograd::backward({output}, {grad_out[0]});
    return {input.requires_grad() ? input.grad() : Tensor(), Tensor(), Tensor()};
  }
};

}  // namespace

Tensor checkpointed(const BlockFunction& fn, const Tensor& x, c10::DeviceType device,
                    std::optional<at::ScalarType> autocast) {
  if (!torch::GradMode::is_enabled()) {
    AutocastScope scope(device, autocast);
    return fn(x);
  }
  auto r = c10::make_intrusive<Recompute>();
  r->fn = fn;
  r->device = device;
  r->autocast = autocast;
  r->generator = generator_for(x);
  static thread_local const Tensor anchor = torch::empty({0}).requires_grad_(true);
  return CheckpointedBlock::apply(x, anchor, r);
}

}  // namespace rookery::model
