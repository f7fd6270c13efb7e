#pragma once
// NAT-PMP (RFC 6886) port mapping through libnatpmp: requests to the default gateway's UDP
// port 5351, each bounded by our own deadline rather than the library's minute of retries.
#include <chrono>
#include <memory>
#include <string>

#include "reach/router_gateway.hpp"

namespace rookery::reach {

class NatPmp final : public RouterGateway {
 public:
  // Asks the default gateway for its public address within `timeout`; nullptr (and why in
  // `error`) when it does not speak NAT-PMP.
  static std::unique_ptr<NatPmp> discover(std::chrono::milliseconds timeout, std::string& error);
  ~NatPmp() override;

  std::string protocol() const override { return "NAT-PMP"; }
  std::string external_address() const override { return external_address_; }
  std::string internal_address() const override { return internal_address_; }
  GatewayResult map_tcp(std::uint16_t internal_port, std::uint16_t external_port,
                        std::chrono::seconds lease) override;
  bool unmap_tcp(std::uint16_t internal_port, std::uint16_t external_port) override;

 private:
  struct Session;
  NatPmp(std::unique_ptr<Session> session, std::chrono::milliseconds timeout);
  std::unique_ptr<Session> session_;
  std::chrono::milliseconds timeout_;
  std::string external_address_;
  std::string internal_address_;
};

}  // namespace rookery::reach
