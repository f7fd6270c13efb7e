#pragma once
// The model archive: the coordinator keeps versioned snapshots of the whole model,
// every block's parameters and optimizer state as its holders train them, so that a block
// whose every holder left comes back from the latest snapshot instead of the job's initial
// weights, and the run's model outlives any volunteer.
//
// - Reconciled, not trusted: each block is asked of up to three holders (replicas in other
//   pipelines). Three or more copies are aggregated with CenteredClip (one liar cannot move
//   the result beyond the clip radius); two must agree (relative distance within
//   `agree_tolerance`: replicas drift apart only between averaging rounds), else the block
//   is kept from the snapshot before; a single copy is taken as it is (nothing to check it
//   against, said in the log).
// - Stored atomically and checksummed (checkpoint_file.hpp), one file per snapshot under
//   <data>/archive/snapshot-<seq>.ckpt, the newest `keep` of them; a kill mid-write leaves
//   the previous snapshot whole, and a damaged one is reported and the one before it used.
// - Served to the job's members as their shard servers serve blocks (ShardRequest), which
//   makes the coordinator a source of last resort in a plan (shard_sources.hpp).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "net/rpc.hpp"
#include "pipeline/shard_snapshot.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::coordinator {

// The evaluation of the whole model in snapshot `seq` (run_archive.hpp). Throws to say it could
// not be done.
using Evaluate =
    std::function<wire::pb::Evaluation(const pipeline::ShardSnapshot& snapshot, std::uint64_t seq)>;

// One holder's copy of one block, verified on arrival (size, finite values, state).
struct BlockCopy {
  std::string holder;  // its key
  std::vector<float> values;
  std::optional<pipeline::OptimizerState> state;
  std::int64_t optimizer_steps = 0;
};

struct ReconciledBlock {
  std::optional<BlockCopy> block;     // none: no copy to keep (no holder, or two that disagree)
  std::string how;                    // in words, for the log
  std::vector<std::string> outliers;  // holders whose copy CenteredClip rejected or clipped hard
};

// The archive's copy of one block from its holders' copies (all the same length).
ReconciledBlock reconcile_block(std::span<const BlockCopy> copies, double agree_tolerance = 0.05);

class ModelArchive {
 public:
  // `block_counts`: the parameters of each block of the job's model. Reads the newest
  // snapshot of `dir` that verifies (a damaged one is logged and skipped).
  ModelArchive(std::filesystem::path dir, std::string job_id,
               std::vector<std::int64_t> block_counts, std::size_t keep = 3);

  std::size_t blocks() const { return block_counts_.size(); }
  const std::vector<std::int64_t>& block_counts() const { return block_counts_; }

  // The latest snapshot (blocks [0, blocks())), none before the first.
  std::shared_ptr<const pipeline::ShardSnapshot> latest() const;
  std::uint64_t latest_seq() const;

  // Stores a snapshot of the whole model made of `blocks` (one per block, in order; a missing
  // one is taken from the latest snapshot). Returns false, with why in the log, when a block
  // has no copy in either or the write failed (the previous snapshot stays).
  bool store(std::vector<std::optional<BlockCopy>> blocks, std::uint64_t plan_version);

  // Answers a member's ShardRequest from the latest snapshot (an error when it has none).
  void serve(const wire::pb::ShardRequest& q, net::Reply& reply) const;

 private:
  std::filesystem::path path_of(std::uint64_t seq) const;

  std::filesystem::path dir_;
  std::string job_id_;
  std::vector<std::int64_t> block_counts_;
  std::vector<std::int64_t> offsets_;  // of each block in the flat model, and the total
  std::size_t keep_;
  mutable std::mutex mutex_;
  std::shared_ptr<const pipeline::ShardSnapshot> latest_;
  std::uint64_t seq_ = 0;
};

}  // namespace rookery::coordinator
