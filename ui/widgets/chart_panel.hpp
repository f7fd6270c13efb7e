#pragma once
// A chart on a card: a QChart without background or legend in a transparent, focusable
// QChartView, stacked over a message shown while there is nothing to plot. Also the round
// tick steps every card's axes use.
#include <QMargins>
#include <QStackedWidget>
#include <QString>

class QChart;
class QChartView;
class QLabel;
class QValueAxis;

namespace rookery::ui {

class ChartPanel final : public QStackedWidget {
 public:
  struct Names {
    QString view;        // object name of the chart view
    QString message;     // object name of the message label
    QString accessible;  // what a screen reader calls the chart
  };
  ChartPanel(const Names& names, int minimum_height, QMargins chart_margins, QWidget* parent);

  QChart* chart() const { return chart_; }
  QChartView* view() const { return view_; }
  QLabel* message() const { return message_; }

 private:
  QChart* chart_;
  QChartView* view_;
  QLabel* message_;
};

// A chart styled for a card: no legend, no backgrounds, no rounding, the given margins.
QChart* makeCardChart(QMargins margins = {});
// A transparent, antialiased view of `chart` that takes focus by Tab.
QChartView* makeCardChartView(QChart* chart, const QString& object_name,
                              const QString& accessible_name, int minimum_height, QWidget* parent);

// A round step (1, 2, 2.5 or 5 × 10^k) that cuts `span` into about `parts`.
double niceStep(double span, int parts);
// As many decimals as `step` needs: 0.25 → 2, 0.5 → 1, 5 → 0 (at most 6).
int decimalsOf(double step);
// Shows [lo, hi] with ticks at multiples of `step` from 0, labelled with the decimals it needs.
void setTicks(QValueAxis* axis, double lo, double hi, double step);
// The same with a round step that cuts [lo, hi] into about `parts`, at least `min_step`,
// without widening the range: the curve keeps the whole plot.
void setRoundTicks(QValueAxis* axis, double lo, double hi, double min_step, int parts);

}  // namespace rookery::ui
