#include "model/fused_adamw.hpp"

#include <torch/torch.h>

#include <stdexcept>
#include <vector>

namespace rookery::model {

bool fuses_adamw_on(int device_type) {
  return static_cast<c10::DeviceType>(device_type) == c10::DeviceType::CUDA;
}

void fused_adamw_step(torch::optim::AdamW& optimizer) {
  torch::NoGradGuard no_grad;
  auto& state = optimizer.state();
  for (auto& group : optimizer.param_groups()) {
    const auto& options = static_cast<const torch::optim::AdamWOptions&>(group.options());
    if (options.amsgrad()) throw std::invalid_argument("fused AdamW: AMSGrad is not supported");
    std::vector<at::Tensor> params, grads, exp_avgs, exp_avg_sqs;
    std::vector<double> steps;
    std::vector<torch::optim::AdamWParamState*> states;
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      if (!params.empty() && (p.device() != params.front().device() ||
                              p.scalar_type() != params.front().scalar_type())) {
        throw std::invalid_argument("fused AdamW: a parameter group mixes devices or dtypes");
      }
      auto key = p.unsafeGetTensorImpl();
      auto it = state.find(key);
      if (it == state.end()) {
        auto s = std::make_unique<torch::optim::AdamWParamState>();
        s->step(0);
        s->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        s->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        it = state.emplace(key, std::move(s)).first;
      }
      auto& s = static_cast<torch::optim::AdamWParamState&>(*it->second);
      params.push_back(p);
      grads.push_back(p.grad());
      exp_avgs.push_back(s.exp_avg());
      exp_avg_sqs.push_back(s.exp_avg_sq());
      steps.push_back(static_cast<double>(s.step() + 1));
      states.push_back(&s);
    }
    if (params.empty()) continue;
    // The kernel reads each parameter's step (for bias correction) from a tensor on the
    // parameters' device: one small copy carries them all, viewed per parameter.
    const auto step_tensor =
        torch::tensor(steps, torch::kFloat32).to(params.front().device(), /*non_blocking=*/false);
    const auto step_views = step_tensor.unbind(0);
    const auto [beta1, beta2] = options.betas();
    at::_fused_adamw_(params, grads, exp_avgs, exp_avg_sqs, /*max_exp_avg_sqs=*/{}, step_views,
                      options.lr(), beta1, beta2, options.weight_decay(), options.eps(),
                      /*amsgrad=*/false, /*maximize=*/false);
    for (auto* s : states) s->step(s->step() + 1);
  }
}

}  // namespace rookery::model
