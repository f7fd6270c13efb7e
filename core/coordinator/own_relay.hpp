#pragma once
// The relay of last resort on the coordinator's own host (--relay): for volunteers that no peer
// can dial and no volunteer's relay carries. Its control, data and public ports listen where the
// coordinator does; only the job's members may use it (the ZAP domain below, whose allow-list
// the coordinator keeps to its member list).
#include <memory>
#include <optional>

#include "coordinator/coordinator_service.hpp"
#include "net/identity.hpp"
#include "net/secure_context.hpp"
#include "reach/relay_server.hpp"
#include "rookery/reach.pb.h"

namespace rookery::coordinator {

inline constexpr const char* kOwnRelayDomain = "rookery.relay";

// Starts it, and sets `offer` to what joins are told of it. Throws std::exception when it
// cannot listen.
std::unique_ptr<reach::RelayServer> start_own_relay(const CoordinatorConfig& config,
                                                    net::SecureContext& ctx,
                                                    const net::CurveKeyPair& identity,
                                                    std::optional<wire::pb::RelayOffer>& offer);

}  // namespace rookery::coordinator
