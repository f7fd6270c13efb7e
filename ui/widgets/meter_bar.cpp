#include "ui/widgets/meter_bar.hpp"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>

#include "ui/theme.hpp"

namespace rookery::ui {

MeterBar::MeterBar(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  setFixedHeight(6);
}

void MeterBar::setFraction(double fraction) {
  fraction = std::clamp(fraction, 0.0, 1.0);
  if (fraction == fraction_) return;
  fraction_ = fraction;
  update();
}

void MeterBar::setColour(const QColor& colour) {
  colour_ = colour;
  update();
}

void MeterBar::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QRectF r = rect();
  const double radius = r.height() / 2;
  p.setPen(Qt::NoPen);
  p.setBrush(theme::meterTrack(palette()));
  p.drawRoundedRect(r, radius, radius);
  if (fraction_ <= 0) return;
  QRectF fill = r;
  fill.setWidth(std::max(r.height(), r.width() * fraction_));
  p.setBrush(colour_.isValid() ? colour_ : theme::accent(palette()));
  p.drawRoundedRect(fill, radius, radius);
}

}  // namespace rookery::ui
