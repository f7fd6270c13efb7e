#pragma once
// Sybil limits at admission: at most so many live volunteers from one address, and from one
// subnet, as the coordinator sees them connect. One person who enrols many keys (to out-vote
// the honest checkers of a ban vote) must then hold many addresses and subnets; a home user
// with a few PCs behind one NAT is not hurt by the defaults. An IPv6 host gets a whole /64, so
// a /64 counts as one address and a /48 (one site) as one subnet.
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
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

// The origins of volunteers by key, counted per address and per subnet as they come and go, so
// that a join is judged in O(1), not by a scan of every live volunteer's address.
class OriginCounts {
 public:
  // `key` counts from `peer_address` now (where it counted from before no more); a
  // `peer_address` that is not an IP address counts nowhere.
  void set(const std::string& key, const std::string& peer_address);
  void erase(const std::string& key);
  // Entries from `o`'s address and from its subnet, `key`'s own left out.
  std::pair<std::size_t, std::size_t> count(const Origin& o, const std::string& key) const;
  std::size_t size() const { return by_key_.size(); }

 private:
  std::unordered_map<std::string, Origin> by_key_;
  std::unordered_map<std::string, std::size_t> per_address_, per_subnet_;
};

// sybil_refusal's verdict for `key` joining from `peer_address` against the volunteers the
// `counted` sets hold (live ones, joins in flight), `key`'s own entries left out.
wire::pb::Verdict sybil_refusal(const SybilCaps& caps, const std::string& peer_address,
                                const std::string& key,
                                std::initializer_list<const OriginCounts*> counted);

}  // namespace rookery::coordinator
