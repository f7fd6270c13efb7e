#pragma once
// WeightStash: weight stashing (PipeDream). Every forward runs on a weight *version* that is
// never changed while micro-batches it started are in flight, so each backward runs through
// the graph its forward built, with exactly the weights it used. After each optimizer step a
// version is refreshed from the master, or a new one taken from a small pool; versions
// nobody needs are recycled at once. Compute thread only.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include "model/block_chain.hpp"

namespace rookery::pipeline {

class StageOptimizer;

// The weights one or more in-flight micro-batches were forwarded with. Never modified while
// in_flight > 0, so their retained graphs stay valid.
struct WeightVersion {
  explicit WeightVersion(model::Shard s);
  std::uint64_t id = 0;
  std::int64_t created_at_step = 0;  // the master's optimizer steps when these weights were made
  model::Shard shard;
  std::vector<at::Tensor> params;
  int in_flight = 0;
};

class WeightStash {
 public:
  // Versions of `blocks` on `device`, computing under `autocast` (none: fp32) and with
  // activation checkpointing when `checkpointing`; at most `pool_capacity` idle ones are kept
  // for reuse.
  WeightStash(const model::BlockChain& chain, model::BlockRange blocks, c10::Device device,
              std::size_t pool_capacity, std::optional<at::ScalarType> autocast = std::nullopt,
              bool checkpointing = false);

  // After the master changed: the version forwards use from now on.
  void publish(const StageOptimizer& master);
  // The current version, held for one more micro-batch in flight.
  std::shared_ptr<WeightVersion> acquire();
  // A micro-batch that held `v` is done with it.
  void release(const std::shared_ptr<WeightVersion>& v);
  // What new forwards (and a verifier's recomputations) run on.
  WeightVersion& current() { return *current_; }
  // The weights this replica last shared with the other pipelines' (common_point.hpp), which
  // a verifier recomputes on too, to measure how far it has moved since. `flat` is the
  // master's layout (StageOptimizer::flat_parameters). Kept only once set; null before.
  void set_common_point(std::span<const float> flat);
  model::Shard* common_point() { return common_ ? &common_->shard : nullptr; }
  const WeightVersion* current_ptr() const { return current_.get(); }

 private:
  std::shared_ptr<WeightVersion> take_idle();
  void copy_master_into(WeightVersion& v, const StageOptimizer& master);

  const model::BlockChain& chain_;
  model::BlockRange blocks_;
  c10::Device device_;
  std::size_t pool_capacity_;
  std::optional<at::ScalarType> autocast_;
  bool checkpointing_;
  std::shared_ptr<WeightVersion> current_;
  std::vector<std::shared_ptr<WeightVersion>> pool_;
  std::unique_ptr<WeightVersion> common_;
  std::uint64_t next_version_id_ = 1;
};

}  // namespace rookery::pipeline
