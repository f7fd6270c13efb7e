#include "net/secure_context.hpp"

#include <array>

#include <spdlog/spdlog.h>

namespace rookery::net {

namespace {
constexpr const char* kZapEndpoint = "inproc://zeromq.zap.01";
constexpr const char* kZapStopEndpoint = "inproc://rookery.zap.stop";
constexpr int kZapEnforceDomain = 93;  // ZMQ_ZAP_ENFORCE_DOMAIN (a draft option in libzmq 4.3)

void apply_common(zmq::socket_t& s, const SocketOptions& o) {
  s.set(zmq::sockopt::sndhwm, o.send_hwm);
  s.set(zmq::sockopt::rcvhwm, o.recv_hwm);
  s.set(zmq::sockopt::linger, o.linger_ms);
  s.set(zmq::sockopt::tcp_keepalive, 1);
  s.set(zmq::sockopt::tcp_keepalive_idle, o.keepalive_idle_s);
  s.set(zmq::sockopt::tcp_keepalive_intvl, o.keepalive_interval_s);
  s.set(zmq::sockopt::tcp_keepalive_cnt, o.keepalive_probes);
}

void enforce_zap_domain(zmq::socket_t& s) {
  // With ZAP_ENFORCE_DOMAIN a missing handler refuses everyone instead of admitting them.
  // Debian's libzmq is built without draft options; there our handler is started by the
  // context before any socket exists, so it is always consulted (and tests check that).
  int on = 1;
  static std::once_flag warned;
  if (zmq_setsockopt(s.handle(), kZapEnforceDomain, &on, sizeof on) != 0) {
    std::call_once(warned, [] {
      spdlog::debug(
          "libzmq lacks ZMQ_ZAP_ENFORCE_DOMAIN; relying on the always-present ZAP handler");
    });
  }
}
}  // namespace

void ZapAuthenticator::set_open(const std::string& domain, bool open) {
  std::lock_guard lock(mutex_);
  policies_[domain].open = open;
}

void ZapAuthenticator::allow(const std::string& domain, const std::string& key) {
  std::lock_guard lock(mutex_);
  policies_[domain].keys.insert(key);
}

void ZapAuthenticator::revoke(const std::string& domain, const std::string& key) {
  std::lock_guard lock(mutex_);
  policies_[domain].keys.erase(key);
}

void ZapAuthenticator::replace(const std::string& domain, const std::vector<std::string>& keys) {
  std::lock_guard lock(mutex_);
  auto& p = policies_[domain];
  p.keys = std::unordered_set<std::string>(keys.begin(), keys.end());
}

bool ZapAuthenticator::is_allowed(const std::string& domain, const std::string& key) const {
  std::lock_guard lock(mutex_);
  auto it = policies_.find(domain);
  if (it == policies_.end()) return false;
  return it->second.open || it->second.keys.count(key) > 0;
}

std::vector<std::string> ZapAuthenticator::allowed(const std::string& domain) const {
  std::lock_guard lock(mutex_);
  auto it = policies_.find(domain);
  if (it == policies_.end()) return {};
  return {it->second.keys.begin(), it->second.keys.end()};
}

void ZapAuthenticator::serve(zmq::socket_t& zap, zmq::socket_t& stop) {
  std::array<zmq::pollitem_t, 2> items{
      {{zap.handle(), 0, ZMQ_POLLIN, 0}, {stop.handle(), 0, ZMQ_POLLIN, 0}}};
  for (;;) {
    zmq::poll(items.data(), items.size(), std::chrono::milliseconds(-1));
    if (items[1].revents & ZMQ_POLLIN) return;
    if (!(items[0].revents & ZMQ_POLLIN)) continue;
    // RFC 27 request: version, request id, domain, address, routing id, mechanism, credentials...
    std::vector<zmq::message_t> req;
    for (;;) {
      zmq::message_t part;
      if (!zap.recv(part)) break;
      const bool more = part.more();
      req.push_back(std::move(part));
      if (!more || req.size() > 16) break;
    }
    std::string status = "400", text = "malformed ZAP request", user;
    if (req.size() >= 6) {
      const std::string domain = req[2].to_string();
      const std::string mechanism = req[5].to_string();
      if (mechanism == "CURVE" && req.size() >= 7 && req[6].size() == 32) {
        std::array<char, 41> z85{};
        zmq_z85_encode(z85.data(), static_cast<const uint8_t*>(req[6].data()), 32);
        const std::string key(z85.data(), 40);
        if (is_allowed(domain, key)) {
          status = "200", text = "OK", user = key;
          ++accepted_;
        } else {
          text = "key not allowed in domain '" + domain + "'";
          ++refused_;
          spdlog::info("refused connection from {} ({}): not on the allow-list of '{}'",
                       short_key(key), req[3].to_string(), domain);
        }
      } else {
        text = "only CURVE is accepted";
        ++refused_;
      }
    }
    const std::string request_id = req.size() > 1 ? req[1].to_string() : std::string();
    zap.send(zmq::buffer(std::string_view("1.0")), zmq::send_flags::sndmore);
    zap.send(zmq::buffer(request_id), zmq::send_flags::sndmore);
    zap.send(zmq::buffer(status), zmq::send_flags::sndmore);
    zap.send(zmq::buffer(text), zmq::send_flags::sndmore);
    zap.send(zmq::buffer(user), zmq::send_flags::sndmore);
    zap.send(zmq::message_t(), zmq::send_flags::none);
  }
}

SecureContext::SecureContext(int io_threads) : ctx_(io_threads) {
  // Bind the handler's sockets here, before any socket can be created from this context.
  auto zap = std::make_shared<zmq::socket_t>(ctx_, zmq::socket_type::rep);
  zap->set(zmq::sockopt::linger, 0);
  zap->bind(kZapEndpoint);
  auto stop_rx = std::make_shared<zmq::socket_t>(ctx_, zmq::socket_type::pair);
  stop_rx->bind(kZapStopEndpoint);
  stop_tx_ = zmq::socket_t(ctx_, zmq::socket_type::pair);
  stop_tx_.set(zmq::sockopt::linger, 0);
  stop_tx_.connect(kZapStopEndpoint);
  zap_thread_ = std::thread([this, zap, stop_rx] {
    auth_.serve(*zap, *stop_rx);
    zap->close();
    stop_rx->close();
  });
}

SecureContext::~SecureContext() {
  stop_tx_.send(zmq::message_t(), zmq::send_flags::dontwait);
  if (zap_thread_.joinable()) zap_thread_.join();
  stop_tx_.close();
}

zmq::socket_t bind_curve_server(SecureContext& ctx, zmq::socket_type type,
                                const std::string& endpoint, const CurveKeyPair& identity,
                                const std::string& domain, const SocketOptions& opts) {
  zmq::socket_t s(ctx.zmq(), type);
  apply_common(s, opts);
  s.set(zmq::sockopt::curve_server, true);
  s.set(zmq::sockopt::curve_secretkey, identity.secret_key);
  s.set(zmq::sockopt::zap_domain, domain);
  enforce_zap_domain(s);
  // A "*" bind listens on IPv6 and IPv4 alike; an IPv4 address stays an IPv4 socket, so its
  // endpoint reads as it was given.
  const std::string host = endpoint.substr(0, endpoint.rfind(':'));
  if (host == "tcp://*" || host.find('[') != std::string::npos) s.set(zmq::sockopt::ipv6, true);
  s.bind(endpoint);
  return s;
}

zmq::socket_t connect_curve_client(SecureContext& ctx, zmq::socket_type type,
                                   const std::string& endpoint, const CurveKeyPair& identity,
                                   const std::string& server_key, const SocketOptions& opts) {
  if (!is_z85_key(server_key))
    throw std::invalid_argument("server key is not a Z85 CURVE key: '" + server_key + "'");
  zmq::socket_t s(ctx.zmq(), type);
  apply_common(s, opts);
  s.set(zmq::sockopt::curve_serverkey, server_key);
  s.set(zmq::sockopt::curve_publickey, identity.public_key);
  s.set(zmq::sockopt::curve_secretkey, identity.secret_key);
  s.set(zmq::sockopt::ipv6, true);  // so that [v6] peers can be dialled
  s.connect(ctx.routes().resolve(endpoint, server_key));
  return s;
}

std::string last_endpoint(zmq::socket_t& socket) { return socket.get(zmq::sockopt::last_endpoint); }

std::string sender_key(const zmq::message_t& msg) {
  const char* user = zmq_msg_gets(const_cast<zmq_msg_t*>(msg.handle()), "User-Id");
  return user ? std::string(user) : std::string();
}

std::string sender_address(const zmq::message_t& msg) {
  const char* peer = zmq_msg_gets(const_cast<zmq_msg_t*>(msg.handle()), "Peer-Address");
  std::string a = peer ? std::string(peer) : std::string();
  if (a.rfind("::ffff:", 0) == 0 && a.find('.') != std::string::npos) a = a.substr(7);
  return a;
}

}  // namespace rookery::net
