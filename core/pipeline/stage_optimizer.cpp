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
      lookahead_(job.nesterov_lookahead),
      looks_ahead_(job.nesterov_lookahead > 0 && job.staleness > 1),
      model_(job.model),
      master_(trainable(chain.shard(blocks), device)),
      optimizer_(model::make_optimizer(job.optimizer, master_.parameters())),
      lr_anneal_steps_(job.staleness <= 1 ? 0 : job.staleness_lr_anneal_steps),
      clip_(job.max_grad_norm, blocks.first == 0) {
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

StageOptimizer::Counted StageOptimizer::count_backward(std::uint64_t micro_batch,
                                                       double downstream) {
  if (clip_.enabled()) clip_.note_downstream(downstream);
  if (++accumulated_ < grad_accumulation_) return {};
  if (accumulated_ > 1) {
    torch::NoGradGuard no_grad;
    for (auto& p : params_) p.mutable_grad().div_(static_cast<double>(accumulated_));
  }
  accumulated_ = 0;
  if (!clip_.enabled()) {
    step(0);
    return {true, 0};
  }
  const double through = clip_.complete(micro_batch, grad_sq_norm());
  const auto exact = clip_.exact_total();
  if (!exact) return {false, through};
  step(*exact);
  return {true, through};
}

bool StageOptimizer::learn_total(std::uint64_t micro_batch, double total_sq_norm) {
  clip_.learn_total(micro_batch, total_sq_norm);
  const auto exact = clip_.exact_total();
  if (!exact) return false;
  step(*exact);
  return true;
}

bool StageOptimizer::settle() {
  if (!clip_.pending()) return false;
  step(clip_.total());
  return true;
}

// One reduction over every gradient and one read back: on a GPU, a read back per parameter
// would stall the stream once per tensor (hundreds a step).
double StageOptimizer::grad_sq_norm() const {
  torch::NoGradGuard no_grad;
  if (params_.empty()) return 0;
  std::vector<at::Tensor> grads;
  grads.reserve(params_.size());
  for (const auto& p : params_) grads.push_back(p.grad());
  const auto norms = at::_foreach_norm(grads, 2);
  return at::stack(norms).to(torch::kDouble).square().sum().item<double>();
}

// PipeMare's rescheduling: delay^-p with p annealed from 1 to 0, so a stage whose gradients
// are `delay` steps late starts with a learning rate `delay` times smaller.
double StageOptimizer::lr_factor() const {
  if (lr_anneal_steps_ <= 0 || delay_ema_ <= 1) return 1;
  const double done =
      static_cast<double>(optimizer_.steps_taken()) / static_cast<double>(lr_anneal_steps_);
  const double p = std::max(0.0, 1.0 - done);
  return std::pow(delay_ema_, -p);
}

void StageOptimizer::step(double total_sq_norm) {
  clip_.taken();
  const double rescale = lr_factor();
  const bool keeps_before = predicts_ || looks_ahead_ || rescale < 1;
  {
    torch::NoGradGuard no_grad;
    last_clip_factor_ = clip_.factor(total_sq_norm);
    if (last_clip_factor_ < 1) {
      for (auto& p : params_) p.mutable_grad().mul_(last_clip_factor_);
    }
    if (keeps_before) {
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
      if (!keeps_before) continue;
      // last_update_ holds the weights before the step; it becomes the step's update.
      torch::sub_out(last_update_[i], params_[i], last_update_[i]);
      if (rescale < 1) {
        last_update_[i].mul_(rescale);
        params_[i].sub_(last_update_[i], (1 - rescale) / rescale);
      }
    }
    if (looks_ahead_) lookahead_.note_update(last_update_);
  }
}

void StageOptimizer::predict_into(std::vector<at::Tensor>& params) const {
  torch::NoGradGuard no_grad;
  if (looks_ahead_) {
    lookahead_.point_into(params, params_, std::round(delay_ema_));
    return;
  }
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
  lookahead_.forget();
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

std::vector<std::int64_t> StageOptimizer::block_moment_steps(model::BlockRange shard) const {
  const auto counts = reduce::block_parameter_counts(model_);
  std::vector<std::int64_t> out;
  std::int64_t offset = 0;
  for (auto b = shard.first; b < shard.last; ++b) {
    const auto n = counts.at(static_cast<std::size_t>(b));
    out.push_back(optimizer_.moment_step(offset, n));
    offset += n;
  }
  return out;
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
