#include "coordinator/sybil_limits.hpp"

#include <arpa/inet.h>

#include <cstring>

#include "coordinator/verdicts.hpp"

namespace rookery::coordinator {

namespace {

// `a` with every bit past the first `bits` cleared, as "prefix/bits".
std::string prefix6(in6_addr a, int bits) {
  for (int i = bits / 8; i < 16; ++i) {
    a.s6_addr[i] =
        i == bits / 8 ? static_cast<unsigned char>(a.s6_addr[i] & (0xff << (8 - bits % 8))) : 0;
  }
  char buf[INET6_ADDRSTRLEN];
  ::inet_ntop(AF_INET6, &a, buf, sizeof buf);
  return std::string(buf) + "/" + std::to_string(bits);
}

Origin origin4(in_addr a) {
  char buf[INET_ADDRSTRLEN];
  ::inet_ntop(AF_INET, &a, buf, sizeof buf);
  const std::uint32_t host = ntohl(a.s_addr);
  in_addr net{htonl(host & 0xffffff00u)};
  char net_buf[INET_ADDRSTRLEN];
  ::inet_ntop(AF_INET, &net, net_buf, sizeof net_buf);
  return {buf, std::string(net_buf) + "/24", (host >> 24) == 127};
}

}  // namespace

std::optional<Origin> origin_of(const std::string& peer_address) {
  std::string host = peer_address;
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (const auto zone = host.find('%'); zone != std::string::npos) host.resize(zone);
  in_addr v4{};
  if (::inet_pton(AF_INET, host.c_str(), &v4) == 1) return origin4(v4);
  in6_addr v6{};
  if (::inet_pton(AF_INET6, host.c_str(), &v6) != 1) return std::nullopt;
  if (IN6_IS_ADDR_V4MAPPED(&v6)) {
    std::memcpy(&v4.s_addr, &v6.s6_addr[12], 4);
    return origin4(v4);
  }
  return Origin{prefix6(v6, 64), prefix6(v6, 48), IN6_IS_ADDR_LOOPBACK(&v6) != 0};
}

namespace {

wire::pb::Verdict refusal(const SybilCaps& caps, const Origin& origin, std::size_t same_address,
                          std::size_t same_subnet) {
  const auto refused = [](wire::pb::Verdict::Code code, std::size_t there, std::size_t cap,
                          const std::string& where) {
    auto v = verdict::make(code, where);
    v.set_value(static_cast<double>(there));
    v.set_limit(static_cast<double>(cap));
    return v;
  };
  if (caps.per_address > 0 && same_address >= caps.per_address) {
    return refused(wire::pb::Verdict::TOO_MANY_FROM_ADDRESS, same_address, caps.per_address,
                   origin.address);
  }
  if (caps.per_subnet > 0 && same_subnet >= caps.per_subnet) {
    return refused(wire::pb::Verdict::TOO_MANY_FROM_SUBNET, same_subnet, caps.per_subnet,
                   origin.subnet);
  }
  return {};
}

}  // namespace

wire::pb::Verdict sybil_refusal(const SybilCaps& caps, const std::string& peer_address,
                                const std::vector<std::string>& others) {
  const auto origin = origin_of(peer_address);
  if (!origin || (origin->loopback && !caps.loopback)) return {};
  std::size_t same_address = 0, same_subnet = 0;
  for (const auto& other : others) {
    const auto o = origin_of(other);
    if (!o) continue;
    same_address += o->address == origin->address;
    same_subnet += o->subnet == origin->subnet;
  }
  return refusal(caps, *origin, same_address, same_subnet);
}

void OriginCounts::set(const std::string& key, const std::string& peer_address) {
  erase(key);
  const auto o = origin_of(peer_address);
  if (!o) return;
  ++per_address_[o->address];
  ++per_subnet_[o->subnet];
  by_key_.emplace(key, *o);
}

void OriginCounts::erase(const std::string& key) {
  const auto it = by_key_.find(key);
  if (it == by_key_.end()) return;
  const auto drop = [](std::unordered_map<std::string, std::size_t>& counts,
                       const std::string& where) {
    const auto c = counts.find(where);
    if (c != counts.end() && --c->second == 0) counts.erase(c);
  };
  drop(per_address_, it->second.address);
  drop(per_subnet_, it->second.subnet);
  by_key_.erase(it);
}

std::pair<std::size_t, std::size_t> OriginCounts::count(const Origin& o,
                                                        const std::string& key) const {
  const auto at = [](const std::unordered_map<std::string, std::size_t>& counts,
                     const std::string& where) {
    const auto c = counts.find(where);
    return c == counts.end() ? std::size_t{0} : c->second;
  };
  std::size_t address = at(per_address_, o.address), subnet = at(per_subnet_, o.subnet);
  if (const auto own = by_key_.find(key); own != by_key_.end()) {
    address -= own->second.address == o.address;
    subnet -= own->second.subnet == o.subnet;
  }
  return {address, subnet};
}

wire::pb::Verdict sybil_refusal(const SybilCaps& caps, const std::string& peer_address,
                                const std::string& key,
                                std::initializer_list<const OriginCounts*> counted) {
  const auto origin = origin_of(peer_address);
  if (!origin || (origin->loopback && !caps.loopback)) return {};
  std::size_t same_address = 0, same_subnet = 0;
  for (const auto* c : counted) {
    const auto [address, subnet] = c->count(*origin, key);
    same_address += address;
    same_subnet += subnet;
  }
  return refusal(caps, *origin, same_address, same_subnet);
}

}  // namespace rookery::coordinator
