#include "net/dial_routes.hpp"

#include <charconv>

namespace rookery::net {

namespace {
// The port of "tcp://host:port" ("[v6]:port" too); 0 when there is none.
std::uint16_t endpoint_port(const std::string& endpoint) {
  const auto colon = endpoint.rfind(':');
  if (colon == std::string::npos || endpoint.find("://") == std::string::npos) return 0;
  unsigned port = 0;
  const char* first = endpoint.data() + colon + 1;
  const char* last = endpoint.data() + endpoint.size();
  const auto [end, ec] = std::from_chars(first, last, port);
  if (ec != std::errc() || end != last || port > 65535) return 0;
  return static_cast<std::uint16_t>(port);
}
}  // namespace

void DialRoutes::set(const std::string& key, std::uint16_t port,
                     const std::string& local_endpoint) {
  std::lock_guard lock(mutex_);
  routes_[key][port] = local_endpoint;
}

void DialRoutes::erase(const std::string& key) {
  std::lock_guard lock(mutex_);
  routes_.erase(key);
}

std::string DialRoutes::resolve(const std::string& endpoint, const std::string& key) const {
  std::lock_guard lock(mutex_);
  if (routes_.empty()) return endpoint;
  const auto node = routes_.find(key);
  if (node == routes_.end()) return endpoint;
  const auto route = node->second.find(endpoint_port(endpoint));
  return route == node->second.end() ? endpoint : route->second;
}

std::size_t DialRoutes::routed_keys() const {
  std::lock_guard lock(mutex_);
  return routes_.size();
}

DialRoutes& dial_routes() {
  static DialRoutes routes;
  return routes;
}

}  // namespace rookery::net
