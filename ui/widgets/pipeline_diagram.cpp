#include "ui/widgets/pipeline_diagram.hpp"

#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionFocusRect>
#include <algorithm>

#include "ui/format.hpp"
#include "ui/theme.hpp"

namespace rookery::ui {

namespace {
constexpr int kBoxHeight = 38;
constexpr int kStripGap = 10;
constexpr int kStripHeight = 8;
constexpr int kArrow = 14;  // room between two boxes

void drawArrow(QPainter& p, QPointF from, QPointF to, const QColor& colour) {
  p.setPen(QPen(colour, 1.4, Qt::SolidLine, Qt::RoundCap));
  p.drawLine(from, to);
  const QPointF head(to.x() - 4, to.y());
  p.drawLine(head + QPointF(0, -3.5), to);
  p.drawLine(head + QPointF(0, 3.5), to);
}
}  // namespace

PipelineDiagram::PipelineDiagram(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("pipelineDiagram"));
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  setFocusPolicy(Qt::TabFocus);
  setAccessibleName(tr("Pipeline diagram"));
  describe();
}

void PipelineDiagram::setShape(const Shape& shape) {
  if (shape == shape_) return;
  shape_ = shape;
  describe();
  update();
}

QSize PipelineDiagram::sizeHint() const { return {360, kBoxHeight + kStripGap + kStripHeight + 6}; }

QSize PipelineDiagram::minimumSizeHint() const { return {160, sizeHint().height()}; }

void PipelineDiagram::describe() {
  const Shape& s = shape_;
  if (s.stage_count <= 0) {
    setAccessibleDescription(tr("This PC is not in a pipeline"));
    return;
  }
  setAccessibleDescription(tr("A pipeline of %n stage(s), from the data to the loss.", nullptr, s.stage_count) +
                           QLatin1Char(' ') +
                           tr("This PC is stage %1 and holds %2.")
                               .arg(s.stage + 1)
                               .arg(Format::blockRange(s.first_block, s.last_block, s.block_count)));
}

void PipelineDiagram::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QPalette& pal = palette();
  const QColor accent = theme::accent(pal);
  const QColor muted = theme::secondaryText(pal);
  const QColor track = theme::meterTrack(pal);
  const QColor border = theme::cardBorder(pal);
  const Shape& s = shape_;
  QRectF area = QRectF(rect()).adjusted(2, 2, -2, -2);

  if (hasFocus()) {
    QStyleOptionFocusRect option;
    option.initFrom(this);
    option.rect = rect();
    style()->drawPrimitive(QStyle::PE_FrameFocusRect, &option, &p, this);
  }
  if (s.stage_count <= 0) return;

  // "data →  [1] → [2] → [3]  → loss": the words at the ends only where there is room.
  QFont small = theme::scaled(font(), 0.82);
  p.setFont(small);
  const QFontMetricsF fm(small);
  const QString data_word = tr("data");
  const QString loss_word = tr("loss");
  const double end_width = std::max(fm.horizontalAdvance(data_word), fm.horizontalAdvance(loss_word)) + kArrow + 6;
  const int n = s.stage_count;
  const bool ends = area.width() - 2 * end_width >= n * 28 + (n - 1) * kArrow;
  QRectF row(area.left(), area.top(), area.width(), kBoxHeight);
  if (ends) row.adjust(end_width, 0, -end_width, 0);
  const double box_width = (row.width() - (n - 1) * kArrow) / n;
  const double mid_y = row.center().y();

  if (ends) {
    p.setPen(muted);
    p.drawText(QRectF(area.left(), row.top(), end_width - kArrow - 4, kBoxHeight), Qt::AlignLeft | Qt::AlignVCenter,
               data_word);
    drawArrow(p, {row.left() - kArrow, mid_y}, {row.left() - 3, mid_y}, muted);
    p.setPen(muted);
    p.drawText(QRectF(row.right() + kArrow + 4, row.top(), end_width - kArrow - 4, kBoxHeight),
               Qt::AlignRight | Qt::AlignVCenter, loss_word);
    drawArrow(p, {row.right() + 3, mid_y}, {row.right() + kArrow, mid_y}, muted);
  }

  QFont label_font = theme::scaled(font(), 0.9, QFont::DemiBold);
  const QFontMetricsF label_metrics(label_font);
  for (int i = 0; i < n; ++i) {
    const QRectF box(row.left() + i * (box_width + kArrow), row.top(), box_width, kBoxHeight);
    const bool mine = i == s.stage;
    QPainterPath path;
    path.addRoundedRect(box.adjusted(0.75, 0.75, -0.75, -0.75), 7, 7);
    if (mine) {
      QColor fill = accent;
      if (!s.active) fill.setAlphaF(0.22f);
      p.fillPath(path, fill);
      p.setPen(QPen(accent, 1.5));
    } else {
      p.fillPath(path, track);
      p.setPen(QPen(border, 1));
    }
    p.drawPath(path);
    if (i + 1 < n) drawArrow(p, {box.right() + 3, mid_y}, {box.right() + kArrow - 3, mid_y}, muted);

    // The longest label that fits: "Stage 2 · this PC", "Stage 2", "2".
    QStringList candidates;
    if (mine) candidates << tr("Stage %1 · this PC").arg(i + 1);
    candidates << tr("Stage %1").arg(i + 1) << QString::number(i + 1);
    QString text;
    for (const auto& c : candidates) {
      if (label_metrics.horizontalAdvance(c) <= box.width() - 8) {
        text = c;
        break;
      }
    }
    if (text.isEmpty()) continue;
    p.setFont(label_font);
    // On the filled box: white on the deep light-palette accent, near-black on the brighter
    // dark-palette one (white on it would be hard to read).
    const QColor on_accent = accent.lightnessF() > 0.5 ? QColor(0x0b, 0x24, 0x1d) : theme::onAccent();
    p.setPen(mine ? (s.active ? on_accent : pal.color(QPalette::WindowText)) : muted);
    p.drawText(box, Qt::AlignCenter, text);
  }

  // The model's blocks, this stage's shard filled.
  if (s.block_count > 0) {
    const QRectF strip(row.left(), row.bottom() + kStripGap, row.width(), kStripHeight);
    const double cell = strip.width() / static_cast<double>(s.block_count);
    p.setPen(Qt::NoPen);
    for (qint64 b = 0; b < s.block_count; ++b) {
      const bool mine = b >= s.first_block && b < s.last_block;
      const QRectF c(strip.left() + b * cell + (cell > 6 ? 1 : 0), strip.top(), std::max(1.0, cell - (cell > 6 ? 2 : 0)),
                     strip.height());
      p.setBrush(mine ? accent : track);
      p.drawRoundedRect(c, 2, 2);
    }
  }
}

}  // namespace rookery::ui
