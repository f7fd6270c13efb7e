#pragma once
// The ZeroMQ context every Rookery socket is made from. It owns the ZAP handler, so no
// CURVE server socket can exist without the allow-list being consulted.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <zmq.hpp>

#include "net/dial_routes.hpp"

#include "net/identity.hpp"

namespace rookery::net {

// ZAP domains: which allow-list a server socket answers to.
inline constexpr const char* kPeerDomain = "rookery.peer";                // node <-> node traffic
inline constexpr const char* kCoordinatorDomain = "rookery.coordinator";  // node -> coordinator

// Decides, for every CURVE handshake, whether the client's public key may connect (ZAP,
// RFC 27). Each domain has its own policy: an allow-list of keys, or open (any key that
// completes the CURVE handshake, used for admission where the coordinator checks invites).
// A domain without a policy admits no one.
class ZapAuthenticator {
 public:
  void set_open(const std::string& domain, bool open);
  void allow(const std::string& domain, const std::string& public_key);
  void revoke(const std::string& domain, const std::string& public_key);
  void replace(const std::string& domain, const std::vector<std::string>& public_keys);
  bool is_allowed(const std::string& domain, const std::string& public_key) const;
  std::vector<std::string> allowed(const std::string& domain) const;

  std::uint64_t accepted() const { return accepted_.load(); }
  std::uint64_t refused() const { return refused_.load(); }

 private:
  friend class SecureContext;
  void serve(zmq::socket_t& zap, zmq::socket_t& stop);

  struct Policy {
    bool open = false;
    std::unordered_set<std::string> keys;
  };
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Policy> policies_;
  std::atomic<std::uint64_t> accepted_{0}, refused_{0};
};

class SecureContext {
 public:
  explicit SecureContext(int io_threads = 1);
  ~SecureContext();
  SecureContext(const SecureContext&) = delete;
  SecureContext& operator=(const SecureContext&) = delete;

  zmq::context_t& zmq() { return ctx_; }
  ZapAuthenticator& auth() { return auth_; }
  // Where connect_curve_client dials peers that reach this process by connection reversal:
  // the process's routes, shared by every context in it (a node's stage has its own).
  DialRoutes& routes() { return dial_routes(); }

 private:
  zmq::context_t ctx_;
  ZapAuthenticator auth_;
  zmq::socket_t stop_tx_;
  std::thread zap_thread_;
};

struct SocketOptions {
  int send_hwm = 64;  // messages; size to the pipeline depth
  int recv_hwm = 64;
  int linger_ms = 0;  // never block shutdown on unsent messages
  // Connections that went silent (a peer's machine vanished without closing them) are
  // reclaimed by TCP keepalive, after idle + interval x probes (~90 s). Who is alive is the
  // application's heartbeats' business (the coordinator's, the stages' timeouts). Not ZMTP
  // heartbeats: libzmq 4.3.4 aborts the process (Assertion failed: !_io_error,
  // stream_engine_base.cpp:331; zeromq/libzmq#4364) when a receiver's input is stopped at its
  // high-water mark (a stage whose inbox is full) and the connection's heartbeat PING is due
  // as its peer closes it: test_net's stalled-peer test hit it every few runs.
  // The first probe after 30 s idle also keeps a home router's NAT entry fresh: TCP entries
  // live for at least 2 h by RFC 5382 §5, and the shortest timeouts seen on consumer routers
  // and carrier-grade NAT are a few minutes.
  int keepalive_idle_s = 30;
  int keepalive_interval_s = 10;
  int keepalive_probes = 6;
};

// A CURVE server socket bound to `endpoint` ("tcp://host:port"; port 0 picks a free one).
// Only keys allowed in `domain` complete the handshake.
zmq::socket_t bind_curve_server(SecureContext& ctx, zmq::socket_type type,
                                const std::string& endpoint, const CurveKeyPair& identity,
                                const std::string& domain, const SocketOptions& opts = {});
// A CURVE client socket connected to a server whose public key is `server_key`.
zmq::socket_t connect_curve_client(SecureContext& ctx, zmq::socket_type type,
                                   const std::string& endpoint, const CurveKeyPair& identity,
                                   const std::string& server_key, const SocketOptions& opts = {});
// The endpoint a socket actually bound (resolves port 0).
std::string last_endpoint(zmq::socket_t& socket);
// The CURVE public key (Z85) of the peer that sent `msg`, as the ZAP handler vouched for it.
std::string sender_key(const zmq::message_t& msg);
// The IP address `msg` came from, as the connection's peer (an IPv4-mapped IPv6 address
// given as IPv4); empty where the transport has none.
std::string sender_address(const zmq::message_t& msg);

}  // namespace rookery::net
