#pragma once
// When the swarm is planned again, and the plans it keeps: the current one (what every node
// runs) and the one before (where nodes fetch the blocks they did not hold). A join, a death, a
// leave or a volunteer gaining the dataset re-plans once membership has been still for a while;
// a ban re-plans at once; every few seconds a volunteer paused for long is planned around (and
// back in when it resumes), and a plan that today's measured capacities would make markedly
// faster replaces the current one.
#include <chrono>
#include <cstdint>
#include <map>
#include <string>

#include "clock/clock.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/membership.hpp"
#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::coordinator {

// Pauses longer than this take a volunteer out of the plan (its pipeline would wait for it).
inline constexpr auto kPlanAroundPausedAfter = std::chrono::seconds(10);
// How often the re-planner asks whether today's profiles deserve a better plan.
inline constexpr auto kReconsiderEvery = std::chrono::seconds(10);

class RePlanner {
 public:
  // Resumes from the plans saved in `state`. `planner` is parse_planner's name.
  RePlanner(CoordinatorState& state, job::JobSpec job, std::string planner,
            std::chrono::milliseconds settle,
            const clock::Clock& clock = clock::SystemClock::instance());

  const Assignment& current() const { return current_; }
  const Assignment& previous() const { return previous_; }
  std::uint32_t replans() const { return replans_; }  // plans issued, all time
  // Why `key` has no seat in the current plan.
  wire::pb::Verdict unassigned_reason(const std::string& key) const;

  // Membership changed: re-plan once it has been still for `settle`.
  void changed();
  // A ban: re-plan at the next tick, as the banned volunteer must stop receiving traffic.
  void changed_urgently();
  // Planned: it holds the dataset and contributes, or paused for kPlanAroundPausedAfter at most.
  bool plannable(const Volunteer& v) const;
  // The capacity a heartbeat reports for `v` (what its owner allows, and how much slower than
  // itself it computes on its seat): a change of more than a quarter in what the planner would
  // use updates the profile the next plans use (see planned_flops).
  void observe_capacity(const std::string& key, Volunteer& v, const wire::pb::Heartbeat& h) const;

  // The periodic check over the live volunteers: re-plans when due.
  void tick(const std::map<std::string, Volunteer>& live);

 private:
  void reconsider(const std::map<std::string, Volunteer>& live);
  void replan(const std::map<std::string, Volunteer>& live);

  CoordinatorState& state_;
  job::JobSpec job_;
  std::string planner_;
  std::chrono::milliseconds settle_;
  const clock::Clock& clock_;
  Assignment current_, previous_;
  std::uint32_t replans_ = 0;
  bool dirty_ = false;
  std::chrono::steady_clock::time_point changed_at_;
  std::chrono::steady_clock::time_point last_reconsider_;
};

}  // namespace rookery::coordinator
