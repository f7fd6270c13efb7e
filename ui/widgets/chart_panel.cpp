#include "ui/widgets/chart_panel.hpp"

#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QLabel>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rookery::ui {

ChartPanel::ChartPanel(const Names& names, int minimum_height, QMargins chart_margins,
                       QWidget* parent)
    : QStackedWidget(parent) {
  chart_ = makeCardChart(chart_margins);
  view_ = makeCardChartView(chart_, names.view, names.accessible, minimum_height, this);
  message_ = new QLabel(this);
  message_->setObjectName(names.message);
  message_->setAlignment(Qt::AlignCenter);
  message_->setWordWrap(true);
  message_->setMargin(16);
  addWidget(message_);
  addWidget(view_);
  setMinimumHeight(minimum_height);
}

QChart* makeCardChart(QMargins margins) {
  auto* chart = new QChart;
  chart->legend()->hide();
  chart->setBackgroundVisible(false);
  chart->setPlotAreaBackgroundVisible(false);
  chart->setMargins(margins);
  chart->setBackgroundRoundness(0);
  chart->layout()->setContentsMargins(0, 0, 0, 0);
  return chart;
}

QChartView* makeCardChartView(QChart* chart, const QString& object_name,
                              const QString& accessible_name, int minimum_height, QWidget* parent) {
  auto* view = new QChartView(chart, parent);
  view->setObjectName(object_name);
  view->setRenderHint(QPainter::Antialiasing);
  view->setFrameShape(QFrame::NoFrame);
  view->setBackgroundBrush(Qt::NoBrush);
  view->setStyleSheet(QStringLiteral("background: transparent"));
  view->setFocusPolicy(Qt::TabFocus);
  view->setAccessibleName(accessible_name);
  view->setMinimumHeight(minimum_height);
  return view;
}

double niceStep(double span, int parts) {
  const double raw = std::max(span / parts, 1e-9);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0}) {
    if (raw <= m * magnitude) return m * magnitude;
  }
  return 10 * magnitude;
}

int decimalsOf(double step) {
  int decimals = 0;
  while (decimals < 6) {
    const double scaled = step * std::pow(10.0, decimals);
    if (std::abs(scaled - std::round(scaled)) < 1e-6) break;
    ++decimals;
  }
  return decimals;
}

void setTicks(QValueAxis* axis, double lo, double hi, double step) {
  axis->setRange(lo, hi);
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setTickAnchor(0);
  axis->setTickInterval(step);
  axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimalsOf(step)));
}

void setRoundTicks(QValueAxis* axis, double lo, double hi, double min_step, int parts) {
  setTicks(axis, lo, hi, std::max(niceStep(hi - lo, parts), min_step));
}

}  // namespace rookery::ui
