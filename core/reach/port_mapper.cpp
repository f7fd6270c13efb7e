#include "reach/port_mapper.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "reach/nat_pmp.hpp"
#include "reach/upnp_igd.hpp"

namespace rookery::reach {

namespace {
// Other public ports to ask for when the router refuses the same port outside.
constexpr int kExternalPortAttempts = 8;
constexpr std::chrono::seconds kShortestRenewal{1};

MappingMethod method_of(const RouterGateway& g) {
  return g.protocol() == "UPnP IGD" ? MappingMethod::upnp_igd : MappingMethod::nat_pmp;
}
}  // namespace

std::string_view to_string(MappingMethod method) {
  switch (method) {
    case MappingMethod::upnp_igd:
      return "UPnP IGD";
    case MappingMethod::nat_pmp:
      return "NAT-PMP";
    case MappingMethod::none:
      break;
  }
  return "none";
}

PortMapper::PortMapper(PortMapperOptions options) : options_(options) {
  const auto timeout = options.discovery_timeout;
  if (options.upnp) {
    discoverers_.push_back([timeout](std::string& error) -> std::unique_ptr<RouterGateway> {
      return UpnpIgd::discover(timeout, error);
    });
  }
  if (options.nat_pmp) {
    discoverers_.push_back([timeout](std::string& error) -> std::unique_ptr<RouterGateway> {
      return NatPmp::discover(timeout, error);
    });
  }
}

PortMapper::PortMapper(PortMapperOptions options, std::vector<Discover> gateways)
    : options_(options), discoverers_(std::move(gateways)) {}

PortMapper::~PortMapper() { remove(); }

bool PortMapper::map_one(std::uint16_t internal_port, MappedPort& out, std::string& error) {
  std::uint16_t wanted = internal_port;
  for (int attempt = 0; attempt < kExternalPortAttempts; ++attempt) {
    const GatewayResult r = gateway_->map_tcp(internal_port, wanted, options_.lease);
    if (r.ok) {
      out = {internal_port, r.external_port};
      if (r.lease.count() > 0) status_.lease = std::min(status_.lease, r.lease);
      return true;
    }
    error = r.error;
    // Taken outside by another PC of the LAN: ask for a port further up.
    wanted = static_cast<std::uint16_t>(
        1024 + (static_cast<unsigned>(wanted) - 1024 + 7919u * (attempt + 1)) % (65535 - 1024));
  }
  return false;
}

PortMappingStatus PortMapper::map(const std::vector<std::uint16_t>& ports) {
  remove();
  std::unique_lock lock(mutex_);
  stopping_ = false;
  status_ = {};
  std::string errors;
  for (const auto& discover : discoverers_) {
    std::string error;
    lock.unlock();
    auto gateway = discover(error);
    lock.lock();
    if (gateway) {
      gateway_ = std::move(gateway);
      break;
    }
    errors += (errors.empty() ? "" : "; ") + error;
  }
  if (!gateway_) {
    status_.error = errors.empty() ? "port mapping is off" : errors;
    return status_;
  }
  status_.method = method_of(*gateway_);
  status_.external_address = gateway_->external_address();
  status_.internal_address = gateway_->internal_address();
  status_.lease = options_.lease;
  for (const std::uint16_t port : ports) {
    MappedPort mapped;
    std::string error;
    if (map_one(port, mapped, error)) {
      status_.ports.push_back(mapped);
    } else {
      status_.error +=
          (status_.error.empty() ? "" : "; ") + ("port " + std::to_string(port) + ": " + error);
    }
  }
  spdlog::info("port mapping: {} on {} maps {} of {} port(s) to {}{}", to_string(status_.method),
               status_.internal_address, status_.ports.size(), ports.size(),
               status_.external_address, status_.error.empty() ? "" : " (" + status_.error + ")");
  if (!status_.ports.empty()) renewer_ = std::thread([this] { renew_loop(); });
  return status_;
}

void PortMapper::renew_loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const auto period = std::max<std::chrono::seconds>(status_.lease / 2, kShortestRenewal);
    if (wake_.wait_for(lock, period, [this] { return stopping_; })) break;
    for (auto& p : status_.ports) {
      const GatewayResult r = gateway_->map_tcp(p.internal_port, p.external_port, options_.lease);
      if (!r.ok) {
        status_.error = "renewing port " + std::to_string(p.internal_port) + ": " + r.error;
        spdlog::warn("port mapping: {}", status_.error);
      } else if (r.external_port != p.external_port) {
        p.external_port = r.external_port;  // NAT-PMP may move it; peers learn at the next report
      }
    }
    ++status_.renewals;
  }
}

void PortMapper::remove() {
  std::thread renewer;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    renewer = std::move(renewer_);
  }
  wake_.notify_all();
  if (renewer.joinable()) renewer.join();
  std::lock_guard lock(mutex_);
  if (gateway_) {
    for (const auto& p : status_.ports) {
      if (!gateway_->unmap_tcp(p.internal_port, p.external_port)) {
        spdlog::warn("port mapping: the router did not remove port {}; its lease ends it",
                     p.external_port);
      }
    }
  }
  status_.ports.clear();
  gateway_.reset();
}

PortMappingStatus PortMapper::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

}  // namespace rookery::reach
