#include "reach/relay_server.hpp"

#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <random>

#include "reach/candidates.hpp"
#include "rookery/reach.pb.h"

namespace rookery::reach {

namespace pb = wire::pb;

namespace {
constexpr std::size_t kTokenBytes = 16;
constexpr auto kPoll = std::chrono::milliseconds(200);

std::string random_token() {
  std::random_device random;
  std::string token(kTokenBytes, '\0');
  for (auto& c : token) c = static_cast<char>(random() & 0xff);
  return token;
}

}  // namespace

RelayServer::RelayServer(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                         RelayServerOptions options)
    : options_(std::move(options)), cap_(options_.bytes_per_second) {
  if (options_.public_host.empty()) options_.public_host = options_.host;
  net::SocketOptions socket;
  socket.send_hwm = socket.recv_hwm = 256;
  control_ = net::bind_curve_server(ctx, zmq::socket_type::router,
                                    tcp_endpoint(options_.host, options_.control_port), identity,
                                    options_.domain, socket);
  control_port_ = port_of(net::last_endpoint(control_));
  data_listener_ = listen_tcp(options_.host, options_.data_port);
  data_port_ = local_port(data_listener_.get());
  spdlog::info("relay: control port {}, data port {}, cap {}", control_port_, data_port_,
               options_.bytes_per_second ? std::to_string(options_.bytes_per_second) + " B/s"
                                         : std::string("none"));
  thread_ = std::thread([this] { loop(); });
}

RelayServer::~RelayServer() {
  stop_ = true;
  cap_.close();
  if (thread_.joinable()) thread_.join();
  for (const auto& [id, node] : nodes_) unroute(node);
}

void RelayServer::route(const Node& node) {
  if (!options_.routes) return;
  for (std::size_t i = 0; i < node.ports.size(); ++i) {
    options_.routes->set(node.key, node.ports[i],
                         tcp_endpoint(options_.public_host, local_port(node.listeners[i].get())));
  }
}

void RelayServer::unroute(const Node& node) {
  if (options_.routes) options_.routes->erase(node.key);
}

RelayStats RelayServer::stats() const {
  std::lock_guard lock(stats_mutex_);
  return stats_;
}

void RelayServer::send(const std::string& routing_id, const std::string& payload) {
  control_.send(zmq::buffer(routing_id), zmq::send_flags::sndmore | zmq::send_flags::dontwait);
  control_.send(zmq::buffer(payload), zmq::send_flags::dontwait);
}

void RelayServer::loop() {
  while (!stop_) {
    // The control socket, the data listener, every node's public ports, every data
    // connection still owing its token.
    std::vector<zmq::pollitem_t> items;
    items.push_back({control_.handle(), 0, ZMQ_POLLIN, 0});
    items.push_back({nullptr, data_listener_.get(), ZMQ_POLLIN, 0});
    std::vector<std::pair<std::string, std::size_t>> listener_of;
    for (auto& [id, node] : nodes_) {
      for (std::size_t i = 0; i < node.listeners.size(); ++i) {
        items.push_back({nullptr, node.listeners[i].get(), ZMQ_POLLIN, 0});
        listener_of.emplace_back(id, i);
      }
    }
    const std::size_t first_incoming = items.size();
    for (auto& in : incoming_) items.push_back({nullptr, in.fd.get(), ZMQ_POLLIN, 0});
    zmq::poll(items.data(), items.size(), kPoll);
    const auto now = std::chrono::steady_clock::now();

    if (items[0].revents & ZMQ_POLLIN) on_control(now);
    if (items[1].revents & ZMQ_POLLIN) {
      while (Fd fd = accept_tcp(data_listener_.get()))
        incoming_.push_back({std::move(fd), {}, now});
    }
    for (std::size_t k = 0; k < listener_of.size(); ++k) {
      if (items[2 + k].revents & ZMQ_POLLIN) on_peer(listener_of[k].first, listener_of[k].second);
    }
    for (std::size_t k = 0; k + first_incoming < items.size() && k < incoming_.size(); ++k) {
      if (items[first_incoming + k].revents & ZMQ_POLLIN) on_data_connection(incoming_[k], now);
    }
    expire(now);
  }
}

void RelayServer::on_control(Time now) {
  for (int budget = 0; budget < 64; ++budget) {
    std::vector<zmq::message_t> parts;
    zmq::message_t part;
    bool more = true;
    while (more && parts.size() < 3) {
      if (!control_.recv(part, zmq::recv_flags::dontwait)) return;
      more = part.more();
      parts.push_back(std::move(part));
    }
    while (more) {  // a node that sends more frames than the protocol has: drain them
      if (!control_.recv(part, zmq::recv_flags::dontwait)) break;
      more = part.more();
    }
    if (parts.size() != 2) {
      spdlog::warn("relay: a control message of {} frames, not 2: ignored", parts.size());
      continue;
    }
    const std::string id = parts[0].to_string();
    pb::RelayMessage msg;
    if (!msg.ParseFromArray(parts[1].data(), static_cast<int>(parts[1].size()))) {
      spdlog::warn("relay: a control message that is not a RelayMessage: ignored");
      continue;
    }
    pb::RelayMessage reply;
    if (msg.has_register_()) {
      const auto& ports = msg.register_().ports();
      bool valid =
          !ports.empty() && static_cast<std::size_t>(ports.size()) <= options_.max_ports_per_node;
      for (auto p : ports) valid = valid && p > 0 && p <= 65535;
      if (const auto old = nodes_.find(id); old != nodes_.end()) {
        unroute(old->second);  // registering again replaces what it had
        nodes_.erase(old);
      }
      if (!valid || nodes_.size() >= options_.max_nodes) {
        reply.mutable_refused()->set_reason(valid ? pb::RelayRefused::FULL
                                                  : pb::RelayRefused::BAD_REQUEST);
        std::lock_guard lock(stats_mutex_);
        ++stats_.refused;
      } else {
        Node node;
        node.key = net::sender_key(parts[1]);
        node.last_seen = now;
        auto* registered = reply.mutable_registered();
        for (auto p : ports) {
          node.ports.push_back(static_cast<std::uint16_t>(p));
          node.listeners.push_back(listen_tcp(options_.public_host, 0));
          registered->add_public_ports(local_port(node.listeners.back().get()));
        }
        registered->set_data_port(data_port_);
        spdlog::info("{}: carries {} ports of node {}", options_.routes ? "reversal" : "relay",
                     ports.size(), node.key.substr(0, 8));
        route(node);
        nodes_.emplace(id, std::move(node));
      }
    } else if (msg.has_ping()) {
      auto it = nodes_.find(id);
      if (it == nodes_.end()) {
        reply.mutable_refused()->set_reason(pb::RelayRefused::NOT_REGISTERED);
      } else {
        it->second.last_seen = now;
        reply.mutable_ping();
      }
    } else {
      spdlog::warn("relay: a control message it does not serve ({} bytes): ignored",
                   parts[1].size());
      continue;
    }
    send(id, reply.SerializeAsString());
  }
}

void RelayServer::on_peer(const std::string& node_id, std::size_t port_index) {
  auto it = nodes_.find(node_id);
  if (it == nodes_.end()) return;
  while (Fd peer = accept_tcp(it->second.listeners[port_index].get())) {
    const std::string token = random_token();
    pb::RelayMessage open;
    open.mutable_open()->set_token(token);
    open.mutable_open()->set_port(it->second.ports[port_index]);
    pending_.emplace(token, Pending{std::move(peer), node_id, std::chrono::steady_clock::now()});
    send(node_id, open.SerializeAsString());
  }
}

void RelayServer::on_data_connection(Incoming& in, Time) {
  char buffer[kTokenBytes];
  const ssize_t n = ::recv(in.fd.get(), buffer, kTokenBytes - in.token.size(), MSG_DONTWAIT);
  if (n <= 0) {
    in.fd.reset();  // closed before its token: dropped by expire()
    return;
  }
  in.token.append(buffer, static_cast<std::size_t>(n));
  if (in.token.size() < kTokenBytes) return;
  auto p = pending_.find(in.token);
  if (p == pending_.end()) {
    spdlog::warn("relay: a data connection with an unknown token: closed");
    in.fd.reset();
    return;
  }
  auto node = nodes_.find(p->second.node);
  if (node != nodes_.end()) {
    node->second.splices.push_back(std::make_unique<TcpSplice>(
        std::move(p->second.peer), std::move(in.fd), cap_, options_.tap));
    std::lock_guard lock(stats_mutex_);
    ++stats_.connections_total;
  }
  in.fd.reset();
  pending_.erase(p);
}

void RelayServer::expire(Time now) {
  std::erase_if(pending_,
                [&](const auto& kv) { return now - kv.second.since > options_.open_timeout; });
  std::erase_if(incoming_, [&](const Incoming& in) {
    return !in.fd || now - in.since > options_.open_timeout;
  });
  std::uint64_t bytes = 0;
  std::size_t open = 0;
  for (auto it = nodes_.begin(); it != nodes_.end();) {
    auto& node = it->second;
    if (now - node.last_seen > options_.node_timeout) {
      spdlog::warn("relay: node {} went silent; its ports and connections are closed",
                   node.key.substr(0, 8));
      for (const auto& s : node.splices) finished_bytes_ += s->bytes();
      unroute(node);
      it = nodes_.erase(it);
      continue;
    }
    std::erase_if(node.splices, [&](const std::unique_ptr<TcpSplice>& s) {
      if (!s->finished()) return false;
      finished_bytes_ += s->bytes();
      return true;
    });
    for (const auto& s : node.splices) bytes += s->bytes();
    open += node.splices.size();
    ++it;
  }
  std::lock_guard lock(stats_mutex_);
  stats_.nodes = nodes_.size();
  stats_.connections = open;
  stats_.bytes = finished_bytes_ + bytes;
}

}  // namespace rookery::reach
