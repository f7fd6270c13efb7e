#include "coordinator/replanner.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "coordinator/verdicts.hpp"
#include "net/identity.hpp"

namespace rookery::coordinator {

RePlanner::RePlanner(CoordinatorState& state, job::JobSpec job, const std::string& planner,
                     std::chrono::milliseconds settle, PlanThread::Mode planning,
                     const clock::Clock& clock)
    : state_(state),
      job_(job),
      settle_(settle),
      clock_(clock),
      changed_at_(clock.steady_now()),
      last_reconsider_(clock.steady_now()),
      planning_(std::move(job), parse_planner(planner), planning) {
  auto [current, previous] = state_.latest_plans();
  current_ = std::move(current);
  previous_ = std::move(previous);
  replans_ = static_cast<std::uint32_t>(state_.plan_count());
  index_current();
}

std::pair<int, int> RePlanner::seat_of(const std::string& key) const {
  const auto it = seats_.find(key);
  return it == seats_.end() ? std::pair{-1, -1} : it->second;
}

void RePlanner::index_current() {
  witnesses_.build(current_, job_.averaging_max_group);
  seats_.clear();
  for (std::size_t p = 0; p < current_.pipelines.size(); ++p) {
    for (std::size_t s = 0; s < current_.pipelines[p].size(); ++s) {
      seats_[current_.pipelines[p][s].key] = {static_cast<int>(p), static_cast<int>(s)};
    }
  }
  unassigned_index_.clear();
  for (std::size_t i = 0; i < current_.unassigned.size(); ++i) {
    unassigned_index_.emplace(current_.unassigned[i].node_id, i);
  }
}

wire::pb::Verdict RePlanner::unassigned_reason(const std::string& key) const {
  if (const auto it = unassigned_index_.find(key); it != unassigned_index_.end()) {
    return verdict::unseated(current_.unassigned[it->second]);
  }
  return verdict::make(wire::pb::Verdict::JOINED_AFTER_PLAN);
}

void RePlanner::changed() {
  dirty_ = true;
  changed_at_ = clock_.steady_now();
}

void RePlanner::changed_urgently() {
  dirty_ = true;
  ++urgent_epoch_;
  changed_at_ = clock_.steady_now() - settle_;
}

bool RePlanner::plannable(const Volunteer& v) const {
  // No peer could send it anything: seated, it would stall its pipeline.
  if (v.reach == wire::pb::REACH_UNREACHABLE) return false;
  return v.has_data &&
         (v.contributing || clock_.steady_now() - v.paused_since < kPlanAroundPausedAfter);
}

void RePlanner::observe_capacity(const std::string& key, Volunteer& v,
                                 const wire::pb::Heartbeat& h) const {
  if (h.flops_per_s() > 0 && h.flops_per_s() < 1e18) v.offered_flops = h.flops_per_s();
  // How much slower than itself it computes now, on the blocks its reading is from (a node
  // reports it on the plan it runs).
  const auto [p, s] = seat_of(key);
  if (p >= 0 && h.plan_version() == current_.version && h.flops_per_busy_s() > 0 &&
      h.benchmark_flops_per_s() > 0 && h.benchmark_flops_per_s() < 1e18) {
    const auto& seat = current_.pipelines[static_cast<std::size_t>(p)][static_cast<std::size_t>(s)];
    v.speed.observe(seat.first_block, seat.last_block,
                    h.flops_per_busy_s() / h.benchmark_flops_per_s());
  }
  if (v.offered_flops <= 0) return;
  auto& flops = v.member.profile.flops_per_s;
  const double planned = planned_flops(v.offered_flops, v.speed.slowdown);
  if (!(std::abs(planned - flops) > 0.25 * flops)) return;
  profiles_changed_ = true;
  if (planned < v.offered_flops) {
    spdlog::info(
        "volunteer {} computes at {:.0f}% of the speed it showed on these blocks: planned "
        "with {:.1f} "
        "GFLOP/s (was {:.1f})",
        net::short_key(key), 100.0 * v.speed.slowdown, planned / 1e9, flops / 1e9);
  } else {
    spdlog::info("volunteer {} now offers {:.1f} GFLOP/s (was {:.1f})", net::short_key(key),
                 planned / 1e9, flops / 1e9);
  }
  flops = planned;
}

bool RePlanner::needs_relay(const std::string& key) const {
  return std::binary_search(current_.needs_relay.begin(), current_.needs_relay.end(), key);
}

void RePlanner::tick(const std::map<std::string, Volunteer>& live) {
  collect(live);
  const auto now = clock_.steady_now();
  if (dirty_ && now - changed_at_ >= settle_ && planning_.idle()) {
    replan(live);
    collect(live);
  }
  if (now - last_reconsider_ >= kReconsiderEvery && planning_.idle()) {
    last_reconsider_ = now;
    reconsider(live);
    collect(live);
  }
}

std::vector<Member> RePlanner::plannable_members(
    const std::map<std::string, Volunteer>& live) const {
  std::vector<Member> members;
  members.reserve(live.size());
  for (const auto& [k, v] : live) {
    if (plannable(v)) members.push_back(v.member);
  }
  return members;
}

void RePlanner::reconsider(const std::map<std::string, Volunteer>& live) {
  // What the current plan did not see: a seated volunteer no longer plannable (paused for long,
  // lost the dataset, unreachable), or a plannable one it never placed (paused when it was made,
  // or a join whose re-plan is still settling). A spare the plan left out with a reason is no
  // change: at scale some always wait, and the check must still try a fresh plan then.
  bool membership_changed = false;
  bool any = false;
  for (const auto& [k, v] : live) {
    const bool can = plannable(v);
    any = any || can;
    const bool seated = seat_of(k).first >= 0;
    if (seated != can && (seated || (!unassigned_index_.contains(k) && !needs_relay(k)))) {
      membership_changed = true;
    }
  }
  if (!any) return;
  if (membership_changed) {
    spdlog::debug(
        "re-planning check: a volunteer paused for over {} s, came back, or joined unplanned",
        kPlanAroundPausedAfter.count());
    last_check_ = Check::replanned;
    replan(live);
    return;
  }
  // A fresh plan that found nothing worth its moves is not tried again for a while unless a
  // capacity changed: at scale it takes seconds of the plan thread.
  if (clock_.steady_now() - fresh_declined_at_ < kFreshPlanRetry && !profiles_changed_) {
    last_check_ = Check::skipped;
    return;
  }
  profiles_changed_ = false;
  last_check_ = Check::fresh_plan;
  PlanThread::Job job;
  job.kind = PlanThread::Job::Kind::reconsider;
  job.members = plannable_members(live);
  job.current = current_;
  job.epoch = urgent_epoch_;
  planning_.submit(std::move(job));
}

void RePlanner::replan(const std::map<std::string, Volunteer>& live) {
  dirty_ = false;
  PlanThread::Job job;
  job.kind = PlanThread::Job::Kind::replan;
  job.members = plannable_members(live);
  job.current = current_;
  job.epoch = urgent_epoch_;
  planning_.submit(std::move(job));
}

void RePlanner::collect(const std::map<std::string, Volunteer>& live) {
  auto done = planning_.take();
  if (!done) return;
  last_planning_time_ = done->took;
  last_planned_volunteers_ = done->members;
  if (done->took > std::chrono::seconds(1)) {
    spdlog::info("planned {} volunteer(s) in {:.2f} s", done->members, done->took.count());
  }
  const bool reconsidering = done->kind == PlanThread::Job::Kind::reconsider;
  if (!done->plan) {
    spdlog::error("{} failed: {}", reconsidering ? "re-planning check" : "planning", done->error);
    return;
  }
  if (done->epoch != urgent_epoch_) {
    // Made before a ban: it may seat the banned volunteer. The ban's own plan follows.
    return;
  }
  keep_second_opinions(*done->plan, live);
  if (reconsidering) {
    if (done->plan->same_layout(current_) ||
        !worth_replanning(done->current_rate, done->plan->predicted_samples_per_s)) {
      fresh_declined_at_ = clock_.steady_now();
      return;
    }
    spdlog::info(
        "re-planning: today's profiles predict {:.1f} samples/s against {:.1f} for the current "
        "seats",
        done->plan->predicted_samples_per_s, done->current_rate);
  }
  install(std::move(*done->plan), done->members);
}

void RePlanner::install(Assignment next, std::size_t planned_volunteers) {
  if (next.same_layout(current_)) {
    current_.unassigned = std::move(next.unassigned);
    current_.needs_relay = std::move(next.needs_relay);
    index_current();
    return;
  }
  next.version = current_.version + 1;
  try {
    state_.save_plan(next, clock_.unix_ms());
  } catch (const std::exception& e) {
    spdlog::error("cannot save plan {}: {} (keeping plan {})", next.version, e.what(),
                  current_.version);
    dirty_ = true;
    return;
  }
  ++replans_;
  previous_ = std::move(current_);
  current_ = std::move(next);
  index_current();
  if (current_.empty()) {
    spdlog::warn("plan {}: no pipeline ({})", current_.version,
                 verdict::words(current_.infeasible));
    return;
  }
  // The layout seat by seat, for swarms small enough to read it in a log line.
  constexpr std::size_t kLoggedSeats = 32;
  std::string layout;
  if (seats_.size() <= kLoggedSeats) {
    for (const auto& p : current_.pipelines) {
      layout += layout.empty() ? ": " : " | ";
      for (const auto& s : p) {
        layout += net::short_key(s.key) + "[" + std::to_string(s.first_block) + "," +
                  std::to_string(s.last_block) + ") ";
      }
    }
  }
  spdlog::info(
      "plan {}: {} volunteer(s) in {} pipeline(s), {} unassigned, predicted {:.1f} samples/s{}",
      current_.version, planned_volunteers, current_.pipelines.size(), current_.unassigned.size(),
      current_.predicted_samples_per_s, layout);
}

std::optional<BanVerdict> RePlanner::vote(const std::string& accused, const BanReports& reports,
                                          const std::map<std::string, Volunteer>& live) {
  auto verdict = witnesses_.vote(accused, reports);
  if (!verdict || verdict->ban || reports.caught_by.empty()) {
    if (verdict && verdict->ban) second_opinions_.forget(accused);
    return verdict;
  }
  // A scan of the plan, for a volunteer named in a catch only.
  const auto seen = ban_witnesses(current_, accused, job_.averaging_max_group);
  if (!seen) return verdict;
  auto opinion = second_opinions_.consider(accused, *seen, reports.caught_by);
  if (opinion.vote.ban) {
    second_opinions_.forget(accused);
    return opinion.vote;
  }
  if (opinion.move) move_for_second_opinion(accused, *opinion.move, opinion.avoid, live);
  return verdict;
}

namespace {

// The live members of `plan`'s seats, as a reseat for a second opinion weighs them.
std::map<std::string, Member> seated_members(const Assignment& plan,
                                             const std::map<std::string, Volunteer>& live) {
  std::map<std::string, Member> members;
  for (const auto& p : plan.pipelines) {
    for (const auto& s : p) {
      if (const auto it = live.find(s.key); it != live.end())
        members.emplace(s.key, it->second.member);
    }
  }
  return members;
}

// What a reseat for a second opinion changed, for the log: where the accused now sits, and
// which catcher gave up its seat when the accused stayed where it was.
std::string reseat_in_words(const Assignment& before, const Assignment& after,
                            const std::string& accused, const std::set<std::string>& catchers) {
  const auto [p, s] = after.find(accused);
  if (before.find(accused) != std::make_pair(p, s))
    return fmt::format("moved to pipeline {} stage {}", p + 1, s + 1);
  for (const auto& c : catchers) {
    const auto [cp, cs] = after.find(c);
    if (before.find(c) != std::make_pair(cp, cs))
      return fmt::format(
          "kept at pipeline {} stage {}, its catcher {} moved to pipeline {} stage {}", p + 1,
          s + 1, net::short_key(c), cp + 1, cs + 1);
  }
  return fmt::format("kept at pipeline {} stage {}", p + 1, s + 1);
}

}  // namespace

void RePlanner::keep_second_opinions(Assignment& next,
                                     const std::map<std::string, Volunteer>& live) const {
  const auto redo = second_opinions_.undone_by(next, job_.averaging_max_group);
  if (redo.empty()) return;
  const auto members = seated_members(next, live);
  for (const auto& r : redo) {
    auto again = reseat_for_second_opinion(next, members, job_, r.accused, r.side, r.avoid);
    if (!again) continue;
    spdlog::info(
        "volunteer {}: in the new plan only its catchers would witness it again; {} for its "
        "second opinion",
        net::short_key(r.accused), reseat_in_words(next, *again, r.accused, r.avoid));
    next = std::move(*again);
  }
}

void RePlanner::move_for_second_opinion(const std::string& accused, WitnessSide side,
                                        const std::set<std::string>& avoid,
                                        const std::map<std::string, Volunteer>& live) {
  second_opinions_.moved(accused, side);  // found a seat or not, this catch is answered
  const auto members = seated_members(current_, live);
  const char* what = side == WitnessSide::activations ? "activations" : "gradients";
  auto next = reseat_for_second_opinion(current_, members, job_, accused, side, avoid);
  if (!next) {
    spdlog::info(
        "volunteer {}: its only witness caught its {}, and no seat has other witnesses for a "
        "second opinion",
        net::short_key(accused), what);
    return;
  }
  spdlog::warn("volunteer {}: its only witness caught its {}; {} for a second opinion",
               net::short_key(accused), what, reseat_in_words(current_, *next, accused, avoid));
  if (!planning_.idle()) {
    // The plan in flight was made with the old seats: it is dropped, and made again.
    ++urgent_epoch_;
    changed();
  }
  install(std::move(*next), members.size());
}

}  // namespace rookery::coordinator
