#include "ui/cards/training_card.hpp"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QGraphicsLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QStackedWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "ui/format.hpp"
#include "ui/theme.hpp"
#include "ui/widgets/chart_panel.hpp"

namespace rookery::ui {

namespace pb = wire::pb;

namespace {
constexpr int kChartHeight = 190;

}  // namespace

TrainingCard::TrainingCard(QWidget* parent) : Card(tr("Training"), parent) {
  setObjectName(QStringLiteral("trainingCard"));

  stack_ = new ChartPanel(
      {QStringLiteral("lossChart"), QStringLiteral("trainingEmptyMessage"), tr("Loss chart")},
      kChartHeight, {}, this);
  chart_ = stack_->chart();
  view_ = stack_->view();
  empty_message_ = stack_->message();
  loss_series_ = new QLineSeries(chart_);
  loss_series_->setName(tr("Loss"));
  average_series_ = new QLineSeries(chart_);
  average_series_->setName(tr("Moving average"));
  chart_->addSeries(loss_series_);
  chart_->addSeries(average_series_);
  x_axis_ = new QValueAxis(chart_);
  x_axis_->setTitleText(tr("micro-batches"));
  y_axis_ = new QValueAxis(chart_);
  chart_->addAxis(x_axis_, Qt::AlignBottom);
  chart_->addAxis(y_axis_, Qt::AlignLeft);
  for (auto* series : {loss_series_, average_series_}) {
    series->attachAxis(x_axis_);
    series->attachAxis(y_axis_);
  }

  caption_ = new QLabel(
      tr("Loss of each micro-batch this stage completed (faint) and its moving average"), this);
  caption_->setObjectName(QStringLiteral("lossCaption"));
  caption_->setWordWrap(true);
  caption_->setFont(theme::scaled(font(), 0.85));

  grid_ = new MetricGrid(this);
  loss_ = grid_->addRow(tr("Loss"), QStringLiteral("loss"));
  samples_ = grid_->addRow(tr("Samples"), QStringLiteral("samples"));
  rate_ = grid_->addRow(tr("Speed"), QStringLiteral("sampleRate"));
  steps_ = grid_->addRow(tr("Optimizer steps"), QStringLiteral("optimizerSteps"));
  body()->addWidget(stack_);
  body()->addWidget(caption_);
  body()->addSpacing(2);
  body()->addWidget(grid_);
  sample_title_ = new QLabel(this);
  sample_title_->setObjectName(QStringLiteral("sampleTitle"));
  sample_title_->setWordWrap(true);
  sample_title_->setFont(theme::scaled(font(), 0.85));
  sample_ = new QLabel(this);
  sample_->setObjectName(QStringLiteral("modelSample"));
  sample_->setWordWrap(true);
  sample_->setTextFormat(Qt::RichText);
  sample_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  sample_->setAccessibleName(tr("What the run's model writes"));
  body()->addSpacing(4);
  body()->addWidget(sample_title_);
  body()->addWidget(sample_);
  sample_title_->hide();
  sample_->hide();
  applyColours();
  showDisconnected();
}

void TrainingCard::showSnapshot(const pb::NodeSnapshot& s) {
  history_.add(s);
  showSample(s);
  if (!s.has_stage()) {
    empty_message_->setText(
        tr("No model to train yet: the loss curve appears here once this PC trains a stage of "
           "a pipeline."));
    stack_->setCurrentWidget(empty_message_);
    caption_->hide();
    showRows(false);
    updateChart();
    return;
  }
  const auto& st = s.stage();
  const auto& w = s.work();
  if (history_.hasLoss()) {
    stack_->setCurrentWidget(view_);
    caption_->show();
  } else {
    empty_message_->setText(
        s.state() == pb::CONTRIBUTING
            ? tr("Waiting for the first micro-batch to come back through the pipeline…")
            : tr("Press Contribute to train: the loss curve appears here."));
    stack_->setCurrentWidget(empty_message_);
    caption_->hide();
  }
  loss_.value->setText(
      history_.hasLoss()
          ? tr("%1 · average %2")
                .arg(Format::loss(w.last_loss()), Format::loss(history_.averageLoss().back().y()))
          : tr("none yet"));
  samples_.value->setText(Format::count(w.samples()));
  rate_.value->setText(s.state() == pb::CONTRIBUTING || history_.samplesPerSecond() > 0
                           ? Format::sampleRate(history_.samplesPerSecond())
                           : tr("idle"));
  steps_.value->setText(
      Format::count(static_cast<quint64>(std::max<qint64>(0, st.optimizer_steps()))));
  showRows(true);
  updateChart();
}

void TrainingCard::showDisconnected() {
  // The curve of a node that is gone stays until another node answers (and replaces it).
  if (history_.hasLoss()) {
    rate_.value->setText(tr("idle"));
    return;
  }
  empty_message_->setText(tr("The training is shown once rookery-node answers."));
  stack_->setCurrentWidget(empty_message_);
  caption_->hide();
  showRows(false);
}

void TrainingCard::showRows(bool visible) {
  for (const auto* row : {&loss_, &samples_, &rate_, &steps_}) grid_->setRowVisible(*row, visible);
  grid_->setVisible(visible);
}

void TrainingCard::updateChart() {
  const auto& points = history_.loss();
  loss_series_->replace(points);
  average_series_->replace(history_.averageLoss());
  if (points.isEmpty()) {
    view_->setAccessibleDescription(tr("No loss yet"));
    return;
  }
  double lo = points.front().y(), hi = lo;
  for (const auto& p : points) {
    lo = std::min(lo, p.y());
    hi = std::max(hi, p.y());
  }
  const double pad = std::max((hi - lo) * 0.08, 0.02);
  setRoundTicks(y_axis_, std::max(0.0, lo - pad), hi + pad, 0.01, 5);
  const double x0 = points.front().x();
  setRoundTicks(x_axis_, x0, std::max(points.back().x(), x0 + 10), 1, 4);
  view_->setAccessibleDescription(
      tr("Loss %1 after %2 micro-batches; %3 at micro-batch %4")
          .arg(Format::loss(points.back().y()),
               Format::count(static_cast<quint64>(points.back().x())),
               Format::loss(points.front().y()),
               Format::count(static_cast<quint64>(points.front().x()))));
}

// The coordinator evaluates every snapshot of the whole model it archives: a language model
// continues a prompt taken from held-out text (the prompt in bold, what it wrote after it), a
// classifier labels held-out images. Shown as the run's model, not this PC's stage alone.
void TrainingCard::showSample(const pb::NodeSnapshot& s) {
  const bool has = s.has_run() && s.run().has_evaluation();
  sample_title_->setVisible(has);
  sample_->setVisible(has);
  if (!has) return;
  const auto& e = s.run().evaluation();
  const auto held_out = QLocale().toString(e.validation_loss(), 'f', 3);
  const auto html = [](const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped().replace(QLatin1Char('\n'),
                                                                QStringLiteral("<br>"));
  };
  if (e.predictions_size() > 0) {
    sample_title_->setText(tr("What the run's model predicts (snapshot %1, held-out loss %2, "
                              "accuracy %3)")
                               .arg(e.snapshot())
                               .arg(held_out, Format::percent(e.accuracy() * 100)));
    QStringList pairs;
    int right = 0;
    for (const auto& p : e.predictions()) {
      right += p.label() == p.predicted() ? 1 : 0;
      pairs << (p.label() == p.predicted() ? QStringLiteral("%1") : QStringLiteral("<s>%1</s>"))
                   .arg(tr("%1 as %2").arg(p.label()).arg(p.predicted()));
    }
    sample_->setText(tr("%1 of %2 held-out images right: %3")
                         .arg(right)
                         .arg(e.predictions_size())
                         .arg(pairs.join(QStringLiteral(" · "))));
  } else {
    sample_title_->setText(tr("What the run's model writes (snapshot %1, held-out loss %2)")
                               .arg(e.snapshot())
                               .arg(held_out));
    sample_->setText(QStringLiteral("<b>%1</b>%2").arg(html(e.prompt()), html(e.text())));
  }
}

QString TrainingCard::sampleText() const {
  return sample_->isVisibleTo(this) ? sample_title_->text() + QLatin1Char('\n') + sample_->text()
                                    : QString();
}

bool TrainingCard::chartShown() const { return stack_->currentWidget() == view_; }

QString TrainingCard::emptyMessage() const { return empty_message_->text(); }

QString TrainingCard::summaryText() const {
  QStringList parts;
  if (stack_->currentWidget() == empty_message_) parts << empty_message_->text();
  for (auto* label : grid_->findChildren<QLabel*>()) {
    if (label->isVisibleTo(this)) parts << label->text();
  }
  return parts.join(QLatin1Char('\n'));
}

void TrainingCard::changeEvent(QEvent* event) {
  Card::changeEvent(event);
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) applyColours();
}

void TrainingCard::applyColours() {
  const QPalette& pal = palette();
  const QColor muted = theme::secondaryText(pal);
  const QColor grid = theme::cardBorder(pal);
  QColor faint = theme::accent(pal);
  faint.setAlphaF(0.35f);
  loss_series_->setPen(QPen(faint, 1.2));
  average_series_->setPen(
      QPen(theme::accent(pal), 2.4, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
  const QFont label_font = theme::scaled(font(), 0.82);
  for (auto* axis : {x_axis_, y_axis_}) {
    axis->setLabelsColor(muted);
    axis->setLabelsFont(label_font);
    axis->setTitleBrush(muted);
    axis->setTitleFont(label_font);
    axis->setGridLineColor(grid);
    axis->setLinePenColor(grid);
    axis->setMinorGridLineVisible(false);
  }
  for (auto* l : {empty_message_, caption_, sample_title_}) {
    if (!l) continue;  // a palette change while the card is being built
    QPalette lp = l->palette();
    lp.setColor(QPalette::WindowText, muted);
    l->setPalette(lp);
  }
}

}  // namespace rookery::ui
