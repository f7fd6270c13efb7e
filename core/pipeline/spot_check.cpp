#include "pipeline/spot_check.hpp"

#include <algorithm>
#include <cmath>

namespace rookery::pipeline {

namespace {
// Checks pending at once: each holds one micro-batch's activations and the verifiers'
// outputs, so memory stays bounded whatever the senders do.
constexpr std::size_t kMaxPending = 8;
// Incomparable checks in a row, with none passed, after which no check is to be had: the
// replicas do not average (or not often enough to be compared), and a sender's work is used
// as in a swarm where nobody can check it.
constexpr std::int64_t kUnverifiableAfter = 16;
}  // namespace

double relative_distance(double distance, double norm_a, double norm_b) {
  const double scale = std::max(norm_a, norm_b);
  if (!(scale > 0)) return distance > 0 ? INFINITY : 0.0;
  return distance / scale;
}

SpotVerdict judge(const std::vector<double>& to_checked, double between_verifiers,
                  double tolerance) {
  if (to_checked.empty()) return SpotVerdict::Inconclusive;
  // NaN in the checked output: never "close".
  const auto close = [&](double d) { return std::isfinite(d) && d <= tolerance; };
  if (std::any_of(to_checked.begin(), to_checked.end(), close)) return SpotVerdict::Passed;
  // Two verifiers must agree with each other: otherwise one of them may be the liar.
  if (to_checked.size() >= 2 && !close(between_verifiers)) return SpotVerdict::Inconclusive;
  return SpotVerdict::Failed;
}

SpotChecker::SpotChecker(job::SpotCheckSpec spec, std::chrono::milliseconds timeout,
                         std::uint64_t seed)
    : spec_(spec), timeout_(timeout), rng_(seed) {}

SpotDecision SpotChecker::decide(const std::string& sender) {
  std::lock_guard lock(mutex_);
  if (!enabled()) return SpotDecision::Use;
  if (caught_.count(sender)) return SpotDecision::Refuse;
  auto& r = senders_[sender];
  const bool full = pending_.size() >= kMaxPending;
  // On probation, or under suspicion (its last check failed or went unanswered): every micro-batch.
  if (r.seen++ < spec_.probation || r.suspect) {
    if (!full) return SpotDecision::Check;
    return r.suspect ? SpotDecision::Refuse : SpotDecision::Use;
  }
  if (full) return SpotDecision::Use;
  return std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < spec_.rate ? SpotDecision::Check
                                                                             : SpotDecision::Use;
}

bool SpotChecker::begin(std::uint64_t micro_batch, const std::string& checked,
                        std::vector<std::string> verifiers, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (pending_.count(micro_batch)) return false;
  pending_[micro_batch] = Pending{checked, std::move(verifiers), now + timeout_, false};
  ++stats_.started;
  return true;
}

std::optional<std::pair<std::string, std::vector<std::string>>> SpotChecker::pending(
    std::uint64_t micro_batch) const {
  std::lock_guard lock(mutex_);
  const auto it = pending_.find(micro_batch);
  if (it == pending_.end()) return std::nullopt;
  return std::make_pair(it->second.checked, it->second.verifiers);
}

void SpotChecker::input_shown(std::uint64_t micro_batch) {
  std::lock_guard lock(mutex_);
  if (const auto it = pending_.find(micro_batch); it != pending_.end())
    it->second.input_shown = true;
}

bool SpotChecker::finish(std::uint64_t micro_batch, SpotVerdict verdict) {
  std::lock_guard lock(mutex_);
  return finish_locked(micro_batch, verdict);
}

bool SpotChecker::finish_locked(std::uint64_t micro_batch, SpotVerdict verdict) {
  const auto it = pending_.find(micro_batch);
  if (it == pending_.end()) return false;
  const std::string checked = it->second.checked;
  pending_.erase(it);
  auto& record = senders_[checked];
  switch (verdict) {
    case SpotVerdict::Passed:
      ++stats_.passed;
      ++record.passed;
      record.suspect = false;
      record.incomparable_run = 0;
      return false;
    case SpotVerdict::Inconclusive:
      ++stats_.inconclusive;
      return false;
    case SpotVerdict::Incomparable:
      ++stats_.incomparable;
      ++record.incomparable_run;
      return false;
    case SpotVerdict::Unanswered:
      ++stats_.unanswered;
      record.suspect = true;
      return false;
    case SpotVerdict::Failed:
      break;
  }
  ++stats_.failed;
  ++record.failed;
  record.suspect = true;
  record.incomparable_run = 0;
  // Early in a run honest replicas drift far apart between averages, and an honest sender
  // fails now and then; a liar fails again and again.
  if (record.failed < spec_.failures_to_catch || 2 * record.failed < record.passed ||
      caught_.count(checked))
    return false;
  caught_.insert(checked);
  stats_.caught.push_back(checked);
  return true;
}

std::vector<SpotChecker::Expired> SpotChecker::expire(Clock::time_point now) {
  std::lock_guard lock(mutex_);
  std::vector<Expired> ended;
  for (const auto& [mb, p] : pending_) {
    if (now >= p.deadline)
      ended.push_back(
          {mb, p.input_shown ? SpotVerdict::Inconclusive : SpotVerdict::Unanswered, p.checked});
  }
  for (const auto& e : ended) finish_locked(e.micro_batch, e.verdict);
  return ended;
}

bool SpotChecker::vouched(const std::string& sender) const {
  std::lock_guard lock(mutex_);
  const auto it = senders_.find(sender);
  return it != senders_.end() &&
         (it->second.passed > 0 || it->second.incomparable_run > kUnverifiableAfter);
}

bool SpotChecker::is_caught(const std::string& sender) const {
  std::lock_guard lock(mutex_);
  return caught_.count(sender) > 0;
}

std::vector<std::string> SpotChecker::senders() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [key, record] : senders_) out.push_back(key);
  return out;
}

SpotCheckStats SpotChecker::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace rookery::pipeline
