#pragma once
// Connection reversal in the plan. A volunteer no peer can dial is reached through the
// connections it opens itself, to the reversal service of every peer it links with
// (reach/link_partners.hpp): a link with one reachable end needs no relay. The planner seats
// reversed volunteers so that each of their links has such an end, swapping seats where the
// time model loses little, and leaves out (for a relay to carry) only those no seating fits.
// Pure functions over plain structs (and a join), as swarm_planner.hpp.
#include <map>
#include <string>
#include <vector>

#include "coordinator/swarm_planner.hpp"
#include "rookery/coordinator.pb.h"

namespace rookery::coordinator {

// Where a reachable volunteer's reversal service answers (its ports as bound, as its router
// maps them or as its relay opens them), from its join and how peers reach it.
void set_reversal_service(Member& m, const wire::pb::JoinRequest& r, wire::pb::ReachWay way);

// A member others can dial and that runs a reversal service: a reversed partner may link with it.
bool hosts_reversal(const Member& m);

// The reversed members of `plan` with a link partner that cannot host their reversal.
std::vector<std::string> unreversible(const Assignment& plan,
                                      const std::map<std::string, Member>& members);

// Swaps the seats of unreversible members with those of members that host reversal, one swap
// at a time, while a swap leaves fewer unreversible members and keeps the predicted rate at
// least `keep` of the plan's. Returns the swaps made. Swarms above kReversalSeatingMaxSeats
// seats are not searched (their unreversible members are relayed).
inline constexpr std::size_t kReversalSeatingMaxSeats = 256;
int seat_for_reversal(Assignment& plan, const std::map<std::string, Member>& members,
                      const job::JobSpec& job, double keep = 0.9);

// plan_swarm, then seat_for_reversal; reversed members still unreversible are left out, the
// others re-planned without them, and their keys listed in the result's needs_relay.
// `previous`: the plan in force (plan_swarm's).
Assignment plan_reachable(const std::vector<Member>& members, const job::JobSpec& job,
                          Planner planner = Planner::ours, const Assignment* previous = nullptr);

}  // namespace rookery::coordinator
