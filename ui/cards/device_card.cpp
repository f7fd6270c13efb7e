#include "ui/cards/device_card.hpp"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>

#include "ui/format.hpp"
#include "ui/reasons.hpp"
#include "ui/theme.hpp"
#include "ui/widgets/meter_bar.hpp"
#include "ui/widgets/sparkline.hpp"

namespace rookery::ui {

namespace pb = wire::pb;

DeviceCard::DeviceCard(QWidget* parent) : Card(tr("Device"), parent) {
  setObjectName(QStringLiteral("deviceCard"));
  kind_ = new QLabel(this);
  kind_->setObjectName(QStringLiteral("deviceKind"));
  name_ = new QLabel(this);
  name_->setObjectName(QStringLiteral("deviceName"));
  name_->setFont(theme::scaled(font(), 1.35, QFont::DemiBold));
  name_->setWordWrap(true);
  name_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  name_->setAccessibleName(tr("Device name"));
  note_ = new QLabel(this);
  note_->setObjectName(QStringLiteral("deviceNote"));
  note_->setWordWrap(true);
  note_->setFont(theme::scaled(font(), 0.9));
  grid_ = new MetricGrid(this);
  gpu_memory_ = grid_->addRow(tr("GPU memory"), QStringLiteral("gpuMemory"), true);
  gpu_utilisation_ = grid_->addRow(tr("Utilisation"), QStringLiteral("gpuUtilisation"), true);
  gpu_temperature_ = grid_->addRow(tr("Temperature"), QStringLiteral("gpuTemperature"));
  gpu_power_ = grid_->addRow(tr("Power"), QStringLiteral("gpuPower"));
  processor_ = grid_->addRow(tr("Processor"), QStringLiteral("cpuSummary"));
  cores_ = grid_->addRow(tr("Cores"), QStringLiteral("cpuCores"));
  memory_ = grid_->addRow(tr("Memory"), QStringLiteral("ram"), true);
  machine_load_ = grid_->addRow(tr("PC load"), QStringLiteral("machineLoad"), true);
  node_share_ = grid_->addRow(tr("Rookery's share"), QStringLiteral("nodeCpu"), true);
  blas_ = grid_->addRow(tr("Math library"), QStringLiteral("blas"));
  speed_ = grid_->addRow(tr("Measured speed"), QStringLiteral("measuredSpeed"));
  body()->addWidget(kind_);
  body()->addWidget(name_);
  body()->addSpacing(4);
  history_caption_ = new QLabel(tr("Recent load"), this);
  history_caption_->setObjectName(QStringLiteral("deviceHistoryCaption"));
  history_caption_->setFont(theme::scaled(font(), 0.9));
  history_ = new Sparkline(150, this);
  history_->setObjectName(QStringLiteral("deviceHistory"));
  history_->setAccessibleName(tr("Recent load"));
  history_->addSeries(tr("PC load"));
  history_->addSeries(tr("Rookery's share"));
  body()->addWidget(grid_);
  body()->addSpacing(2);
  body()->addWidget(history_caption_);
  body()->addWidget(history_);
  body()->addWidget(note_);
  applyColours();
  showDisconnected();
}

void DeviceCard::showSnapshot(const pb::DeviceSnapshot& d) {
  // The GPU the node computes on ("cuda:N"). A GPU that NVML reports while the CPU computes is
  // not shown as the device: the card says which device does the work, and why not the GPU.
  const pb::GpuTelemetry* gpu = nullptr;
  const bool computes_on_gpu = d.compute_device().rfind("cuda", 0) == 0;
  for (const auto& g : d.gpus()) {
    if (d.compute_device() == "cuda:" + std::to_string(g.index())) gpu = &g;
  }
  if (!gpu && computes_on_gpu && !d.gpus().empty()) gpu = &d.gpus(0);
  const pb::GpuTelemetry* idle_gpu = !computes_on_gpu && !d.gpus().empty() ? &d.gpus(0) : nullptr;

  const QString cpu_model = QString::fromStdString(d.cpu_model());
  const QString cores = tr("%n logical core(s)", nullptr, d.cpu_cores());
  if (gpu) {
    kind_->setText(tr("GPU · computes on %1").arg(QString::fromStdString(d.compute_device())));
    name_->setText(QString::fromStdString(gpu->name()));
    gpu_memory_.value->setText(
        Format::bytesOf(gpu->memory_used_bytes(), gpu->memory_total_bytes()));
    gpu_memory_.meter->setFraction(gpu->memory_total_bytes() ? double(gpu->memory_used_bytes()) /
                                                                   gpu->memory_total_bytes()
                                                             : 0);
    gpu_utilisation_.value->setText(Format::percent(gpu->utilization_percent()));
    gpu_utilisation_.meter->setFraction(gpu->utilization_percent() / 100.0);
    gpu_temperature_.value->setText(Format::temperature(gpu->temperature_c()));
    gpu_power_.value->setText(Format::power(gpu->power_w(), gpu->power_limit_w()));
    processor_.value->setText(tr("%1 · %2").arg(cpu_model, cores));
    note_->setText(d.gpus_size() > 1 ? tr("%n more GPU(s) in this PC", nullptr, d.gpus_size() - 1)
                                     : QString());
  } else {
    kind_->setText(tr("CPU · computes on the processor"));
    name_->setText(cpu_model.isEmpty() ? tr("Unknown processor") : cpu_model);
    if (idle_gpu && !d.compute_device().empty()) {
      note_->setText(d.gpu_unused().empty()
                         ? tr("%1 is not used for training").arg(QString::fromStdString(idle_gpu->name()))
                         : tr("%1 is not used for training: %2")
                               .arg(QString::fromStdString(idle_gpu->name()),
                                    QString::fromStdString(d.gpu_unused())));
    } else {
      note_->setText(d.gpu_status().empty()
                         ? QString()
                         : tr("No GPU telemetry: %1")
                               .arg(Reasons::gpuStatus(d.gpu_status_why(), d.gpu_status())));
    }
  }
  cores_.value->setText(d.compute_threads() > 0
                            ? tr("%1 · Rookery uses %n", nullptr, d.compute_threads()).arg(cores)
                            : cores);
  const quint64 ram_used = d.ram_total_bytes() > d.ram_available_bytes()
                               ? d.ram_total_bytes() - d.ram_available_bytes()
                               : 0;
  memory_.value->setText(Format::bytesOf(ram_used, d.ram_total_bytes()));
  memory_.meter->setFraction(d.ram_total_bytes() ? double(ram_used) / d.ram_total_bytes() : 0);
  machine_load_.value->setText(Format::percent(d.cpu_load_percent()));
  machine_load_.meter->setFraction(d.cpu_load_percent() / 100.0);
  node_share_.value->setText(Format::percent(d.node_cpu_percent()));
  node_share_.meter->setFraction(d.node_cpu_percent() / 100.0);
  blas_.value->setText(d.blas().empty() ? tr("measuring…") : Format::blas(d.blas()));
  blas_.value->setToolTip(QString::fromStdString(d.blas()));
  speed_.value->setText(d.measured_gflops() > 0 ? Format::gflopRate(d.measured_gflops())
                                                : tr("measuring…"));

  for (const auto* row :
       {&gpu_memory_, &gpu_utilisation_, &gpu_temperature_, &gpu_power_, &processor_}) {
    grid_->setRowVisible(*row, gpu != nullptr);
  }
  for (const auto* row : {&cores_, &memory_, &machine_load_, &node_share_})
    grid_->setRowVisible(*row, gpu == nullptr);
  for (const auto* row : {&blas_, &speed_}) grid_->setRowVisible(*row, true);
  note_->setVisible(!note_->text().isEmpty());
  if (gpu) {
    addToHistory(true, gpu->utilization_percent() / 100.0,
                 gpu->memory_total_bytes()
                     ? double(gpu->memory_used_bytes()) / double(gpu->memory_total_bytes())
                     : 0);
  } else {
    addToHistory(false, d.cpu_load_percent() / 100.0, d.node_cpu_percent() / 100.0);
  }
}

void DeviceCard::addToHistory(bool gpu, double first, double second) {
  history_caption_->setVisible(true);
  history_->setVisible(true);
  if (gpu != history_of_gpu_) {  // the node moved between GPU and CPU: a new pair of series
    history_of_gpu_ = gpu;
    history_->clear();
    history_->setSeriesName(0, gpu ? tr("Utilisation") : tr("PC load"));
    history_->setSeriesName(1, gpu ? tr("GPU memory") : tr("Rookery's share"));
    since_sample_.invalidate();
  }
  if (since_sample_.isValid() && since_sample_.elapsed() < history_interval_.count()) return;
  since_sample_.start();
  history_->push({first, second});
  describeHistory();
}

void DeviceCard::describeHistory() {
  QStringList parts;
  for (int i = 0; i < history_->seriesCount(); ++i) {
    if (std::isnan(history_->latest(i))) continue;
    parts << tr("%1: now %2, highest %3")
                 .arg(history_->seriesName(i), Format::percent(100 * history_->latest(i)),
                      Format::percent(100 * history_->highest(i)));
  }
  history_->setAccessibleDescription(parts.join(QStringLiteral("; ")));
  history_->setToolTip(parts.join(QLatin1Char('\n')));
}

void DeviceCard::showDisconnected() {
  kind_->setText(tr("Waiting for rookery-node"));
  if (name_->text().isEmpty()) name_->setText(tr("This PC"));
  for (const auto* row :
       {&gpu_memory_, &gpu_utilisation_, &gpu_temperature_, &gpu_power_, &processor_, &cores_,
        &memory_, &machine_load_, &node_share_, &blas_, &speed_}) {
    grid_->setRowVisible(*row, false);
  }
  note_->setText(tr("The device is shown once rookery-node answers."));
  note_->setVisible(true);
  if (history_->size() > 0) history_->push({});  // a gap while the node is away
  since_sample_.invalidate();
  history_caption_->setVisible(history_->size() > 0);
  history_->setVisible(history_->size() > 0);
}

QString DeviceCard::deviceName() const { return name_->text(); }

QString DeviceCard::summaryText() const {
  QStringList parts{kind_->text(), name_->text()};
  for (auto* label : grid_->findChildren<QLabel*>()) {
    if (label->isVisibleTo(this)) parts << label->text();
  }
  if (history_->isVisibleTo(this) && !history_->accessibleDescription().isEmpty()) {
    parts << history_->accessibleDescription();
  }
  if (note_->isVisibleTo(this)) parts << note_->text();
  return parts.join(QLatin1Char('\n'));
}

void DeviceCard::changeEvent(QEvent* event) {
  Card::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) applyColours();
}

void DeviceCard::applyColours() {
  for (auto* l : {kind_, note_, history_caption_}) {
    QPalette pal = l->palette();
    pal.setColor(QPalette::WindowText, theme::secondaryText(palette()));
    l->setPalette(pal);
  }
}

}  // namespace rookery::ui
