// Time tracks FLOPs: the planner divides each block's cost-model FLOPs by a node's FLOP/s, so
// the achieved rate ((forward + backward FLOPs) / measured time) should be about the same for
// every matmul-heavy block. Prints each block's rate as a share of the median over two GPT
// sizes (4x apart in FLOPs), a CNN and an MLP, and the big GPT layer's time over the small
// one's beside their FLOP ratio: ratios measured side by side in one run, as benchmarks here
// do, not a timed test. One run on an idle 2-core machine: the GPT, MLP and second CNN blocks
// at 0.70-1.08 of the median (~100-150 GFLOP/s); the CNN's first timed stage at 0.34 (its
// GEMMs are small and memory-bound, and it varies most from run to run); the w256 layer
// took 2.5x the w128 layer's time for 3.85x its FLOPs (the bigger matmuls run faster). The
// embedding (a gather, almost no FLOPs) is left out.
#include <torch/torch.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cost_model_fixtures.hpp"

using namespace rookery;
using namespace rookery::cost_model_fixtures;

int main() {
  torch::set_num_threads(1);  // one core, as the planner's profile counts per thread
  torch::manual_seed(0);
  struct Row {
    std::string what;
    double flops, seconds;
  };
  std::vector<Row> rows;
  for (const auto& [name, spec] : std::vector<std::pair<std::string, job::ModelSpec>>{
           {"gpt-w128", gpt(64, 128, 4, 1)},
           {"gpt-w256", gpt(64, 256, 4, 1)},
           {"cnn", cnn()},
           {"mlp",
            job::ModelSpec{job::MlpSpec{.input = 784, .hidden = {1024, 512}, .output = 10}}}}) {
    const model::BlockChain chain(spec, 1);
    const int64_t batch = spec.kind() == job::ModelKind::gpt ? 8 : 64;
    for (int64_t i = spec.kind() == job::ModelKind::mlp ? 0 : 1; i < chain.block_count(); ++i) {
      const auto& cost = chain.costs()[size_t(i)];
      if (cost.forward_flops_per_sample * double(batch) < 2e7) continue;  // too small to time
      model::Shard block = chain.shard({i, i + 1});
      const torch::Tensor x = input_for(spec, i, batch), targets = targets_for(spec, batch);
      rows.push_back(
          {name + " block" + std::to_string(i) + " " + cost.kind,
           (cost.forward_flops_per_sample + cost.backward_flops_per_sample) * double(batch),
           time_block(block, x, targets, 7)});
    }
  }
  std::vector<double> rates;
  for (const auto& r : rows) rates.push_back(r.flops / r.seconds);
  std::vector<double> sorted = rates;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2];
  std::printf("%-28s %12s %10s %12s %10s\n", "block", "MFLOP", "ms", "GFLOP/s", "of median");
  for (size_t k = 0; k < rows.size(); ++k) {
    std::printf("%-28s %12.1f %10.2f %12.2f %10.2f\n", rows[k].what.c_str(), rows[k].flops / 1e6,
                rows[k].seconds * 1e3, rates[k] / 1e9, rates[k] / median);
  }
  const auto row = [&](const std::string& what) {
    return *std::find_if(rows.begin(), rows.end(),
                         [&](const Row& r) { return r.what.starts_with(what); });
  };
  const Row small = row("gpt-w128 block1"), big = row("gpt-w256 block1");
  std::printf("gpt layer w256 / w128: FLOPs x%.2f, time x%.2f\n", big.flops / small.flops,
              big.seconds / small.seconds);
  return 0;
}
