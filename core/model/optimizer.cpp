#include "model/optimizer.hpp"

#include "model/fused_adamw.hpp"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "job/optimizer_buffers.hpp"

namespace rookery::model {

struct Optimizer::Impl {
  job::OptimizerSpec spec;
  std::unique_ptr<torch::optim::Optimizer> torch_optimizer;
  int64_t steps = 0;
  std::vector<torch::Tensor> params;  // in the order make_optimizer got them: the flat layout
  std::vector<int64_t> offsets;       // offsets[i]: flat offset of params[i]; back(): the total
};

namespace {

enum class StateBuffer { exp_avg, exp_avg_sq, momentum };

// The key torch's optimizers file a parameter's state under (torch/csrc/api/src/optim/*.cpp).
void* state_key(const torch::Tensor& p) { return p.unsafeGetTensorImpl(); }

StateBuffer parse_buffer(const job::OptimizerSpec& spec, std::string_view name) {
  if (spec.kind == job::OptimizerKind::adamw) {
    if (name == "adamw.exp_avg") return StateBuffer::exp_avg;
    if (name == "adamw.exp_avg_sq") return StateBuffer::exp_avg_sq;
  } else if (spec.momentum > 0 && name == "sgd.momentum") {
    return StateBuffer::momentum;
  }
  throw std::invalid_argument("this " + std::string(job::to_string(spec.kind)) +
                              " optimizer keeps no state buffer '" + std::string(name) + "'");
}

// Index range [first, last) of the parameters covering flat values [offset, offset + count).
std::pair<size_t, size_t> parameter_span(const std::vector<int64_t>& offsets, int64_t offset,
                                         int64_t count) {
  if (offset < 0 || count < 0 || offset + count > offsets.back()) {
    throw std::invalid_argument("optimizer state: values [" + std::to_string(offset) + ", " +
                                std::to_string(offset + count) + ") lie outside the " +
                                std::to_string(offsets.back()) + " parameters");
  }
  const auto a = std::find(offsets.begin(), offsets.end(), offset);
  const auto b = std::find(offsets.begin(), offsets.end(), offset + count);
  if (a == offsets.end() || b == offsets.end()) {
    throw std::invalid_argument("optimizer state: values [" + std::to_string(offset) + ", " +
                                std::to_string(offset + count) +
                                ") do not start and end on parameter boundaries");
  }
  return {static_cast<size_t>(a - offsets.begin()), static_cast<size_t>(b - offsets.begin())};
}

}  // namespace

Optimizer::Optimizer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Optimizer::Optimizer(Optimizer&&) noexcept = default;
Optimizer& Optimizer::operator=(Optimizer&&) noexcept = default;
Optimizer::~Optimizer() = default;

void Optimizer::zero_grad() { impl_->torch_optimizer->zero_grad(); }

double Optimizer::step() {
  const double lr = next_learning_rate();
  for (auto& group : impl_->torch_optimizer->param_groups()) group.options().set_lr(lr);
  if (impl_->spec.kind == job::OptimizerKind::adamw &&
      fuses_adamw_on(static_cast<int>(impl_->params.front().device().type()))) {
    fused_adamw_step(static_cast<torch::optim::AdamW&>(*impl_->torch_optimizer));
  } else {
    impl_->torch_optimizer->step();
  }
  ++impl_->steps;
  return lr;
}

int64_t Optimizer::steps_taken() const { return impl_->steps; }

void Optimizer::set_steps_taken(int64_t steps) {
  if (steps < 0) throw std::invalid_argument("Optimizer::set_steps_taken: negative step count");
  impl_->steps = steps;
}

std::string Optimizer::save_state() const {
  torch::serialize::OutputArchive archive;
  impl_->torch_optimizer->save(archive);
  std::ostringstream out;
  archive.save_to(out);
  return out.str();
}

void Optimizer::load_state(const std::string& bytes) {
  try {
    std::istringstream in(bytes);
    torch::serialize::InputArchive archive;
    archive.load_from(in);
    impl_->torch_optimizer->load(archive);
  } catch (const c10::Error& e) {
    throw std::runtime_error(std::string("optimizer state does not fit this optimizer: ") +
                             e.what_without_backtrace());
  }
}

std::vector<std::string> Optimizer::state_buffer_names() const {
  return job::optimizer_state_buffers(impl_->spec);
}

int64_t Optimizer::parameter_count() const { return impl_->offsets.back(); }

std::vector<float> Optimizer::state_buffer(std::string_view name) const {
  const auto which = parse_buffer(impl_->spec, name);
  std::vector<float> out(static_cast<size_t>(impl_->offsets.back()), 0.0f);
  torch::NoGradGuard no_grad;
  const auto& state = impl_->torch_optimizer->state();
  for (size_t i = 0; i < impl_->params.size(); ++i) {
    const auto it = state.find(state_key(impl_->params[i]));
    if (it == state.end()) continue;  // not stepped yet: zeros, as torch would start it
    torch::Tensor t;
    if (which == StateBuffer::momentum) {
      t = static_cast<const torch::optim::SGDParamState&>(*it->second).momentum_buffer();
    } else {
      const auto& s = static_cast<const torch::optim::AdamWParamState&>(*it->second);
      t = which == StateBuffer::exp_avg ? s.exp_avg() : s.exp_avg_sq();
    }
    if (!t.defined()) continue;
    const auto cpu = t.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    std::memcpy(out.data() + impl_->offsets[i], cpu.data_ptr<float>(),
                static_cast<size_t>(cpu.numel()) * sizeof(float));
  }
  return out;
}

void Optimizer::write_state_buffer(std::string_view name, int64_t offset,
                                   std::span<const float> values, int64_t moment_step) {
  const auto which = parse_buffer(impl_->spec, name);
  const auto [first, last] =
      parameter_span(impl_->offsets, offset, static_cast<int64_t>(values.size()));
  if (moment_step < 0) throw std::invalid_argument("optimizer state: negative moment step");
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      throw std::invalid_argument("optimizer state '" + std::string(name) + "': value " +
                                  std::to_string(i) + " is not finite");
    }
    if (which == StateBuffer::exp_avg_sq && values[i] < 0) {
      throw std::invalid_argument("optimizer state '" + std::string(name) + "': value " +
                                  std::to_string(i) + " is negative (" + std::to_string(values[i]) +
                                  "), a second moment cannot be");
    }
  }
  torch::NoGradGuard no_grad;
  auto& state = impl_->torch_optimizer->state();
  for (size_t i = first; i < last; ++i) {
    const auto& p = impl_->params[i];
    const auto key = state_key(p);
    auto it = state.find(key);
    if (it == state.end()) {
      if (which == StateBuffer::momentum) {
        auto s = std::make_unique<torch::optim::SGDParamState>();
        s->momentum_buffer(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        it = state.emplace(key, std::move(s)).first;
      } else {
        auto s = std::make_unique<torch::optim::AdamWParamState>();
        s->step(moment_step);
        s->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        s->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        it = state.emplace(key, std::move(s)).first;
      }
    }
    torch::Tensor target;
    if (which == StateBuffer::momentum) {
      auto& s = static_cast<torch::optim::SGDParamState&>(*it->second);
      if (!s.momentum_buffer().defined())
        s.momentum_buffer(torch::zeros_like(p, torch::MemoryFormat::Preserve));
      target = s.momentum_buffer();
    } else {
      auto& s = static_cast<torch::optim::AdamWParamState&>(*it->second);
      target = which == StateBuffer::exp_avg ? s.exp_avg() : s.exp_avg_sq();
    }
    const auto n = impl_->offsets[i + 1] - impl_->offsets[i];
    auto src = torch::from_blob(const_cast<float*>(values.data() + (impl_->offsets[i] - offset)),
                                {n}, torch::kFloat32);
    target.copy_(src.view(target.sizes()));
  }
}

void Optimizer::reset_state(int64_t offset, int64_t count) {
  const auto [first, last] = parameter_span(impl_->offsets, offset, count);
  auto& state = impl_->torch_optimizer->state();
  for (size_t i = first; i < last; ++i) state.erase(state_key(impl_->params[i]));
}

int64_t Optimizer::moment_step() const {
  if (impl_->spec.kind != job::OptimizerKind::adamw) return 0;
  int64_t step = 0;
  for (const auto& [key, s] : impl_->torch_optimizer->state()) {
    step = std::max(step, static_cast<const torch::optim::AdamWParamState&>(*s).step());
  }
  return step;
}

int64_t Optimizer::moment_step(int64_t offset, int64_t count) const {
  if (impl_->spec.kind != job::OptimizerKind::adamw) return 0;
  const auto [first, last] = parameter_span(impl_->offsets, offset, count);
  const auto& state = impl_->torch_optimizer->state();
  int64_t step = 0;
  for (size_t i = first; i < last; ++i) {
    const auto it = state.find(state_key(impl_->params[i]));
    if (it == state.end()) continue;
    step = std::max(step, static_cast<const torch::optim::AdamWParamState&>(*it->second).step());
  }
  return step;
}

double Optimizer::next_learning_rate() const {
  return job::learning_rate_at(impl_->spec, impl_->steps);
}

Optimizer make_optimizer(const job::OptimizerSpec& spec,
                         const std::vector<NamedTensor>& parameters) {
  if (parameters.empty()) throw std::invalid_argument("make_optimizer: no parameters");
  std::vector<torch::Tensor> decayed, plain;
  for (const auto& p : parameters) (p.tensor.dim() >= 2 ? decayed : plain).push_back(p.tensor);

  auto impl = std::make_unique<Optimizer::Impl>();
  impl->spec = spec;
  impl->offsets.push_back(0);
  for (const auto& p : parameters) {
    impl->params.push_back(p.tensor);
    impl->offsets.push_back(impl->offsets.back() + p.tensor.numel());
  }
  const double lr = job::learning_rate_at(spec, 0);
  if (spec.kind == job::OptimizerKind::adamw) {
    auto options = [&](double weight_decay) {
      return std::make_unique<torch::optim::AdamWOptions>(torch::optim::AdamWOptions(lr)
                                                              .betas({spec.betas[0], spec.betas[1]})
                                                              .eps(spec.eps)
                                                              .weight_decay(weight_decay));
    };
    std::vector<torch::optim::OptimizerParamGroup> groups;
    if (!decayed.empty()) groups.emplace_back(decayed, options(spec.weight_decay));
    if (!plain.empty()) groups.emplace_back(plain, options(0.0));
    impl->torch_optimizer = std::make_unique<torch::optim::AdamW>(std::move(groups), *options(0.0));
  } else {
    auto options = [&](double weight_decay) {
      return std::make_unique<torch::optim::SGDOptions>(torch::optim::SGDOptions(lr)
                                                            .momentum(spec.momentum)
                                                            .nesterov(spec.nesterov)
                                                            .weight_decay(weight_decay));
    };
    std::vector<torch::optim::OptimizerParamGroup> groups;
    if (!decayed.empty()) groups.emplace_back(decayed, options(spec.weight_decay));
    if (!plain.empty()) groups.emplace_back(plain, options(0.0));
    impl->torch_optimizer = std::make_unique<torch::optim::SGD>(std::move(groups), *options(0.0));
  }
  return Optimizer(std::move(impl));
}

}  // namespace rookery::model
