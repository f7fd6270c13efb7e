#pragma once
// This node's shard server: peers of the job take from it the parameters and optimizer state
// of the blocks this node trains, or trained under the plan before (their ShardHandover), and
// chunks of the job's dataset; members measuring their links to this node get their probes
// answered. It admits the job's members only, as the coordinator lists them.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "data/dataset_delivery.hpp"
#include "net/identity.hpp"
#include "net/rpc.hpp"
#include "net/secure_context.hpp"
#include "pipeline/shard_snapshot.hpp"
#include "pipeline/stage_runtime.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::node {

using pipeline::ShardSnapshot;

class ShardServer {
 public:
  using DatasetSource = std::function<std::shared_ptr<data::DatasetStore>()>;

  // Fault injection (tests): a server that serves peers corrupt chunks of the dataset, or
  // lies about the blocks it holds (rookery-node's --fault corrupt-data, corrupt-shards).
  enum class Fault { none, corrupt_data, corrupt_shards };

  // Listens on tcp://`host`:<a free port> and admits no one until admit_only() or
  // admit_any(). `dataset` gives the job's copy of the data (none: no chunks to serve); it
  // is called on the server's thread.
  ShardServer(net::SecureContext& ctx, const net::CurveKeyPair& identity, const std::string& host,
              DatasetSource dataset, Fault fault = Fault::none);
  ~ShardServer();

  const std::string& endpoint() const { return server_->endpoint(); }

  // The ZAP allow-list admit_only() and admit_any() set: the job's members (a relay the node
  // hosts admits the same).
  static constexpr const char* kMembersDomain = "rookery.shard";

  // Only these keys from now on, open connections too (every request is checked).
  void admit_only(const std::vector<std::string>& members);
  // Any CURVE peer (a coordinator that keeps no member list).
  void admit_any();

  // The parameter count of each block of the job's model (from the first plan on).
  bool knows_blocks() const;
  void set_block_counts(std::vector<std::int64_t> counts);
  // How many parameters blocks [first, last) hold.
  std::int64_t parameters_of(std::int64_t first, std::int64_t last) const;

  // What this node holds: its live stage's shard, refreshed as it trains, or a retired
  // stage's (which drops the live one).
  void hold(ShardSnapshot snapshot, bool live);
  // The part of blocks [first, last) that this node holds itself, from its live shard if that
  // overlaps them, else from its retired one; none when neither does.
  std::optional<ShardSnapshot> held_part(std::int64_t first, std::int64_t last) const;

 private:
  std::optional<net::Reply> serve(const net::RequestContext& req, wire::Message& m);
  void serve_shard(const net::RequestContext& req, const wire::pb::ShardRequest& q,
                   net::Reply& reply) const;
  void serve_data_chunk(const wire::pb::DataChunkRequest& q, net::Reply& reply) const;
  // Where blocks [first, last) lie among the parameters of blocks from `from` on.
  std::pair<std::int64_t, std::int64_t> offset_and_size(std::int64_t from, std::int64_t first,
                                                        std::int64_t last) const;

  net::SecureContext& ctx_;
  const net::CurveKeyPair& identity_;
  DatasetSource dataset_;
  Fault fault_;
  mutable std::mutex mutex_;  // the block counts and the snapshots, against the server's thread
  std::vector<std::int64_t> block_counts_;
  std::optional<ShardSnapshot> live_, retired_;
  std::unique_ptr<net::RpcServer> server_;  // last: its thread stops before the rest goes
};

}  // namespace rookery::node
