#pragma once
// The optimizer state that travels with a shard's parameters when a plan moves blocks to
// another node: the holder's shard server adds one f32 frame per state buffer of
// its optimizer (AdamW's "adamw.exp_avg" and "adamw.exp_avg_sq", SGD's "sgd.momentum"), laid
// out like the "parameters" frame, and the bias-correction step of the moments in the
// ShardReply; the taker checks them as strictly as the parameters. Each frame carries its
// XXH3 checksum, which the wire decoder has verified before any of this runs.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/stage_runtime.hpp"
#include "rookery/envelope.pb.h"
#include "wire/message.hpp"

namespace rookery::pipeline {

// Adds values [offset, offset + size) of `state` (each buffer laid out like the shard's
// parameters) to a shard reply: the moment step into `reply`, a frame per buffer.
void add_shard_state(const OptimizerState& state, std::int64_t offset, std::int64_t size,
                     wire::pb::ShardReply& reply, std::vector<wire::OutgoingTensor>& tensors);

// The optimizer state in a shard reply holding `expected` parameters, for an optimizer that
// keeps the buffers `names`: every one of them (and no other), f32 after decoding, one value
// per parameter, all finite, second moments (names ending in "_sq") >= 0, a moment step
// >= 0. Anything else: none, and the reason in `error` (the caller falls back to fresh
// moments). With no buffers to keep (SGD without momentum) an empty state.
std::optional<OptimizerState> verify_shard_state(const std::vector<std::string>& names,
                                                 const wire::Message& reply, std::int64_t expected,
                                                 std::string& error);

// What a holder's reply to a ShardRequest for blocks [first, last) carries, checked as strictly
// by every taker (a node taking over blocks, the coordinator's model archive).
struct ShardReplyContents {
  std::vector<float> values;  // the blocks' `expected` parameters, all finite
  std::int64_t optimizer_steps = 0;
  std::uint64_t plan_version = 0;                // the plan the holder trained them under
  std::optional<OptimizerState> state;           // none: fresh moments (why is in state_error)
  std::string state_error;
};

// The reply must be a shard reply for exactly [first, last) holding `expected` f32 parameters,
// all finite; anything else: none, and why in `error` (a holder that answers wrongly is not
// worth asking again). Its optimizer state is verify_shard_state's for `state_names`: a reply
// whose state is unusable still gives its parameters.
std::optional<ShardReplyContents> verify_shard_reply(const wire::Message& reply,
                                                     std::int64_t first, std::int64_t last,
                                                     std::int64_t expected,
                                                     const std::vector<std::string>& state_names,
                                                     std::string& error);

}  // namespace rookery::pipeline
