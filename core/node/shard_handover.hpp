#pragma once
// Taking over blocks when a plan moves them: a new stage's blocks come from this node's own
// shard where it held them, else from the peers that held them under the plan before, else
// from the coordinator's model archive (the last source a plan names, for blocks whose every
// holder left), with their optimizer state, verified as strictly as the parameters. A block
// this node read back from its own checkpoint after a restart is taken from there unless a
// source handed over a copy that trained longer (its moment step). Blocks no one could hand
// over start from the job's initial weights.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "net/identity.hpp"
#include "net/secure_context.hpp"
#include "pipeline/shard_state.hpp"
#include "pipeline/stage_runtime.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::node {

class ShardServer;
class StageWorkload;

// What a peer handed over for some blocks, verified.
using FetchedBlocks = pipeline::ShardReplyContents;

class ShardHandover {
 public:
  // `own`: this node's shard server, which knows the model's blocks and what this node held.
  ShardHandover(net::SecureContext& ctx, const net::CurveKeyPair& identity, const ShardServer& own,
                std::chrono::milliseconds request_timeout = std::chrono::seconds(3));

  // Fills blocks [first, last) of the new stage `w`: from this node's own shard where it has
  // them, else from `sources` (the plan's holders). Returns a line for the log.
  std::string load(StageWorkload& w, std::int64_t first, std::int64_t last,
                   const std::vector<wire::pb::ShardSource>& sources);

  // Blocks [first, last) from the peer `src`, checked against what `w` expects of them; none,
  // with why, when it cannot hand them over.
  std::optional<FetchedBlocks> fetch(StageWorkload& w, const wire::pb::ShardSource& src,
                                     std::int64_t first, std::int64_t last, std::string& error);

 private:
  net::SecureContext& ctx_;
  const net::CurveKeyPair& identity_;
  const ShardServer& own_;
  std::chrono::milliseconds request_timeout_;
};

}  // namespace rookery::node
