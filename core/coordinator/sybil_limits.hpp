#pragma once
// Sybil limits at admission: at most so many live volunteers from one address, and from one
// subnet, as the coordinator sees them connect. One person who enrols many keys (to out-vote
// the honest checkers of a ban vote) must then hold many addresses and subnets; a home user
// with a few PCs behind one NAT is not hurt by the defaults. An IPv6 host gets a whole /64, so
// a /64 counts as one address and a /48 (one site) as one subnet.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "rookery/coordinator.pb.h"

namespace rookery::coordinator {

struct SybilCaps {
  std::size_t per_address = 4;  // volunteers from one IPv4 address or IPv6 /64 (0: no cap)
  std::size_t per_subnet = 16;  // ... from one IPv4 /24 or IPv6 /48 (0: no cap)
  // Joins from this host are not capped: they are the owner's own swarm on one PC (and anyone
  // who can connect from the owner's host has won already). True: capped too (tests of the caps).
  bool loopback = false;
};

// Where a join comes from, as the caps count it.
struct Origin {
  std::string address;  // IPv4 "203.0.113.7", IPv6 its /64 "2001:db8:1:2::/64"
  std::string subnet;   // IPv4 "203.0.113.0/24", IPv6 "2001:db8:1::/48"
  bool loopback = false;
};

// None for what is not an IP address (a local socket's empty one).
std::optional<Origin> origin_of(const std::string& peer_address);

// Why a join from `peer_address` is refused while the other live volunteers joined from
// `others` (TOO_MANY_FROM_ADDRESS or TOO_MANY_FROM_SUBNET: value the volunteers already there,
// limit the cap, detail the address or subnet); code NONE when it is admitted.
wire::pb::Verdict sybil_refusal(const SybilCaps& caps, const std::string& peer_address,
                                const std::vector<std::string>& others);

}  // namespace rookery::coordinator
