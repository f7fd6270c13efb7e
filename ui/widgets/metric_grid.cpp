#include "ui/widgets/metric_grid.hpp"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

#include "ui/theme.hpp"
#include "ui/widgets/meter_bar.hpp"

namespace rookery::ui {

MetricGrid::MetricGrid(QWidget* parent) : QWidget(parent) {
  grid_ = new QGridLayout(this);
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setHorizontalSpacing(16);
  grid_->setVerticalSpacing(7);
  grid_->setColumnStretch(1, 1);
}

MetricGrid::Row MetricGrid::addRow(const QString& label, const QString& key, bool with_meter) {
  Row row;
  const int r = grid_->rowCount();
  row.label = new QLabel(label, this);
  row.label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  row.value = new QLabel(this);
  row.value->setObjectName(key);
  row.value->setTextInteractionFlags(Qt::TextSelectableByMouse);
  row.value->setWordWrap(true);
  row.value->setAccessibleName(label);
  row.label->setBuddy(row.value);
  grid_->addWidget(row.label, r, 0);
  if (with_meter) {
    auto* cell = new QWidget(this);
    auto* v = new QVBoxLayout(cell);
    v->setContentsMargins(0, 0, 0, 2);
    v->setSpacing(4);
    row.meter = new MeterBar(cell);
    row.meter->setAccessibleName(label);
    v->addWidget(row.value);
    v->addWidget(row.meter);
    grid_->addWidget(cell, r, 1);
  } else {
    grid_->addWidget(row.value, r, 1);
  }
  labels_.append(row.label);
  applyColours();
  return row;
}

void MetricGrid::setRowVisible(const Row& row, bool visible) {
  row.label->setVisible(visible);
  if (row.meter) {
    row.meter->parentWidget()->setVisible(visible);
  } else {
    row.value->setVisible(visible);
  }
}

void MetricGrid::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) applyColours();
}

void MetricGrid::applyColours() {
  for (auto* l : labels_) {
    QPalette pal = l->palette();
    pal.setColor(QPalette::WindowText, theme::secondaryText(palette()));
    l->setPalette(pal);
  }
}

}  // namespace rookery::ui
