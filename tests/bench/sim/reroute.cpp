#include "reroute.hpp"

#include <algorithm>
#include <chrono>
#include <queue>
#include <string>

#include "pipeline/next_hop_router.hpp"

namespace rookery::sim {

namespace {

// A router's candidates past this many are sampled: the time to suspect a dead hop depends on
// its own share of the traffic, and pick() scans every candidate.
constexpr std::size_t kMaxCandidates = 64;
constexpr double kGiveUpS = 120;

}  // namespace

Reroute measure_reroute(const std::vector<const FlowSeat*>& group, std::size_t dead,
                        double micro_batches_per_s, int in_flight) {
  Reroute out;
  if (group.size() < 2 || !(micro_batches_per_s > 0)) {
    out.lost_micro_batches = in_flight;  // its pipeline waits for a new plan
    return out;
  }
  std::vector<const FlowSeat*> hops{group[dead]};
  for (std::size_t i = 0; i < group.size() && hops.size() < kMaxCandidates; ++i)
    if (i != dead) hops.push_back(group[i]);
  // The upstream's share that goes to the sampled hops, by their capacity.
  double all = 0, sampled = 0;
  for (const auto* s : group) all += 1.0 / s->stage_s;
  for (const auto* s : hops) sampled += 1.0 / s->stage_s;
  const double rate = micro_batches_per_s * sampled / all;
  std::vector<net::PeerAddress> addresses;
  for (std::size_t i = 0; i < hops.size(); ++i)
    addresses.push_back({"sim://" + std::to_string(hops[i]->volunteer), std::to_string(i)});
  pipeline::NextHopRouter router(addresses);
  using Clock = pipeline::NextHopRouter::Clock;
  const Clock::time_point start{};
  const auto at = [&](double s) {
    return start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  using Return = std::pair<double, std::uint64_t>;
  std::priority_queue<Return, std::vector<Return>, std::greater<>> returns;
  // A hop's round trip: the rest of its pipeline, forward and back.
  double slowest = 0;
  for (const auto* h : hops) slowest = std::max(slowest, 2 * h->rest_s);
  const double death_s = 3 * slowest + 1;  // every hop has answered a few times by then
  std::uint64_t id = 0;
  for (double t = 0; t < death_s + kGiveUpS; t += 1.0 / rate) {
    while (!returns.empty() && returns.top().first <= t) {
      router.returned(returns.top().second, at(returns.top().first));
      returns.pop();
    }
    router.check(at(t));
    if (t >= death_s && router.hops()[0].suspected_until > at(t)) {
      out.rerouted = true;
      out.suspected_after_s = t - death_s;
      return out;
    }
    const std::size_t hop = router.pick(at(t));
    router.sent(hop, id, at(t));
    const double back = t + 2 * hops[hop]->rest_s;
    if (hop != 0 || back < death_s) {
      returns.emplace(back, id);
    } else {
      ++out.lost_micro_batches;  // in flight at its death, or sent to it after
    }
    ++id;
  }
  out.suspected_after_s = kGiveUpS;
  return out;
}

}  // namespace rookery::sim
