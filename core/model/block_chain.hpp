// A model as a chain of blocks, and the shard of it that one pipeline stage holds.
//
// BlockChain is the description (spec + seed); Shard is a contiguous range [first, last)
// of blocks instantiated as modules. Any range can be built alone, in any process, and its
// initial parameters are the same as those blocks' in the whole model: each block seeds
// its own initialisation from (seed, block index). That is what lets a pipeline be cut
// differently on every cluster, and a node that moves stage start from identical weights.
//
// Torch types appear here only as at::Tensor (a light header); the modules live in the .cpp.
#pragma once

#include "job/job_spec.hpp"
#include "model/block_range.hpp"
#include "model/cost.hpp"

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rookery::model {

/// A parameter with its global name, e.g. "block3.attn.qkv.weight". Names and order are the
/// same in every process, so the multi-ring all-reduce can map them to flat ranges.
struct NamedTensor {
  std::string name;
  at::Tensor tensor;
};

/// The blocks one stage holds, as trainable modules.
///
/// forward() takes what the previous block produced and returns this shard's last block's
/// output: for a GPT, block 0 takes int64 token ids [B, T] and later blocks take fp32
/// [B, T, width]; a CNN's block 0 takes fp32 images [B, C, H, W]; an MLP's block 0 takes
/// fp32 [B, ...] and flattens it. The last block returns logits.
class Shard {
 public:
  Shard(Shard&&) noexcept;
  Shard& operator=(Shard&&) noexcept;
  ~Shard();

  BlockRange range() const;
  bool holds_first_block() const;
  bool holds_last_block() const;

  at::Tensor forward(const at::Tensor& input);
  /// Only blocks [part.first, part.last) of this shard, from the input of block part.first (a
  /// spot-check's verifier redoes that part of another stage's work). Throws
  /// std::out_of_range unless `part` is a non-empty part of range().
  at::Tensor forward(const at::Tensor& input, BlockRange part);

  /// Cross-entropy of the last block's logits against targets (token ids [B, T] or class
  /// ids [B]), averaged over all predictions. Throws std::logic_error unless
  /// holds_last_block(): only the last stage computes the loss.
  at::Tensor loss(const at::Tensor& logits, const at::Tensor& targets) const;

  /// Trainable parameters, block by block in chain order, each block in a fixed order.
  std::vector<NamedTensor> parameters() const;
  int64_t parameter_count() const;

  /// Training mode enables dropout; evaluation mode disables it.
  void set_training(bool training);
  void to(c10::Device device);

  /// Mixed precision: forward (and so backward) under autocast in `dtype` (none: fp32). The
  /// parameters stay fp32, and forward() returns fp32 either way.
  void set_autocast(std::optional<at::ScalarType> dtype);
  std::optional<at::ScalarType> autocast() const;
  /// Low-precision weights: the parameters themselves become `dtype` (bf16), so activations,
  /// norms and element-wise kernels run in it and no weight is cast per op. For a shard whose
  /// weights are copies of fp32 master weights (a stage's weight versions): its gradients come
  /// out in `dtype`, to be added to the masters' fp32 gradients. forward() still takes and
  /// returns fp32 at its boundaries.
  void set_weight_dtype(at::ScalarType dtype);
  std::optional<at::ScalarType> weight_dtype() const;
  /// Activation checkpointing: each block's activations are recomputed in the backward pass.
  void set_activation_checkpointing(bool on);

 private:
  friend class BlockChain;
  struct Impl;
  explicit Shard(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class BlockChain {
 public:
  /// Throws job::JobSpecError if the model section is invalid.
  BlockChain(job::ModelSpec spec, uint64_t seed);
  static BlockChain from_job(const job::JobSpec& job) { return {job.model, job.seed}; }

  const job::ModelSpec& spec() const { return spec_; }
  uint64_t seed() const { return seed_; }
  int64_t block_count() const { return int64_t(costs_.size()); }
  const std::vector<BlockCost>& costs() const { return costs_; }

  /// Builds blocks [range.first, range.last) on the CPU, initialised from (seed, block
  /// index). Throws std::out_of_range for an empty or out-of-bounds range.
  Shard shard(BlockRange range) const;
  Shard whole() const { return shard({0, block_count()}); }

 private:
  job::ModelSpec spec_;
  uint64_t seed_;
  std::vector<BlockCost> costs_;
};

}  // namespace rookery::model
