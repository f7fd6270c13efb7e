#pragma once
// What happened to a socket's connection attempts, from ZeroMQ's socket monitor: the TCP
// connection, the CURVE handshake's success, the server's refusal (ZAP), or a handshake that
// failed (the server holds another key). Probes use it to tell "nobody listens" from "someone
// else listens" from "it is the node, and it would not have us".
#include <chrono>
#include <cstdint>
#include <string>

#include <zmq.hpp>

namespace rookery::net {

class HandshakeMonitor {
 public:
  struct State {
    bool tcp_connected = false;
    bool handshake_succeeded = false;
    bool refused = false;  // the server's ZAP handler said no (it proved its key first)
    std::uint32_t refusal_status = 0;
    bool handshake_failed = false;  // protocol error: not the server of the expected key
    std::uint32_t protocol_error = 0;
    int dropped_before_handshake = 0;  // a CURVE server that cannot read our HELLO just closes
  };

  // Watches `socket`, which must not have connected yet; `name` makes the inproc endpoint
  // unique within the context.
  HandshakeMonitor(zmq::context_t& ctx, zmq::socket_t& socket, const std::string& name);
  ~HandshakeMonitor();
  HandshakeMonitor(const HandshakeMonitor&) = delete;
  HandshakeMonitor& operator=(const HandshakeMonitor&) = delete;

  // Reads the events that arrived; waits up to `wait` for the first one.
  const State& poll(std::chrono::milliseconds wait);
  const State& state() const { return state_; }
  zmq::socket_t& socket() { return monitor_; }

  // Settled: the handshake succeeded, was refused, failed, or the connection was dropped
  // twice before it (an answer as clear as a failure).
  bool settled() const {
    return state_.handshake_succeeded || state_.refused || state_.handshake_failed ||
           state_.dropped_before_handshake >= 2;
  }

 private:
  zmq::socket_t monitor_;
  zmq::socket_t* watched_;
  State state_;
};

}  // namespace rookery::net
