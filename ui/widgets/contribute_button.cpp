#include "ui/widgets/contribute_button.hpp"

#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionButton>

#include "ui/theme.hpp"

namespace rookery::ui {

ContributeButton::ContributeButton(QWidget* parent) : QPushButton(parent) {
  setCursor(Qt::PointingHandCursor);
  setFont(theme::scaled(font(), 1.25, QFont::DemiBold));
  setAttribute(Qt::WA_Hover);
  setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
}

void ContributeButton::setAction(Action action) {
  if (action == action_) return;
  action_ = action;
  update();
}

QSize ContributeButton::sizeHint() const {
  const QFontMetrics fm(font());
  return {std::max(200, fm.horizontalAdvance(text()) + 96), fm.height() + 30};
}

QSize ContributeButton::minimumSizeHint() const { return sizeHint(); }

void ContributeButton::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QPalette& pal = palette();
  const bool enabled = isEnabled();
  const bool hover = enabled && underMouse();
  const bool down = enabled && isDown();
  const QRectF r = QRectF(rect()).adjusted(1.5, 1.5, -1.5, -1.5);
  const double radius = r.height() / 2;

  QColor fill, ink, border;
  if (!enabled) {
    fill = theme::meterTrack(pal);
    ink = theme::secondaryText(pal);
    border = fill;
  } else if (action_ == Action::Contribute) {
    fill = theme::accent(pal);
    if (hover) fill = theme::isDark(pal) ? fill.lighter(110) : fill.darker(110);
    if (down) fill = fill.darker(120);
    ink = theme::onAccent();
    border = fill;
  } else {
    // Pause: a quiet tint of the accent, so the action that stops work does not shout.
    const QColor base = theme::cardBackground(pal), a = theme::accent(pal);
    const double t = down ? 0.30 : hover ? 0.20 : 0.10;
    fill = QColor::fromRgbF(static_cast<float>(base.redF() * (1 - t) + a.redF() * t),
                            static_cast<float>(base.greenF() * (1 - t) + a.greenF() * t),
                            static_cast<float>(base.blueF() * (1 - t) + a.blueF() * t));
    ink = pal.color(QPalette::WindowText);
    border = theme::accent(pal);
  }
  QPainterPath shape;
  shape.addRoundedRect(r, radius, radius);
  p.fillPath(shape, fill);
  p.setPen(QPen(border, 1.5));
  p.drawPath(shape);
  if (hasFocus()) {
    QPen focus(theme::accent(pal), 2);
    p.setPen(focus);
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(r.adjusted(-1, -1, 1, 1), radius + 1, radius + 1);
  }

  // Glyph (play triangle or pause bars) and label, centred together.
  const QFontMetrics fm(font());
  const double glyph = fm.height() * 0.62;
  const double gap = glyph * 0.7;
  const double total = glyph + gap + fm.horizontalAdvance(text());
  double x = r.center().x() - total / 2;
  const double cy = r.center().y();
  p.setPen(Qt::NoPen);
  p.setBrush(ink);
  if (action_ == Action::Contribute) {
    QPainterPath tri;
    tri.moveTo(x + glyph * 0.08, cy - glyph / 2);
    tri.lineTo(x + glyph, cy);
    tri.lineTo(x + glyph * 0.08, cy + glyph / 2);
    tri.closeSubpath();
    p.drawPath(tri);
  } else {
    const double w = glyph * 0.32;
    p.drawRoundedRect(QRectF(x + glyph * 0.1, cy - glyph / 2, w, glyph), 1.5, 1.5);
    p.drawRoundedRect(QRectF(x + glyph * 0.9 - w, cy - glyph / 2, w, glyph), 1.5, 1.5);
  }
  x += glyph + gap;
  p.setPen(ink);
  p.drawText(QRectF(x, r.top(), r.right() - x, r.height()), Qt::AlignVCenter | Qt::AlignLeft,
             text());
}

}  // namespace rookery::ui
