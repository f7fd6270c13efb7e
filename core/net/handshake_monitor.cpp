#include "net/handshake_monitor.hpp"

#include <zmq.h>

#include <atomic>
#include <cstring>

namespace rookery::net {

namespace {
std::atomic<std::uint64_t> monitors{0};
}

HandshakeMonitor::HandshakeMonitor(zmq::context_t& ctx, zmq::socket_t& socket,
                                   const std::string& name)
    : monitor_(ctx, zmq::socket_type::pair), watched_(&socket) {
  const std::string endpoint =
      "inproc://rookery.monitor." + name + "." + std::to_string(++monitors);
  if (zmq_socket_monitor(socket.handle(), endpoint.c_str(), ZMQ_EVENT_ALL) != 0) {
    throw zmq::error_t();
  }
  monitor_.set(zmq::sockopt::linger, 0);
  monitor_.connect(endpoint);
}

HandshakeMonitor::~HandshakeMonitor() {
  zmq_socket_monitor(watched_->handle(), nullptr, 0);
  monitor_.close();
}

const HandshakeMonitor::State& HandshakeMonitor::poll(std::chrono::milliseconds wait) {
  zmq::pollitem_t item{monitor_.handle(), 0, ZMQ_POLLIN, 0};
  if (wait.count() > 0) zmq::poll(&item, 1, wait);
  for (;;) {
    zmq::message_t head, address;
    if (!monitor_.recv(head, zmq::recv_flags::dontwait)) break;
    if (head.more()) (void)monitor_.recv(address);  // the endpoint; not needed
    if (head.size() < 6) continue;
    std::uint16_t event = 0;
    std::uint32_t value = 0;
    std::memcpy(&event, head.data<char>(), 2);
    std::memcpy(&value, head.data<char>() + 2, 4);
    switch (event) {
      case ZMQ_EVENT_CONNECTED:
        state_.tcp_connected = true;
        break;
      case ZMQ_EVENT_HANDSHAKE_SUCCEEDED:
        state_.handshake_succeeded = true;
        break;
      case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH:
        state_.refused = true;
        state_.refusal_status = value;
        break;
      case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL:
      case ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL:
        state_.handshake_failed = true;
        state_.protocol_error = value;
        break;
      case ZMQ_EVENT_DISCONNECTED:
        if (!state_.handshake_succeeded) ++state_.dropped_before_handshake;
        break;
      default:
        break;
    }
  }
  return state_;
}

}  // namespace rookery::net
