#include "node/coordinator_probe.hpp"

#include <zmq.hpp>

#include "clock/clock.hpp"
#include "net/handshake_monitor.hpp"
#include "net/rpc.hpp"
#include "net/secure_context.hpp"
#include "wire/message.hpp"

namespace rookery::node {

namespace pb = wire::pb;
using Outcome = pb::CoordinatorProbeResult;

namespace {
using SteadyClock = std::chrono::steady_clock;
constexpr std::uint64_t kPingId = 1, kStatusId = 2;
constexpr auto kDefaultTimeout = std::chrono::milliseconds(4000);

void send(zmq::socket_t& socket, pb::Envelope envelope) {
  auto frames = wire::encode(std::move(envelope));
  for (std::size_t i = 0; i < frames.size(); ++i) {
    socket.send(frames[i],
                i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::dontwait);
  }
}

pb::CoordinatorProbeResult outcome(pb::CoordinatorProbeResult::Outcome o, std::string detail = {}) {
  pb::CoordinatorProbeResult r;
  r.set_outcome(o);
  r.set_detail(std::move(detail));
  return r;
}
}  // namespace

pb::CoordinatorProbeResult probe_coordinator(const pb::CoordinatorProbeRequest& request,
                                             const net::CurveKeyPair& identity) {
  const auto timeout =
      request.timeout_ms() > 0 ? std::chrono::milliseconds(request.timeout_ms()) : kDefaultTimeout;
  const auto deadline = SteadyClock::now() + timeout;
  pb::CoordinatorProbeResult result;
  try {
    if (!net::is_z85_key(request.key()))
      return outcome(Outcome::FAILED, "the key is not a Z85 key");
    net::SecureContext ctx(1);
    zmq::socket_t socket(ctx.zmq(), zmq::socket_type::dealer);
    socket.set(zmq::sockopt::linger, 0);
    socket.set(zmq::sockopt::ipv6, true);
    socket.set(zmq::sockopt::reconnect_ivl, 100);
    socket.set(zmq::sockopt::curve_serverkey, request.key());
    socket.set(zmq::sockopt::curve_publickey, identity.public_key);
    socket.set(zmq::sockopt::curve_secretkey, identity.secret_key);
    net::HandshakeMonitor monitor(ctx.zmq(), socket, "coordinator-probe");
    socket.connect(request.endpoint());

    bool ping_sent = false;
    SteadyClock::time_point sent_at;
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
      if (left.count() <= 0) break;
      zmq::pollitem_t items[] = {{monitor.socket().handle(), 0, ZMQ_POLLIN, 0},
                                 {socket.handle(), 0, ZMQ_POLLIN, 0}};
      zmq::poll(items, 2, left);
      const auto& hs = monitor.poll(std::chrono::milliseconds(0));
      if (hs.refused) {
        // The coordinator's ZAP handler said no: this node's key is not on its list.
        return outcome(Outcome::REFUSED, "ZAP status " + std::to_string(hs.refusal_status));
      }
      if (hs.handshake_failed) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "%x", hs.protocol_error);
        return outcome(Outcome::KEY_MISMATCH,
                       std::string("handshake failed (protocol error 0x") + hex + ")");
      }
      // A CURVE server that cannot decrypt our HELLO (another key) just closes the connection;
      // twice in a row is an answer.
      if (!hs.handshake_succeeded && hs.dropped_before_handshake >= 2)
        return outcome(Outcome::KEY_MISMATCH, "the connection closed during the handshake");
      if (hs.handshake_succeeded && !ping_sent) {
        pb::Envelope ping;
        ping.set_request_id(kPingId);
        ping.mutable_ping()->set_sent_unix_us(clock::unix_ms() * 1000);
        sent_at = SteadyClock::now();
        send(socket, std::move(ping));
        ping_sent = true;
      }
      if (!(items[1].revents & ZMQ_POLLIN)) continue;
      std::vector<zmq::message_t> reply;
      bool truncated = false;
      if (!net::recv_multipart_bounded(socket, reply, 8, truncated)) continue;
      auto decoded = wire::decode(std::move(reply));
      if (truncated || !decoded) {
        return outcome(Outcome::NOT_COORDINATOR,
                       truncated ? "reply has too many frames" : decoded.error().what);
      }
      const auto& header = decoded.message().header;
      if (header.request_id() == kPingId) {
        if (header.has_error()) return outcome(Outcome::REFUSED, header.error().message());
        if (!header.has_pong() || header.pong().role() != "coordinator") {
          return outcome(Outcome::NOT_COORDINATOR,
                         header.has_pong() ? header.pong().role() : std::string());
        }
        // A coordinator: reachable. Which job it runs comes next (read-only, joins nothing).
        result.set_outcome(Outcome::REACHABLE);
        result.set_version(header.pong().version());
        result.set_rtt_ms(
            std::chrono::duration<double, std::milli>(SteadyClock::now() - sent_at).count());
        pb::Envelope status;
        status.set_request_id(kStatusId);
        status.mutable_run_status_request()->set_loss_points(0);
        send(socket, std::move(status));
        continue;
      }
      if (header.request_id() == kStatusId) {
        if (header.has_run_status()) {
          const std::string& job = header.run_status().job_id();
          if (job.empty()) {
            result.set_outcome(Outcome::NO_JOB);
          } else if (job != request.job_id()) {
            result.set_outcome(Outcome::WRONG_JOB);
            result.set_detail(job);
          }
        } else {
          // A coordinator without a job answers status requests with an error.
          result.set_outcome(Outcome::NO_JOB);
          if (header.has_error()) result.set_detail(header.error().message());
        }
        return result;
      }
    }
    // The pong came but not the status in time: the coordinator is there all the same.
    if (result.outcome() == Outcome::REACHABLE) return result;
    const auto& hs = monitor.state();
    if (hs.handshake_succeeded) return outcome(Outcome::NO_ANSWER);
    if (hs.tcp_connected || hs.dropped_before_handshake > 0) {
      return outcome(Outcome::KEY_MISMATCH,
                     "no secure handshake within " + std::to_string(timeout.count()) + " ms");
    }
    return outcome(Outcome::UNREACHABLE);
  } catch (const std::exception& e) {
    return outcome(Outcome::FAILED, e.what());
  }
}

}  // namespace rookery::node
