#pragma once
// How SWARM's wiring routes around a volunteer that vanished, measured with the nodes' own
// NextHopRouter on simulated time: its upstream keeps sending micro-batches by smooth weighted
// round-robin until the silent hop is suspected; the micro-batches sent to it meanwhile are lost.
#include <cstddef>
#include <vector>

#include "pipeline_flow.hpp"

namespace rookery::sim {

struct Reroute {
  bool rerouted = false;         // another seat of its stage group took its traffic
  double suspected_after_s = 0;  // from its death until the router stopped sending to it
  int lost_micro_batches = 0;    // sent to it (and in flight there) before then
};

// `group`: the seats of its stage group (next hops of the same upstream), `dead` its index
// there; `micro_batches_per_s`: what the group's upstream sends.
Reroute measure_reroute(const std::vector<const FlowSeat*>& group, std::size_t dead,
                        double micro_batches_per_s, int in_flight);

}  // namespace rookery::sim
