#pragma once
// What the cost model's test and benchmark share: small models of each kind, inputs and
// targets as the stage holding a block would receive them, and the timing of one block.
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "job/job_spec.hpp"
#include "model/block_chain.hpp"

namespace rookery::cost_model_fixtures {

inline job::ModelSpec gpt(int64_t context, int64_t width, int64_t heads, int64_t depth = 2,
                          int64_t ratio = 4, double dropout = 0.0, int64_t vocab = 256) {
  return {job::GptSpec{.vocab = vocab,
                       .context = context,
                       .width = width,
                       .depth = depth,
                       .heads = heads,
                       .mlp_ratio = ratio,
                       .dropout = dropout}};
}
inline job::ModelSpec cnn() {
  return {job::CnnSpec{.channels = 3, .image_size = 32, .classes = 10, .widths = {16, 32, 64}}};
}
inline job::ModelSpec mlp() {
  return {job::MlpSpec{.input = 784, .hidden = {512, 256}, .output = 10}};
}

// An input for block `index` as the stage holding it would receive it.
inline torch::Tensor input_for(const job::ModelSpec& spec, int64_t index, int64_t batch) {
  if (const auto* g = std::get_if<job::GptSpec>(&spec.arch)) {
    if (index == 0) return torch::randint(0, g->vocab, {batch, g->context});
    return torch::randn({batch, g->context, g->width}).requires_grad_(true);
  }
  if (const auto* c = std::get_if<job::CnnSpec>(&spec.arch)) {
    const int64_t channels = index == 0 ? c->channels : c->widths[size_t(index) - 1];
    const int64_t side = c->image_size >> index;
    return torch::rand({batch, channels, side, side}).requires_grad_(index > 0);
  }
  const auto& m = std::get<job::MlpSpec>(spec.arch);
  return torch::rand({batch, index == 0 ? m.input : m.hidden[size_t(index) - 1]})
      .requires_grad_(index > 0);
}

inline torch::Tensor targets_for(const job::ModelSpec& spec, int64_t batch) {
  if (const auto* g = std::get_if<job::GptSpec>(&spec.arch))
    return torch::randint(0, g->vocab, {batch, g->context});
  const int64_t classes = spec.kind() == job::ModelKind::cnn
                              ? std::get<job::CnnSpec>(spec.arch).classes
                              : std::get<job::MlpSpec>(spec.arch).output;
  return torch::randint(0, classes, {batch});
}

// What the last stage runs: forward, and the loss too when it holds the last block.
inline torch::Tensor run_forward(model::Shard& shard, const torch::Tensor& x,
                                 const torch::Tensor& targets) {
  const torch::Tensor out = shard.forward(x);
  return shard.holds_last_block() ? shard.loss(out, targets) : out;
}

inline void run_backward(const torch::Tensor& result) {
  if (result.dim() == 0)
    result.backward();
  else
    result.backward(torch::ones_like(result));
}

// Fastest of `reps` forward + backward runs of one block: the minimum is the run least
// disturbed by other work on the machine.
inline double time_block(model::Shard& shard, const torch::Tensor& x, const torch::Tensor& targets,
                         int reps) {
  std::vector<double> times;
  for (int r = 0; r < reps + 1; ++r) {
    const auto start = std::chrono::steady_clock::now();
    run_backward(run_forward(shard, x, targets));
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (r > 0) times.push_back(s);  // the first run warms caches and allocates gradients
  }
  return *std::min_element(times.begin(), times.end());
}

}  // namespace rookery::cost_model_fixtures
