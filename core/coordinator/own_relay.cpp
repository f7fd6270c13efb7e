#include "coordinator/own_relay.hpp"

#include "reach/candidates.hpp"

namespace rookery::coordinator {

std::unique_ptr<reach::RelayServer> start_own_relay(const CoordinatorConfig& config,
                                                    net::SecureContext& ctx,
                                                    const net::CurveKeyPair& identity,
                                                    std::optional<wire::pb::RelayOffer>& offer) {
  reach::RelayServerOptions ro;
  ro.host = reach::host_of(config.bind);
  if (ro.host.empty() || ro.host == "0.0.0.0") ro.host = "*";
  ro.domain = kOwnRelayDomain;
  ro.bytes_per_second = config.relay_bytes_per_s;
  ro.max_nodes = config.relay_max_nodes;
  auto relay = std::make_unique<reach::RelayServer>(ctx, identity, ro);
  offer.emplace();
  offer->set_control_port(relay->control_port());
  offer->set_key(identity.public_key);
  offer->set_bytes_per_s(config.relay_bytes_per_s);
  return relay;
}

}  // namespace rookery::coordinator
