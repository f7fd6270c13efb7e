#pragma once
// How peers reach this node, so that nobody types an address. With --host the owner said
// where: the node listens and is reached there. With a coordinator on this PC nothing outside
// needs to reach it: it listens on loopback. Otherwise it listens on every interface (IPv4 and
// IPv6), has its home router open its ports (UPnP IGD / NAT-PMP, renewed, removed when the
// node stops), tells the coordinator what it knows, and takes the coordinator's word for where
// peers will dial it (the coordinator dials the candidates back). One that nobody can dial
// registers its ports with the relay the coordinator offers, and joins again naming them.
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "net/identity.hpp"
#include "net/secure_context.hpp"
#include "reach/port_mapper.hpp"
#include "reach/relay_client.hpp"
#include "rookery/control.pb.h"
#include "rookery/reach.pb.h"

namespace rookery::node {

struct NodeReachOptions {
  std::string configured_host;       // --host; "" to learn it
  std::string coordinator_endpoint;  // tcp://host:port
  reach::PortMapperOptions mapping;
};

class NodeReach {
 public:
  explicit NodeReach(NodeReachOptions options);
  ~NodeReach();  // removes the router's mappings
  NodeReach(const NodeReach&) = delete;
  NodeReach& operator=(const NodeReach&) = delete;

  // Where the node's sockets bind: the configured host, loopback, or "*" (every interface).
  const std::string& bind_host() const { return bind_host_; }
  // The host the node names in its join, before the coordinator's word.
  std::string announced_host() const;
  // True when the coordinator decides where peers dial this node (it gets a report).
  bool learns() const { return bind_host_ == "*"; }

  // Asks the home router to open `ports`, on a thread of its own.
  void map_ports(std::vector<std::uint16_t> ports);
  // What the join tells the coordinator; waits for the router's answer (bounded by the mapping's
  // timeouts). nullopt when the endpoints are final (configured or local).
  std::optional<wire::pb::ReachReport> report();
  void on_verdict(const wire::pb::ReachVerdict& verdict);
  // The coordinator's word: no peer can dial this node, so it dials its neighbours.
  bool reversed() const;

  // No peer can dial this node and the coordinator offers a relay (host empty: on the
  // coordinator's host): registers the mapped ports there. False when it already uses that
  // relay (nothing changes).
  bool use_relay(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                 wire::pb::RelayOffer offer);
  // Waits up to `timeout` for the relay to register the ports.
  bool relay_registered(std::chrono::milliseconds timeout);
  // The relay stopped carrying this node (it died, or refused it): dropped, and true once.
  bool relay_lost();
  void describe(wire::pb::NodeSnapshot& snapshot) const;

 private:
  NodeReachOptions options_;
  std::string bind_host_;
  wire::pb::ReachWay way_;
  std::unique_ptr<reach::PortMapper> mapper_;
  std::thread mapping_thread_;
  mutable std::mutex mutex_;
  std::condition_variable mapped_cv_;
  bool mapping_done_ = false;
  reach::PortMappingStatus mapping_;
  std::optional<wire::pb::ReachVerdict> verdict_;
  std::vector<std::uint16_t> ports_;           // as bound: stage, reduce, shard
  std::unique_ptr<reach::RelayClient> relay_;  // while a relay carries (or is to carry) it
  wire::pb::RelayOffer relay_offer_;           // its host resolved
};

}  // namespace rookery::node
