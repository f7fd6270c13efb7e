#include "coordinator/reversal_seating.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "reach/link_partners.hpp"

namespace rookery::coordinator {

namespace {
// Each round leaves out the members no seating fitted, and plans the rest again; a new layout
// can leave others without a reachable partner, so a few rounds, then every reversed member
// that still lacks one is relayed.
constexpr int kPlanningRounds = 4;

std::vector<reach::PlannedSeat> planned_seats(const Assignment& plan) {
  std::vector<reach::PlannedSeat> seats;
  for (const auto& p : plan.pipelines) {
    for (const auto& s : p) seats.push_back({s.key, s.first_block, s.last_block});
  }
  return seats;
}

const Member* find(const std::map<std::string, Member>& members, const std::string& key) {
  const auto it = members.find(key);
  return it == members.end() ? nullptr : &it->second;
}
}  // namespace

bool hosts_reversal(const Member& m) { return !m.reversed && m.reversal_control_port != 0; }

std::vector<std::string> unreversible(const Assignment& plan,
                                      const std::map<std::string, Member>& members) {
  const auto seats = planned_seats(plan);
  std::vector<std::string> out;
  for (const auto& seat : seats) {
    const auto* m = find(members, seat.key);
    if (!m || !m->reversed) continue;
    for (const auto& partner : reach::link_partners(seats, seat.key)) {
      const auto* p = find(members, partner);
      if (!p || !hosts_reversal(*p)) {
        out.push_back(seat.key);
        break;
      }
    }
  }
  return out;
}

int seat_for_reversal(Assignment& plan, const std::map<std::string, Member>& members,
                      const job::JobSpec& job, double keep) {
  std::size_t seats = 0;
  for (const auto& p : plan.pipelines) seats += p.size();
  auto bad = unreversible(plan, members);
  if (bad.empty() || seats > kReversalSeatingMaxSeats) return 0;
  const double floor = keep * predicted_rate(plan, members, job);
  int swaps = 0;
  while (!bad.empty()) {
    std::optional<Assignment> best;
    std::size_t best_bad = bad.size();
    double best_rate = -1;
    for (const auto& u : bad) {
      const auto [pu, su] = plan.find(u);
      for (std::size_t p = 0; p < plan.pipelines.size(); ++p) {
        for (std::size_t s = 0; s < plan.pipelines[p].size(); ++s) {
          const auto* r = find(members, plan.pipelines[p][s].key);
          if (!r || !hosts_reversal(*r)) continue;
          Assignment trial = plan;
          std::swap(trial.pipelines[static_cast<std::size_t>(pu)][static_cast<std::size_t>(su)].key,
                    trial.pipelines[p][s].key);
          const auto left = unreversible(trial, members).size();
          if (left >= bad.size() || (best && left > best_bad)) continue;
          const double rate = predicted_rate(trial, members, job);
          if (rate < floor) continue;  // a seat that overruns memory counts 0 there
          if (!best || left < best_bad || rate > best_rate) {
            best = std::move(trial);
            best_bad = left;
            best_rate = rate;
          }
        }
      }
    }
    if (!best) break;
    plan = std::move(*best);
    ++swaps;
    bad = unreversible(plan, members);
  }
  if (swaps > 0) {
    plan.predicted_samples_per_s = predicted_rate(plan, members, job);
    plan.coverage.reset();  // its seats name other keys now
    plan.coverage = check_coverage_of(plan, job.averaging_max_group);
  }
  return swaps;
}

Assignment plan_reachable(const std::vector<Member>& members, const job::JobSpec& job,
                          Planner planner, const Assignment* previous) {
  std::map<std::string, Member> by_key;
  for (const auto& m : members) by_key.emplace(m.key, m);
  std::set<std::string> relayed;
  std::vector<Member> planned = members;
  for (int round = 0;; ++round) {
    auto plan = plan_swarm(planned, job, planner, previous);
    seat_for_reversal(plan, by_key, job);
    const auto bad = unreversible(plan, by_key);
    if (!bad.empty() && round + 1 >= kPlanningRounds) {
      // The last round: no reversed member is planned at all.
      std::erase_if(planned, [&](const Member& m) {
        if (m.reversed) relayed.insert(m.key);
        return m.reversed;
      });
      plan = plan_swarm(planned, job, planner, previous);
    }
    if (bad.empty() || round + 1 >= kPlanningRounds) {
      plan.needs_relay.assign(relayed.begin(), relayed.end());
      return plan;
    }
    // Of two reversed neighbours, one leaves: the other may then fit beside reachable ones.
    const auto seats = planned_seats(plan);
    std::set<std::string> leaving;
    for (const auto& key : bad) {
      for (const auto& partner : reach::link_partners(seats, key)) {
        const auto* p = find(by_key, partner);
        if (p && hosts_reversal(*p)) continue;
        if (p && p->reversed && leaving.count(partner) != 0) continue;  // it leaves already
        leaving.insert(key);
        break;
      }
    }
    relayed.insert(leaving.begin(), leaving.end());
    std::erase_if(planned, [&](const Member& m) { return leaving.count(m.key) != 0; });
  }
}

// Where a reachable volunteer's reversal service answers: its ports as bound, as its home
// router maps them, or as its relay opens them (at the host of its planned endpoint in each
// case), from its join and how it is reached. None for a node that no peer reaches at all.
void set_reversal_service(Member& m, const wire::pb::JoinRequest& r, wire::pb::ReachWay way) {
  namespace pb = wire::pb;
  if (!r.has_reversal() || (way != pb::REACH_DIRECT && way != pb::REACH_ROUTER_MAPPING &&
                            way != pb::REACH_RELAYED && way != pb::REACH_UNKNOWN)) {
    return;
  }
  auto external = [&](std::uint32_t port) -> std::uint16_t {
    if (port == 0 || port > 65535) return 0;
    if (way != pb::REACH_ROUTER_MAPPING && way != pb::REACH_RELAYED)
      return static_cast<std::uint16_t>(port);
    const auto& opened = way == pb::REACH_RELAYED ? r.reach().relayed() : r.reach().mapped();
    for (const auto& mp : opened) {
      if (mp.internal_port() == port && mp.external_port() <= 65535)
        return static_cast<std::uint16_t>(mp.external_port());
    }
    return 0;  // the router or the relay did not open it
  };
  m.reversal_control_port = external(r.reversal().control_port());
  m.reversal_data_port = external(r.reversal().data_port());
  if (m.reversal_data_port == 0) m.reversal_control_port = 0;
}

}  // namespace rookery::coordinator
