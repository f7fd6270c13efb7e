#include "node/shard_handover.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <thread>

#include <spdlog/spdlog.h>

#include "net/rpc.hpp"
#include "node/shard_server.hpp"
#include "pipeline/shard_state.hpp"
#include "node/stage_workload.hpp"

namespace rookery::node {

namespace pb = wire::pb;

ShardHandover::ShardHandover(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                             const ShardServer& own, std::chrono::milliseconds request_timeout)
    : ctx_(ctx), identity_(identity), own_(own), request_timeout_(request_timeout) {}

std::string ShardHandover::load(StageWorkload& w, std::int64_t first, std::int64_t last,
                                const std::vector<pb::ShardSource>& sources) {
  // Where each block of [first, last) came from, whether with its optimizer state, and that
  // copy's moment step (how long it trained): a restored checkpoint replaces a younger copy.
  enum class Origin { none, own, peer, checkpoint };
  const auto n = static_cast<std::size_t>(last - first);
  std::vector<Origin> origin(n, Origin::none);
  std::vector<bool> with_state(n, false);
  std::vector<std::int64_t> age(n, 0);
  const auto at = [first](std::int64_t b) { return static_cast<std::size_t>(b - first); };
  std::int64_t steps = 0;
  auto load = [&](std::int64_t a, std::int64_t b, std::span<const float> values,
                  std::int64_t optimizer_steps, const pipeline::OptimizerState* state,
                  Origin from) {
    try {
      w.runtime().load_blocks(a, b, values, optimizer_steps, state);
    } catch (const std::exception& e) {
      spdlog::warn("blocks [{}, {}) not loaded: {}", a, b, e.what());
      return false;
    }
    steps = std::max(steps, optimizer_steps);
    for (auto i = a; i < b; ++i) {
      origin[at(i)] = from;
      with_state[at(i)] = state != nullptr;
      age[at(i)] = state ? state->moment_step : 0;
    }
    return true;
  };
  // Its own moments fit unless the job's optimizer changed kind (a new job spec).
  auto load_own = [&](const ShardSnapshot& part, Origin from) {
    return load(part.first_block, part.last_block, part.values, part.optimizer_steps, &part.state,
                from) ||
           load(part.first_block, part.last_block, part.values, part.optimizer_steps, nullptr,
                from);
  };
  const auto held = own_.held_part(first, last);
  // What this node trains or trained in this process is the freshest copy there is; what it
  // read back from its checkpoint after a restart is weighed against the peers' below.
  if (held && !held->restored) load_own(*held, Origin::own);
  for (const auto& src : sources) {
    // The part of this source's range still missing, as contiguous runs.
    for (auto a = std::max(first, src.first_block()); a < std::min(last, src.last_block());) {
      if (origin[at(a)] != Origin::none) {
        ++a;
        continue;
      }
      auto b = a;
      while (b < std::min(last, src.last_block()) && origin[at(b)] == Origin::none) ++b;
      std::string error;
      if (auto got = fetch(w, src, a, b, error)) {
        if (!got->state) {
          spdlog::warn(
              "blocks [{}, {}) from {}: parameters verified, optimizer state not usable ({}): "
              "those blocks "
              "start from fresh moments",
              a, b, net::short_key(src.key()), got->state_error);
        }
        load(a, b, got->values, got->optimizer_steps, got->state ? &*got->state : nullptr,
             Origin::peer);
      } else {
        spdlog::warn("could not fetch blocks [{}, {}) from {}: {}", a, b, net::short_key(src.key()),
                     error);
      }
      a = b;
    }
  }
  if (held && held->restored) {
    // Runs of blocks that no peer handed over, or only a copy that trained for less.
    const auto better = [&](std::int64_t b) {
      return origin[at(b)] == Origin::none || age[at(b)] < held->moment_step_of(b, b + 1);
    };
    for (auto a = held->first_block; a < held->last_block;) {
      if (!better(a)) {
        ++a;
        continue;
      }
      auto b = a;
      while (b < held->last_block && better(b)) ++b;
      if (const auto part = own_.held_part(a, b); part && part->restored &&
                                                  part->first_block == a && part->last_block == b &&
                                                  load_own(*part, Origin::checkpoint)) {
        spdlog::info(
            "blocks [{}, {}) taken back from this node's checkpoint (moment step {}): no peer held "
            "a copy "
            "trained longer",
            a, b, part->moment_step_of(a, b));
      }
      a = b;
    }
  }
  const auto count = [&](Origin o) { return std::count(origin.begin(), origin.end(), o); };
  const auto missing = count(Origin::none);
  if (missing > 0) {
    spdlog::warn(
        "{} block(s) of [{}, {}) had no reachable holder: they start from the job's initial "
        "weights",
        missing, first, last);
  }
  const auto stateful = std::count(with_state.begin(), with_state.end(), true);
  return std::to_string(count(Origin::own)) + " block(s) kept, " +
         std::to_string(count(Origin::peer)) + " fetched from peers, " +
         std::to_string(count(Origin::checkpoint)) + " from this node's checkpoint, " +
         std::to_string(missing) + " fresh; optimizer step " + std::to_string(steps) + "; " +
         std::to_string(stateful) + " block(s) with their optimizer state, " +
         std::to_string(static_cast<std::int64_t>(n) - stateful) + " with fresh moments";
}

std::optional<FetchedBlocks> ShardHandover::fetch(StageWorkload& w, const pb::ShardSource& src,
                                                  std::int64_t first, std::int64_t last,
                                                  std::string& error) {
  if (!net::is_z85_key(src.key()) || src.endpoint().rfind("tcp://", 0) != 0) {
    error = "the coordinator named an invalid source";
    return std::nullopt;
  }
  const std::int64_t expected = own_.parameters_of(first, last);
  // The holder may not have the new plan yet, or be mid-switch: a few tries.
  for (int attempt = 0; attempt < 3; ++attempt) {
    net::RpcClient client(ctx_, src.endpoint(), &identity_, src.key());
    pb::Envelope e;
    e.mutable_shard_request()->set_first_block(first);
    e.mutable_shard_request()->set_last_block(last);
    const auto r = client.request(e, request_timeout_);
    if (!r.ok()) {
      error = r.error;
      continue;
    }
    if (!r.message->header.has_shard_reply()) {
      error = r.message->header.has_error() ? r.message->header.error().message()
                                            : "unexpected reply";
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      continue;
    }
    auto got = pipeline::verify_shard_reply(*r.message, first, last, expected,
                                            w.runtime().optimizer_state_names(), error);
    if (!got) return std::nullopt;  // a holder that answers wrongly is not asked again
    spdlog::info("fetched blocks [{}, {}) from {} (trained under plan {}, optimizer step {}, {})",
                 first, last, net::short_key(src.key()), got->plan_version, got->optimizer_steps,
                 got->state ? "with its optimizer state" : "without usable optimizer state");
    return got;
  }
  return std::nullopt;
}

}  // namespace rookery::node
