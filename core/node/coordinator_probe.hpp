#pragma once
// Before a node joins a swarm: is the coordinator of an invite there, and will it have this
// node? One real exchange, as the node will make it: a CURVE handshake with the node's own
// identity (so the coordinator's allow-list decides as it will for the node), a Ping that a
// coordinator answers with a Pong, then the run's status, which names the job it runs. The
// outcome says what went wrong as a code the window words: nobody listens, the key does not
// match, the coordinator refuses this node, it does not answer, the address is not a
// coordinator, or it runs no job or another job than the invite's.
#include <chrono>

#include "net/identity.hpp"
#include "rookery/control.pb.h"

namespace rookery::node {

// Blocks for at most the request's timeout (4 s when it names none).
wire::pb::CoordinatorProbeResult probe_coordinator(const wire::pb::CoordinatorProbeRequest& request,
                                                   const net::CurveKeyPair& identity);

}  // namespace rookery::node
