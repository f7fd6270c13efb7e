#pragma once
// A home router that can open a port to this PC: the interface PortMapper drives, with one
// implementation per protocol (UpnpIgd, NatPmp).
#include <chrono>
#include <cstdint>
#include <string>

namespace rookery::reach {

// What a router answered to a request, with its own words when it refused.
struct GatewayResult {
  bool ok = false;
  std::uint16_t external_port = 0;  // the port the router opened (it may choose another)
  std::chrono::seconds lease{0};    // how long the router keeps it (0: until removed)
  std::string error;
};

class RouterGateway {
 public:
  virtual ~RouterGateway() = default;
  // "UPnP IGD" or "NAT-PMP", for logs and the window.
  virtual std::string protocol() const = 0;
  // The router's address on the internet side, as the router reports it ("" if it does not).
  virtual std::string external_address() const = 0;
  // This PC's address as the router sees it.
  virtual std::string internal_address() const = 0;
  // Opens (or renews) `external_port` → this PC's `internal_port`, TCP, for `lease`.
  virtual GatewayResult map_tcp(std::uint16_t internal_port, std::uint16_t external_port,
                                std::chrono::seconds lease) = 0;
  // Closes a mapping this gateway opened; false when the router refused.
  virtual bool unmap_tcp(std::uint16_t internal_port, std::uint16_t external_port) = 0;
};

}  // namespace rookery::reach
