#pragma once
// When the swarm is planned again, and the plans it keeps: the current one (what every node
// runs) and the one before (where nodes fetch the blocks they did not hold). A join, a death, a
// leave or a volunteer gaining the dataset re-plans once membership has been still for a while;
// a ban re-plans at once; every few seconds a volunteer paused for long is planned around (and
// back in when it resumes), and a plan that today's measured capacities would make markedly
// faster replaces the current one. The planning itself runs on a PlanThread over a snapshot of
// the plannable volunteers; its plan is installed at the first tick after it is done.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

#include "clock/clock.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/membership.hpp"
#include "coordinator/plan_thread.hpp"
#include "coordinator/second_opinion.hpp"
#include "coordinator/swarm_planner.hpp"
#include "coordinator/witness_index.hpp"
#include "job/job_spec.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::coordinator {

// Pauses longer than this take a volunteer out of the plan (its pipeline would wait for it).
inline constexpr auto kPlanAroundPausedAfter = std::chrono::seconds(10);
// How often the re-planner asks whether today's profiles deserve a better plan.
inline constexpr auto kReconsiderEvery = std::chrono::seconds(10);
// After a fresh plan found nothing worth its moves, the check tries the next one this much
// later, or at once when a volunteer's capacity changed.
inline constexpr auto kFreshPlanRetry = std::chrono::seconds(60);

class RePlanner {
 public:
  // Resumes from the plans saved in `state`. `planner` is parse_planner's name (throws
  // std::invalid_argument for another). `planning` says where plans are made (PlanThread).
  RePlanner(CoordinatorState& state, job::JobSpec job, const std::string& planner,
            std::chrono::milliseconds settle, PlanThread::Mode planning,
            const clock::Clock& clock = clock::SystemClock::instance());

  const Assignment& current() const { return current_; }
  // {pipeline, stage} of `key` in the current plan, or {-1, -1}: an index, not a scan, as every
  // heartbeat asks.
  std::pair<int, int> seat_of(const std::string& key) const;
  const Assignment& previous() const { return previous_; }
  // Who witnesses each seat's work in the current plan, for the ban vote (indexed per plan).
  const WitnessIndex& witnesses() const { return witnesses_; }
  // The ban vote on `accused` by the current plan's witnesses and, once a lone witness caught
  // it, by those of every seat it held since (second_opinion.hpp); such a catch moves it to
  // another seat for a second opinion, a plan installed at once. nullopt when it holds no seat.
  std::optional<BanVerdict> vote(const std::string& accused, const BanReports& reports,
                                 const std::map<std::string, Volunteer>& live);
  std::uint32_t replans() const { return replans_; }  // plans issued, all time
  // The current plan left `key` out for a relay to carry (reversal_seating.hpp).
  bool needs_relay(const std::string& key) const;
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

  // The periodic check over the live volunteers: installs the plan the plan thread finished,
  // and hands it the next one when due.
  void tick(const std::map<std::string, Volunteer>& live);

  // How long the last plan took on the plan thread, and over how many volunteers.
  std::chrono::duration<double> last_planning_time() const { return last_planning_time_; }
  std::size_t last_planned_volunteers() const { return last_planned_volunteers_; }
  // What the last periodic check did: re-planned what membership changed, tried a fresh plan
  // (installed only when it predicts enough more than the seats in force), or neither, as the
  // last fresh plan found nothing and no capacity changed since (kFreshPlanRetry).
  enum class Check { none, replanned, fresh_plan, skipped };
  Check last_check() const { return last_check_; }

 private:
  std::vector<Member> plannable_members(const std::map<std::string, Volunteer>& live) const;
  void reconsider(const std::map<std::string, Volunteer>& live);
  void replan(const std::map<std::string, Volunteer>& live);
  void collect(const std::map<std::string, Volunteer>& live);
  // `next` with every second opinion it would undo moved again (SecondOpinions::undone_by).
  void keep_second_opinions(Assignment& next, const std::map<std::string, Volunteer>& live) const;
  void install(Assignment next, std::size_t planned_volunteers);
  void index_current();
  void move_for_second_opinion(const std::string& accused, WitnessSide side,
                               const std::set<std::string>& avoid,
                               const std::map<std::string, Volunteer>& live);

  CoordinatorState& state_;
  const job::JobSpec job_;
  std::chrono::milliseconds settle_;
  const clock::Clock& clock_;
  Assignment current_, previous_;
  std::unordered_map<std::string, std::pair<int, int>> seats_;     // current_'s seats by key
  std::unordered_map<std::string, std::size_t> unassigned_index_;  // into current_.unassigned
  WitnessIndex witnesses_;                                         // current_'s
  SecondOpinions second_opinions_;
  std::uint32_t replans_ = 0;
  bool dirty_ = false;
  // Bans so far: a plan made from a snapshot older than the last ban may seat the banned one.
  std::uint64_t urgent_epoch_ = 0;
  std::chrono::duration<double> last_planning_time_{};
  std::size_t last_planned_volunteers_ = 0;
  Check last_check_ = Check::none;
  std::chrono::steady_clock::time_point fresh_declined_at_{};  // the last fresh plan not worth it
  mutable bool profiles_changed_ = false;  // a capacity changed since the last fresh plan
  std::chrono::steady_clock::time_point changed_at_;
  std::chrono::steady_clock::time_point last_reconsider_;
  PlanThread planning_;  // last: its thread stops before the members above go
};

}  // namespace rookery::coordinator
