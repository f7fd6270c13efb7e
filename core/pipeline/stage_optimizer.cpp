#include <torch/torch.h>

#include "pipeline/stage_optimizer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "reduce/shard_buffers.hpp"

namespace rookery::pipeline {

namespace {
model::Shard trainable(model::Shard shard, c10::Device device) {
  shard.to(device);
  shard.set_training(true);
  for (auto& p : shard.parameters()) p.tensor.mutable_grad() = torch::zeros_like(p.tensor);
  return shard;
}

// A handed-over optimizer state, checked whole before anything changes.
void check_state(const OptimizerState& state, const std::vector<std::string>& names,
                 std::int64_t size) {
  if (state.moment_step < 0)
    throw std::invalid_argument("optimizer state with a negative moment step");
  for (const auto& [name, v] : state.buffers) {
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      throw std::invalid_argument("this stage's optimizer keeps no state buffer '" + name + "'");
    }
  }
  for (const auto& name : names) {
    const auto* v = state.find(name);
    if (!v) throw std::invalid_argument("optimizer state without buffer '" + name + "'");
    if (static_cast<std::int64_t>(v->size()) != size) {
      throw std::invalid_argument("optimizer state '" + name + "' has " +
                                  std::to_string(v->size()) + " values, the blocks have " +
                                  std::to_string(size) + " parameters");
    }
    const bool second_moment = name.ends_with("_sq");
    for (const float x : *v) {
      if (!std::isfinite(x) || (second_moment && x < 0)) {
        throw std::invalid_argument(
            "optimizer state '" + name + "' holds " + std::to_string(x) +
            (second_moment ? " (second moments are finite and >= 0)" : " (not finite)"));
      }
    }
  }
}
}  // namespace

StageOptimizer::StageOptimizer(const model::BlockChain& chain, model::BlockRange blocks,
                               c10::Device device, const job::JobSpec& job)
    : grad_accumulation_(job.grad_accumulation),
      predicts_(job.weight_prediction),
      model_(job.model),
      master_(trainable(chain.shard(blocks), device)),
      optimizer_(model::make_optimizer(job.optimizer, master_.parameters())) {
  for (auto& p : master_.parameters()) {
    params_.push_back(p.tensor);
    param_bytes_ += static_cast<std::int64_t>(p.tensor.nbytes());
  }
  last_update_.resize(params_.size());
  // With one micro-batch in flight there is no delay to predict across.
  if (job.staleness <= 1) predicts_ = false;
}

void StageOptimizer::accumulate(std::vector<at::Tensor>& params, std::int64_t created_at_step) {
  torch::NoGradGuard no_grad;
  delay_ema_ = 0.9 * delay_ema_ + 0.1 * static_cast<double>(steps_ - created_at_step);
  for (std::size_t i = 0; i < params_.size(); ++i) {
    auto& g = params[i].mutable_grad();
    if (g.defined()) params_[i].mutable_grad().add_(g);
    g = torch::Tensor();
  }
}

bool StageOptimizer::maybe_step() {
  if (++accumulated_ < grad_accumulation_) return false;
  {
    torch::NoGradGuard no_grad;
    if (accumulated_ > 1) {
      for (auto& p : params_) p.mutable_grad().div_(static_cast<double>(accumulated_));
    }
    if (predicts_) {
      for (std::size_t i = 0; i < params_.size(); ++i) {
        if (!last_update_[i].defined()) last_update_[i] = torch::empty_like(params_[i]);
        last_update_[i].copy_(params_[i]);
      }
    }
  }
  optimizer_.step();
  ++steps_;
  {
    torch::NoGradGuard no_grad;
    for (std::size_t i = 0; i < params_.size(); ++i) {
      params_[i].mutable_grad().zero_();
      if (predicts_) torch::sub_out(last_update_[i], params_[i], last_update_[i]);
    }
  }
  accumulated_ = 0;
  return true;
}

void StageOptimizer::predict_into(std::vector<at::Tensor>& params) const {
  torch::NoGradGuard no_grad;
  const double delay = predicts_ ? std::round(delay_ema_) : 0.0;
  for (std::size_t i = 0; i < params_.size(); ++i) {
    if (delay > 0 && last_update_[i].defined()) {
      torch::add_out(params[i], params_[i], last_update_[i], delay);
    } else {
      params[i].copy_(params_[i]);
    }
  }
}

void StageOptimizer::forget_last_update() {
  for (auto& u : last_update_) {
    if (u.defined()) u.zero_();
  }
}

std::vector<float> StageOptimizer::flat_parameters() const {
  return reduce::flatten_parameters(master_);
}

void StageOptimizer::write_flat_parameters(std::span<const float> values) {
  reduce::write_parameters(master_, values);
}

OptimizerState StageOptimizer::state() const {
  OptimizerState s;
  s.moment_step = optimizer_.moment_step();
  for (const auto& name : optimizer_.state_buffer_names())
    s.buffers.emplace_back(name, optimizer_.state_buffer(name));
  return s;
}

void StageOptimizer::load_blocks(model::BlockRange shard, std::int64_t first, std::int64_t last,
                                 std::span<const float> values, std::int64_t optimizer_steps,
                                 const OptimizerState* state) {
  if (first < shard.first || last > shard.last || first >= last) {
    throw std::invalid_argument("blocks [" + std::to_string(first) + ", " + std::to_string(last) +
                                ") are not inside this stage's shard");
  }
  const auto counts = reduce::block_parameter_counts(model_);
  std::int64_t offset = 0, size = 0;
  for (auto b = shard.first; b < last; ++b)
    (b < first ? offset : size) += counts.at(static_cast<std::size_t>(b));
  if (static_cast<std::int64_t>(values.size()) != size) {
    throw std::invalid_argument("blocks [" + std::to_string(first) + ", " + std::to_string(last) +
                                ") have " + std::to_string(size) + " parameters, not " +
                                std::to_string(values.size()));
  }
  const auto names = optimizer_.state_buffer_names();
  if (state) check_state(*state, names, size);
  auto current = flat_parameters();
  std::copy(values.begin(), values.end(), current.begin() + offset);
  write_flat_parameters(current);
  // Moments that belonged to other weights are dropped; handed-over ones come with their
  // bias-correction step (write_state_buffer gives it to parameters without state).
  optimizer_.reset_state(offset, size);
  if (state) {
    for (const auto& name : names)
      optimizer_.write_state_buffer(name, offset, *state->find(name), state->moment_step);
  }
  forget_last_update();
  if (optimizer_steps > optimizer_.steps_taken()) optimizer_.set_steps_taken(optimizer_steps);
}

}  // namespace rookery::pipeline
