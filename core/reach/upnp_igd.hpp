#pragma once
// UPnP Internet Gateway Device port mapping through miniupnpc: SSDP discovery on the LAN, then
// WANIPConnection's AddPortMapping / DeletePortMapping for this PC's own address.
#include <chrono>
#include <memory>
#include <string>

#include "reach/router_gateway.hpp"

namespace rookery::reach {

class UpnpIgd final : public RouterGateway {
 public:
  // Looks for a connected IGD for `timeout`; nullptr (and why in `error`) when there is none.
  static std::unique_ptr<UpnpIgd> discover(std::chrono::milliseconds timeout, std::string& error);
  ~UpnpIgd() override;

  std::string protocol() const override { return "UPnP IGD"; }
  std::string external_address() const override { return external_address_; }
  std::string internal_address() const override { return lan_address_; }
  GatewayResult map_tcp(std::uint16_t internal_port, std::uint16_t external_port,
                        std::chrono::seconds lease) override;
  bool unmap_tcp(std::uint16_t internal_port, std::uint16_t external_port) override;

 private:
  struct Device;
  explicit UpnpIgd(std::unique_ptr<Device> device);
  std::unique_ptr<Device> device_;
  std::string lan_address_;
  std::string external_address_;
};

}  // namespace rookery::reach
