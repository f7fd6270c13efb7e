#pragma once
// What this PC computes with: the GPU (name, memory, utilisation, temperature, power) when
// the node reports one through NVML, else the CPU (model, cores, memory, the machine's load
// and the node's own share); and the BLAS and the speed the node measured at start-up. Under
// them a live history of the last five minutes: the GPU's utilisation and memory, or the
// PC's load and Rookery's share of it.
#include <QElapsedTimer>
#include <chrono>

#include "rookery/control.pb.h"
#include "ui/widgets/card.hpp"
#include "ui/widgets/metric_grid.hpp"

class QLabel;

namespace rookery::ui {

class Sparkline;

class DeviceCard : public Card {
  Q_OBJECT

 public:
  explicit DeviceCard(QWidget* parent = nullptr);

  void showSnapshot(const wire::pb::DeviceSnapshot& device);
  void showDisconnected();

  QString deviceName() const;   // what the headline shows: GPU name or CPU model
  QString summaryText() const;  // every visible value, for tests and screen readers
  Sparkline* history() const { return history_; }
  // At most one history sample per `interval` (2 s: 150 samples are five minutes); 0 takes
  // every snapshot.
  void setHistoryInterval(std::chrono::milliseconds interval) { history_interval_ = interval; }

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void applyColours();

  QLabel* kind_;
  QLabel* name_;
  QLabel* note_;
  MetricGrid* grid_;
  MetricGrid::Row gpu_memory_, gpu_utilisation_, gpu_temperature_, gpu_power_;
  MetricGrid::Row processor_, cores_, memory_, machine_load_, node_share_;
  MetricGrid::Row blas_, speed_;
  QLabel* history_caption_;
  Sparkline* history_;
  bool history_of_gpu_ = false;  // which pair of series the history holds
  std::chrono::milliseconds history_interval_{2000};
  QElapsedTimer since_sample_;
  void addToHistory(bool gpu, double first, double second);
  void describeHistory();
};

}  // namespace rookery::ui
