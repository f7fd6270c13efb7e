#include "reach/reachability.hpp"

#include "reach/dial_back.hpp"

namespace rookery::reach {

namespace pb = wire::pb;

namespace {
std::optional<std::uint16_t> port_in(
    const google::protobuf::RepeatedPtrField<pb::MappedPort>& ports, std::uint16_t internal) {
  for (const auto& m : ports) {
    if (m.internal_port() == internal && m.external_port() > 0 && m.external_port() <= 65535)
      return static_cast<std::uint16_t>(m.external_port());
  }
  return std::nullopt;
}
std::optional<std::uint16_t> mapped(const pb::ReachReport& r, std::uint16_t internal) {
  return port_in(r.mapped(), internal);
}
std::optional<std::uint16_t> relayed(const pb::ReachReport& r, std::uint16_t internal) {
  if (!r.has_relay() || r.relay().host().empty()) return std::nullopt;
  return port_in(r.relayed(), internal);
}
}  // namespace

std::vector<Candidate> reach_candidates(const pb::ReachReport& report,
                                        const std::string& observed_address, NodePorts ports) {
  CandidateInputs in;
  in.port = ports.shard;
  in.observed_address = observed_address;
  in.mapped_address = report.mapped_address();
  in.mapped_port = mapped(report, ports.shard);
  // A node joins through a relay once the coordinator found nothing else answers: only the
  // relay is dialled (the rest would only be waited out), until it loses the relay.
  if (const auto port = relayed(report, ports.shard)) {
    std::string host = report.relay().host();
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
      host = host.substr(1, host.size() - 2);
    return {{host, *port, CandidateKind::relayed}};
  }
  for (const auto& h : report.hosts()) in.lan_addresses.push_back(h);
  return gather_candidates(in);
}

ReachDecision decide_reach(const pb::ReachReport& report, const std::string& observed_address,
                           NodePorts ports, const std::vector<Candidate>& candidates,
                           const std::vector<bool>& answered) {
  ReachDecision d;
  d.verdict.set_observed_address(observed_address);
  d.verdict.set_candidates_tried(static_cast<std::uint32_t>(candidates.size()));
  for (std::size_t i = 0; i < candidates.size() && i < answered.size(); ++i) {
    if (!answered[i]) continue;
    const Candidate& c = candidates[i];
    const bool through_router = c.kind == CandidateKind::mapped;
    const bool through_relay = c.kind == CandidateKind::relayed;
    auto port = [&](std::uint16_t internal) -> std::uint16_t {
      if (through_relay) return relayed(report, internal).value_or(0);
      if (!through_router) return internal;
      return mapped(report, internal).value_or(internal);
    };
    if (port(ports.stage) == 0 || port(ports.reduce) == 0) continue;  // a relay without them
    d.stage = tcp_endpoint(c.host, port(ports.stage));
    d.reduce = tcp_endpoint(c.host, port(ports.reduce));
    d.shard = tcp_endpoint(c.host, c.port);
    d.verdict.set_way(through_relay    ? pb::REACH_RELAYED
                      : through_router ? pb::REACH_ROUTER_MAPPING
                                       : pb::REACH_DIRECT);
    d.verdict.set_endpoint(d.stage);
    return d;
  }
  d.verdict.set_way(pb::REACH_UNREACHABLE);
  return d;
}

ReachDecision find_reach(net::SecureContext& ctx, const net::CurveKeyPair& coordinator,
                         const std::string& node_key, const pb::ReachReport& report,
                         const std::string& observed_address, NodePorts ports,
                         std::chrono::milliseconds timeout) {
  const auto candidates = reach_candidates(report, observed_address, ports);
  std::vector<std::string> endpoints;
  for (const auto& c : candidates) endpoints.push_back(tcp_endpoint(c.host, c.port));
  const auto results = dial_back(ctx, coordinator, endpoints, node_key, timeout);
  std::vector<bool> answered;
  for (const auto& r : results) answered.push_back(r.reachable);
  return decide_reach(report, observed_address, ports, candidates, answered);
}

}  // namespace rookery::reach
