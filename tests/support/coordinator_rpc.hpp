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
inline std::optional<wire::pb::Envelope> coordinator_request(net::SecureContext& ctx, const net::CurveKeyPair& me,
                                                             const std::string& endpoint, const std::string& key,
                                                             wire::pb::Envelope request,
                                                             std::chrono::milliseconds timeout = std::chrono::seconds(2)) {
  net::RpcClient client(ctx, endpoint, &me, key);
  const auto r = client.request(std::move(request), timeout);
  if (!r.ok()) return std::nullopt;
  return r.message->header;
}

// The run as the coordinator reports it (members, seats, bans, the last `loss_points` points
// of the loss curve); nullopt when it does not answer with one.
inline std::optional<wire::pb::RunStatus> run_status(net::SecureContext& ctx, const net::CurveKeyPair& me,
                                                     const std::string& endpoint, const std::string& key,
                                                     std::uint32_t loss_points = 1,
                                                     std::chrono::milliseconds timeout = std::chrono::seconds(2)) {
  wire::pb::Envelope e;
  e.mutable_run_status_request()->set_loss_points(loss_points);
  const auto reply = coordinator_request(ctx, me, endpoint, key, std::move(e), timeout);
  if (!reply || !reply->has_run_status()) return std::nullopt;
  return reply->run_status();
}

}  // namespace rookery::testing
