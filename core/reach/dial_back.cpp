#include "reach/dial_back.hpp"

#include <memory>

#include "net/handshake_monitor.hpp"

namespace rookery::reach {

std::vector<DialBackResult> dial_back(net::SecureContext& ctx, const net::CurveKeyPair& us,
                                      const std::vector<std::string>& endpoints,
                                      const std::string& node_key,
                                      std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  struct Dial {
    zmq::socket_t socket;
    std::unique_ptr<net::HandshakeMonitor> monitor;
    bool done = false;
  };
  std::vector<DialBackResult> results(endpoints.size());
  std::vector<Dial> dials(endpoints.size());
  const auto start = Clock::now();
  for (std::size_t i = 0; i < endpoints.size(); ++i) {
    results[i].endpoint = endpoints[i];
    try {
      auto& d = dials[i];
      d.socket = zmq::socket_t(ctx.zmq(), zmq::socket_type::dealer);
      d.socket.set(zmq::sockopt::linger, 0);
      d.socket.set(zmq::sockopt::ipv6, true);
      d.socket.set(zmq::sockopt::reconnect_ivl, 200);
      d.socket.set(zmq::sockopt::curve_serverkey, node_key);
      d.socket.set(zmq::sockopt::curve_publickey, us.public_key);
      d.socket.set(zmq::sockopt::curve_secretkey, us.secret_key);
      d.monitor = std::make_unique<net::HandshakeMonitor>(ctx.zmq(), d.socket, "dial-back");
      d.socket.connect(endpoints[i]);
    } catch (const std::exception& e) {
      results[i].why = std::string("cannot dial: ") + e.what();
      dials[i].done = true;
    }
  }
  const auto deadline = start + timeout;
  for (;;) {
    bool all = true;
    for (std::size_t i = 0; i < dials.size(); ++i) {
      auto& d = dials[i];
      if (d.done) continue;
      const auto& s = d.monitor->poll(std::chrono::milliseconds(0));
      if (!d.monitor->settled()) {
        all = false;
        continue;
      }
      d.done = true;
      results[i].rtt_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      if (s.handshake_succeeded || s.refused) {
        results[i].reachable = true;
      } else {
        results[i].why = "another key answered";
      }
    }
    if (all || Clock::now() >= deadline) break;
    // Wait on the first unsettled monitor; the others are read on the next pass.
    for (auto& d : dials) {
      if (!d.done) {
        d.monitor->poll(std::chrono::milliseconds(20));
        break;
      }
    }
  }
  for (std::size_t i = 0; i < dials.size(); ++i) {
    if (dials[i].done) continue;
    const auto& s = dials[i].monitor->state();
    results[i].why = s.tcp_connected ? "no handshake in time" : "nothing answered";
  }
  return results;
}

}  // namespace rookery::reach
