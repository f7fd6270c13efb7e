#include "ui/first_run_probe.hpp"

#include <zmq.h>

#include <cstring>
#include <zmq.hpp>

#include "net/paths.hpp"
#include "net/rpc.hpp"
#include "net/secure_context.hpp"
#include "wire/message.hpp"

namespace rookery::ui {

namespace {

using Clock = std::chrono::steady_clock;

// A monitor event: the event id and its value (ZAP status code, protocol error, errno).
struct MonitorEvent {
  std::uint16_t event = 0;
  std::uint32_t value = 0;
};

bool readEvent(zmq::socket_t& monitor, MonitorEvent& out) {
  zmq::message_t head, address;
  if (!monitor.recv(head, zmq::recv_flags::dontwait)) return false;
  if (head.more()) (void)monitor.recv(address);  // the endpoint; not needed
  if (head.size() < 6) return false;
  std::memcpy(&out.event, head.data<char>(), 2);
  std::memcpy(&out.value, head.data<char>() + 2, 4);
  return true;
}

std::int64_t unixMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

CoordinatorProbe CoordinatorProbe::run(const InviteLink& link, const net::CurveKeyPair& identity,
                                       std::chrono::milliseconds timeout) {
  CoordinatorProbe result;
  const auto deadline = Clock::now() + timeout;
  try {
    net::SecureContext ctx(1);
    zmq::socket_t socket(ctx.zmq(), zmq::socket_type::dealer);
    socket.set(zmq::sockopt::linger, 0);
    socket.set(zmq::sockopt::reconnect_ivl, 100);
    socket.set(zmq::sockopt::curve_serverkey, link.key().toStdString());
    socket.set(zmq::sockopt::curve_publickey, identity.public_key);
    socket.set(zmq::sockopt::curve_secretkey, identity.secret_key);
    if (zmq_socket_monitor(socket.handle(), "inproc://rookery-probe-monitor", ZMQ_EVENT_ALL) != 0) {
      throw zmq::error_t();
    }
    zmq::socket_t monitor(ctx.zmq(), zmq::socket_type::pair);
    monitor.set(zmq::sockopt::linger, 0);
    monitor.connect("inproc://rookery-probe-monitor");
    socket.connect(link.coordinator().toStdString());

    bool tcp_connected = false, handshake_done = false, ping_sent = false;
    int dropped_before_handshake = 0;
    Clock::time_point sent_at;
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) break;
      zmq::pollitem_t items[] = {{monitor.handle(), 0, ZMQ_POLLIN, 0},
                                 {socket.handle(), 0, ZMQ_POLLIN, 0}};
      zmq::poll(items, 2, left);
      MonitorEvent ev;
      while (readEvent(monitor, ev)) {
        switch (ev.event) {
          case ZMQ_EVENT_CONNECTED:
            tcp_connected = true;
            break;
          case ZMQ_EVENT_CONNECT_RETRIED:
          case ZMQ_EVENT_CONNECT_DELAYED:
            break;
          case ZMQ_EVENT_HANDSHAKE_SUCCEEDED:
            handshake_done = true;
            break;
          case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH:
            // The coordinator's ZAP handler said no: this PC's key is not on its list.
            result.outcome = Outcome::Refused;
            result.detail = QStringLiteral("ZAP status %1").arg(ev.value);
            return result;
          case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL:
          case ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL:
            result.outcome = Outcome::KeyMismatch;
            result.detail =
                QStringLiteral("handshake failed (protocol error 0x%1)").arg(ev.value, 0, 16);
            return result;
          case ZMQ_EVENT_DISCONNECTED:
            if (!handshake_done) ++dropped_before_handshake;
            break;
          default:
            break;
        }
      }
      // A CURVE server that cannot decrypt our HELLO (another key) just closes the
      // connection; twice in a row is an answer.
      if (!handshake_done && dropped_before_handshake >= 2) {
        result.outcome = Outcome::KeyMismatch;
        result.detail = QStringLiteral("the connection closed during the handshake");
        return result;
      }
      if (handshake_done && !ping_sent) {
        wire::pb::Envelope ping;
        ping.set_request_id(1);
        ping.mutable_ping()->set_sent_unix_us(unixMicros());
        auto frames = wire::encode(std::move(ping));
        sent_at = Clock::now();
        for (std::size_t i = 0; i < frames.size(); ++i) {
          socket.send(frames[i],
                      i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::dontwait);
        }
        ping_sent = true;
      }
      if (items[1].revents & ZMQ_POLLIN) {
        std::vector<zmq::message_t> reply;
        bool truncated = false;
        if (!net::recv_multipart_bounded(socket, reply, 8, truncated)) continue;
        auto decoded = wire::decode(std::move(reply));
        if (truncated || !decoded) {
          result.outcome = Outcome::NotCoordinator;
          result.detail = truncated ? QStringLiteral("reply has too many frames")
                                    : QString::fromStdString(decoded.error().what);
          return result;
        }
        const auto& header = decoded.message().header;
        if (header.request_id() == 1) {  // the ping
          if (header.has_error()) {
            result.outcome = Outcome::Refused;
            result.detail = QString::fromStdString(header.error().message());
            return result;
          }
          if (!header.has_pong() || header.pong().role() != "coordinator") {
            result.outcome = Outcome::NotCoordinator;
            result.detail =
                header.has_pong() ? QString::fromStdString(header.pong().role()) : QString();
            return result;
          }
          // A coordinator: reachable. Which job it runs comes next (read-only, joins nothing).
          result.outcome = Outcome::Reachable;
          result.version = QString::fromStdString(header.pong().version());
          result.rtt_ms = std::chrono::duration<double, std::milli>(Clock::now() - sent_at).count();
          wire::pb::Envelope status;
          status.set_request_id(2);
          status.mutable_run_status_request()->set_loss_points(0);
          auto frames = wire::encode(std::move(status));
          for (std::size_t i = 0; i < frames.size(); ++i) {
            socket.send(frames[i], i + 1 < frames.size() ? zmq::send_flags::sndmore
                                                         : zmq::send_flags::dontwait);
          }
          continue;
        }
        if (header.request_id() == 2) {  // the run's status
          if (header.has_run_status()) {
            const QString job = QString::fromStdString(header.run_status().job_id());
            if (job.isEmpty()) {
              result.outcome = Outcome::NoJob;
            } else if (job != link.job()) {
              result.outcome = Outcome::WrongJob;
              result.detail = job;
            }
          } else {
            // A coordinator without a job answers status requests with an error.
            result.outcome = Outcome::NoJob;
            result.detail =
                header.has_error() ? QString::fromStdString(header.error().message()) : QString();
          }
          return result;
        }
      }
    }
    // The pong came but not the status in time: the coordinator is there all the same.
    if (result.outcome == Outcome::Reachable) return result;
    if (handshake_done) {
      result.outcome = Outcome::NoAnswer;
    } else if (tcp_connected || dropped_before_handshake > 0) {
      result.outcome = Outcome::KeyMismatch;
      result.detail = QStringLiteral("no secure handshake within %1 ms").arg(timeout.count());
    } else {
      result.outcome = Outcome::Unreachable;
    }
  } catch (const std::exception& e) {
    result.outcome = Outcome::Failed;
    result.detail = QString::fromLocal8Bit(e.what());
  }
  return result;
}

CoordinatorProbe CoordinatorProbe::runAsNode(const InviteLink& link,
                                             const std::filesystem::path& data_dir,
                                             std::chrono::milliseconds timeout) {
  net::CurveKeyPair identity;
  try {
    net::ensure_private_dir(data_dir);
    identity = net::CurveKeyPair::load_or_create(data_dir / "keys", "node");
  } catch (const std::exception& e) {
    CoordinatorProbe result;
    result.outcome = Outcome::Failed;
    result.detail = QString::fromLocal8Bit(e.what());
    return result;
  }
  return run(link, identity, timeout);
}

QString CoordinatorProbe::message(const InviteLink& link) const {
  const QString address = link.coordinator();
  switch (outcome) {
    case Outcome::Reachable:
      return tr("The coordinator at %1 answered (Rookery %2, %3 ms).")
          .arg(address, version, QString::number(rtt_ms, 'f', 0));
    case Outcome::Unreachable:
      return tr("Cannot reach the coordinator at %1. Check the address and your internet "
                "connection; the "
                "coordinator may also be down or behind a firewall.")
          .arg(address);
    case Outcome::KeyMismatch:
      return tr("Something answers at %1, but not the coordinator this link names: the secure "
                "handshake "
                "failed. Ask the job owner for a new invite link.")
          .arg(address);
    case Outcome::Refused:
      return detail.isEmpty() || detail.startsWith(QLatin1String("ZAP"))
                 ? tr("The coordinator at %1 refused this PC: it admits only volunteers on its "
                      "list. Ask the job "
                      "owner to add this PC, or for another invite.")
                       .arg(address)
                 : tr("The coordinator at %1 refused: %2").arg(address, detail);
    case Outcome::NoAnswer:
      return tr("The coordinator at %1 accepted the connection but did not answer. It may be "
                "overloaded; try "
                "again later.")
          .arg(address);
    case Outcome::NotCoordinator:
      return tr("%1 is not a Rookery coordinator.").arg(address);
    case Outcome::NoJob:
      return tr("The coordinator at %1 answers but runs no job yet. Ask the job owner when the job "
                "starts.")
          .arg(address);
    case Outcome::WrongJob:
      return tr("The coordinator at %1 runs the job “%2”, not “%3” as the link says. Ask the job "
                "owner for a new "
                "invite link.")
          .arg(address, detail, link.job());
    case Outcome::Failed:
      break;
  }
  return tr("Could not contact the coordinator at %1: %2").arg(address, detail);
}

}  // namespace rookery::ui
