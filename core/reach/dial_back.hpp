#pragma once
// Reachability, measured: dial a node's candidate endpoints as a CURVE client that expects the
// node's key. An endpoint answers for the node when the handshake proves the server there holds
// the node's secret key: it succeeded, or the node's allow-list refused us after the server had
// proved it (CURVE's WELCOME). A listener with another key, a closed port or silence does not.
#include <chrono>
#include <string>
#include <vector>

#include "net/identity.hpp"
#include "net/secure_context.hpp"

namespace rookery::reach {

struct DialBackResult {
  std::string endpoint;
  bool reachable = false;
  double rtt_ms = 0;  // from the dial to the handshake's answer
  std::string why;    // why not: "nothing answered", "another key answered", ...
};

// Dials every endpoint at once; returns one result per endpoint, in order, within `timeout`.
std::vector<DialBackResult> dial_back(net::SecureContext& ctx, const net::CurveKeyPair& us,
                                      const std::vector<std::string>& endpoints,
                                      const std::string& node_key,
                                      std::chrono::milliseconds timeout);

}  // namespace rookery::reach
