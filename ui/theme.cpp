#include "ui/theme.hpp"

namespace rookery::ui::theme {

namespace {
QColor mix(const QColor& a, const QColor& b, double t) {
  return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - t) + b.redF() * t),
                          static_cast<float>(a.greenF() * (1 - t) + b.greenF() * t),
                          static_cast<float>(a.blueF() * (1 - t) + b.blueF() * t));
}
}  // namespace

bool isDark(const QPalette& palette) { return palette.color(QPalette::Window).lightnessF() < 0.5; }

QPalette darkPalette() {
  const QColor window(0x26, 0x28, 0x2b), base(0x1d, 0x1f, 0x21), text(0xe6, 0xe7, 0xe8),
      button(0x33, 0x35, 0x39);
  const QColor disabled(0x7d, 0x80, 0x85);
  QPalette p;
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, window);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, button);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, QColor(Qt::white));
  p.setColor(QPalette::ToolTipBase, base);
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, disabled);
  p.setColor(QPalette::Light, button.lighter(140));
  p.setColor(QPalette::Midlight, button.lighter(115));
  p.setColor(QPalette::Mid, button.darker(120));
  p.setColor(QPalette::Dark, base.darker(130));
  p.setColor(QPalette::Shadow, QColor(Qt::black));
  p.setColor(QPalette::Link, QColor(0x3c, 0xc4, 0x9f));
  p.setColor(QPalette::Highlight, QColor(0x1f, 0x8f, 0x74));
  p.setColor(QPalette::HighlightedText, QColor(Qt::white));
  for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
    p.setColor(QPalette::Disabled, role, disabled);
  }
  return p;
}

QColor accent(const QPalette& palette) {
  return isDark(palette) ? QColor(0x3c, 0xc4, 0x9f) : QColor(0x12, 0x85, 0x6c);
}

QColor onAccent() { return QColor(Qt::white); }

QColor cardBackground(const QPalette& palette) {
  const QColor window = palette.color(QPalette::Window);
  // Light: white cards on the grey window. Dark: cards a step lighter than the window.
  return isDark(palette) ? mix(window, QColor(Qt::white), 0.06)
                         : mix(window, palette.color(QPalette::Base), 0.85);
}

QColor cardBorder(const QPalette& palette) {
  const QColor window = palette.color(QPalette::Window);
  return isDark(palette) ? mix(window, QColor(Qt::white), 0.14)
                         : mix(window, QColor(Qt::black), 0.10);
}

QColor secondaryText(const QPalette& palette) {
  return mix(palette.color(QPalette::WindowText), palette.color(QPalette::Window), 0.38);
}

QColor meterTrack(const QPalette& palette) {
  return mix(cardBackground(palette), palette.color(QPalette::WindowText),
             isDark(palette) ? 0.16 : 0.09);
}

QColor warning(const QPalette& palette) {
  return isDark(palette) ? QColor(0xf0, 0xb4, 0x29) : QColor(0xc2, 0x84, 0x00);
}

QColor danger(const QPalette& palette) {
  return isDark(palette) ? QColor(0xf2, 0x6d, 0x6d) : QColor(0xc9, 0x36, 0x36);
}

QColor stateColour(const QPalette& palette, wire::pb::NodeState state, bool connected) {
  if (!connected) return secondaryText(palette);
  switch (state) {
    case wire::pb::CONTRIBUTING:
      return accent(palette);
    case wire::pb::PAUSED:
      return warning(palette);
    case wire::pb::FAILED:
      return danger(palette);
    default:
      return secondaryText(palette);
  }
}

QFont scaled(const QFont& base, double factor, int weight) {
  QFont f = base;
  if (base.pointSizeF() > 0) {
    f.setPointSizeF(base.pointSizeF() * factor);
  } else {
    f.setPixelSize(static_cast<int>(base.pixelSize() * factor));
  }
  f.setWeight(static_cast<QFont::Weight>(weight));
  return f;
}

}  // namespace rookery::ui::theme
