#include "coordinator/replanner.hpp"

#include <cmath>
#include <vector>

#include <spdlog/spdlog.h>

#include "coordinator/verdicts.hpp"
#include "net/identity.hpp"

namespace rookery::coordinator {

RePlanner::RePlanner(CoordinatorState& state, job::JobSpec job, std::string planner,
                     std::chrono::milliseconds settle, const clock::Clock& clock)
    : state_(state),
      job_(std::move(job)),
      planner_(std::move(planner)),
      settle_(settle),
      clock_(clock),
      changed_at_(clock.steady_now()),
      last_reconsider_(clock.steady_now()) {
  auto [current, previous] = state_.latest_plans();
  current_ = std::move(current);
  previous_ = std::move(previous);
  replans_ = static_cast<std::uint32_t>(state_.plan_count());
}

wire::pb::Verdict RePlanner::unassigned_reason(const std::string& key) const {
  for (const auto& u : current_.unassigned) {
    if (u.node_id == key) return verdict::unseated(u);
  }
  return verdict::make(wire::pb::Verdict::JOINED_AFTER_PLAN);
}

void RePlanner::changed() {
  dirty_ = true;
  changed_at_ = clock_.steady_now();
}

void RePlanner::changed_urgently() {
  dirty_ = true;
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
  const auto [p, s] = current_.find(key);
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

void RePlanner::tick(const std::map<std::string, Volunteer>& live) {
  const auto now = clock_.steady_now();
  if (dirty_ && now - changed_at_ >= settle_) replan(live);
  if (now - last_reconsider_ >= kReconsiderEvery) {
    last_reconsider_ = now;
    try {
      reconsider(live);
    } catch (const std::exception& e) {
      spdlog::error("re-planning check failed: {}", e.what());
    }
  }
}

void RePlanner::reconsider(const std::map<std::string, Volunteer>& live) {
  std::map<std::string, Member> eligible;
  bool membership_changed = false;
  for (const auto& [k, v] : live) {
    const bool seated = current_.find(k).first >= 0;
    if (plannable(v)) eligible[k] = v.member;
    if (seated != plannable(v)) membership_changed = true;
  }
  if (eligible.empty()) return;
  if (membership_changed) {
    spdlog::debug(
        "re-planning check: a volunteer paused for over {} s, came back, or waits unseated",
        kPlanAroundPausedAfter.count());
    replan(live);
    return;
  }
  std::vector<Member> members;
  for (const auto& [k, m] : eligible) members.push_back(m);
  const auto fresh = plan_swarm(members, job_, parse_planner(planner_));
  if (fresh.same_layout(current_)) return;
  const double now_rate = predicted_rate(current_, eligible, job_);
  if (worth_replanning(now_rate, fresh.predicted_samples_per_s)) {
    spdlog::info(
        "re-planning: today's profiles predict {:.1f} samples/s against {:.1f} for the current "
        "seats",
        fresh.predicted_samples_per_s, now_rate);
    replan(live);
  }
}

void RePlanner::replan(const std::map<std::string, Volunteer>& live) {
  dirty_ = false;
  std::vector<Member> members;
  for (const auto& [k, v] : live) {
    if (plannable(v)) members.push_back(v.member);
  }
  Assignment next;
  try {
    next = plan_swarm(members, job_, parse_planner(planner_));
  } catch (const std::exception& e) {
    spdlog::error("planning failed: {}", e.what());
    return;
  }
  if (next.same_layout(current_)) {
    current_.unassigned = next.unassigned;
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
  std::string layout;
  for (const auto& p : current_.pipelines) {
    layout += layout.empty() ? "" : " | ";
    for (const auto& s : p) {
      layout += net::short_key(s.key) + "[" + std::to_string(s.first_block) + "," +
                std::to_string(s.last_block) + ") ";
    }
  }
  if (current_.empty()) {
    spdlog::warn("plan {}: no pipeline ({})", current_.version,
                 verdict::words(current_.infeasible));
  } else {
    spdlog::info(
        "plan {}: {} volunteer(s) in {} pipeline(s), {} unassigned, predicted {:.1f} samples/s: "
        "{}",
        current_.version, members.size(), current_.pipelines.size(), current_.unassigned.size(),
        current_.predicted_samples_per_s, layout);
  }
}

}  // namespace rookery::coordinator
