#pragma once
// Connection reversal's side in the dialler: where to dial a peer that cannot be dialled at
// the address it is known by. An unreachable node registers its ports with this node's
// reversal service (reach::RelayServer on loopback), which opens a local port for each; every
// CURVE connection this process makes to that node's key and port then goes to the local port
// instead, and the service splices it onto a connection the unreachable node opened. The CURVE
// handshake still runs with the node's key, end to end: a route cannot impersonate anyone.
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace rookery::net {

class DialRoutes {
 public:
  // Dial `key`'s port `port` (any host) at `local_endpoint`.
  void set(const std::string& key, std::uint16_t port, const std::string& local_endpoint);
  // The node stopped being carried: its ports are dialled as they are named again.
  void erase(const std::string& key);
  // The endpoint to dial for `endpoint` ("tcp://host:port") of the peer with `key`.
  std::string resolve(const std::string& endpoint, const std::string& key) const;
  std::size_t routed_keys() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::map<std::uint16_t, std::string>> routes_;  // key -> port -> local
};

// The process's routes: every CURVE connection it makes consults them (secure_context.hpp).
DialRoutes& dial_routes();

}  // namespace rookery::net
