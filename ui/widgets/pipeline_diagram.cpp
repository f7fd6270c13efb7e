#include "ui/widgets/pipeline_diagram.hpp"

#include <QLocale>
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
constexpr int kArrow = 14;     // room between two boxes
constexpr int kSwarmRow = 28;  // the swarm: one row of boxes per pipeline
constexpr int kSwarmGap = 6;

// A stage's box: this PC's filled with the accent (faintly while it does not contribute).
void drawBox(QPainter& p, const QRectF& box, double radius, bool mine, bool active,
             const QPalette& pal) {
  QPainterPath path;
  path.addRoundedRect(box.adjusted(0.75, 0.75, -0.75, -0.75), radius, radius);
  if (mine) {
    QColor fill = theme::accent(pal);
    if (!active) fill.setAlphaF(0.22f);
    p.fillPath(path, fill);
    p.setPen(QPen(theme::accent(pal), 1.5));
  } else {
    p.fillPath(path, theme::meterTrack(pal));
    p.setPen(QPen(theme::cardBorder(pal), 1));
  }
  p.drawPath(path);
}

// The model's blocks in `strip`, blocks [first, last) filled.
void drawBlocks(QPainter& p, const QRectF& strip, qint64 count, qint64 first, qint64 last,
                const QPalette& pal) {
  const double cell = strip.width() / static_cast<double>(count);
  p.setPen(Qt::NoPen);
  for (qint64 b = 0; b < count; ++b) {
    const QRectF c(strip.left() + static_cast<double>(b) * cell + (cell > 6 ? 1 : 0), strip.top(),
                   std::max(1.0, cell - (cell > 6 ? 2 : 0)), strip.height());
    p.setBrush(b >= first && b < last ? theme::accent(pal) : theme::meterTrack(pal));
    p.drawRoundedRect(c, 2, 2);
  }
}

// The first of `candidates` (longest first) that fits in `width`; empty when none does.
QString longestFitting(const QStringList& candidates, const QFontMetricsF& metrics, double width) {
  for (const auto& c : candidates) {
    if (metrics.horizontalAdvance(c) <= width) return c;
  }
  return {};
}

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
  const int rows_before = rows();
  shape_ = shape;
  describe();
  if (rows() != rows_before) updateGeometry();
  update();
}

int PipelineDiagram::rows() const {
  return shape_.swarm.empty() || shape_.block_count <= 0 ? 1
                                                         : static_cast<int>(shape_.swarm.size());
}

QSize PipelineDiagram::sizeHint() const {
  const int r = rows();
  const int boxes =
      r == 1 && shape_.swarm.empty() ? kBoxHeight : r * kSwarmRow + (r - 1) * kSwarmGap;
  return {360, boxes + kStripGap + kStripHeight + 6};
}

QSize PipelineDiagram::minimumSizeHint() const { return {160, sizeHint().height()}; }

void PipelineDiagram::describe() {
  const Shape& s = shape_;
  if (s.stage_count <= 0) {
    setAccessibleDescription(tr("This PC is not in a pipeline"));
    return;
  }
  if (!s.swarm.empty()) {
    QStringList parts;
    parts << tr("The swarm: %n pipeline(s).", nullptr, static_cast<int>(s.swarm.size()));
    for (std::size_t p = 0; p < s.swarm.size(); ++p) {
      double rate = 0;
      bool mine = false;
      for (const auto& seat : s.swarm[p]) mine = mine || seat.mine;
      if (!s.swarm[p].empty())
        rate = s.swarm[p].front().samples_per_s;  // a pipeline's rate is its first stage's
      parts << (mine ? tr("Pipeline %1, this PC's: %n stage(s), %2 samples/s.", nullptr,
                          static_cast<int>(s.swarm[p].size()))
                     : tr("Pipeline %1: %n stage(s), %2 samples/s.", nullptr,
                          static_cast<int>(s.swarm[p].size())))
                   .arg(p + 1)
                   .arg(QLocale().toString(rate, 'f', 1));
    }
    parts << tr("This PC is stage %1 and holds %2.")
                 .arg(s.stage + 1)
                 .arg(Format::blockRange(s.first_block, s.last_block, s.block_count));
    setAccessibleDescription(parts.join(QLatin1Char(' ')));
    return;
  }
  setAccessibleDescription(
      tr("A pipeline of %n stage(s), from the data to the loss.", nullptr, s.stage_count) +
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
  const Shape& s = shape_;
  QRectF area = QRectF(rect()).adjusted(2, 2, -2, -2);

  if (hasFocus()) {
    QStyleOptionFocusRect option;
    option.initFrom(this);
    option.rect = rect();
    style()->drawPrimitive(QStyle::PE_FrameFocusRect, &option, &p, this);
  }
  if (s.stage_count <= 0) return;
  if (!s.swarm.empty() && s.block_count > 0) {
    paintSwarm(p, area);
    return;
  }

  // "data →  [1] → [2] → [3]  → loss": the words at the ends only where there is room.
  QFont small = theme::scaled(font(), 0.82);
  p.setFont(small);
  const QFontMetricsF fm(small);
  const QString data_word = tr("data");
  const QString loss_word = tr("loss");
  const double end_width =
      std::max(fm.horizontalAdvance(data_word), fm.horizontalAdvance(loss_word)) + kArrow + 6;
  const int n = s.stage_count;
  const bool ends = area.width() - 2 * end_width >= n * 28 + (n - 1) * kArrow;
  QRectF row(area.left(), area.top(), area.width(), kBoxHeight);
  if (ends) row.adjust(end_width, 0, -end_width, 0);
  const double box_width = (row.width() - (n - 1) * kArrow) / n;
  const double mid_y = row.center().y();

  if (ends) {
    p.setPen(muted);
    p.drawText(QRectF(area.left(), row.top(), end_width - kArrow - 4, kBoxHeight),
               Qt::AlignLeft | Qt::AlignVCenter, data_word);
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
    drawBox(p, box, 7, mine, s.active, pal);
    if (i + 1 < n) drawArrow(p, {box.right() + 3, mid_y}, {box.right() + kArrow - 3, mid_y}, muted);

    // The longest label that fits: "Stage 2 · this PC", "Stage 2", "2".
    QStringList candidates;
    if (mine) candidates << tr("Stage %1 · this PC").arg(i + 1);
    candidates << tr("Stage %1").arg(i + 1) << QString::number(i + 1);
    const QString text = longestFitting(candidates, label_metrics, box.width() - 8);
    if (text.isEmpty()) continue;
    p.setFont(label_font);
    // On the filled box: white on the deep light-palette accent, near-black on the brighter
    // dark-palette one (white on it would be hard to read).
    const QColor on_accent =
        accent.lightnessF() > 0.5 ? QColor(0x0b, 0x24, 0x1d) : theme::onAccent();
    p.setPen(mine ? (s.active ? on_accent : pal.color(QPalette::WindowText)) : muted);
    p.drawText(box, Qt::AlignCenter, text);
  }

  // The model's blocks, this stage's shard filled.
  if (s.block_count > 0) {
    drawBlocks(p, QRectF(row.left(), row.bottom() + kStripGap, row.width(), kStripHeight),
               s.block_count, s.first_block, s.last_block, pal);
  }
}

// The swarm: "P1 [  12.3/s  ][ 12.1/s ][    12.0/s    ]" per pipeline, boxes over the blocks
// they hold (an axis shared by every row), this PC's filled; the blocks strip under them.
void PipelineDiagram::paintSwarm(QPainter& p, QRectF area) {
  const Shape& s = shape_;
  const QPalette& pal = palette();
  const QColor accent = theme::accent(pal);
  const QColor muted = theme::secondaryText(pal);
  const QColor on_accent = accent.lightnessF() > 0.5 ? QColor(0x0b, 0x24, 0x1d) : theme::onAccent();
  QFont small = theme::scaled(font(), 0.82);
  QFont label_font = theme::scaled(font(), 0.82, QFont::DemiBold);
  const QFontMetricsF small_metrics(small), label_metrics(label_font);
  const double name_width = small_metrics.horizontalAdvance(tr("P%1").arg(s.swarm.size())) + 8;
  const QRectF axis(area.left() + name_width, area.top(), area.width() - name_width, area.height());
  const double per_block = axis.width() / static_cast<double>(s.block_count);
  for (std::size_t r = 0; r < s.swarm.size(); ++r) {
    const double top = area.top() + static_cast<double>(r) * (kSwarmRow + kSwarmGap);
    p.setFont(small);
    p.setPen(muted);
    p.drawText(QRectF(area.left(), top, name_width - 6, kSwarmRow),
               Qt::AlignRight | Qt::AlignVCenter, tr("P%1").arg(r + 1));
    for (const auto& seat : s.swarm[r]) {
      const qint64 first = std::clamp<qint64>(seat.first_block, 0, s.block_count);
      const qint64 last = std::clamp<qint64>(seat.last_block, first, s.block_count);
      if (last <= first) continue;
      const QRectF box(axis.left() + static_cast<double>(first) * per_block + 1.5, top,
                       static_cast<double>(last - first) * per_block - 3, kSwarmRow);
      drawBox(p, box, 6, seat.mine, s.active, pal);
      // The longest label that fits: "this PC · 12.3/s", "12.3/s", "12".
      const QString rate =
          QLocale().toString(seat.samples_per_s, 'f', seat.samples_per_s < 100 ? 1 : 0);
      QStringList candidates;
      if (seat.mine) candidates << tr("this PC · %1/s").arg(rate);
      candidates << tr("%1/s").arg(rate) << QLocale().toString(seat.samples_per_s, 'f', 0);
      const QString text = longestFitting(candidates, label_metrics, box.width() - 6);
      if (text.isEmpty()) continue;
      p.setFont(label_font);
      p.setPen(seat.mine ? (s.active ? on_accent : pal.color(QPalette::WindowText)) : muted);
      p.drawText(box, Qt::AlignCenter, text);
    }
  }
  // The model's blocks under the rows, this PC's shard filled.
  const double rows_height =
      static_cast<double>(s.swarm.size()) * (kSwarmRow + kSwarmGap) - kSwarmGap;
  drawBlocks(p,
             QRectF(axis.left(), area.top() + rows_height + kStripGap, axis.width(), kStripHeight),
             s.block_count, s.first_block, s.last_block, pal);
}

}  // namespace rookery::ui
