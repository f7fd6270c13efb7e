#include "node/shard_server.hpp"

#include <algorithm>
#include <span>

#include <spdlog/spdlog.h>

#include "net/link_probe.hpp"
#include "pipeline/shard_state.hpp"

namespace rookery::node {

namespace {

namespace pb = wire::pb;

constexpr const char* kShardDomain = ShardServer::kMembersDomain;
constexpr std::int64_t kMaxPeerProbeBytes = 1 << 20;  // what a peer's link probe may ask

}  // namespace

ShardServer::ShardServer(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                         const std::string& host, DatasetSource dataset, Fault fault)
    : ctx_(ctx), identity_(identity), dataset_(std::move(dataset)), fault_(fault) {
  ctx_.auth().replace(kShardDomain, {});
  net::RpcServer::Config rc;
  rc.endpoint = "tcp://" + host + ":0";
  rc.domain = kShardDomain;
  server_ = std::make_unique<net::RpcServer>(
      ctx_, &identity_, rc,
      [this](const net::RequestContext& r, wire::Message& m) { return serve(r, m); });
}

ShardServer::~ShardServer() { server_.reset(); }

void ShardServer::admit_only(const std::vector<std::string>& members) {
  ctx_.auth().set_open(kShardDomain, false);
  ctx_.auth().replace(kShardDomain, members);
}

void ShardServer::admit_any() { ctx_.auth().set_open(kShardDomain, true); }

bool ShardServer::knows_blocks() const {
  std::lock_guard lock(mutex_);
  return !block_counts_.empty();
}

void ShardServer::set_block_counts(std::vector<std::int64_t> counts) {
  std::lock_guard lock(mutex_);
  block_counts_ = std::move(counts);
}

std::int64_t ShardServer::parameters_of(std::int64_t first, std::int64_t last) const {
  std::lock_guard lock(mutex_);
  return offset_and_size(first, first, last).second;
}

std::pair<std::int64_t, std::int64_t> ShardServer::offset_and_size(std::int64_t from,
                                                                   std::int64_t first,
                                                                   std::int64_t last) const {
  std::int64_t offset = 0, size = 0;
  for (auto b = from; b < last; ++b) {
    const auto count = b >= 0 && static_cast<std::size_t>(b) < block_counts_.size()
                           ? block_counts_[static_cast<std::size_t>(b)]
                           : 0;
    (b < first ? offset : size) += count;
  }
  return {offset, size};
}

void ShardServer::hold(ShardSnapshot snapshot, bool live) {
  std::lock_guard lock(mutex_);
  (live ? live_ : retired_) = std::move(snapshot);
  if (!live) live_.reset();
}

std::optional<ShardSnapshot> ShardServer::held_part(std::int64_t first, std::int64_t last) const {
  std::lock_guard lock(mutex_);
  for (const auto* s : {&live_, &retired_}) {
    if (!*s) continue;
    const auto a = std::max(first, (*s)->first_block), b = std::min(last, (*s)->last_block);
    if (a >= b) continue;
    const auto [offset, size] = offset_and_size((*s)->first_block, a, b);
    return (*s)->part(a, b, offset, size);
  }
  return std::nullopt;
}

std::optional<net::Reply> ShardServer::serve(const net::RequestContext& req, wire::Message& m) {
  net::Reply reply;
  if (m.header.has_ping()) {  // members measuring their links to this node
    net::answer_ping(m.header.ping(), "node", identity_, reply);
  } else if (m.header.has_bandwidth_probe()) {
    net::answer_bandwidth_probe(m, kMaxPeerProbeBytes, reply);
  } else if (m.header.has_data_chunk_request()) {
    serve_data_chunk(m.header.data_chunk_request(), reply);
  } else if (m.header.has_shard_request()) {
    serve_shard(req, m.header.shard_request(), reply);
  } else {
    reply.header.mutable_error()->set_message(
        "this is a shard server: it answers shard requests only");
  }
  return reply;
}

void ShardServer::serve_shard(const net::RequestContext& req, const pb::ShardRequest& q,
                              net::Reply& reply) const {
  const auto first = q.first_block(), last = q.last_block();
  std::lock_guard lock(mutex_);
  for (const auto* s : {&live_, &retired_}) {
    if (!*s || (*s)->first_block > first || (*s)->last_block < last || first >= last) continue;
    const auto& snap = **s;
    const auto [offset, size] = offset_and_size(snap.first_block, first, last);
    auto* out = reply.header.mutable_shard_reply();
    out->set_first_block(first);
    out->set_last_block(last);
    out->set_optimizer_steps(snap.optimizer_steps);
    out->set_plan_version(snap.plan_version);
    const auto values =
        std::span<const float>(snap.values)
            .subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(size));
    if (fault_ == Fault::corrupt_shards) {
      // Fault injection (tests): a holder that lies about its blocks, x-100, to every taker
      // and to the coordinator's archive. Its optimizer state goes out as it is: the lie is
      // in the weights, what holders' copies are compared on, and honest moments pass every
      // check a taker makes (negated second moments would not), so nothing but that
      // comparison can catch it.
      std::vector<float> lie(values.begin(), values.end());
      for (auto& v : lie) v *= -100.0f;
      reply.tensors.push_back(wire::OutgoingTensor::encode("parameters", {size}, lie));
    } else {
      reply.tensors.push_back(wire::OutgoingTensor::encode("parameters", {size}, values));
    }
    // The optimizer's moments for the same values, one checksummed frame per buffer.
    pipeline::add_shard_state(snap.state, offset, size, *out, reply.tensors);
    out->set_moment_step(snap.moment_step_of(first, last));  // these blocks', not the shard's
    spdlog::info("handed blocks [{}, {}) ({} parameters, {} optimizer state buffer(s)) to {}",
                 first, last, size, snap.state.buffers.size(), net::short_key(req.peer_key));
    return;
  }
  reply.header.mutable_error()->set_message("this node does not hold blocks [" +
                                            std::to_string(first) + ", " + std::to_string(last) +
                                            ")");
}

// A chunk of the job's dataset, for a member fetching it (verified here when it was fetched;
// the member checks it again against its manifest).
void ShardServer::serve_data_chunk(const pb::DataChunkRequest& q, net::Reply& reply) const {
  const auto d = dataset_();
  std::optional<std::vector<std::byte>> bytes;
  if (d && q.dataset_digest() == data::as_bytes(d->digest()))
    bytes = d->read({q.file(), q.chunk()});
  if (!bytes) {
    reply.header.mutable_error()->set_message("this node does not hold that chunk of the dataset");
    return;
  }
  // Fault injection (tests): a peer that serves corrupt data. The taker's hash check drops it.
  if (fault_ == Fault::corrupt_data && !bytes->empty()) (*bytes)[0] ^= std::byte{0x5a};
  const auto size = static_cast<std::int64_t>(bytes->size());
  reply.header.mutable_data_chunk_reply()->set_file(q.file());
  reply.header.mutable_data_chunk_reply()->set_chunk(q.chunk());
  reply.tensors.push_back(wire::OutgoingTensor::raw("chunk", wire::DType::U8, {size},
                                                    wire::Payload::own(std::move(*bytes))));
}

}  // namespace rookery::node
