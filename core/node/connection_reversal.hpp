#pragma once
// Connection reversal, both sides of it. A node others can dial runs a reversal service: a
// relay whose ports open on this PC's loopback only, where the unreachable peers it links
// with register theirs; this process then dials them through the connections they opened
// (net::DialRoutes), and no third host carries a byte. A node no peer can dial (the
// coordinator's REACH_REVERSED) registers its ports with the service of every peer the plan
// links it with (reach/link_partners.hpp), and drops those the plan no longer names.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "net/identity.hpp"
#include "net/secure_context.hpp"
#include "reach/relay_client.hpp"
#include "reach/relay_server.hpp"
#include "rookery/control.pb.h"
#include "rookery/coordinator.pb.h"

namespace rookery::node {

struct ConnectionReversalOptions {
  std::string bind_host;       // where the service listens: "*" or the configured host
  bool serve = true;           // run the service (not on a swarm on one PC: all of it is local)
  bool dial = true;            // when no peer can dial this node, dial its neighbours
  std::string members_domain;  // the ZAP allow-list of the job's members
};

class ConnectionReversal {
 public:
  ConnectionReversal(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                     ConnectionReversalOptions options);
  ~ConnectionReversal();
  ConnectionReversal(const ConnectionReversal&) = delete;
  ConnectionReversal& operator=(const ConnectionReversal&) = delete;

  // The ports the node registers with its neighbours' services: its stage, ring and shard.
  void set_ports(std::vector<std::uint16_t> ports);
  // The service's ports as bound (for the join, and for the router to map); none without one.
  std::optional<wire::pb::ReversalService> service() const;
  bool dials() const { return options_.dial; }

  // A plan arrived. With `reversed` (the coordinator's word: no peer can dial this node), the
  // node registers with the service of every peer the plan links it with.
  void follow(const wire::pb::Plan& plan, bool reversed);
  // The coordinator's word changed (relayed now, say): the last plan is followed again.
  void set_reversed(bool reversed);

  // Neighbours registered with (reversed), or nodes this PC's service carries (otherwise).
  std::uint32_t links() const;
  void describe(wire::pb::ReachSnapshot& reach) const;

 private:
  struct Link {
    std::string host;
    wire::pb::ReversalService service;
    std::unique_ptr<reach::RelayClient> client;
  };
  void apply_locked();

  net::SecureContext& ctx_;
  const net::CurveKeyPair identity_;
  ConnectionReversalOptions options_;
  std::unique_ptr<reach::RelayServer> service_;
  mutable std::mutex mutex_;
  std::vector<std::uint16_t> ports_;
  std::optional<wire::pb::Plan> plan_;
  bool reversed_ = false;
  std::map<std::string, Link> links_;  // by the neighbour's key
};

}  // namespace rookery::node
