// Synthetic models and swarms for the planning tests and bench_cluster: a GPT-style chain
// (embedding, equal layers, head) and heterogeneous volunteers (FLOP/s spread 1–8×, memory
// spread, bandwidth tiers).
#pragma once

#include "cluster/planning.hpp"

#include <random>
#include <string>
#include <vector>

namespace rookery::cluster::testing {

/// A byte-level GPT: width d, `layers` layers, sequence length t, vocabulary 256. FLOPs are
/// 2·params·t forward plus attention's two t×t products, backward twice forward; the stash is
/// roughly what autograd keeps per layer (about 10 activations' worth).
inline std::vector<BlockProfile> gpt_blocks(int layers, int64_t d = 512, int64_t t = 128) {
  std::vector<BlockProfile> blocks;
  const int64_t vocab = 256;
  const int64_t act = t * d * 4;
  blocks.push_back({vocab * d + t * d, 0.0, act, 0});
  for (int i = 0; i < layers; ++i) {
    const int64_t params = 12 * d * d;
    const double forward = 2.0 * double(params) * double(t) + 4.0 * double(t * t * d);
    blocks.push_back({params, 3.0 * forward, act, 10 * act});
  }
  const double head = 2.0 * double(vocab * d * t);
  blocks.push_back({vocab * d, 3.0 * head, t * vocab * 4, t * vocab * 4});
  return blocks;
}

inline TrainingSettings gpt_settings() {
  TrainingSettings s;
  s.micro_batch = 8;
  s.staleness = 4;
  return s;
}

/// `count` volunteers: FLOP/s uniform in [1, 8]·base, memory in [0.25, 1.25]× the model's
/// whole need, bandwidth from `tiers` tiers 10× apart (each ±30%), RTT 10–80 ms.
inline std::vector<NodeProfile> random_swarm(std::mt19937_64& rng, int count, int tiers,
                                             int64_t model_bytes, double base_flops = 50e9,
                                             double top_bandwidth = 50e6) {
  std::uniform_real_distribution<double> spread(1.0, 8.0), mem(0.25, 1.25), jitter(0.7, 1.3),
      rtt(0.01, 0.08);
  std::uniform_int_distribution<int> tier(0, tiers - 1);
  std::vector<NodeProfile> nodes;
  for (int i = 0; i < count; ++i) {
    NodeProfile n;
    n.id = "n" + std::to_string(i);
    n.flops_per_s = base_flops * spread(rng);
    n.free_memory_bytes = int64_t(double(model_bytes) * mem(rng));
    double bw = top_bandwidth;
    for (int k = tier(rng); k > 0; --k) bw /= 10;
    n.upload_bytes_per_s = bw * jitter(rng);
    n.download_bytes_per_s = 2 * bw * jitter(rng);
    n.rtt_s = rtt(rng);
    nodes.push_back(n);
  }
  return nodes;
}

}  // namespace rookery::cluster::testing
