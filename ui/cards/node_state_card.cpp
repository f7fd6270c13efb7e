#include "ui/cards/node_state_card.hpp"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QVBoxLayout>

#include "ui/format.hpp"
#include "ui/reasons.hpp"
#include "ui/theme.hpp"

namespace rookery::ui {

namespace pb = wire::pb;

// A coloured dot beside the state: the same colour as the tray icon for that state.
class StateDot : public QWidget {
 public:
  explicit StateDot(QWidget* parent) : QWidget(parent) { setFixedSize(14, 14); }
  void setColour(const QColor& c) {
    colour_ = c;
    update();
  }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    QColor halo = colour_;
    halo.setAlphaF(0.25f);
    p.setBrush(halo);
    p.drawEllipse(QRectF(rect()));
    p.setBrush(colour_);
    p.drawEllipse(QRectF(rect()).adjusted(3, 3, -3, -3));
  }

 private:
  QColor colour_;
};

NodeStateCard::NodeStateCard(QWidget* parent) : Card(tr("Node"), parent) {
  setObjectName(QStringLiteral("nodeStateCard"));
  auto* headline = new QHBoxLayout;
  headline->setSpacing(10);
  dot_ = new StateDot(this);
  state_ = new QLabel(this);
  state_->setObjectName(QStringLiteral("nodeState"));
  state_->setFont(theme::scaled(font(), 1.35, QFont::DemiBold));
  state_->setAccessibleName(tr("Node state"));
  headline->addWidget(dot_, 0, Qt::AlignVCenter);
  headline->addWidget(state_, 1);
  reason_ = new QLabel(this);
  reason_->setObjectName(QStringLiteral("nodeStateReason"));
  reason_->setWordWrap(true);
  reason_->setAccessibleName(tr("Why"));
  reason_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  grid_ = new MetricGrid(this);
  units_ = grid_->addRow(tr("Work units"), QStringLiteral("workUnits"));
  done_ = grid_->addRow(tr("Work done"), QStringLiteral("workDone"));
  speed_ = grid_->addRow(tr("Current speed"), QStringLiteral("currentSpeed"));
  uptime_ = grid_->addRow(tr("Running for"), QStringLiteral("uptime"));
  coordinator_ = grid_->addRow(tr("Coordinator"), QStringLiteral("coordinator"));
  governor_ = grid_->addRow(tr("Allowed"), QStringLiteral("governorLimits"));
  sensors_ = grid_->addRow(tr("Sensors"), QStringLiteral("governorSensors"));
  sensors_.value->setWordWrap(true);
  body()->addLayout(headline);
  body()->addWidget(reason_);
  body()->addSpacing(4);
  body()->addWidget(grid_);
  applyColours();
  showDisconnected(tr("Connecting to rookery-node…"));
}

void NodeStateCard::showSnapshot(const pb::NodeSnapshot& s) {
  connected_ = true;
  shown_state_ = s.state();
  state_->setText(Format::state(s.state(), true));
  reason_->setText(Reasons::state(s));
  const auto& w = s.work();
  units_.value->setText(Format::count(w.work_units()));
  done_.value->setText(Format::flopCount(w.flops()));
  speed_.value->setText(s.state() == pb::CONTRIBUTING ? Format::gflopRate(w.current_gflops())
                                                      : tr("idle"));
  uptime_.value->setText(Format::duration(s.uptime_seconds()));
  const auto& c = s.coordinator();
  if (c.endpoint().empty()) {
    coordinator_.value->setText(s.has_stage()
                                    ? tr("none: training a stage of a fixed pipeline plan")
                                    : tr("none: computing a local benchmark workload"));
  } else if (c.reachable()) {
    coordinator_.value->setText(tr("%1 (%2 ms)")
                                    .arg(Format::sentence(Reasons::coordinator(c)),
                                         QLocale().toString(c.rtt_ms(), 'f', 0)));
  } else {
    coordinator_.value->setText(Format::sentence(Reasons::coordinator(c)));
  }
  // What the resource governor allows now, and which of its sensors work on this PC.
  const auto& g = s.governor();
  QString limits = tr("%n thread(s)", nullptr, g.threads());
  if (g.cpu_time_percent() < 100) limits += tr(", %1% CPU time").arg(g.cpu_time_percent());
  if (g.upload_bytes_per_s() > 0)
    limits += tr(", upload %1 KiB/s").arg(g.upload_bytes_per_s() / 1024);
  if (g.download_bytes_per_s() > 0)
    limits += tr(", download %1 KiB/s").arg(g.download_bytes_per_s() / 1024);
  limits += g.user_active() ? tr(" (in use)") : tr(" (idle)");
  governor_.value->setText(limits);
  QStringList working, missing;
  for (const auto& sensor : g.sensors()) {
    (sensor.working() ? working : missing) << Reasons::sensorName(sensor);
  }
  QString sensors = working.join(tr(", "));
  if (!missing.isEmpty()) sensors += tr("; not available: %1").arg(missing.join(tr(", ")));
  sensors_.value->setText(sensors);
  QString details;
  for (const auto& sensor : g.sensors()) {
    details += tr("%1: %2").arg(Reasons::sensorName(sensor), Reasons::sensorReading(sensor)) + '\n';
  }
  sensors_.value->setToolTip(details.trimmed());
  const bool governed = s.has_governor() && g.decision() != pb::GovernorSnapshot::DECISION_INVALID;
  for (const auto* row : {&units_, &done_, &speed_, &uptime_, &coordinator_})
    grid_->setRowVisible(*row, true);
  for (const auto* row : {&governor_, &sensors_}) grid_->setRowVisible(*row, governed);
  applyColours();
}

void NodeStateCard::showDisconnected(const QString& why) {
  connected_ = false;
  state_->setText(Format::state(pb::NODE_STATE_INVALID, false));
  reason_->setText(why);
  // The totals of a node that is gone stay visible until another answers; its speed does not.
  speed_.value->setText(tr("idle"));
  for (const auto* row : {&uptime_, &coordinator_, &governor_, &sensors_})
    grid_->setRowVisible(*row, false);
  if (units_.value->text().isEmpty()) {
    for (const auto* row : {&units_, &done_, &speed_}) grid_->setRowVisible(*row, false);
  }
  applyColours();
}

QString NodeStateCard::stateText() const { return state_->text(); }

QString NodeStateCard::reasonText() const { return reason_->text(); }

void NodeStateCard::changeEvent(QEvent* event) {
  Card::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) applyColours();
}

void NodeStateCard::applyColours() {
  const QColor colour = theme::stateColour(palette(), shown_state_, connected_);
  dot_->setColour(colour);
  QPalette pal = reason_->palette();
  pal.setColor(QPalette::WindowText, theme::secondaryText(palette()));
  reason_->setPalette(pal);
}

}  // namespace rookery::ui
