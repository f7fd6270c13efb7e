#include "net/link_probe.hpp"

#include <algorithm>
#include <vector>

namespace rookery::net {

namespace pb = wire::pb;
using Clock = std::chrono::steady_clock;

std::optional<LinkMeasurement> measure_link(RpcClient& client, std::int64_t bytes,
                                            std::chrono::milliseconds ping_timeout,
                                            std::chrono::milliseconds transfer_timeout,
                                            LinkProbeError& error, int transfers) {
  LinkMeasurement m;
  m.rtt_s = 1e9;
  for (int i = 0; i < 3; ++i) {
    pb::Envelope ping;
    ping.mutable_ping()->set_sent_unix_us(0);
    const auto t0 = Clock::now();
    const auto r = client.request(ping, ping_timeout);
    if (!r.ok()) {
      error = {true, r.error};
      return std::nullopt;
    }
    m.rtt_s = std::min(m.rtt_s, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  const auto transfer = [&](std::int64_t up, std::int64_t down) -> double {
    pb::Envelope e;
    e.mutable_bandwidth_probe()->set_upload_bytes(up);
    e.mutable_bandwidth_probe()->set_download_bytes(down);
    std::vector<wire::OutgoingTensor> t;
    if (up > 0) {
      t.push_back(wire::OutgoingTensor::raw(
          "payload", wire::DType::U8, {up},
          wire::Payload::own(std::vector<std::byte>(static_cast<std::size_t>(up)))));
    }
    const auto t0 = Clock::now();
    const auto r = client.request(e, std::move(t), transfer_timeout);
    if (!r.ok() || !r.message->header.has_bandwidth_probe()) {
      error = {false,
               "bandwidth probe failed: " + (r.ok() ? std::string("unexpected reply") : r.error)};
      return 0;
    }
    // The payload's time is the transfer's less one round trip, but never less than half of it:
    // a ping starved of CPU overstates the round trip, and subtracting all of it once rated a
    // loopback transfer at 524288 MB/s.
    const double took = std::max(1e-6, std::chrono::duration<double>(Clock::now() - t0).count());
    const double s = took - std::min(m.rtt_s, took / 2);
    return static_cast<double>(std::max(up, down)) / s;
  };
  for (int i = 0; i < std::max(1, transfers); ++i) {
    const double up = transfer(bytes, 0);
    if (up <= 0) return std::nullopt;
    const double down = transfer(0, bytes);
    if (down <= 0) return std::nullopt;
    m.upload_bytes_per_s = std::max(m.upload_bytes_per_s, up);
    m.download_bytes_per_s = std::max(m.download_bytes_per_s, down);
  }
  return m;
}

void answer_ping(const pb::Ping& ping, const std::string& role, const CurveKeyPair& identity,
                 Reply& reply) {
  auto* pong = reply.header.mutable_pong();
  pong->set_ping_sent_unix_us(ping.sent_unix_us());
  pong->set_version(ROOKERY_VERSION);
  pong->set_role(role);
  pong->set_peer_key(identity.public_key);
}

void answer_bandwidth_probe(const wire::Message& request, std::int64_t max_bytes, Reply& reply) {
  const auto& p = request.header.bandwidth_probe();
  const auto* payload = request.tensor("payload");
  const auto uploaded = payload ? static_cast<std::int64_t>(payload->bytes().size()) : 0;
  if (p.download_bytes() < 0 || p.download_bytes() > max_bytes || p.upload_bytes() > max_bytes ||
      uploaded != p.upload_bytes()) {
    reply.header.mutable_error()->set_message("bandwidth probe: at most " +
                                              std::to_string(max_bytes) +
                                              " bytes each way, and the payload must match");
    return;
  }
  reply.header.mutable_bandwidth_probe()->set_download_bytes(p.download_bytes());
  reply.tensors.push_back(wire::OutgoingTensor::raw(
      "payload", wire::DType::U8, {p.download_bytes()},
      wire::Payload::own(std::vector<std::byte>(static_cast<std::size_t>(p.download_bytes())))));
}

}  // namespace rookery::net
