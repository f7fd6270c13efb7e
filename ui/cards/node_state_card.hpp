#pragma once
// What rookery-node is doing: its state in words with the reason, the work it has done
// (units, TFLOP), its current speed, how long it has run and its link to the coordinator.
#include "rookery/control.pb.h"
#include "ui/widgets/card.hpp"
#include "ui/widgets/metric_grid.hpp"

class QLabel;

namespace rookery::ui {

class StateDot;

class NodeStateCard : public Card {
  Q_OBJECT

 public:
  explicit NodeStateCard(QWidget* parent = nullptr);

  void showSnapshot(const wire::pb::NodeSnapshot& snapshot);
  // No node answers; `why` is shown as the reason.
  void showDisconnected(const QString& why);

  QString stateText() const;
  QString reasonText() const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void applyColours();

  StateDot* dot_;
  QLabel* state_;
  QLabel* reason_;
  MetricGrid* grid_;
  MetricGrid::Row units_, done_, speed_, uptime_, coordinator_, governor_, sensors_;
  wire::pb::NodeState shown_state_ = wire::pb::NODE_STATE_INVALID;
  bool connected_ = false;
};

}  // namespace rookery::ui
