#include "ui/widgets/sparkline.hpp"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/theme.hpp"

namespace rookery::ui {

Sparkline::Sparkline(int capacity, QWidget* parent)
    : QWidget(parent), capacity_(std::max(2, capacity)) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  setFixedHeight(44);
  setFocusPolicy(Qt::TabFocus);  // a screen reader reaches it with Tab and reads its description
}

int Sparkline::addSeries(const QString& name, const QColor& colour) {
  series_.append({name, colour, {}});
  return int(series_.size()) - 1;
}

void Sparkline::push(const QList<double>& samples) {
  for (int i = 0; i < series_.size(); ++i) {
    double v = i < samples.size() ? samples[i] : std::numeric_limits<double>::quiet_NaN();
    if (!std::isnan(v)) v = std::clamp(v, 0.0, 1.0);
    auto& values = series_[i].values;
    values.push_back(v);
    while (int(values.size()) > capacity_) values.pop_front();
  }
  update();
}

void Sparkline::clear() {
  for (auto& s : series_) s.values.clear();
  update();
}

int Sparkline::size() const { return series_.isEmpty() ? 0 : int(series_.front().values.size()); }

double Sparkline::latest(int index) const {
  const auto& v = series_.at(index).values;
  return v.empty() ? std::numeric_limits<double>::quiet_NaN() : v.back();
}

double Sparkline::highest(int index) const {
  double best = std::numeric_limits<double>::quiet_NaN();
  for (double v : series_.at(index).values) {
    if (!std::isnan(v) && !(v <= best)) best = v;
  }
  return best;
}

void Sparkline::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QRectF area = QRectF(rect()).adjusted(1, 2, -1, -2);
  p.setPen(Qt::NoPen);
  p.setBrush(theme::meterTrack(palette()));
  p.drawRoundedRect(QRectF(rect()), 4, 4);
  // A faint line at half load, so the height reads as a share.
  QColor mid = theme::secondaryText(palette());
  mid.setAlphaF(0.25);
  p.setPen(QPen(mid, 1, Qt::DotLine));
  p.drawLine(QPointF(area.left(), area.center().y()), QPointF(area.right(), area.center().y()));

  const double step = area.width() / double(capacity_ - 1);
  // The newest sample sits at the right edge; a series shorter than capacity starts later.
  auto point = [&](int i, int count, double v) {
    return QPointF(area.right() - step * double(count - 1 - i), area.bottom() - v * area.height());
  };
  for (int s = int(series_.size()) - 1; s >= 0; --s) {  // the first series on top
    const auto& values = series_[s].values;
    const int count = int(values.size());
    if (count == 0) continue;
    const QColor colour =
        series_[s].colour.isValid() ? series_[s].colour : theme::accent(palette());
    QPainterPath line;
    QPainterPath fill;  // under the first series only
    bool drawing = false;
    QPointF run_start;  // the baseline under the first point of the current run
    auto close_fill = [&](int last) {
      fill.lineTo(point(last, count, 0));
      fill.lineTo(run_start);
      fill.closeSubpath();
    };
    for (int i = 0; i < count; ++i) {
      const double v = values[std::size_t(i)];
      if (std::isnan(v)) {  // a gap: end the run
        if (drawing) close_fill(i - 1);
        drawing = false;
        continue;
      }
      const QPointF pt = point(i, count, v);
      if (drawing) {
        line.lineTo(pt);
        fill.lineTo(pt);
        continue;
      }
      line.moveTo(pt);
      run_start = point(i, count, 0);
      fill.moveTo(run_start);
      fill.lineTo(pt);
      drawing = true;
    }
    if (drawing) close_fill(count - 1);
    if (s == 0) {
      QColor soft = colour;
      soft.setAlphaF(0.22);
      p.setPen(Qt::NoPen);
      p.setBrush(soft);
      p.drawPath(fill);
    }
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(colour, s == 0 ? 1.8 : 1.4, s == 0 ? Qt::SolidLine : Qt::DashLine, Qt::RoundCap,
                  Qt::RoundJoin));
    p.drawPath(line);
    if (!std::isnan(values.back())) {  // the newest sample as a dot, so a lone one shows too
      p.setPen(Qt::NoPen);
      p.setBrush(colour);
      p.drawEllipse(point(count - 1, count, values.back()), 2.2, 2.2);
    }
  }
}

}  // namespace rookery::ui
