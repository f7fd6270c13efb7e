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

}  // namespace rookery::pipeline
