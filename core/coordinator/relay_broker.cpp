#include "coordinator/relay_broker.hpp"

#include <algorithm>

namespace rookery::coordinator {

void RelayBroker::add(const wire::pb::RelayOffer& offer, std::size_t capacity, bool last_resort) {
  relays_[offer.key()] = {offer, capacity, last_resort};
}

std::vector<std::string> RelayBroker::remove(const std::string& relay_key) {
  std::vector<std::string> orphans;
  if (relays_.erase(relay_key) == 0) return orphans;
  for (auto it = nodes_.begin(); it != nodes_.end();) {
    if (it->second == relay_key) {
      orphans.push_back(it->first);
      it = nodes_.erase(it);
    } else {
      ++it;
    }
  }
  return orphans;
}

std::size_t RelayBroker::load(const std::string& relay_key) const {
  return static_cast<std::size_t>(std::count_if(
      nodes_.begin(), nodes_.end(), [&](const auto& n) { return n.second == relay_key; }));
}

std::optional<wire::pb::RelayOffer> RelayBroker::assign(const std::string& node) {
  if (const auto it = nodes_.find(node); it != nodes_.end()) {
    if (const auto r = relays_.find(it->second); r != relays_.end()) return r->second.offer;
    nodes_.erase(it);
  }
  const Relay* best = nullptr;
  std::size_t best_load = 0;
  for (const auto& [key, relay] : relays_) {
    if (key == node) continue;  // a node cannot carry itself
    const auto l = load(key);
    if (l >= relay.capacity) continue;
    if (!best || relay.last_resort < best->last_resort ||
        (relay.last_resort == best->last_resort && l < best_load)) {
      best = &relay;
      best_load = l;
    }
  }
  if (!best) return std::nullopt;
  nodes_[node] = best->offer.key();
  return best->offer;
}

void RelayBroker::carried(const std::string& node, const std::string& relay_key) {
  if (relays_.count(relay_key)) nodes_[node] = relay_key;
}

void RelayBroker::release(const std::string& node) { nodes_.erase(node); }

std::string RelayBroker::relay_of(const std::string& node) const {
  const auto it = nodes_.find(node);
  return it == nodes_.end() ? std::string() : it->second;
}

double RelayBroker::share_bytes_per_s(const std::string& relay_key) const {
  const auto it = relays_.find(relay_key);
  if (it == relays_.end() || it->second.offer.bytes_per_s() == 0) return 0;
  return static_cast<double>(it->second.offer.bytes_per_s()) /
         static_cast<double>(std::max<std::size_t>(1, load(relay_key)));
}

}  // namespace rookery::coordinator
