#include "model/block_benchmark.hpp"

#include <torch/torch.h>

#include <chrono>
#include <stdexcept>

#include "model/block_chain.hpp"
#include "model/cuda_backend.hpp"
#include "model/mixed_precision.hpp"

namespace rookery::model {

namespace {
constexpr std::int64_t kWholeModelParameters = 50'000'000;

void synchronize(const torch::Device& d) {
  if (d.is_cuda()) torch::cuda::synchronize();
}
}  // namespace

BlockBenchmark measure_blocks(const job::JobSpec& job, const std::string& device, double seconds) {
  const torch::Device dev(device);
  const BlockChain chain = BlockChain::from_job(job);
  const auto& costs = chain.costs();
  std::int64_t params = 0;
  for (const auto& c : costs) params += c.params;

  BlockRange range{0, chain.block_count()};
  const std::int64_t mb = job.micro_batch_size;
  torch::Tensor input, targets;
  const auto* gpt = std::get_if<job::GptSpec>(&job.model.arch);
  if (params > kWholeModelParameters && gpt && chain.block_count() > 2) {
    range = {1, 2};  // one transformer layer
    input = torch::randn({mb, gpt->context, gpt->width});
  } else if (gpt) {
    input = torch::randint(0, gpt->vocab, {mb, gpt->context});
    targets = torch::randint(0, gpt->vocab, {mb, gpt->context});
  } else if (const auto* cnn = std::get_if<job::CnnSpec>(&job.model.arch)) {
    input = torch::rand({mb, cnn->channels, cnn->image_size, cnn->image_size});
    targets = torch::randint(0, cnn->classes, {mb});
  } else {
    const auto& mlp = std::get<job::MlpSpec>(job.model.arch);
    input = torch::rand({mb, mlp.input});
    targets = torch::randint(0, mlp.output, {mb});
  }

  bool bf16 = false;
  if (dev.is_cuda()) {
    const auto info = cuda_device_info(dev.has_index() ? dev.index() : 0);
    bf16 = info && info->bf16;
  }
  const auto precision = resolve_precision(job.precision, dev.type(), bf16);
  auto shard = chain.shard(range);
  shard.to(dev);
  shard.set_training(true);
  set_copy_precision(shard, precision.autocast);
  shard.set_activation_checkpointing(job.activation_checkpointing);
  input = input.to(dev);
  if (input.is_floating_point()) input.requires_grad_(true);
  if (targets.defined()) targets = targets.to(dev);

  auto pass = [&] {
    for (auto& p : shard.parameters()) p.tensor.mutable_grad() = torch::Tensor();
    auto out = shard.forward(input);
    if (targets.defined()) {
      shard.loss(out, targets).backward();
    } else {
      out.backward(torch::ones_like(out));
    }
  };

  double flops_per_sample = 0;
  for (auto b = range.first; b < range.last; ++b) {
    const auto& c = costs[static_cast<std::size_t>(b)];
    flops_per_sample += c.forward_flops_per_sample + c.backward_flops_per_sample;
  }

  BlockBenchmark r;
  r.precision = precision.describe();
  r.blocks =
      costs[static_cast<std::size_t>(range.first)].kind +
      (range.last - range.first > 1 ? " … " + costs[static_cast<std::size_t>(range.last - 1)].kind
                                    : std::string()) +
      " (blocks [" + std::to_string(range.first) + ", " + std::to_string(range.last) + "))";
  try {
    pass();  // warm-up: allocations, kernel choice
    synchronize(dev);
    const auto start = std::chrono::steady_clock::now();
    do {
      pass();
      synchronize(dev);
      ++r.passes;
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } while (r.seconds < seconds);
  } catch (const c10::Error& e) {
    throw std::runtime_error("the job's blocks do not run on " + device + ": " +
                             e.what_without_backtrace());
  }
  r.samples_per_s = double(mb) * r.passes / r.seconds;
  r.flops_per_s = flops_per_sample * r.samples_per_s;
  return r;
}

}  // namespace rookery::model
