#include "reduce/shard_buffers.hpp"

#include <torch/torch.h>

#include <cstring>
#include <stdexcept>

#include "model/cost.hpp"

namespace rookery::reduce {

namespace {
template <typename F>
void for_each_slice(const model::Shard& shard, std::size_t total, F&& f) {
  std::size_t offset = 0;
  for (const auto& p : shard.parameters()) {
    const auto n = static_cast<std::size_t>(p.tensor.numel());
    if (offset + n > total)
      throw std::invalid_argument("flat buffer is smaller than the shard's parameters");
    f(p.tensor, offset, n);
    offset += n;
  }
  if (offset != total)
    throw std::invalid_argument("flat buffer is larger than the shard's parameters");
}
}  // namespace

std::vector<std::int64_t> block_parameter_counts(const job::ModelSpec& model) {
  std::vector<std::int64_t> out;
  for (const auto& c : model::block_costs(model)) out.push_back(c.params);
  return out;
}

std::vector<float> flatten_parameters(const model::Shard& shard) {
  std::vector<float> out(static_cast<std::size_t>(shard.parameter_count()));
  torch::NoGradGuard no_grad;
  for_each_slice(shard, out.size(), [&](const at::Tensor& t, std::size_t offset, std::size_t n) {
    const auto cpu = t.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    std::memcpy(out.data() + offset, cpu.data_ptr<float>(), n * sizeof(float));
  });
  return out;
}

void write_parameters(model::Shard& shard, std::span<const float> values) {
  torch::NoGradGuard no_grad;
  for_each_slice(shard, values.size(), [&](const at::Tensor& t, std::size_t offset, std::size_t n) {
    auto src = torch::from_blob(const_cast<float*>(values.data() + offset),
                                {static_cast<std::int64_t>(n)}, torch::kFloat32);
    const_cast<at::Tensor&>(t).copy_(src.view(t.sizes()));
  });
}

void add_to_parameters(model::Shard& shard, std::span<const float> delta) {
  torch::NoGradGuard no_grad;
  for_each_slice(shard, delta.size(), [&](const at::Tensor& t, std::size_t offset, std::size_t n) {
    auto src = torch::from_blob(const_cast<float*>(delta.data() + offset),
                                {static_cast<std::int64_t>(n)}, torch::kFloat32);
    const_cast<at::Tensor&>(t).add_(src.view(t.sizes()).to(t.device()));
  });
}

}  // namespace rookery::reduce
