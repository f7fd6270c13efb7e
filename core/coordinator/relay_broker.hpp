#pragma once
// Who carries the volunteers that no peer can dial: the relays (one on the job owner's host,
// and reachable volunteers that offer theirs), which node each carries, and what a relay's
// death leaves without one. The least loaded volunteer relay with room takes the next node
// (never the node itself), the owner's host's only when none has room; the planner sees a
// relayed node's links as its share of the relay's cap.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rookery/reach.pb.h"

namespace rookery::coordinator {

class RelayBroker {
 public:
  // A relay, by its CURVE key; `capacity`: the nodes it carries at most; `last_resort`: used
  // only when no other has room (the job owner's host's).
  void add(const wire::pb::RelayOffer& offer, std::size_t capacity, bool last_resort = false);
  // The relay is gone (its volunteer died, left or was banned): the nodes it carried, which
  // need another.
  std::vector<std::string> remove(const std::string& relay_key);
  bool has(const std::string& relay_key) const { return relays_.count(relay_key) != 0; }
  std::size_t size() const { return relays_.size(); }

  // A relay for `node`, which no peer can dial: the least loaded one with room (its earlier
  // one first, if it still has it). nullopt when there is none.
  std::optional<wire::pb::RelayOffer> assign(const std::string& node);
  // `node` joined through `relay_key`'s relay (the coordinator dialled it there).
  void carried(const std::string& node, const std::string& relay_key);
  // `node` is gone, or reached without a relay: its place is free.
  void release(const std::string& node);
  // The relay carrying `node`, by key; empty when none.
  std::string relay_of(const std::string& node) const;
  // What each node `relay_key` carries may send through it (0: no cap).
  double share_bytes_per_s(const std::string& relay_key) const;

 private:
  struct Relay {
    wire::pb::RelayOffer offer;
    std::size_t capacity = 0;
    bool last_resort = false;
  };
  std::size_t load(const std::string& relay_key) const;

  std::map<std::string, Relay> relays_;       // by key
  std::map<std::string, std::string> nodes_;  // node -> relay key (assigned or carried)
};

}  // namespace rookery::coordinator
