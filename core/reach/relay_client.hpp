#pragma once
// A node's side of a relay: it registers the node's listening ports with the relay, keeps the
// registration alive with pings, and for each peer that dials the relay opens a data
// connection to the relay and one to its own port, and splices them. It registers again when
// the relay stops answering, so a relay that comes back carries it again.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "net/identity.hpp"
#include "net/secure_context.hpp"
#include "net/token_bucket.hpp"
#include "reach/tcp_splice.hpp"

namespace rookery::reach {

struct RelayClientOptions {
  std::string relay_host;
  std::uint16_t control_port = 0;
  // Where data connections go; 0: the port the relay names (a relay behind a home router's
  // mapping knows only its own port, not the router's).
  std::uint16_t data_port = 0;
  std::string relay_key;                 // the relay's CURVE public key
  std::vector<std::uint16_t> ports;      // this node's listening ports
  std::string local_host = "127.0.0.1";  // where this node's ports answer
  std::chrono::milliseconds ping_interval{1000};
  std::chrono::milliseconds timeout{4000};  // no answer this long: the relay is lost
};

enum class RelayState : std::uint8_t { connecting, registered, refused, lost };

struct RelayedPort {
  std::uint16_t local_port = 0;
  std::uint16_t public_port = 0;  // on the relay's host
};

class RelayClient {
 public:
  RelayClient(net::SecureContext& ctx, const net::CurveKeyPair& identity,
              RelayClientOptions options);
  ~RelayClient();
  RelayClient(const RelayClient&) = delete;
  RelayClient& operator=(const RelayClient&) = delete;

  RelayState state() const;
  std::vector<RelayedPort> ports() const;  // empty unless registered
  std::string error() const;
  std::uint64_t connections() const { return connections_.load(); }

 private:
  void loop();
  void open(const std::string& token, std::uint16_t port);

  net::SecureContext& ctx_;
  const net::CurveKeyPair identity_;
  RelayClientOptions options_;
  net::TokenBucket unlimited_;
  mutable std::mutex mutex_;
  RelayState state_ = RelayState::connecting;
  std::vector<RelayedPort> ports_;
  std::uint16_t data_port_ = 0;
  std::string error_;
  std::vector<std::unique_ptr<TcpSplice>> splices_;
  std::atomic<std::uint64_t> connections_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

std::string_view to_string(RelayState state);

}  // namespace rookery::reach
