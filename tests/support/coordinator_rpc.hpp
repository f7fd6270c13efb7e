#pragma once
// Talking to a coordinator from tests and benchmarks the way a dashboard or a volunteer does:
// one CURVE request with the caller's own key. Needs rookery::net and rookery::wire.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "net/identity.hpp"
#include "net/rpc.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::testing {

// One request to the coordinator at `endpoint` (public key `key`) as `me`; nullopt when it
// does not answer within `timeout` or answers with something undecodable.
inline std::optional<wire::pb::Envelope> coordinator_request(
    net::SecureContext& ctx, const net::CurveKeyPair& me, const std::string& endpoint,
    const std::string& key, wire::pb::Envelope request,
    std::chrono::milliseconds timeout = std::chrono::seconds(2)) {
  net::RpcClient client(ctx, endpoint, &me, key);
  const auto r = client.request(std::move(request), timeout);
  if (!r.ok()) return std::nullopt;
  return r.message->header;
}

// The run as the coordinator reports it (members, seats, bans, the last `loss_points` points
// of the loss curve); nullopt when it does not answer with one.
inline std::optional<wire::pb::RunStatus> run_status(
    net::SecureContext& ctx, const net::CurveKeyPair& me, const std::string& endpoint,
    const std::string& key, std::uint32_t loss_points = 1,
    std::chrono::milliseconds timeout = std::chrono::seconds(2)) {
  wire::pb::Envelope e;
  e.mutable_run_status_request()->set_loss_points(loss_points);
  const auto reply = coordinator_request(ctx, me, endpoint, key, std::move(e), timeout);
  if (!reply || !reply->has_run_status()) return std::nullopt;
  return reply->run_status();
}

// A join as a volunteer sends it: its stage, ring and shard endpoints on consecutive loopback
// ports from `port`, and a profile with the given FLOP/s, free memory, bandwidth (each way)
// and round trip (a test's numbers: played volunteers measure nothing).
inline wire::pb::Envelope join_request(const std::string& job_id, int port, double flops_per_s,
                                       std::int64_t memory, double bytes_per_s, double rtt_s,
                                       const std::string& token = {}) {
  wire::pb::Envelope e;
  auto* j = e.mutable_join();
  j->set_job_id(job_id);
  j->set_invite_token(token);
  const auto at = [&](int offset) { return "tcp://127.0.0.1:" + std::to_string(port + offset); };
  j->set_stage_endpoint(at(0));
  j->set_reduce_endpoint(at(1));
  j->set_shard_endpoint(at(2));
  auto* p = j->mutable_profile();
  p->set_flops_per_s(flops_per_s);
  p->set_free_memory_bytes(memory);
  p->set_upload_bytes_per_s(bytes_per_s);
  p->set_download_bytes_per_s(bytes_per_s);
  p->set_rtt_s(rtt_s);
  p->set_device("cpu");
  return e;
}

}  // namespace rookery::testing
