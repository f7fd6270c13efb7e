#pragma once
// Measuring a link with real, bounded transfers (a volunteer's profile): the round trip (the
// best of three pings) and the bandwidth each way (a payload of `bytes` up, then down, less
// the round trip). A volunteer measures its link to the coordinator when it joins and to a
// few peers the coordinator names afterwards; both sides answer with the helpers below.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "net/identity.hpp"
#include "net/rpc.hpp"

namespace rookery::net {

struct LinkMeasurement {
  double rtt_s = 0;
  double upload_bytes_per_s = 0;  // from the measuring side to the other
  double download_bytes_per_s = 0;
};

struct LinkProbeError {
  bool unreachable = false;  // the pings got no answer (else a transfer failed)
  std::string message;
};

// Measures the link to the server behind `client`; nullopt with `error` when it cannot. Each
// ping waits up to `ping_timeout`, each transfer up to `transfer_timeout` (a slow link needs
// longer for the payload than a dead one needs to show it is dead). Each direction is
// measured `transfers` times and the fastest counts, as the best of the pings does for the
// round trip: a short payload timed while either side was starved of CPU (a volunteer's
// owner at work, a neighbour starting up) says nothing about the link, and one such sample
// once left a volunteer on loopback rated at 1 MB/s and out of the plan. Volunteers measure
// twice each way, to the coordinator (4 MiB) and to peers (512 KiB).
std::optional<LinkMeasurement> measure_link(RpcClient& client, std::int64_t bytes,
                                            std::chrono::milliseconds ping_timeout,
                                            std::chrono::milliseconds transfer_timeout,
                                            LinkProbeError& error, int transfers = 1);

// The answers: a Pong naming `role` and `identity`, and a bandwidth probe's payload back (an
// error reply when it asks for more than `max_bytes` either way or its payload does not match).
void answer_ping(const wire::pb::Ping& ping, const std::string& role, const CurveKeyPair& identity,
                 Reply& reply);
void answer_bandwidth_probe(const wire::Message& request, std::int64_t max_bytes, Reply& reply);

}  // namespace rookery::net
