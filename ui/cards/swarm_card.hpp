#pragma once
// "Your place in the swarm": the job this PC trains, its pipeline, its stage and the blocks
// it holds, the neighbours it receives activations from and sends them to, its ring partners
// in the other pipelines (who it averages with, and what they share), a diagram of the
// pipeline with this PC highlighted (of every pipeline of the run, with each volunteer's
// throughput, when the coordinator reports it), and the stage's own bookkeeping (micro-batches in
// flight, stashed weight versions, dropped and rejected work). With a coordinator, the whole
// run as it reports it: volunteers, pipelines, throughput, this PC's rank by confirmed samples, the
// run's loss beside the held-out loss of the model it archives, and the archive (its latest
// snapshot, and blocks that came back from one when no volunteer held them any more). Without a stage the node computes benchmark work, and the card says so.
#include "rookery/control.pb.h"
#include "ui/widgets/card.hpp"
#include "ui/widgets/metric_grid.hpp"

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace rookery::ui {

class PipelineDiagram;

class SwarmCard : public Card {
  Q_OBJECT

 public:
  explicit SwarmCard(QWidget* parent = nullptr);

  void showSnapshot(const wire::pb::NodeSnapshot& snapshot);
  void showDisconnected();

  bool inPipeline() const { return in_pipeline_; }
  QString jobText() const;
  QString positionText() const;  // "Pipeline 1 · stage 1 of 2 · blocks 0–2 of 6"
  QString reachText() const;     // how peers reach this PC; empty while unknown
  QString summaryText() const;   // every visible value, for tests and screen readers
  PipelineDiagram* diagram() const { return diagram_; }
  // The run's loss as the coordinator reports it: minutes since its first point, loss.
  QLineSeries* runLossSeries() const { return run_series_; }
  // The held-out loss of the model the coordinator archives, on the same axes.
  QLineSeries* validationSeries() const { return validation_series_; }
  QChartView* runLossView() const { return run_view_; }

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void applyColours();
  void showRows(bool visible);

  bool in_pipeline_ = false;
  QLabel* job_;
  QLabel* position_;
  QLabel* reach_;  // how peers reach this PC
  QLabel* note_;
  PipelineDiagram* diagram_;
  MetricGrid* grid_;
  MetricGrid::Row previous_, next_, in_flight_, versions_, lost_, sent_, partners_;
  MetricGrid::Row run_, rank_, run_loss_, archive_;  // the whole run, from the coordinator
  QChart* run_chart_ = nullptr;
  QChartView* run_view_ = nullptr;
  QLineSeries* run_series_ = nullptr;
  QLineSeries* validation_series_ = nullptr;  // the archived model's held-out loss
  QValueAxis* run_x_ = nullptr;
  QValueAxis* run_y_ = nullptr;
  void showRun(const wire::pb::NodeSnapshot& snapshot);
  void showRunCurves(const wire::pb::RunStatus& run);
  void showArchive(const wire::pb::RunStatus& run);
  void showPartners(const wire::pb::StageSnapshot& stage);
};

}  // namespace rookery::ui
