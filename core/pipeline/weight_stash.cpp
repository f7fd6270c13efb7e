#include <torch/torch.h>

#include "pipeline/weight_stash.hpp"

#include "model/mixed_precision.hpp"
#include "pipeline/stage_optimizer.hpp"
#include "reduce/shard_buffers.hpp"

namespace rookery::pipeline {

WeightVersion::WeightVersion(model::Shard s) : shard(std::move(s)) {
  for (auto& p : shard.parameters()) params.push_back(p.tensor);
}

WeightStash::WeightStash(const model::BlockChain& chain, model::BlockRange blocks,
                         c10::Device device, std::size_t pool_capacity,
                         std::optional<at::ScalarType> autocast, bool checkpointing)
    : chain_(chain),
      blocks_(blocks),
      device_(device),
      pool_capacity_(pool_capacity),
      autocast_(autocast),
      checkpointing_(checkpointing) {}

std::shared_ptr<WeightVersion> WeightStash::take_idle() {
  if (!pool_.empty()) {
    auto v = pool_.back();
    pool_.pop_back();
    return v;
  }
  auto shard = chain_.shard(blocks_);
  shard.to(device_);
  shard.set_training(true);
  model::set_copy_precision(shard, autocast_);
  shard.set_activation_checkpointing(checkpointing_);
  return std::make_shared<WeightVersion>(std::move(shard));
}

void WeightStash::copy_master_into(WeightVersion& v, const StageOptimizer& master) {
  master.predict_into(v.params);
  v.id = next_version_id_++;
  v.created_at_step = master.steps();
}

void WeightStash::set_common_point(std::span<const float> flat) {
  if (!common_) {
    auto shard = chain_.shard(blocks_);
    shard.to(device_);
    shard.set_training(true);
    model::set_copy_precision(shard, autocast_);
    common_ = std::make_unique<WeightVersion>(std::move(shard));
  }
  reduce::write_parameters(common_->shard, flat);
}

void WeightStash::publish(const StageOptimizer& master) {
  if (current_ && current_->in_flight == 0) {
    copy_master_into(*current_, master);  // nobody holds a graph on it: refresh in place
    return;
  }
  auto v = take_idle();
  copy_master_into(*v, master);
  current_ = v;
}

std::shared_ptr<WeightVersion> WeightStash::acquire() {
  ++current_->in_flight;
  return current_;
}

void WeightStash::release(const std::shared_ptr<WeightVersion>& v) {
  --v->in_flight;
  if (v->in_flight == 0 && v != current_) {
    for (auto& p : v->params) p.mutable_grad() = torch::Tensor();
    if (pool_.size() < pool_capacity_) pool_.push_back(v);
  }
}

}  // namespace rookery::pipeline
