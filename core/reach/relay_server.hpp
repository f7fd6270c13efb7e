#pragma once
// The relay of last resort: a reachable volunteer (or the job owner's host) that carries
// traffic for nodes no peer can dial. A relayed node registers its listening ports over a
// CURVE control channel (members only); the relay opens a public port for each, and when a
// peer dials one, asks the node to open a data connection with a one-time token and splices
// the two TCP streams (TcpSplice). The peer's CURVE session runs through it end to end, so the
// relay forwards ciphertext it can neither read nor alter undetected. Its traffic passes one
// bandwidth cap.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "net/identity.hpp"
#include "net/secure_context.hpp"
#include "net/token_bucket.hpp"
#include "reach/tcp.hpp"
#include "reach/tcp_splice.hpp"

namespace rookery::reach {

struct RelayServerOptions {
  std::string host = "*";          // where the control, data and public ports listen
  std::uint16_t control_port = 0;  // 0: any
  std::uint16_t data_port = 0;
  std::string domain = net::kPeerDomain;  // the ZAP allow-list nodes register under
  std::uint64_t bytes_per_second = 0;     // cap on everything relayed; 0: none
  std::size_t max_nodes = 8;
  std::size_t max_ports_per_node = 8;
  std::chrono::milliseconds node_timeout{6000};  // a node silent this long is dropped
  std::chrono::milliseconds open_timeout{5000};  // a dialling peer waits this long for the node
  TcpSplice::Tap tap;                            // tests: every byte forwarded
  // Connection reversal: the public ports listen here instead of on `host` ("127.0.0.1": only
  // this PC dials them), and each registered node's ports are routed to them in `routes`, so
  // that this process dials the node through the connections the node opens.
  std::string public_host;
  net::DialRoutes* routes = nullptr;
};

struct RelayStats {
  std::size_t nodes = 0;
  std::size_t connections = 0;  // spliced pairs open now
  std::uint64_t connections_total = 0;
  std::uint64_t bytes = 0;  // forwarded, both ways, all connections so far
  std::uint64_t refused = 0;
};

class RelayServer {
 public:
  RelayServer(net::SecureContext& ctx, const net::CurveKeyPair& identity,
              RelayServerOptions options = {});
  ~RelayServer();
  RelayServer(const RelayServer&) = delete;
  RelayServer& operator=(const RelayServer&) = delete;

  std::uint16_t control_port() const { return control_port_; }
  std::uint16_t data_port() const { return data_port_; }
  RelayStats stats() const;

 private:
  using Time = std::chrono::steady_clock::time_point;
  struct Node {
    std::string key;  // the node's CURVE public key, for logs
    std::vector<std::uint16_t> ports;
    std::vector<Fd> listeners;  // one public port per node port
    std::vector<std::unique_ptr<TcpSplice>> splices;
    Time last_seen;
  };
  struct Pending {
    Fd peer;
    std::string node;  // routing id
    Time since;
  };
  struct Incoming {
    Fd fd;
    std::string token;
    Time since;
  };

  void loop();
  void on_control(Time now);
  void on_data_connection(Incoming& in, Time now);
  void on_peer(const std::string& node_id, std::size_t port_index);
  void send(const std::string& routing_id, const std::string& payload);
  void expire(Time now);
  void route(const Node& node);
  void unroute(const Node& node);

  RelayServerOptions options_;
  zmq::socket_t control_;
  Fd data_listener_;
  std::uint16_t control_port_ = 0, data_port_ = 0;
  net::TokenBucket cap_;
  std::map<std::string, Node> nodes_;       // by routing id
  std::map<std::string, Pending> pending_;  // by token
  std::vector<Incoming> incoming_;
  mutable std::mutex stats_mutex_;
  RelayStats stats_;
  std::uint64_t finished_bytes_ = 0;  // of splices that ended (the loop's thread only)
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace rookery::reach
