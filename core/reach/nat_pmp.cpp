#include "reach/nat_pmp.hpp"

#include <arpa/inet.h>
#include <natpmp.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <string>

namespace rookery::reach {

struct NatPmp::Session {
  natpmp_t natpmp{};
  ~Session() { closenatpmp(&natpmp); }

  // Waits for the answer to the request just sent, retrying as libnatpmp schedules, until
  // `timeout`; the response's result code is left for the caller to read.
  int await(natpmpresp_t& response, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    int rc = NATPMP_TRYAGAIN;
    while (rc == NATPMP_TRYAGAIN) {
      const auto left = std::chrono::duration_cast<std::chrono::microseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return NATPMP_TRYAGAIN;
      timeval wait{};
      getnatpmprequesttimeout(&natpmp, &wait);
      const long long wait_us = static_cast<long long>(wait.tv_sec) * 1000000 + wait.tv_usec;
      const long long bounded = std::min<long long>(std::max<long long>(wait_us, 0), left.count());
      wait.tv_sec = static_cast<time_t>(bounded / 1000000);
      wait.tv_usec = static_cast<suseconds_t>(bounded % 1000000);
      fd_set fds;
      FD_ZERO(&fds);
      FD_SET(natpmp.s, &fds);
      ::select(natpmp.s + 1, &fds, nullptr, nullptr, &wait);
      rc = readnatpmpresponseorretry(&natpmp, &response);
    }
    return rc;
  }
};

namespace {
std::string natpmp_error(int rc) {
  if (rc == NATPMP_TRYAGAIN) return "the router did not answer NAT-PMP";
  return "NAT-PMP error " + std::to_string(rc);
}

// The address this PC uses towards the gateway: the one the router sees.
std::string local_address_towards(in_addr_t gateway) {
  const int s = ::socket(AF_INET, SOCK_DGRAM, 0);
  if (s < 0) return {};
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(5351);
  to.sin_addr.s_addr = gateway;
  std::string out;
  if (::connect(s, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0) {
    sockaddr_in local{};
    socklen_t len = sizeof local;
    char text[INET_ADDRSTRLEN] = {};
    if (::getsockname(s, reinterpret_cast<sockaddr*>(&local), &len) == 0 &&
        ::inet_ntop(AF_INET, &local.sin_addr, text, sizeof text)) {
      out = text;
    }
  }
  ::close(s);
  return out;
}
}  // namespace

std::unique_ptr<NatPmp> NatPmp::discover(std::chrono::milliseconds timeout, std::string& error) {
  auto session = std::make_unique<Session>();
  if (initnatpmp(&session->natpmp, 0, 0) < 0) {
    error = "no default gateway to ask for NAT-PMP";
    return nullptr;
  }
  if (sendpublicaddressrequest(&session->natpmp) < 0) {
    error = "could not send a NAT-PMP request";
    return nullptr;
  }
  natpmpresp_t response{};
  const int rc = session->await(response, timeout);
  if (rc < 0) {
    error = natpmp_error(rc);
    return nullptr;
  }
  char text[INET_ADDRSTRLEN] = {};
  ::inet_ntop(AF_INET, &response.pnu.publicaddress.addr, text, sizeof text);
  std::unique_ptr<NatPmp> pmp(new NatPmp(std::move(session), timeout));
  pmp->external_address_ = text;
  pmp->internal_address_ = local_address_towards(pmp->session_->natpmp.gateway);
  return pmp;
}

NatPmp::NatPmp(std::unique_ptr<Session> session, std::chrono::milliseconds timeout)
    : session_(std::move(session)), timeout_(timeout) {}

NatPmp::~NatPmp() = default;

GatewayResult NatPmp::map_tcp(std::uint16_t internal_port, std::uint16_t external_port,
                              std::chrono::seconds lease) {
  if (sendnewportmappingrequest(&session_->natpmp, NATPMP_PROTOCOL_TCP, internal_port,
                                external_port, static_cast<uint32_t>(lease.count())) < 0) {
    return {false, 0, {}, "could not send a NAT-PMP request"};
  }
  natpmpresp_t response{};
  const int rc = session_->await(response, timeout_);
  if (rc < 0) return {false, 0, {}, natpmp_error(rc)};
  // The router may open another public port than the one asked for, and shorten the lease.
  return {true,
          response.pnu.newportmapping.mappedpublicport,
          std::chrono::seconds(response.pnu.newportmapping.lifetime),
          {}};
}

bool NatPmp::unmap_tcp(std::uint16_t internal_port, std::uint16_t) {
  // A lifetime of 0 deletes the mapping of this internal port (RFC 6886 §3.4).
  if (sendnewportmappingrequest(&session_->natpmp, NATPMP_PROTOCOL_TCP, internal_port, 0, 0) < 0)
    return false;
  natpmpresp_t response{};
  return session_->await(response, timeout_) >= 0;
}

}  // namespace rookery::reach
