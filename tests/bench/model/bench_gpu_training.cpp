// Training on the GPU, measured: the model-FLOPs utilisation (MFU) of a training step of a GPT
// of about 350M parameters in bf16, as a node's stage runs it (the goal is at least 40%),
// beside bf16 autocast, torch's AdamW loop and fp32; and samples/s on the
// GPU against the CPU for the same model and micro-batch. Ratios measured side by side in one
// run, as benchmarks here do; nothing is asserted. Runs from the GPU bundle (tests/gpu/run.sh)
// or a build with a GPU; exits 77 (skipped) where LibTorch sees none.
//
// MFU = achieved model FLOP/s over the GPU's peak dense bf16 FLOP/s. Model FLOPs per step are
// the cost model's forward + backward FLOPs (what the planner uses), printed beside PaLM's
// 6·N·T + 12·L·T²·d count. The peak comes from the card's datasheet where it is known, and is
// also measured (a large bf16 matmul), so both ratios are printed.
#include <torch/csrc/autograd/profiler_kineto.h>
#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>

#include "model/block_chain.hpp"
#include "model/compute_device.hpp"
#include "model/optimizer.hpp"
#include "pipeline/stage_optimizer.hpp"
#include "pipeline/weight_stash.hpp"

using namespace rookery;
using Clock = std::chrono::steady_clock;

namespace {

// Dense bf16 tensor-core peaks from NVIDIA's datasheets (no sparsity), in FLOP/s.
double datasheet_peak(const std::string& name) {
  struct Card {
    const char* name;
    double tflops;
  };
  static const Card cards[] = {{"H200", 989.4},     {"H100 SXM", 989.4},  {"H100 80GB HBM3", 989.4},
                               {"H100 NVL", 835.0}, {"H100 PCIe", 756.0}, {"H100", 989.4},
                               {"A100", 312.0},     {"L40S", 362.1},      {"L4", 121.0},
                               {"A10G", 70.0},      {"A10", 125.0},       {"RTX 4090", 165.2},
                               {"RTX 3090", 71.0},  {"T4", 65.0}};
  for (const auto& c : cards)
    if (name.find(c.name) != std::string::npos) return c.tflops * 1e12;
  return 0;
}

double measured_bf16_peak(const torch::Device& dev) {
  torch::NoGradGuard no_grad;
  const auto opts = torch::TensorOptions().dtype(torch::kBFloat16).device(dev);
  const int64_t n = 8192;
  auto a = torch::randn({n, n}, opts), b = torch::randn({n, n}, opts);
  for (int i = 0; i < 3; ++i) (void)torch::matmul(a, b);
  torch::cuda::synchronize();
  const int rounds = 20;
  const auto t0 = Clock::now();
  for (int i = 0; i < rounds; ++i) (void)torch::matmul(a, b);
  torch::cuda::synchronize();
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  return 2.0 * n * n * n * rounds / s;
}

struct StepTime {
  double seconds_per_step = 0;
  double loss = 0;
};

// How a step runs:
// - stage: as a node's stage runs it (pipeline::StageOptimizer's fp32 master weights and fused
//   AdamW, pipeline::WeightStash's weight version, computing in the job's precision: bf16
//   weight copies on a GPU that has bf16);
// - autocast: one fp32 shard under bf16 autocast (what the stage did before), with the node's
//   optimizer, or torch::optim::AdamW's per-parameter loop for comparison;
// - fp32: one fp32 shard, the node's optimizer.
enum class Variant { stage, autocast, autocast_torch_loop, fp32 };

const char* variant_name(Variant v) {
  switch (v) {
    case Variant::stage:
      return "stage";
    case Variant::autocast:
      return "autocast";
    case Variant::autocast_torch_loop:
      return "autocast-torch-adamw";
    case Variant::fp32:
      return "fp32";
  }
  return "?";
}

// ROOKERY_BENCH_TRACE=DIR: a Chrome trace of three steps (LibTorch's Kineto profiler, CPU ops
// and GPU kernels), to see where a step's time goes.
void trace_steps(const std::function<void()>& step, const std::string& path) {
  namespace prof = torch::profiler::impl;
  const std::set<prof::ActivityType> activities{prof::ActivityType::CPU, prof::ActivityType::CUDA};
  const prof::ProfilerConfig config(prof::ProfilerState::KINETO);
  torch::autograd::profiler::prepareProfiler(config, activities);
  torch::autograd::profiler::enableProfiler(config, activities);
  for (int i = 0; i < 3; ++i) step();
  torch::cuda::synchronize();
  torch::autograd::profiler::disableProfiler()->save(path);
  std::printf("  trace of three steps: %s\n", path.c_str());
}

StepTime train(job::JobSpec job, const torch::Device& dev, Variant variant, int64_t batch,
               int warmup, int steps) {
  job.precision = variant == Variant::fp32 ? job::Precision::fp32 : job::Precision::bf16;
  const auto chain = model::BlockChain::from_job(job);
  const auto& gpt = std::get<job::GptSpec>(job.model.arch);
  auto x = torch::randint(0, gpt.vocab, {batch, gpt.context}).to(dev);
  auto y = torch::randint(0, gpt.vocab, {batch, gpt.context}).to(dev);
  std::function<torch::Tensor()> step;

  // The stage's machinery, as StageRuntime drives it for a stage that holds every block.
  std::optional<pipeline::StageOptimizer> master;
  std::optional<pipeline::WeightStash> stash;
  // One shard that the optimizer steps itself.
  std::optional<model::Shard> shard;
  std::optional<model::Optimizer> node;
  std::optional<torch::optim::AdamW> loop;
  if (variant == Variant::stage) {
    master.emplace(chain, model::BlockRange{0, chain.block_count()}, dev, job);
    stash.emplace(chain, model::BlockRange{0, chain.block_count()}, dev, /*pool=*/2,
                  std::optional<at::ScalarType>(at::kBFloat16), job.activation_checkpointing);
    stash->publish(*master);
    step = [&, micro_batch = std::uint64_t{0}]() mutable {
      auto v = stash->acquire();
      auto loss = v->shard.loss(v->shard.forward(x), y);
      loss.backward();
      master->accumulate(v->params, v->created_at_step);
      master->count_backward(micro_batch++, 0);
      stash->release(v);
      stash->publish(*master);
      return loss;
    };
  } else {
    shard.emplace(chain.whole());
    shard->to(dev);
    shard->set_training(true);
    if (variant != Variant::fp32) shard->set_autocast(at::kBFloat16);
    shard->set_activation_checkpointing(job.activation_checkpointing);
    node.emplace(model::make_optimizer(job.optimizer, shard->parameters()));
    std::vector<torch::Tensor> params;
    for (auto& p : shard->parameters()) params.push_back(p.tensor);
    loop.emplace(params, torch::optim::AdamWOptions(3e-4).weight_decay(0.1));
    const bool torch_loop = variant == Variant::autocast_torch_loop;
    step = [&, torch_loop] {
      if (torch_loop) {
        loop->zero_grad();
      } else {
        node->zero_grad();
      }
      auto loss = shard->loss(shard->forward(x), y);
      loss.backward();
      if (torch_loop) {
        loop->step();
      } else {
        node->step();
      }
      return loss;
    };
  }
  auto sync = [&] {
    if (dev.is_cuda()) torch::cuda::synchronize();
  };
  for (int i = 0; i < warmup; ++i) step();
  sync();
  const auto t0 = Clock::now();
  torch::Tensor loss;
  for (int i = 0; i < steps; ++i) loss = step();
  sync();
  StepTime r;
  r.seconds_per_step = std::chrono::duration<double>(Clock::now() - t0).count() / steps;
  r.loss = loss.item<double>();
  if (const char* dir = std::getenv("ROOKERY_BENCH_TRACE"); dir && dev.is_cuda() && steps >= 10)
    trace_steps([&] { step(); }, std::string(dir) + "/trace-" + variant_name(variant) + ".json");
  return r;
}

job::JobSpec gpt_job(int64_t width, int64_t depth, int64_t heads, int64_t context, int64_t batch) {
  job::JobSpec j;
  j.id = "bench-gpu";
  j.model = {job::GptSpec{.vocab = 256,
                          .context = context,
                          .width = width,
                          .depth = depth,
                          .heads = heads,
                          .mlp_ratio = 4,
                          .dropout = 0.0}};
  j.micro_batch_size = batch;
  j.optimizer.lr = 3e-4;
  j.optimizer.weight_decay = 0.1;
  return j;
}

}  // namespace

int main() {
  const auto compute = model::detect_compute_device();
  if (!compute.cuda_available) {
    std::printf("bench_gpu_training: no GPU (%s): skipped\n", compute.no_cuda_why.c_str());
    return 77;
  }
  const torch::Device gpu("cuda:0");
  const int64_t context = 1024, batch = std::getenv("ROOKERY_BENCH_BATCH")
                                            ? std::atoll(std::getenv("ROOKERY_BENCH_BATCH"))
                                            : 8;
  // ≈353M parameters: a byte-level GPT-2 medium, 4 layers deeper for GPT-2's vocabulary.
  auto job = gpt_job(1024, 28, 16, context, batch);
  const auto chain = model::BlockChain::from_job(job);
  int64_t params = 0;
  double cost_flops_per_sample = 0;
  for (const auto& c : chain.costs()) {
    params += c.params;
    cost_flops_per_sample += c.forward_flops_per_sample + c.backward_flops_per_sample;
  }
  const double palm_flops_per_sample =
      6.0 * double(params) * context + 12.0 * 28 * double(context) * context * 1024;
  std::printf("GPU: %s (%llu MiB), LibTorch %s\n", compute.cuda_name.c_str(),
              static_cast<unsigned long long>(compute.cuda_total_bytes >> 20),
              model::math_library("cuda:0").c_str());
  std::printf(
      "model: GPT width 1024, 28 layers, context %lld: %.1fM parameters; micro-batch %lld\n",
      static_cast<long long>(context), params / 1e6, static_cast<long long>(batch));

  const double peak_sheet = datasheet_peak(compute.cuda_name);
  const double peak_measured = measured_bf16_peak(gpu);
  const auto bf16 = train(job, gpu, Variant::stage, batch, 3, 10);
  const double achieved = cost_flops_per_sample * batch / bf16.seconds_per_step;
  const double achieved_palm = palm_flops_per_sample * batch / bf16.seconds_per_step;
  std::printf(
      "bf16 step as a stage runs it (fp32 master weights, bf16 weight copies): %.1f ms, "
      "%.1f samples/s, %.1f TFLOP/s (cost model), %.1f TFLOP/s (PaLM count)\n",
      bf16.seconds_per_step * 1e3, batch / bf16.seconds_per_step, achieved / 1e12,
      achieved_palm / 1e12);
  if (peak_sheet > 0) {
    std::printf(
        "MFU vs datasheet peak %.0f TFLOP/s: %.1f%% (cost model), %.1f%% (PaLM count); goal 40%%\n",
        peak_sheet / 1e12, 100 * achieved / peak_sheet, 100 * achieved_palm / peak_sheet);
  }
  std::printf("MFU vs measured bf16 matmul peak %.0f TFLOP/s: %.1f%% (cost model)\n",
              peak_measured / 1e12, 100 * achieved / peak_measured);

  const auto autocast = train(job, gpu, Variant::autocast, batch, 3, 10);
  std::printf(
      "bf16 autocast over fp32 weights: %.1f ms: the stage's bf16 copies are %.2fx faster\n",
      autocast.seconds_per_step * 1e3, autocast.seconds_per_step / bf16.seconds_per_step);

  const auto unfused = train(job, gpu, Variant::autocast_torch_loop, batch, 2, 5);
  std::printf(
      "bf16 autocast with torch::optim::AdamW's per-parameter loop: %.1f ms: the fused "
      "step saves %.1f ms (%.2fx)\n",
      unfused.seconds_per_step * 1e3, (unfused.seconds_per_step - autocast.seconds_per_step) * 1e3,
      unfused.seconds_per_step / autocast.seconds_per_step);

  const auto fp32 = train(job, gpu, Variant::fp32, batch, 2, 5);
  std::printf("fp32 step: %.1f ms: the stage's bf16 is %.2fx faster\n", fp32.seconds_per_step * 1e3,
              fp32.seconds_per_step / bf16.seconds_per_step);

  // The same model and micro-batch of one sample on the CPU, beside the GPU's.
  const int64_t small = 1;
  const auto one = gpt_job(1024, 28, 16, context, small);
  const auto gpu_one = train(one, gpu, Variant::stage, small, 2, 5);
  const auto cpu_one = train(one, torch::Device("cpu"), Variant::fp32, small, 1, 2);
  std::printf(
      "samples/s, micro-batch 1: GPU (bf16) %.2f, CPU (fp32, %d threads) %.3f: GPU/CPU = %.0fx\n",
      1 / gpu_one.seconds_per_step, at::get_num_threads(), 1 / cpu_one.seconds_per_step,
      cpu_one.seconds_per_step / gpu_one.seconds_per_step);
  return 0;
}
