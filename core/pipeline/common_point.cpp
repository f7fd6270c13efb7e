#include "pipeline/common_point.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace rookery::pipeline {

namespace {
// Steps an honest checked stage may have taken while its verifiers took none (a stage's steps
// lag its neighbours' by the staleness).
constexpr std::int64_t kStepSlack = 4;
// The share of the tolerance the two replicas' drift may take: the rest is the estimate's
// margin.
constexpr double kDriftShare = 2.0 / 3.0;
}  // namespace

void CommonPoint::stepped(std::int64_t steps) {
  std::lock_guard lock(mutex_);
  steps_ = steps;
}

void CommonPoint::restored(std::int64_t steps) {
  std::lock_guard lock(mutex_);
  steps_ = base_steps_ = steps;
  at_start_ = false;
  point_round_ = 0;
  sharers_.clear();
}

bool CommonPoint::round_applied(std::span<const RingMeeting> rings, std::int64_t steps_at_start,
                                std::uint64_t round) {
  std::lock_guard lock(mutex_);
  bool partnered = false;
  for (const auto& ring : rings) {
    if (ring.contributors.size() < 2) continue;  // alone: its point did not move
    partnered = true;
    const Range range{ring.blocks.first, ring.blocks.last};
    std::set<std::string> met(ring.contributors.begin(), ring.contributors.end());
    const auto it = sharers_.find(range);
    if (ring.anchors_synced || it == sharers_.end()) {
      // Synced anchors are one point whatever came before. A first round over plain
      // pseudo-gradients is one too where every replica still had the job's initial weights
      // as its anchor; a restored one's anchor was its own, so it shares only after a sync.
      if (ring.anchors_synced || at_start_) {
        sharers_[range] = std::move(met);
      } else {
        sharers_[range] = {};
      }
      continue;
    }
    std::set<std::string> kept;
    std::set_intersection(it->second.begin(), it->second.end(), met.begin(), met.end(),
                          std::inserter(kept, kept.end()));
    it->second = std::move(kept);
  }
  if (partnered) {
    base_steps_ = steps_at_start;
    point_round_ = round;
    ++rounds_;
  }
  return partnered;
}

std::int64_t CommonPoint::local_steps() const {
  std::lock_guard lock(mutex_);
  return std::max<std::int64_t>(0, steps_ - base_steps_);
}

bool CommonPoint::shared_with(const std::string& member, model::BlockRange part) const {
  std::lock_guard lock(mutex_);
  bool any = false;
  for (const auto& [range, sharers] : sharers_) {
    if (range.second <= part.first || range.first >= part.last) continue;
    any = true;
    if (!sharers.count(member)) return false;
  }
  // No round over these blocks yet: the job's initial weights, if this replica still has them.
  return any || at_start_;
}

std::int64_t CommonPoint::rounds() const {
  std::lock_guard lock(mutex_);
  return rounds_;
}

std::uint64_t CommonPoint::point_round() const {
  std::lock_guard lock(mutex_);
  return point_round_;
}

bool same_round(std::span<const VerifierStanding> links, std::uint64_t round) {
  return std::all_of(links.begin(), links.end(),
                     [&](const VerifierStanding& l) { return l.round == round; });
}

bool replicas_comparable(std::span<const VerifierStanding> links, std::uint64_t checked_round,
                         std::int64_t checked_steps, double tolerance, std::string* why) {
  const auto say = [&](const std::string& s) {
    if (why) *why = s;
    return false;
  };
  if (links.empty()) return say("no verifier said where its replica stands");
  if (!same_round(links, checked_round)) {
    std::string rounds;
    for (const auto& l : links) rounds += (rounds.empty() ? "" : ", ") + std::to_string(l.round);
    return say("the checked stage computed on the common point of round " +
               std::to_string(checked_round) + ", its verifiers stand on round " + rounds);
  }
  double drift = 0;
  std::int64_t steps = links.front().local_steps;
  for (const auto& l : links) {
    if (!l.shares_point)
      return say("the checked stage does not share a verifier's last averaged weights");
    if (!std::isfinite(l.drift) || l.drift < 0) return say("a verifier gave no drift");
    drift += l.drift;
    steps = std::min(steps, l.local_steps);
  }
  std::ostringstream s;
  s.precision(3);
  // The checked stage's honest output lies within its drift plus the verifiers' of theirs
  // (both from the one point; far less where the replicas move alike, as they do early in a
  // run). Its own drift is estimated from theirs by the ratio of steps: in proportion past
  // theirs, by its square root short of them (drift grows fastest in the first steps, as a
  // random walk's does), 0 at the point itself. With no step of theirs to measure by, it may
  // have taken only a few.
  double checked_drift = drift;
  if (steps == 0) {
    if (checked_steps > kStepSlack) {
      s << "the verifiers have not stepped since their last averaged weights, the checked "
        << "pipeline took " << checked_steps << " steps";
      return say(s.str());
    }
  } else {
    const double ratio = double(checked_steps) / double(steps);
    checked_drift *= ratio >= 1 ? ratio : std::sqrt(ratio);
  }
  if (drift + checked_drift > kDriftShare * tolerance) {
    s << "the verifiers moved " << drift << " since their last averaged weights in " << steps
      << " steps, the checked pipeline took " << checked_steps;
    return say(s.str());
  }
  return true;
}

std::string describe_standing(std::span<const VerifierStanding> links) {
  std::ostringstream s;
  s.precision(3);
  for (std::size_t i = 0; i < links.size(); ++i) {
    s << (i ? " + " : "") << links[i].drift << " in " << links[i].local_steps << " steps";
    if (!links[i].shares_point) s << " (not shared)";
  }
  return s.str();
}

}  // namespace rookery::pipeline
