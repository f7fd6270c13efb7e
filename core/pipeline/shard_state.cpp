#include "pipeline/shard_state.hpp"

#include <algorithm>
#include <cmath>

namespace rookery::pipeline {

void add_shard_state(const OptimizerState& state, std::int64_t offset, std::int64_t size,
                     wire::pb::ShardReply& reply, std::vector<wire::OutgoingTensor>& tensors) {
  reply.set_moment_step(state.moment_step);
  for (const auto& [name, v] : state.buffers) {
    if (offset < 0 || size < 0 || offset + size > static_cast<std::int64_t>(v.size())) continue;
    tensors.push_back(wire::OutgoingTensor::encode(
        name, {size},
        std::span<const float>(v).subspan(static_cast<std::size_t>(offset),
                                          static_cast<std::size_t>(size))));
  }
}

std::optional<OptimizerState> verify_shard_state(const std::vector<std::string>& names,
                                                 const wire::Message& reply, std::int64_t expected,
                                                 std::string& error) {
  if (!reply.header.has_shard_reply()) {
    error = "not a shard reply";
    return std::nullopt;
  }
  for (const auto& t : reply.tensors) {
    if (t.name() != "parameters" &&
        std::find(names.begin(), names.end(), t.name()) == names.end()) {
      error = "a state buffer '" + t.name() +
              "' this optimizer does not keep (another kind of optimizer?)";
      return std::nullopt;
    }
  }
  OptimizerState s;
  if (names.empty()) return s;  // nothing to hand over (SGD without momentum)
  s.moment_step = reply.header.shard_reply().moment_step();
  if (s.moment_step < 0) {
    error = "a negative moment step (" + std::to_string(s.moment_step) + ")";
    return std::nullopt;
  }
  for (const auto& name : names) {
    const auto* t = reply.tensor(name);
    if (!t) {
      error = "no '" + name + "' in the reply (a holder that sends no optimizer state)";
      return std::nullopt;
    }
    if (t->dtype() != wire::DType::F32 || t->numel() != expected || t->shape().size() != 1) {
      error = "'" + name + "' is not " + std::to_string(expected) + " f32 values";
      return std::nullopt;
    }
    auto v = t->to_f32();
    const bool second_moment = name.ends_with("_sq");
    const auto bad = std::find_if(
        v.begin(), v.end(), [&](float x) { return !std::isfinite(x) || (second_moment && x < 0); });
    if (bad != v.end()) {
      error = "'" + name + "' value " + std::to_string(bad - v.begin()) + " is " +
              std::to_string(*bad) +
              (second_moment ? " (a second moment is finite and >= 0)" : " (not finite)");
      return std::nullopt;
    }
    s.buffers.emplace_back(name, std::move(v));
  }
  return s;
}

std::optional<ShardReplyContents> verify_shard_reply(const wire::Message& reply,
                                                     std::int64_t first, std::int64_t last,
                                                     std::int64_t expected,
                                                     const std::vector<std::string>& state_names,
                                                     std::string& error) {
  const auto& h = reply.header;
  if (!h.has_shard_reply()) {
    error = h.has_error() ? h.error().message() : "an unexpected reply";
    return std::nullopt;
  }
  const auto* t = reply.tensor("parameters");
  if (!t || t->dtype() != wire::DType::F32 || t->numel() != expected ||
      h.shard_reply().first_block() != first || h.shard_reply().last_block() != last) {
    error = "the reply does not hold " + std::to_string(expected) +
            " f32 parameters of blocks [" + std::to_string(first) + ", " + std::to_string(last) +
            ")";
    return std::nullopt;
  }
  ShardReplyContents got;
  got.values = t->to_f32();
  if (!std::all_of(got.values.begin(), got.values.end(),
                   [](float v) { return std::isfinite(v); })) {
    error = "parameters that are not all finite";
    return std::nullopt;
  }
  got.optimizer_steps = h.shard_reply().optimizer_steps();
  got.plan_version = h.shard_reply().plan_version();
  got.state = verify_shard_state(state_names, reply, expected, got.state_error);
  return got;
}

}  // namespace rookery::pipeline
