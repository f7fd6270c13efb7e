#include "reach/relay_client.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "reach/candidates.hpp"
#include "reach/tcp.hpp"
#include "rookery/reach.pb.h"

namespace rookery::reach {

namespace pb = wire::pb;

namespace {
constexpr auto kPoll = std::chrono::milliseconds(100);
constexpr auto kDialTimeout = std::chrono::milliseconds(3000);

}  // namespace

std::string_view to_string(RelayState state) {
  switch (state) {
    case RelayState::connecting:
      return "connecting";
    case RelayState::registered:
      return "registered";
    case RelayState::refused:
      return "refused";
    case RelayState::lost:
      return "lost";
  }
  return "unknown";
}

RelayClient::RelayClient(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                         RelayClientOptions options)
    : ctx_(ctx), identity_(identity), options_(std::move(options)) {
  thread_ = std::thread([this] { loop(); });
}

RelayClient::~RelayClient() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

RelayState RelayClient::state() const {
  std::lock_guard lock(mutex_);
  return state_;
}
std::vector<RelayedPort> RelayClient::ports() const {
  std::lock_guard lock(mutex_);
  return state_ == RelayState::registered ? ports_ : std::vector<RelayedPort>{};
}
std::string RelayClient::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

void RelayClient::open(const std::string& token, std::uint16_t port) {
  const bool known = std::any_of(options_.ports.begin(), options_.ports.end(),
                                 [&](std::uint16_t p) { return p == port; });
  if (!known || token.size() != 16) {
    spdlog::warn("relay client: the relay asked to open port {} it does not carry: ignored", port);
    return;
  }
  Fd relay = dial_tcp(options_.relay_host, data_port_, kDialTimeout);
  Fd local = dial_tcp(options_.local_host, port, kDialTimeout);
  if (!relay || !local || !write_all(relay.get(), token.data(), token.size())) {
    spdlog::warn("relay client: could not open a relayed connection to port {} ({})", port,
                 !local   ? "nothing listens there yet"
                 : !relay ? "the relay's data port does not answer"
                          : "the relay closed the connection");
    return;
  }
  std::lock_guard lock(mutex_);
  std::erase_if(splices_, [](const auto& s) { return s->finished(); });
  splices_.push_back(std::make_unique<TcpSplice>(std::move(relay), std::move(local), unlimited_));
  ++connections_;
}

void RelayClient::loop() {
  using Clock = std::chrono::steady_clock;
  auto make_socket = [this] {
    net::SocketOptions socket;
    return net::connect_curve_client(ctx_, zmq::socket_type::dealer,
                                     tcp_endpoint(options_.relay_host, options_.control_port),
                                     identity_, options_.relay_key, socket);
  };
  zmq::socket_t control = make_socket();
  auto send = [&control](const pb::RelayMessage& m) {
    const std::string payload = m.SerializeAsString();
    return control.send(zmq::buffer(payload), zmq::send_flags::dontwait).has_value();
  };
  auto request_registration = [&] {
    pb::RelayMessage m;
    auto* reg = m.mutable_register_();
    for (auto p : options_.ports) reg->add_ports(p);
    send(m);
  };
  request_registration();
  auto last_heard = Clock::now(), last_ping = Clock::now();
  while (!stop_) {
    zmq::pollitem_t item{control.handle(), 0, ZMQ_POLLIN, 0};
    zmq::poll(&item, 1, kPoll);
    const auto now = Clock::now();
    zmq::message_t frame;
    while ((item.revents & ZMQ_POLLIN) && control.recv(frame, zmq::recv_flags::dontwait)) {
      pb::RelayMessage m;
      if (frame.more() || !m.ParseFromArray(frame.data(), static_cast<int>(frame.size()))) {
        spdlog::warn("relay client: a malformed message from the relay: ignored");
        continue;
      }
      last_heard = now;
      if (m.has_registered()) {
        const auto& pub = m.registered().public_ports();
        std::lock_guard lock(mutex_);
        if (static_cast<std::size_t>(pub.size()) != options_.ports.size()) {
          state_ = RelayState::refused;
          error_ = "the relay answered with the wrong number of ports";
          continue;
        }
        ports_.clear();
        for (int i = 0; i < pub.size(); ++i) {
          ports_.push_back(
              {options_.ports[static_cast<std::size_t>(i)], static_cast<std::uint16_t>(pub[i])});
        }
        data_port_ = options_.data_port ? options_.data_port
                                        : static_cast<std::uint16_t>(m.registered().data_port());
        state_ = RelayState::registered;
        error_.clear();
        spdlog::info("relay client: {} port(s) relayed by {}", ports_.size(), options_.relay_host);
      } else if (m.has_open()) {
        open(m.open().token(), static_cast<std::uint16_t>(m.open().port()));
      } else if (m.has_refused()) {
        std::lock_guard lock(mutex_);
        if (m.refused().reason() == pb::RelayRefused::NOT_REGISTERED) {
          state_ = RelayState::connecting;  // the relay restarted or dropped us: register again
          request_registration();
        } else {
          state_ = RelayState::refused;
          error_ = pb::RelayRefused::Reason_Name(m.refused().reason());
        }
      }
    }
    if (now - last_ping >= options_.ping_interval) {
      pb::RelayMessage ping;
      ping.mutable_ping();
      send(ping);
      last_ping = now;
    }
    if (now - last_heard > options_.timeout) {
      std::lock_guard lock(mutex_);
      if (state_ != RelayState::lost) {
        spdlog::warn("relay client: the relay at {} stopped answering", options_.relay_host);
        state_ = RelayState::lost;
        error_ = "the relay stopped answering";
        splices_.clear();
      }
      // A fresh socket, so a relay that comes back at the same address carries us again.
      control.close();
      control = make_socket();
      request_registration();
      last_heard = now;
    }
  }
  std::lock_guard lock(mutex_);
  splices_.clear();
}

}  // namespace rookery::reach
