#pragma once
// "Your contribution": what this PC has given the swarm, from the node's ledger: credit (BOINC
// cobblestones: 1 credit = 432 GFLOP) and recent average credit (credits per day, 7-day
// half-life), samples processed, compute, hours of compute, pipeline data sent and received,
// and a bar chart of credit per day or per hour (Qt Charts; the toggle above it). In a
// coordinated run, also what the run credits: the samples of this PC's work that the stages
// receiving it confirmed (the coordinator's receipts), and the credit they are worth.
//
// Totals come with every snapshot (NodeSnapshot.ledger); the history is asked of the node
// (LEDGER_HISTORY) when the totals move, at most every few seconds, and each minute so the
// bars follow the clock. The node owns the ledger file; the GUI never opens it.
#include <QElapsedTimer>
#include <QStringList>

#include <cstdint>

#include <filesystem>
#include <memory>
#include <vector>

#include "rookery/control.pb.h"
#include "ui/widgets/card.hpp"
#include "ui/widgets/metric_grid.hpp"

class QAbstractButton;
class QBarSeries;
class QBarSet;
class QCategoryAxis;
class QChart;
class QChartView;
class QLabel;
class QPushButton;
class QTimer;
class QValueAxis;

namespace rookery::control {
class ControlClient;
}

namespace rookery::ui {

class ChartPanel;

class ContributionCard : public Card {
  Q_OBJECT

 public:
  enum class Period { Days, Hours };
  static constexpr int kDays = 14;
  static constexpr int kHours = 24;

  explicit ContributionCard(QWidget* parent = nullptr);
  ~ContributionCard() override;

  // Where the node's control API is; without it the card shows totals only.
  void setNodeRuntimeDir(std::filesystem::path runtime_dir);
  // The least time between two history requests while the totals move (default 5 s).
  void setHistoryInterval(int ms) { history_interval_ms_ = ms; }

  void showSnapshot(const wire::pb::NodeSnapshot& snapshot);
  void showDisconnected();

  Period period() const { return period_; }
  void setPeriod(Period period);
  // Asks the node for the history of the current period now. Returns whether it answered.
  bool refreshHistory();

  // What is shown, for tests and screen readers.
  const std::vector<wire::pb::LedgerPeriod>& history() const { return history_; }
  QBarSet* barSet() const { return bars_; }
  QCategoryAxis* categoryAxis() const { return categories_; }
  const QStringList& barLabels() const { return labels_; }
  QChartView* chartView() const { return view_; }
  QAbstractButton* perDayButton() const;
  QAbstractButton* perHourButton() const;
  bool chartShown() const;
  QString emptyMessage() const;
  QString summaryText() const;

  // The card's quantities in words (locale numbers, translated units).
  static QString amount(double v);                 // "1,234", "12.34", "0.00512"
  static QString creditText(double credit);        // amount()
  static QString racText(double credits_per_day);  // "5.67 per day"
  static QString computeText(double flops);        // "1.23 TFLOP", "0.0456 TFLOP"
  static QString hoursText(double seconds);        // "12 min 05 s" under an hour, else "2.5 h"

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void applyColours();
  void updateChart();
  void updateEmptyState();
  void relabel();
  bool historyDue() const;

  std::filesystem::path runtime_dir_;
  std::unique_ptr<control::ControlClient> client_;
  Period period_ = Period::Days;
  std::vector<wire::pb::LedgerPeriod> history_;
  bool history_valid_ = false;              // history_ is the current period's
  std::int64_t history_last_unix_ms_ = -1;  // the ledger's newest unit when history_ was fetched
  QElapsedTimer since_history_;
  int history_interval_ms_ = 5000;
  wire::pb::NodeSnapshot snapshot_;
  bool has_snapshot_ = false;
  bool connected_ = false;

  QLabel* credit_;
  QLabel* rac_;
  QLabel* status_;
  MetricGrid* grid_;
  MetricGrid::Row samples_, compute_, hours_, sent_, received_;
  MetricGrid::Row
      confirmed_;  // what the run credits: the work its consumers confirmed (joined nodes)
  void showConfirmed(const wire::pb::NodeSnapshot& snapshot);
  QPushButton* per_day_;
  QPushButton* per_hour_;
  ChartPanel* stack_;
  QLabel* empty_message_;
  QChartView* view_;
  QChart* chart_;
  QBarSeries* series_;
  QBarSet* bars_;
  QCategoryAxis* categories_;
  QValueAxis* values_;
  QLabel* caption_;
  QTimer* clock_;
  QStringList labels_;  // every bar's label (the axis may show only some)
  int stride_ = 0;
};

}  // namespace rookery::ui
