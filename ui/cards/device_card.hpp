#pragma once
// What this PC computes with: the GPU (name, memory, utilisation, temperature, power) when
// the node reports one through NVML, else the CPU (model, cores, memory, the machine's load
// and the node's own share); and the BLAS and the speed the node measured at start-up.
#include "rookery/control.pb.h"
#include "ui/widgets/card.hpp"
#include "ui/widgets/metric_grid.hpp"

class QLabel;

namespace rookery::ui {

class DeviceCard : public Card {
  Q_OBJECT

 public:
  explicit DeviceCard(QWidget* parent = nullptr);

  void showSnapshot(const wire::pb::DeviceSnapshot& device);
  void showDisconnected();

  QString deviceName() const;   // what the headline shows: GPU name or CPU model
  QString summaryText() const;  // every visible value, for tests and screen readers

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
};

}  // namespace rookery::ui
