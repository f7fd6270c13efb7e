#pragma once
// Opens this node's listening ports on the home router, so that peers on the internet can
// dial it: UPnP IGD first, NAT-PMP second. Leases are renewed at half their life on a thread
// of the mapper's own and removed when the node stops (and by the router when they lapse,
// should the node be killed).
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "reach/router_gateway.hpp"

namespace rookery::reach {

enum class MappingMethod : std::uint8_t { none, upnp_igd, nat_pmp };

struct MappedPort {
  std::uint16_t internal_port = 0;
  std::uint16_t external_port = 0;
};

struct PortMappingStatus {
  MappingMethod method = MappingMethod::none;
  std::string external_address;  // as the router reports it
  std::string internal_address;  // this PC, as the router sees it
  std::vector<MappedPort> ports;
  std::chrono::seconds lease{0};
  std::uint64_t renewals = 0;
  std::string error;  // why some or all ports are not mapped
};

struct PortMapperOptions {
  std::chrono::seconds lease{3600};  // asked of the router
  std::chrono::milliseconds discovery_timeout{2000};
  bool upnp = true;
  bool nat_pmp = true;
};

class PortMapper {
 public:
  // Finds a gateway (nullptr and why, when there is none). Tests pass their own.
  using Discover = std::function<std::unique_ptr<RouterGateway>(std::string& error)>;

  explicit PortMapper(PortMapperOptions options = {});
  PortMapper(PortMapperOptions options, std::vector<Discover> gateways);
  ~PortMapper();
  PortMapper(const PortMapper&) = delete;
  PortMapper& operator=(const PortMapper&) = delete;

  // Maps each port to the same port outside where the router allows it, another otherwise,
  // and keeps renewing them. Blocks for the discovery and the requests.
  PortMappingStatus map(const std::vector<std::uint16_t>& ports);
  // Removes every mapping and stops renewing.
  void remove();
  PortMappingStatus status() const;

 private:
  void renew_loop();
  bool map_one(std::uint16_t internal_port, MappedPort& out, std::string& error);

  PortMapperOptions options_;
  std::vector<Discover> discoverers_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::unique_ptr<RouterGateway> gateway_;
  PortMappingStatus status_;
  std::thread renewer_;
};

std::string_view to_string(MappingMethod method);

}  // namespace rookery::reach
