#pragma once
// The coordinator's side of reach: from what a joining node reports (its interface addresses,
// its router's mapping) and the address the coordinator sees it connect from, the endpoints
// peers will dial. The node's shard server is the port that listens at join time: its
// candidates are dialled back (dial_back), and the first that answers with the node's key
// decides the host, and the mapping or not, for the stage and ring ports as well.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "net/identity.hpp"
#include "net/secure_context.hpp"
#include "reach/candidates.hpp"
#include "rookery/reach.pb.h"

namespace rookery::reach {

struct NodePorts {
  std::uint16_t stage = 0, reduce = 0, shard = 0;  // as the node bound them
};

struct ReachDecision {
  wire::pb::ReachVerdict verdict;
  std::string stage, reduce, shard;  // the endpoints peers dial; empty when unreachable
};

// The shard port's candidates, best first: the router's mapping at the observed address and
// at the router's own, the observed address, the node's interface addresses.
std::vector<Candidate> reach_candidates(const wire::pb::ReachReport& report,
                                        const std::string& observed_address, NodePorts ports);

// The decision once `answered` (one flag per candidate, as dial_back found) is known.
ReachDecision decide_reach(const wire::pb::ReachReport& report, const std::string& observed_address,
                           NodePorts ports, const std::vector<Candidate>& candidates,
                           const std::vector<bool>& answered);

// Dials the candidates back and decides.
ReachDecision find_reach(net::SecureContext& ctx, const net::CurveKeyPair& coordinator,
                         const std::string& node_key, const wire::pb::ReachReport& report,
                         const std::string& observed_address, NodePorts ports,
                         std::chrono::milliseconds timeout);

}  // namespace rookery::reach
