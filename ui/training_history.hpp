#pragma once
// What the training card draws, kept from successive node snapshots: the loss of the
// micro-batches this stage completed (one point per snapshot, the node reports the latest)
// with its moving average, and the sample rate over the last seconds of the node's own
// clock. Bounded: the oldest points give way. A different node process, another stage or a
// counter that went backwards starts a new history, because the old points belong to a
// run that no longer exists.
#include <QList>
#include <QPointF>
#include <QString>

#include <cstdint>
#include <deque>

#include "rookery/control.pb.h"

namespace rookery::ui {

class TrainingHistory {
 public:
  static constexpr int kDefaultCapacity = 720;  // 12 minutes of 1 s telemetry
  static constexpr double kRateWindowSeconds = 10;
  static constexpr double kSmoothing = 0.3;  // weight of the newest point in the average

  explicit TrainingHistory(int capacity = kDefaultCapacity);

  enum class Change { None, Appended, Restarted };
  // Takes one snapshot. Restarted: the history was cleared first (a point may follow).
  Change add(const wire::pb::NodeSnapshot& snapshot);
  void clear();

  // x: micro-batches completed at this stage, y: loss.
  const QList<QPointF>& loss() const { return loss_; }
  const QList<QPointF>& averageLoss() const { return average_; }
  bool hasLoss() const { return !loss_.isEmpty(); }
  int capacity() const { return capacity_; }
  int restarts() const { return restarts_; }

  // Samples per second over the last kRateWindowSeconds of node uptime; 0 before two
  // snapshots a second apart.
  double samplesPerSecond() const;

 private:
  struct Run {
    std::int64_t pid = 0;
    std::string job_id;
    std::uint32_t pipeline = 0, stage = 0;
    std::int64_t first_block = 0;
    bool operator==(const Run&) const = default;
  };
  static Run runOf(const wire::pb::NodeSnapshot& s);

  int capacity_;
  bool has_run_ = false;
  Run run_;
  double last_uptime_ = 0;
  std::uint64_t last_samples_ = 0;
  std::int64_t last_micro_batches_ = 0;
  QList<QPointF> loss_, average_;
  std::deque<std::pair<double, std::uint64_t>> rate_window_;  // (uptime s, samples)
  int restarts_ = 0;
};

}  // namespace rookery::ui
