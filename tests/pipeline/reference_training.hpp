#pragma once
// The yardstick for pipeline tests: the same job trained in this one process, and a fixed
// evaluation of any set of parameters on held-out samples.
#include <torch/torch.h>

#include <QString>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <string>

#include "data/batch.hpp"
#include "data/open_dataset.hpp"
#include "job/job_spec.hpp"
#include "support/source_tree.hpp"
#include "model/block_chain.hpp"
#include "model/optimizer.hpp"
#include "pipeline/checkpoint.hpp"

namespace rookery::testing {

using Params = std::map<std::string, torch::Tensor>;

// Synchronous training of the whole model on samples [0, micro_batches * mbs), one optimizer
// step per micro-batch, its gradient clipped to job.max_grad_norm (when set) by torch's own
// clip_grad_norm_: what a pipeline with staleness 1 computes.
inline Params train_in_one_process(const job::JobSpec& job, std::int64_t micro_batches) {
  auto chain = model::BlockChain::from_job(job);
  auto shard = chain.whole();
  shard.set_training(true);
  auto optimizer = model::make_optimizer(job.optimizer, shard.parameters());
  auto dataset = data::open_dataset(job);
  for (std::int64_t k = 0; k < micro_batches; ++k) {
    auto batch = data::make_batch(*dataset, k * job.micro_batch_size, job.micro_batch_size);
    optimizer.zero_grad();
    auto loss = shard.loss(shard.forward(batch.inputs), batch.targets);
    loss.backward();
    if (job.max_grad_norm > 0) {
      std::vector<torch::Tensor> tensors;
      for (auto& p : shard.parameters()) tensors.push_back(p.tensor);
      torch::nn::utils::clip_grad_norm_(tensors, job.max_grad_norm);
    }
    optimizer.step();
  }
  Params out;
  for (auto& p : shard.parameters()) out[p.name] = p.tensor.detach().clone();
  return out;
}

namespace detail {
// Mean loss of the model with `params` over `count` samples that `batch(first, n)` makes.
template <typename MakeBatch>
double mean_loss(const job::JobSpec& job, const Params& params, std::int64_t count,
                 const MakeBatch& batch) {
  torch::NoGradGuard no_grad;
  auto chain = model::BlockChain::from_job(job);
  auto shard = chain.whole();
  shard.set_training(false);
  for (auto& p : shard.parameters()) p.tensor.copy_(params.at(p.name));
  double total = 0;
  for (std::int64_t s = 0; s < count; s += 64) {
    const std::int64_t n = std::min<std::int64_t>(64, count - s);
    const data::Batch b = batch(s, n);
    total += shard.loss(shard.forward(b.inputs), b.targets).item<double>() * double(n);
  }
  return total / double(count);
}
}  // namespace detail

// Mean loss of `params` on training samples [first, first + count).
inline double training_loss(const job::JobSpec& job, const Params& params, std::int64_t first,
                            std::int64_t count = 512) {
  const auto dataset = data::open_dataset(job);
  return detail::mean_loss(job, params, count, [&](std::int64_t s, std::int64_t n) {
    return data::make_batch(*dataset, first + s, n);
  });
}

// Mean loss of `params` on data it did not train on, the same every call: with a held-out
// part in the job's dataset, `count` of its windows spread evenly over it (all of them when it
// holds fewer); without one, `count` samples from sample id `first`, which the tests' short
// runs never reach.
inline double evaluate(const job::JobSpec& job, const Params& params,
                       std::int64_t first = 1'000'000, std::int64_t count = 512) {
  const auto dataset = data::open_dataset(job);
  const std::int64_t held = dataset->held_out_size();
  if (held == 0) return training_loss(job, params, first, count);
  count = std::min(count, held);
  return detail::mean_loss(job, params, count, [&](std::int64_t s, std::int64_t n) {
    std::vector<torch::Tensor> inputs, targets;
    for (std::int64_t i = s; i < s + n; ++i) {
      const auto one = data::make_held_out_batch(*dataset, i * held / count, 1);
      inputs.push_back(one.inputs);
      targets.push_back(one.targets);
    }
    return data::Batch{.inputs = torch::cat(inputs),
                       .targets = torch::cat(targets),
                       .first_sample_id = s,
                       .count = n,
                       .held_out = true};
  });
}

inline Params initial_parameters(const job::JobSpec& job) {
  Params out;
  for (auto& p : model::BlockChain::from_job(job).whole().parameters())
    out[p.name] = p.tensor.detach().clone();
  return out;
}

inline Params read_stage_checkpoints(const std::vector<std::filesystem::path>& paths) {
  Params out;
  for (const auto& path : paths) {
    for (auto& p : pipeline::read_checkpoint_parameters(path)) out[p.name] = p.tensor;
  }
  return out;
}

inline double max_abs_difference(const Params& a, const Params& b) {
  double worst = 0;
  for (const auto& [name, t] : a) {
    auto it = b.find(name);
    if (it == b.end()) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, (t - it->second).abs().max().item<double>());
  }
  return a.size() == b.size() ? worst : std::numeric_limits<double>::infinity();
}

// A tiny IDX image set whose label is the brightest quadrant, so a CNN can learn it.
inline void write_quadrant_images(const std::filesystem::path& images,
                                  const std::filesystem::path& labels, int n, int side) {
  std::vector<unsigned char> img(static_cast<std::size_t>(n) * side * side),
      lab(static_cast<std::size_t>(n));
  std::mt19937 rng(3);
  for (int i = 0; i < n; ++i) {
    const int q = static_cast<int>(rng() % 4);
    lab[static_cast<std::size_t>(i)] = static_cast<unsigned char>(q);
    for (int y = 0; y < side; ++y) {
      for (int x = 0; x < side; ++x) {
        const int quadrant = (y >= side / 2) * 2 + (x >= side / 2);
        const int base = quadrant == q ? 160 : 40;
        img[static_cast<std::size_t>(i) * side * side + static_cast<std::size_t>(y * side + x)] =
            static_cast<unsigned char>(base + static_cast<int>(rng() % 60));
      }
    }
  }
  auto be32 = [](std::ofstream& f, std::uint32_t v) {
    const unsigned char b[4] = {static_cast<unsigned char>(v >> 24),
                                static_cast<unsigned char>(v >> 16),
                                static_cast<unsigned char>(v >> 8), static_cast<unsigned char>(v)};
    f.write(reinterpret_cast<const char*>(b), 4);
  };
  std::ofstream fi(images, std::ios::binary), fl(labels, std::ios::binary);
  be32(fi, 0x00000803);
  be32(fi, static_cast<std::uint32_t>(n));
  be32(fi, static_cast<std::uint32_t>(side));
  be32(fi, static_cast<std::uint32_t>(side));
  fi.write(reinterpret_cast<const char*>(img.data()), static_cast<std::streamsize>(img.size()));
  be32(fl, 0x00000801);
  be32(fl, static_cast<std::uint32_t>(n));
  fl.write(reinterpret_cast<const char*>(lab.data()), static_cast<std::streamsize>(lab.size()));
}

inline QString gpt_job_json(const QString& id, int staleness, const QString& codec, int depth = 2,
                            int width = 64, double lr = 0.003) {
  return QString(
             R"({"id": "%1", "model": {"kind": "gpt", "vocab": 256, "context": 32, "width": %5, "depth": %4,
    "heads": 2, "mlp_ratio": 4, "dropout": 0.0},
    "dataset": {"kind": "text", "path": "%2", "stride": 1, "shuffle": true},
    "optimizer": {"kind": "adamw", "lr": %6, "betas": [0.9, 0.95], "eps": 1e-8, "weight_decay": 0.1,
                  "schedule": {"warmup_steps": 10, "decay": "constant"}},
    "micro_batch_size": 16, "grad_accumulation": 1, "staleness": %3, "codec": "%7",
    "averaging_period": 50, "seed": 11})")
      .arg(id, QString::fromStdString(source_file("resources/demo/demo-text.txt")))
      .arg(staleness)
      .arg(depth)
      .arg(width)
      .arg(lr)
      .arg(codec);
}

}  // namespace rookery::testing
