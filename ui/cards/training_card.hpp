#pragma once
// "Training": the loss of the micro-batches this PC's stage completed, live (Qt Charts: each
// micro-batch's loss, faint, and its moving average), with the samples processed, the
// sample rate and the optimizer steps. The history is kept in a TrainingHistory and starts
// over when the node restarts or takes another stage. Below it, what the run's model does: the
// text it writes after a held-out prompt (or, for a classifier, its predictions on held-out
// images), as the coordinator's evaluation of its latest archived snapshot reports.
#include "rookery/control.pb.h"
#include "ui/training_history.hpp"
#include "ui/widgets/card.hpp"
#include "ui/widgets/metric_grid.hpp"

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace rookery::ui {

class ChartPanel;

class TrainingCard : public Card {
  Q_OBJECT

 public:
  explicit TrainingCard(QWidget* parent = nullptr);

  void showSnapshot(const wire::pb::NodeSnapshot& snapshot);
  void showDisconnected();

  const TrainingHistory& history() const { return history_; }
  QLineSeries* lossSeries() const { return loss_series_; }
  QLineSeries* averageSeries() const { return average_series_; }
  QChartView* chartView() const { return view_; }
  bool chartShown() const;
  QString emptyMessage() const;
  QString summaryText() const;  // every visible value, for tests and screen readers
  // What the run's model writes or predicts (empty until the coordinator evaluated a snapshot).
  QString sampleText() const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void applyColours();
  void updateChart();
  void showRows(bool visible);
  void showSample(const wire::pb::NodeSnapshot& snapshot);

  TrainingHistory history_;
  ChartPanel* stack_;
  QLabel* empty_message_;
  QChartView* view_;
  QChart* chart_;
  QLineSeries* loss_series_;
  QLineSeries* average_series_;
  QValueAxis* x_axis_;
  QValueAxis* y_axis_;
  QLabel* caption_;
  QLabel* sample_title_ = nullptr;  // "What the run's model writes", its snapshot, held-out loss
  QLabel* sample_ = nullptr;
  MetricGrid* grid_;
  MetricGrid::Row loss_, samples_, rate_, steps_;
};

}  // namespace rookery::ui
