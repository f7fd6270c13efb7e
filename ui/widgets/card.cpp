#include "ui/widgets/card.hpp"

#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QVBoxLayout>

#include "ui/theme.hpp"

namespace rookery::ui {

Card::Card(const QString& title, QWidget* parent) : QFrame(parent) {
  setFrameShape(QFrame::NoFrame);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(20, 16, 20, 18);
  outer->setSpacing(10);
  title_ = new QLabel(this);
  title_->setObjectName(QStringLiteral("cardTitle"));
  title_->setFont(theme::scaled(font(), 0.82, QFont::DemiBold));
  // Room above the capitals: at this size the accents of translated titles (GERÄT, ÉTAT,
  // ENTRAÎNEMENT) rise above the font's ascent and were clipped.
  title_->setContentsMargins(0, 2, 0, 0);
  outer->addWidget(title_);
  body_ = new QVBoxLayout;
  body_->setSpacing(8);
  outer->addLayout(body_);
  outer->addStretch(1);
  setTitle(title);
  applyColours();
}

void Card::setTitle(const QString& title) {
  title_->setText(title.toUpper());
  setAccessibleName(title);
}

QString Card::title() const { return accessibleName(); }

void Card::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QRectF r = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
  QPainterPath path;
  path.addRoundedRect(r, 12, 12);
  p.fillPath(path, theme::cardBackground(palette()));
  p.setPen(QPen(theme::cardBorder(palette()), 1));
  p.drawPath(path);
}

void Card::changeEvent(QEvent* event) {
  QFrame::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) applyColours();
}

void Card::applyColours() {
  QPalette pal = title_->palette();
  pal.setColor(QPalette::WindowText, theme::secondaryText(palette()));
  title_->setPalette(pal);
}

}  // namespace rookery::ui
