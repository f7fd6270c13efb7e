#include "ui/training_history.hpp"

#include <algorithm>

namespace rookery::ui {

namespace pb = wire::pb;

TrainingHistory::TrainingHistory(int capacity) : capacity_(std::max(2, capacity)) {}

TrainingHistory::Run TrainingHistory::runOf(const pb::NodeSnapshot& s) {
  Run r;
  r.pid = s.pid();
  if (s.has_stage()) {
    r.job_id = s.stage().job_id();
    r.pipeline = s.stage().pipeline();
    r.stage = s.stage().stage();
    r.first_block = s.stage().first_block();
  }
  return r;
}

void TrainingHistory::clear() {
  has_run_ = false;
  run_ = {};
  last_uptime_ = 0;
  last_samples_ = 0;
  last_micro_batches_ = 0;
  loss_.clear();
  average_.clear();
  rate_window_.clear();
}

TrainingHistory::Change TrainingHistory::add(const pb::NodeSnapshot& s) {
  Change change = Change::None;
  const Run run = runOf(s);
  const std::int64_t micro_batches = s.has_stage() ? s.stage().micro_batches() : 0;
  if (has_run_ && (run != run_ || s.uptime_seconds() < last_uptime_ ||
                   s.work().samples() < last_samples_ || micro_batches < last_micro_batches_)) {
    clear();
    ++restarts_;
    change = Change::Restarted;
  }
  has_run_ = true;
  run_ = run;
  last_uptime_ = s.uptime_seconds();
  last_samples_ = s.work().samples();

  rate_window_.emplace_back(s.uptime_seconds(), s.work().samples());
  while (rate_window_.size() > 2 &&
         rate_window_.back().first - rate_window_[1].first >= kRateWindowSeconds) {
    rate_window_.pop_front();
  }

  // A stage reports the loss of the latest micro-batch whose backward it ran: a new point
  // only when that count moved, and once a loss is known (0 means none has come back yet;
  // a cross-entropy is never 0 in practice), so the average does not start from 0.
  if (s.has_stage() && micro_batches > last_micro_batches_ && s.work().last_loss() > 0) {
    const double x = static_cast<double>(micro_batches);
    const double y = s.work().last_loss();
    const double avg =
        average_.isEmpty() ? y : average_.back().y() + kSmoothing * (y - average_.back().y());
    loss_.append({x, y});
    average_.append({x, avg});
    while (loss_.size() > capacity_) {
      loss_.removeFirst();
      average_.removeFirst();
    }
    if (change == Change::None) change = Change::Appended;
  }
  last_micro_batches_ = micro_batches;
  return change;
}

double TrainingHistory::samplesPerSecond() const {
  if (rate_window_.size() < 2) return 0;
  const auto& [t0, s0] = rate_window_.front();
  const auto& [t1, s1] = rate_window_.back();
  if (t1 - t0 < 1.0 || s1 < s0) return 0;
  return static_cast<double>(s1 - s0) / (t1 - t0);
}

}  // namespace rookery::ui
