#include "ui/cards/contribution_card.hpp"

#include <QBarSeries>
#include <QBarSet>
#include <QButtonGroup>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QDateTime>
#include <QEvent>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStackedWidget>
#include <QTimer>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "control/control_client.hpp"
#include "ui/format.hpp"
#include "ui/theme.hpp"
#include "ui/widgets/chart_panel.hpp"

namespace rookery::ui {

namespace pb = wire::pb;

namespace {
constexpr int kChartHeight = 200;
constexpr auto kHistoryTimeout = std::chrono::milliseconds(800);

}  // namespace

// Readable at any size: whole numbers from 100, two decimals from 1, and three significant
// digits below (a new volunteer's first minutes earn hundredths of a credit).
QString ContributionCard::amount(double v) {
  if (!(v > 0)) return QLocale().toString(0);
  if (v >= 100) return QLocale().toString(v, 'f', 0);
  if (v >= 1) return QLocale().toString(v, 'f', 2);
  const int decimals = std::min(9, 2 - static_cast<int>(std::floor(std::log10(v))));
  return QLocale().toString(v, 'f', decimals);
}

QString ContributionCard::creditText(double credit) { return amount(credit); }

QString ContributionCard::racText(double credits_per_day) {
  return tr("%1 per day").arg(amount(credits_per_day));
}

QString ContributionCard::computeText(double flops) {
  return tr("%1 TFLOP").arg(amount(flops / 1e12));
}

QString ContributionCard::hoursText(double seconds) {
  if (seconds < 3600) return Format::duration(seconds);
  return tr("%1 h").arg(QLocale().toString(seconds / 3600.0, 'f', 1));
}

ContributionCard::ContributionCard(QWidget* parent) : Card(tr("Your contribution"), parent) {
  setObjectName(QStringLiteral("contributionCard"));

  // Left: the credit at a glance, then the quantities behind it.
  credit_ = new QLabel(this);
  credit_->setObjectName(QStringLiteral("contributionCredit"));
  credit_->setFont(theme::scaled(font(), 2.0, QFont::DemiBold));
  credit_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  credit_->setAccessibleName(tr("Credit"));
  auto* credit_unit = new QLabel(tr("credits"), this);
  credit_unit->setObjectName(QStringLiteral("contributionCreditUnit"));
  rac_ = new QLabel(this);
  rac_->setObjectName(QStringLiteral("contributionRac"));
  rac_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  rac_->setAccessibleName(tr("Recent average credit"));
  rac_->setToolTip(
      tr("Recent average credit: credits per day, averaged so that credit earned a week ago counts "
         "half (as BOINC computes it)"));
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("contributionStatus"));
  status_->setWordWrap(true);
  status_->setAccessibleName(tr("Ledger status"));
  status_->hide();
  auto* headline = new QHBoxLayout;
  headline->setSpacing(8);
  headline->addWidget(credit_, 0, Qt::AlignBaseline);
  headline->addWidget(credit_unit, 0, Qt::AlignBaseline);
  headline->addStretch(1);

  grid_ = new MetricGrid(this);
  samples_ = grid_->addRow(tr("Samples processed"), QStringLiteral("contributionSamples"));
  compute_ = grid_->addRow(tr("Compute"), QStringLiteral("contributionCompute"));
  hours_ = grid_->addRow(tr("Hours contributed"), QStringLiteral("contributionHours"));
  sent_ = grid_->addRow(tr("Data sent"), QStringLiteral("contributionSent"));
  received_ = grid_->addRow(tr("Data received"), QStringLiteral("contributionReceived"));
  confirmed_ = grid_->addRow(tr("Confirmed by the swarm"), QStringLiteral("contributionConfirmed"));
  confirmed_.value->setToolTip(
      tr("The samples of this PC's work that the stages receiving it confirmed to the "
         "coordinator, and the credit they are worth: the run credits confirmed work only"));
  grid_->setRowVisible(confirmed_, false);
  hours_.value->setToolTip(tr("Time this PC spent computing for the swarm"));
  compute_.value->setToolTip(
      tr("Floating-point operations of the micro-batches this PC trained (1 TFLOP = 10¹² "
         "operations; 1 credit = 0.432 TFLOP)"));

  auto* left = new QVBoxLayout;
  left->setSpacing(6);
  left->addLayout(headline);
  left->addWidget(rac_);
  left->addSpacing(6);
  left->addWidget(grid_);
  left->addWidget(status_);
  left->addStretch(1);

  // Right: credit per day or per hour.
  per_day_ = new QPushButton(tr("Per day"), this);
  per_day_->setObjectName(QStringLiteral("contributionPerDay"));
  per_day_->setAccessibleName(tr("Show credit per day"));
  per_hour_ = new QPushButton(tr("Per hour"), this);
  per_hour_->setObjectName(QStringLiteral("contributionPerHour"));
  per_hour_->setAccessibleName(tr("Show credit per hour"));
  auto* group = new QButtonGroup(this);
  group->setExclusive(true);
  for (auto* b : {per_day_, per_hour_}) {
    b->setCheckable(true);
    b->setFocusPolicy(Qt::StrongFocus);
    b->setAutoDefault(false);
    group->addButton(b);
  }
  per_day_->setChecked(true);
  connect(per_day_, &QPushButton::toggled, this, [this](bool on) {
    if (on) setPeriod(Period::Days);
    applyColours();
  });
  connect(per_hour_, &QPushButton::toggled, this, [this](bool on) {
    if (on) setPeriod(Period::Hours);
    applyColours();
  });
  auto* toggle = new QHBoxLayout;
  toggle->setSpacing(4);
  toggle->addStretch(1);
  toggle->addWidget(per_day_);
  toggle->addWidget(per_hour_);

  // The right margin leaves room for the newest bar's label at the right edge.
  stack_ = new ChartPanel({QStringLiteral("contributionChart"),
                           QStringLiteral("contributionEmptyMessage"), tr("Credit chart")},
                          kChartHeight, QMargins(0, 0, 16, 0), this);
  chart_ = stack_->chart();
  view_ = stack_->view();
  empty_message_ = stack_->message();
  series_ = new QBarSeries(chart_);
  series_->setBarWidth(0.7);
  bars_ = new QBarSet(tr("Credit"), series_);
  series_->append(bars_);
  chart_->addSeries(series_);
  // A category axis over the bars' indices rather than a bar-category axis: that one cuts each
  // label to its bar's width, this one lets a label use the room of the unlabelled bars.
  categories_ = new QCategoryAxis(chart_);
  categories_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  categories_->setStartValue(-0.5);
  values_ = new QValueAxis(chart_);
  values_->setTitleText(tr("credits"));
  chart_->addAxis(categories_, Qt::AlignBottom);
  chart_->addAxis(values_, Qt::AlignLeft);
  series_->attachAxis(categories_);
  series_->attachAxis(values_);
  // Labels that fit: as the card narrows, only every second, third ... bar keeps its label.
  connect(chart_, &QChart::plotAreaChanged, this, [this] { relabel(); });
  connect(bars_, &QBarSet::hovered, this, [this](bool status, int index) {
    if (!status || index < 0 || static_cast<std::size_t>(index) >= history_.size()) {
      QToolTip::hideText();
      return;
    }
    const auto& p = history_[static_cast<std::size_t>(index)];
    QToolTip::showText(QCursor::pos(),
                       tr("%1: %2 credits, %3 samples")
                           .arg(labels_.value(index), creditText(p.sums().credit()),
                                Format::count(p.sums().samples())),
                       view_);
  });

  caption_ = new QLabel(this);
  caption_->setObjectName(QStringLiteral("contributionCaption"));
  caption_->setWordWrap(true);
  caption_->setFont(theme::scaled(font(), 0.85));

  auto* right = new QVBoxLayout;
  right->setSpacing(6);
  right->addLayout(toggle);
  right->addWidget(stack_, 1);
  right->addWidget(caption_);

  auto* columns = new QHBoxLayout;
  columns->setSpacing(24);
  columns->addLayout(left, 2);
  columns->addLayout(right, 3);
  body()->addLayout(columns);

  // The bars follow the clock: a new hour or day starts a new bar even while idle.
  clock_ = new QTimer(this);
  clock_->setInterval(60000);
  connect(clock_, &QTimer::timeout, this, [this] {
    if (connected_ && !runtime_dir_.empty()) refreshHistory();
  });
  clock_->start();

  setTabOrder(per_day_, per_hour_);
  setTabOrder(per_hour_, view_);
  applyColours();
  showDisconnected();
}

ContributionCard::~ContributionCard() = default;

void ContributionCard::setNodeRuntimeDir(std::filesystem::path runtime_dir) {
  if (runtime_dir == runtime_dir_) return;
  runtime_dir_ = std::move(runtime_dir);
  client_.reset();
  history_valid_ = false;
}

QAbstractButton* ContributionCard::perDayButton() const { return per_day_; }
QAbstractButton* ContributionCard::perHourButton() const { return per_hour_; }

void ContributionCard::setPeriod(Period period) {
  (period == Period::Days ? per_day_ : per_hour_)->setChecked(true);
  if (period == period_) return;
  period_ = period;
  history_.clear();
  history_valid_ = false;
  if (connected_ && !runtime_dir_.empty()) refreshHistory();
  updateChart();
  updateEmptyState();
}

bool ContributionCard::historyDue() const {
  if (runtime_dir_.empty() || !connected_ || !has_snapshot_ || !snapshot_.ledger().available())
    return false;
  // At most one request per interval, also while a node does not answer it.
  const bool waited = !since_history_.isValid() || since_history_.elapsed() >= history_interval_ms_;
  if (!history_valid_) return waited;
  return waited && snapshot_.ledger().last_unix_ms() != history_last_unix_ms_;
}

bool ContributionCard::refreshHistory() {
  if (runtime_dir_.empty()) return false;
  if (!client_)
    client_ = std::make_unique<control::ControlClient>(control::ControlEndpoints::in(runtime_dir_));
  pb::ControlRequest r;
  r.set_kind(pb::ControlRequest::LEDGER_HISTORY);
  r.mutable_history()->set_period(period_ == Period::Days ? pb::LedgerHistoryQuery::DAYS
                                                          : pb::LedgerHistoryQuery::HOURS);
  r.mutable_history()->set_count(period_ == Period::Days ? kDays : kHours);
  pb::ControlReply reply;
  since_history_.start();
  const auto a = client_->request(r, kHistoryTimeout, &reply);
  if (!a.ok) {
    // An older node does not know the request; a busy one answers next time. The bars stay.
    caption_->setText(tr("History not available: %1").arg(QString::fromStdString(a.error)));
    return false;
  }
  history_.assign(reply.ledger_history().begin(), reply.ledger_history().end());
  history_valid_ = true;
  history_last_unix_ms_ = a.snapshot.ledger().last_unix_ms();
  updateChart();
  updateEmptyState();
  return true;
}

void ContributionCard::showSnapshot(const pb::NodeSnapshot& s) {
  snapshot_ = s;
  has_snapshot_ = true;
  connected_ = true;
  const auto& l = s.ledger();
  if (!l.available()) {
    credit_->setText(QStringLiteral("–"));
    rac_->setText(tr("This rookery-node keeps no ledger"));
    for (const auto* row : {&samples_, &compute_, &hours_, &sent_, &received_})
      row->value->setText(QStringLiteral("–"));
    status_->hide();
    updateEmptyState();
    return;
  }
  const auto& t = l.total();
  credit_->setText(creditText(t.credit()));
  rac_->setText(tr("Recent average: %1").arg(racText(l.rac())));
  samples_.value->setText(Format::count(t.samples()));
  compute_.value->setText(computeText(t.flops()));
  hours_.value->setText(hoursText(t.busy_seconds()));
  sent_.value->setText(Format::bytes(t.bytes_sent()));
  received_.value->setText(Format::bytes(t.bytes_received()));
  if (!l.error().empty()) {
    status_->setText(
        tr("Not saved yet (%n unit(s) waiting): %1", nullptr, static_cast<int>(l.pending_units()))
            .arg(QString::fromStdString(l.error())));
    status_->show();
  } else {
    status_->hide();
  }
  showConfirmed(s);
  if (historyDue()) refreshHistory();
  updateEmptyState();
}

void ContributionCard::showConfirmed(const pb::NodeSnapshot& s) {
  const pb::RunNode* me = nullptr;
  for (const auto& n : s.run().nodes()) {
    if (n.key() == s.node_key()) me = &n;
  }
  grid_->setRowVisible(confirmed_, me != nullptr);
  if (!me) return;
  confirmed_.value->setText(tr("%1 samples · %2 credits")
                                .arg(Format::count(static_cast<quint64>(
                                         std::max<std::int64_t>(0, me->confirmed_samples()))),
                                     creditText(me->confirmed_credit())));
}

void ContributionCard::showDisconnected() {
  connected_ = false;
  if (has_snapshot_) {
    // What the node last said stays: the contribution does not vanish with the node.
    updateEmptyState();
    return;
  }
  credit_->setText(QStringLiteral("–"));
  rac_->setText(tr("Shown once rookery-node answers"));
  for (const auto* row : {&samples_, &compute_, &hours_, &sent_, &received_})
    row->value->setText(QStringLiteral("–"));
  updateEmptyState();
}

void ContributionCard::updateEmptyState() {
  const bool anything = has_snapshot_ && snapshot_.ledger().total().work_units() > 0;
  const bool bars = history_valid_ && !history_.empty();
  if (anything && bars) {
    stack_->setCurrentWidget(view_);
    return;
  }
  if (!has_snapshot_) {
    empty_message_->setText(tr("Your contribution is shown once rookery-node answers."));
  } else if (!snapshot_.ledger().available()) {
    empty_message_->setText(
        tr("This rookery-node keeps no ledger, so there is no history to show."));
  } else if (anything) {
    empty_message_->setText(tr("Loading the history…"));
  } else if (!snapshot_.has_stage()) {
    empty_message_->setText(
        tr("Nothing contributed yet. This PC runs a local benchmark, which earns no credit: "
           "credit comes with each micro-batch it trains for a pipeline."));
  } else {
    empty_message_->setText(
        tr("Nothing contributed yet: each micro-batch this PC trains earns credit "
           "(1 credit = 432 GFLOP, as in BOINC)."));
  }
  stack_->setCurrentWidget(empty_message_);
}

void ContributionCard::updateChart() {
  QStringList labels;
  QList<qreal> values;
  double top = 0, total = 0;
  std::size_t best = 0;
  const QLocale locale;
  for (std::size_t i = 0; i < history_.size(); ++i) {
    const auto& p = history_[i];
    const QDateTime start = QDateTime::fromMSecsSinceEpoch(p.start_unix_ms()).toLocalTime();
    QString label = period_ == Period::Days ? locale.toString(start.date(), QStringLiteral("ddd d"))
                                            : locale.toString(start.time(), QStringLiteral("HH"));
    while (labels.contains(label)) label += QChar(0x2032);  // a repeated local hour (DST ends)
    labels << label;
    const double credit = p.sums().credit();
    values << credit;
    total += credit;
    if (credit > top) {
      top = credit;
      best = i;
    }
  }
  bars_->remove(0, bars_->count());
  bars_->append(values);
  labels_ = labels;
  stride_ = 0;
  relabel();
  const double step = niceStep(std::max(top, 1e-3), 4);
  setTicks(values_, 0, std::max(step, std::ceil(top / step - 1e-9) * step), step);

  const QString what = period_ == Period::Days
                           ? tr("Credit per day, the last %n day(s)", nullptr, kDays)
                           : tr("Credit per hour, the last %n hour(s)", nullptr, kHours);
  caption_->setText(what);
  if (history_.empty()) {
    view_->setAccessibleDescription(what);
    return;
  }
  QStringList each;
  for (int i = 0; i < labels.size(); ++i)
    each << tr("%1: %2").arg(labels[i], creditText(values[i]));
  view_->setAccessibleDescription(tr("%1: %2 credits in all, most on %3 (%4). %5")
                                      .arg(what, creditText(total), labels[static_cast<int>(best)],
                                           creditText(top), each.join(QStringLiteral("; "))));
}

void ContributionCard::relabel() {
  const int n = static_cast<int>(labels_.size());
  if (n == 0) {
    for (const auto& old : categories_->categoriesLabels()) categories_->remove(old);
    stride_ = 0;
    return;
  }
  const QFontMetrics metrics(categories_->labelsFont());
  int widest = 0;
  for (const auto& l : labels_) widest = std::max(widest, metrics.horizontalAdvance(l));
  const double plot =
      chart_->plotArea().width() > 0 ? chart_->plotArea().width() : view_->width() * 0.8;
  const double per_bar = plot / n;
  int stride = 1;
  while (stride < n && per_bar * stride < widest + metrics.averageCharWidth() * 2) ++stride;
  if (stride == stride_) return;
  stride_ = stride;
  // Counted from the newest bar, which is always labelled.
  for (const auto& old : categories_->categoriesLabels()) categories_->remove(old);
  for (int i = (n - 1) % stride; i < n; i += stride) categories_->append(labels_[i], i);
  categories_->setRange(-0.5, n - 0.5);
}

bool ContributionCard::chartShown() const { return stack_->currentWidget() == view_; }

QString ContributionCard::emptyMessage() const { return empty_message_->text(); }

QString ContributionCard::summaryText() const {
  QStringList parts;
  parts << tr("Credit: %1").arg(credit_->text()) << rac_->text();
  if (stack_->currentWidget() == empty_message_) parts << empty_message_->text();
  for (auto* label : grid_->findChildren<QLabel*>()) {
    if (label->isVisibleTo(this)) parts << label->text();
  }
  if (status_->isVisibleTo(this)) parts << status_->text();
  return parts.join(QLatin1Char('\n'));
}

void ContributionCard::changeEvent(QEvent* event) {
  Card::changeEvent(event);
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) applyColours();
}

void ContributionCard::applyColours() {
  const QPalette& pal = palette();
  const QColor muted = theme::secondaryText(pal);
  const QColor grid = theme::cardBorder(pal);
  bars_->setColor(theme::accent(pal));
  bars_->setBorderColor(theme::accent(pal));
  const QFont label_font = theme::scaled(font(), 0.78);
  for (QAbstractAxis* axis :
       {static_cast<QAbstractAxis*>(categories_), static_cast<QAbstractAxis*>(values_)}) {
    axis->setLabelsColor(muted);
    axis->setLabelsFont(label_font);
    axis->setTitleBrush(muted);
    axis->setTitleFont(label_font);
    axis->setGridLineColor(grid);
    axis->setLinePenColor(grid);
  }
  categories_->setGridLineVisible(false);
  values_->setMinorGridLineVisible(false);
  for (auto* l : {empty_message_, caption_, rac_}) {
    QPalette lp = l->palette();
    lp.setColor(QPalette::WindowText, muted);
    l->setPalette(lp);
  }
  // The chosen period reads at a glance in any palette: bold, in the accent colour.
  for (auto* b : {per_day_, per_hour_}) {
    QFont f = font();
    f.setWeight(b->isChecked() ? QFont::DemiBold : QFont::Normal);
    b->setFont(f);
    QPalette bp = b->palette();
    bp.setColor(QPalette::ButtonText,
                b->isChecked() ? theme::accent(pal) : pal.color(QPalette::ButtonText));
    b->setPalette(bp);
  }
  QPalette sp = status_->palette();
  sp.setColor(QPalette::WindowText, theme::warning(pal));
  status_->setPalette(sp);
}

}  // namespace rookery::ui
