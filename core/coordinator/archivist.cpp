#include "coordinator/archivist.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

#include "net/rpc.hpp"
#include "pipeline/shard_state.hpp"

namespace rookery::coordinator {

namespace pb = wire::pb;

namespace {
constexpr std::size_t kCopiesPerBlock = 3;  // enough for CenteredClip to outvote one liar
}  // namespace

ArchiveRound holders_of(const Assignment& plan, const std::map<std::string, Volunteer>& live) {
  ArchiveRound r;
  r.plan_version = plan.version;
  for (const auto& pipeline : plan.pipelines) {
    for (const auto& seat : pipeline) {
      const auto it = live.find(seat.key);
      if (it == live.end() || it->second.member.shard_endpoint.empty()) continue;
      r.holders.push_back(
          {seat.key, it->second.member.shard_endpoint, seat.first_block, seat.last_block});
    }
  }
  return r;
}

Archivist::Archivist(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                     ModelArchive& archive, std::vector<std::string> state_names,
                     std::chrono::milliseconds interval, std::function<ArchiveRound()> round,
                     std::chrono::milliseconds request_timeout, Stored stored)
    : ctx_(ctx),
      identity_(identity),
      archive_(archive),
      state_names_(std::move(state_names)),
      interval_(interval),
      round_(std::move(round)),
      request_timeout_(request_timeout),
      stored_(std::move(stored)) {
  if (interval_.count() > 0) thread_ = std::thread([this] { run(); });
}

Archivist::~Archivist() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Archivist::run() {
  std::unique_lock lock(mutex_);
  while (!cv_.wait_for(lock, interval_, [this] { return stop_; })) {
    lock.unlock();
    try {
      collect();
    } catch (const std::exception& e) {
      spdlog::error("model archive: collection failed: {}", e.what());
    }
    lock.lock();
  }
}

std::optional<BlockCopy> Archivist::fetch(const ArchiveHolder& h, std::int64_t block,
                                          std::string& error) {
  const auto expected = archive_.block_counts().at(static_cast<std::size_t>(block));
  net::RpcClient client(ctx_, h.shard_endpoint, &identity_, h.key);
  pb::Envelope e;
  e.mutable_shard_request()->set_first_block(block);
  e.mutable_shard_request()->set_last_block(block + 1);
  const auto r = client.request(e, request_timeout_);
  if (!r.ok()) {
    error = r.error;
    return std::nullopt;
  }
  auto got = pipeline::verify_shard_reply(*r.message, block, block + 1, expected, state_names_,
                                          error);
  if (!got) return std::nullopt;
  if (!got->state)
    spdlog::warn("model archive: block {} from {}: {}", block, net::short_key(h.key),
                 got->state_error);
  BlockCopy c;
  c.holder = h.key;
  c.values = std::move(got->values);
  c.optimizer_steps = got->optimizer_steps;
  c.state = std::move(got->state);
  return c;
}

bool Archivist::stopping() {
  std::lock_guard lock(mutex_);
  return stop_;
}

bool Archivist::collect() {
  const auto round = round_();
  if (round.holders.empty()) return false;
  std::vector<std::optional<BlockCopy>> blocks(archive_.blocks());
  std::size_t single = 0, kept = 0;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const auto block = static_cast<std::int64_t>(b);
    std::vector<BlockCopy> copies;
    for (const auto& h : round.holders) {
      if (copies.size() == kCopiesPerBlock) break;
      if (stopping()) return false;  // the coordinator stops: no half-collected snapshot
      if (h.first_block > block || h.last_block <= block) continue;
      std::string error;
      if (auto c = fetch(h, block, error)) {
        copies.push_back(std::move(*c));
      } else {
        spdlog::warn("model archive: block {} from {}: {}", b, net::short_key(h.key), error);
      }
    }
    auto r = reconcile_block(copies);
    for (const auto& liar : r.outliers) {
      spdlog::warn("model archive: block {}: the copy of {} is an outlier, left out", b,
                   net::short_key(liar));
    }
    if (copies.size() == 1) ++single;
    if (!r.block) {
      ++kept;
      spdlog::warn("model archive: block {}: {}", b, r.how);
    }
    blocks[b] = std::move(r.block);
  }
  if (!archive_.store(std::move(blocks), round.plan_version)) return false;
  spdlog::info(
      "model archive: snapshot {} of plan {} ({} blocks; {} from a single holder, {} kept from "
      "the snapshot before)",
      archive_.latest_seq(), round.plan_version, archive_.blocks(), single, kept);
  if (stored_) stored_(archive_.latest(), archive_.latest_seq(), round.plan_version);
  return true;
}

}  // namespace rookery::coordinator
