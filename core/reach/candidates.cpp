#include "reach/candidates.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <algorithm>

namespace rookery::reach {

namespace {
void add(std::vector<Candidate>& out, const std::string& host, std::uint16_t port,
         CandidateKind kind) {
  if (host.empty() || port == 0 || is_loopback(host)) return;
  const Candidate c{host, port, kind};
  if (std::find_if(out.begin(), out.end(), [&](const Candidate& o) {
        return o.host == c.host && o.port == c.port;
      }) == out.end()) {
    out.push_back(c);
  }
}

std::optional<in6_addr> parse6(const std::string& host) {
  in6_addr a{};
  if (::inet_pton(AF_INET6, host.c_str(), &a) == 1) return a;
  return std::nullopt;
}
std::optional<std::uint32_t> parse4(const std::string& host) {
  in_addr a{};
  if (::inet_pton(AF_INET, host.c_str(), &a) == 1) return ntohl(a.s_addr);
  return std::nullopt;
}
}  // namespace

std::vector<Candidate> gather_candidates(const CandidateInputs& in) {
  std::vector<Candidate> out;
  if (!in.configured_host.empty()) {
    add(out, in.configured_host, in.port, CandidateKind::configured);
    return out;
  }
  if (in.mapped_port) {
    // The router's word for its public address may be another NAT's inside (double NAT); the
    // coordinator's observation is the address the internet sees, so it goes first.
    add(out, in.observed_address, *in.mapped_port, CandidateKind::mapped);
    if (!is_private(in.mapped_address))
      add(out, in.mapped_address, *in.mapped_port, CandidateKind::mapped);
  }
  add(out, in.observed_address, in.port, CandidateKind::observed);
  for (const auto& a : in.lan_addresses) add(out, a, in.port, CandidateKind::lan);
  return out;
}

std::vector<std::string> interface_addresses() {
  std::vector<std::string> out;
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return out;
  for (ifaddrs* i = list; i; i = i->ifa_next) {
    if (!i->ifa_addr || !(i->ifa_flags & IFF_UP) || (i->ifa_flags & IFF_LOOPBACK)) continue;
    char text[INET6_ADDRSTRLEN] = {};
    if (i->ifa_addr->sa_family == AF_INET) {
      ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr, text,
                  sizeof text);
    } else if (i->ifa_addr->sa_family == AF_INET6) {
      const auto* a6 = &reinterpret_cast<sockaddr_in6*>(i->ifa_addr)->sin6_addr;
      if (IN6_IS_ADDR_LINKLOCAL(a6)) continue;  // needs a zone; useless to a peer elsewhere
      ::inet_ntop(AF_INET6, a6, text, sizeof text);
    } else {
      continue;
    }
    const std::string s = text;
    if (!s.empty() && !is_loopback(s) && std::find(out.begin(), out.end(), s) == out.end()) {
      out.push_back(s);
    }
  }
  ::freeifaddrs(list);
  return out;
}

bool is_loopback(const std::string& host) {
  if (host == "localhost") return true;
  if (const auto v4 = parse4(host)) return (*v4 >> 24) == 127 || *v4 == 0;
  if (const auto v6 = parse6(host)) {
    if (IN6_IS_ADDR_V4MAPPED(&*v6)) return v6->s6_addr[12] == 127;
    return IN6_IS_ADDR_LOOPBACK(&*v6) || IN6_IS_ADDR_UNSPECIFIED(&*v6);
  }
  return false;
}

bool is_private(const std::string& host) {
  if (const auto v4 = parse4(host)) {
    const std::uint32_t a = *v4;
    return (a >> 24) == 10 || (a >> 20) == (172u << 4 | 1) || (a >> 16) == (192u << 8 | 168) ||
           (a >> 22) == (100u << 2 | 1) || (a >> 16) == (169u << 8 | 254);
  }
  if (const auto v6 = parse6(host)) {
    return (v6->s6_addr[0] & 0xfe) == 0xfc || IN6_IS_ADDR_LINKLOCAL(&*v6);
  }
  return false;
}

std::string tcp_endpoint(const std::string& host, std::uint16_t port) {
  const bool v6 = host.find(':') != std::string::npos;
  return "tcp://" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::string host_of(const std::string& endpoint) {
  constexpr std::string_view scheme = "tcp://";
  if (endpoint.rfind(scheme, 0) != 0) return {};
  const std::string rest = endpoint.substr(scheme.size());
  const auto colon = rest.rfind(':');
  if (colon == std::string::npos) return {};
  std::string host = rest.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  return host;
}

std::uint16_t port_of(const std::string& endpoint) {
  const auto colon = endpoint.rfind(':');
  if (colon == std::string::npos || host_of(endpoint).empty()) return 0;
  const std::string digits = endpoint.substr(colon + 1);
  if (digits.empty() || digits.size() > 5 ||
      digits.find_first_not_of("0123456789") != std::string::npos) {
    return 0;
  }
  const int port = std::stoi(digits);
  return port > 0 && port <= 65535 ? static_cast<std::uint16_t>(port) : 0;
}

std::string_view to_string(CandidateKind kind) {
  switch (kind) {
    case CandidateKind::configured:
      return "configured";
    case CandidateKind::mapped:
      return "mapped";
    case CandidateKind::observed:
      return "observed";
    case CandidateKind::lan:
      return "lan";
    case CandidateKind::relayed:
      return "relayed";
  }
  return "unknown";
}

}  // namespace rookery::reach
