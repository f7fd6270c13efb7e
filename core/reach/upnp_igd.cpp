#include "reach/upnp_igd.hpp"

#include <miniupnpc/miniupnpc.h>
#include <miniupnpc/upnpcommands.h>
#include <miniupnpc/upnperrors.h>

#include <string>

namespace rookery::reach {

struct UpnpIgd::Device {
  UPNPUrls urls{};
  IGDdatas data{};
  char lan_address[64] = {};
  ~Device() { FreeUPNPUrls(&urls); }
};

namespace {
std::string upnp_error(int code) {
  const char* s = strupnperror(code);
  return s ? std::string(s) + " (" + std::to_string(code) + ")"
           : "UPnP error " + std::to_string(code);
}
}  // namespace

std::unique_ptr<UpnpIgd> UpnpIgd::discover(std::chrono::milliseconds timeout, std::string& error) {
  int discover_error = 0;
  UPNPDev* devices = upnpDiscover(static_cast<int>(timeout.count()), nullptr, nullptr,
                                  UPNP_LOCAL_PORT_ANY, 0, 2, &discover_error);
  if (!devices) {
    error = "no UPnP device answered on the LAN";
    return nullptr;
  }
  auto device = std::make_unique<Device>();
  const int found = UPNP_GetValidIGD(devices, &device->urls, &device->data, device->lan_address,
                                     sizeof device->lan_address);
  freeUPNPDevlist(devices);
  if (found != 1) {
    // 2: an IGD that says it is not connected; 3: a UPnP device that is no gateway.
    error = found == 2   ? "the router's UPnP gateway reports no internet connection"
            : found == 3 ? "UPnP devices answered, but none is an internet gateway"
                         : "no UPnP internet gateway on the LAN";
    return nullptr;
  }
  std::unique_ptr<UpnpIgd> igd(new UpnpIgd(std::move(device)));
  return igd;
}

UpnpIgd::UpnpIgd(std::unique_ptr<Device> device) : device_(std::move(device)) {
  lan_address_ = device_->lan_address;
  char external[40] = {};
  if (UPNP_GetExternalIPAddress(device_->urls.controlURL, device_->data.first.servicetype,
                                external) == UPNPCOMMAND_SUCCESS) {
    external_address_ = external;
  }
}

UpnpIgd::~UpnpIgd() = default;

GatewayResult UpnpIgd::map_tcp(std::uint16_t internal_port, std::uint16_t external_port,
                               std::chrono::seconds lease) {
  const std::string in = std::to_string(internal_port), ext = std::to_string(external_port),
                    duration = std::to_string(lease.count());
  const int rc = UPNP_AddPortMapping(device_->urls.controlURL, device_->data.first.servicetype,
                                     ext.c_str(), in.c_str(), lan_address_.c_str(), "Rookery",
                                     "TCP", nullptr, duration.c_str());
  if (rc != UPNPCOMMAND_SUCCESS) return {false, 0, {}, upnp_error(rc)};
  return {true, external_port, lease, {}};
}

bool UpnpIgd::unmap_tcp(std::uint16_t, std::uint16_t external_port) {
  const std::string ext = std::to_string(external_port);
  return UPNP_DeletePortMapping(device_->urls.controlURL, device_->data.first.servicetype,
                                ext.c_str(), "TCP", nullptr) == UPNPCOMMAND_SUCCESS;
}

}  // namespace rookery::reach
