#include "ui/cards/swarm_card.hpp"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QEvent>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <map>
#include <QLocale>
#include <QVBoxLayout>

#include "ui/format.hpp"
#include "ui/reasons.hpp"
#include "ui/theme.hpp"
#include "ui/widgets/chart_panel.hpp"
#include "ui/widgets/pipeline_diagram.hpp"

namespace rookery::ui {

namespace pb = wire::pb;

SwarmCard::SwarmCard(QWidget* parent) : Card(tr("Your place in the swarm"), parent) {
  setObjectName(QStringLiteral("swarmCard"));
  job_ = new QLabel(this);
  job_->setObjectName(QStringLiteral("jobName"));
  job_->setFont(theme::scaled(font(), 1.2, QFont::DemiBold));
  job_->setWordWrap(true);
  job_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  job_->setAccessibleName(tr("Job"));
  position_ = new QLabel(this);
  position_->setObjectName(QStringLiteral("stagePosition"));
  position_->setWordWrap(true);
  position_->setAccessibleName(tr("Place in the pipeline"));
  reach_ = new QLabel(this);
  reach_->setObjectName(QStringLiteral("reachedAs"));
  reach_->setWordWrap(true);
  reach_->setFont(theme::scaled(font(), 0.9));
  reach_->setAccessibleName(tr("How peers reach this PC"));
  reach_->setVisible(false);
  diagram_ = new PipelineDiagram(this);
  note_ = new QLabel(this);
  note_->setObjectName(QStringLiteral("swarmNote"));
  note_->setWordWrap(true);
  note_->setFont(theme::scaled(font(), 0.9));
  grid_ = new MetricGrid(this);
  previous_ = grid_->addRow(tr("Receives from"), QStringLiteral("previousStage"));
  next_ = grid_->addRow(tr("Sends to"), QStringLiteral("nextStage"));
  in_flight_ = grid_->addRow(tr("In flight"), QStringLiteral("inFlight"));
  versions_ = grid_->addRow(tr("Weight versions"), QStringLiteral("weightVersions"));
  lost_ = grid_->addRow(tr("Dropped · rejected"), QStringLiteral("droppedRejected"));
  sent_ = grid_->addRow(tr("Sent to peers"), QStringLiteral("bytesSent"));
  partners_ = grid_->addRow(tr("Ring partners"), QStringLiteral("ringPartners"));
  run_ = grid_->addRow(tr("The swarm"), QStringLiteral("runSwarm"));
  rank_ = grid_->addRow(tr("Your rank"), QStringLiteral("runRank"));
  run_loss_ = grid_->addRow(tr("The run's loss"), QStringLiteral("runLoss"));
  archive_ = grid_->addRow(tr("Model archive"), QStringLiteral("runArchive"));
  body()->addWidget(job_);
  body()->addWidget(position_);
  body()->addWidget(reach_);
  body()->addSpacing(2);
  body()->addWidget(diagram_);
  body()->addSpacing(2);
  body()->addWidget(grid_);
  // The run's loss curve, from the coordinator's samples of the swarm's loss.
  run_chart_ = makeCardChart();
  run_series_ = new QLineSeries(run_chart_);
  run_series_->setName(tr("The run's loss"));
  run_chart_->addSeries(run_series_);
  validation_series_ = new QLineSeries(run_chart_);
  validation_series_->setName(tr("Held-out loss"));
  run_chart_->addSeries(validation_series_);
  run_chart_->legend()->setFont(theme::scaled(font(), 0.8));
  run_chart_->legend()->setAlignment(Qt::AlignTop);
  run_x_ = new QValueAxis(run_chart_);
  run_x_->setTitleText(tr("minutes"));
  run_x_->setLabelFormat(QStringLiteral("%.0f"));
  run_y_ = new QValueAxis(run_chart_);
  run_y_->setLabelFormat(QStringLiteral("%.1f"));
  for (auto* axis : {run_x_, run_y_}) {
    axis->setTickCount(3);
    axis->setLabelsFont(theme::scaled(font(), 0.8));
    axis->setTitleFont(theme::scaled(font(), 0.8));
  }
  run_chart_->addAxis(run_x_, Qt::AlignBottom);
  run_chart_->addAxis(run_y_, Qt::AlignLeft);
  for (auto* series : {run_series_, validation_series_}) {
    series->attachAxis(run_x_);
    series->attachAxis(run_y_);
  }
  run_view_ = makeCardChartView(run_chart_, QStringLiteral("runLossChart"),
                                tr("The run's loss curve"), 140, this);
  run_view_->setVisible(false);
  body()->addWidget(run_view_);
  body()->addWidget(note_);
  applyColours();
  showDisconnected();
}

void SwarmCard::showSnapshot(const pb::NodeSnapshot& s) {
  const QString reach = Reasons::reach(s.reach());
  reach_->setText(reach);
  reach_->setVisible(!reach.isEmpty());
  in_pipeline_ = s.has_stage() && s.stage().stage_count() > 0;
  if (!in_pipeline_) {
    job_->setText(tr("Not in a pipeline yet"));
    position_->setText(s.state() == pb::CONTRIBUTING ? tr("Contributing benchmark work")
                                                     : tr("Benchmark work only"));
    note_->setText(s.state() == pb::CONTRIBUTING
                       ? tr("This PC computes a benchmark workload until a coordinator places it "
                            "in a pipeline.")
                       : tr("When you contribute, this PC computes a benchmark workload until a "
                            "coordinator places "
                            "it in a pipeline."));
    note_->setVisible(true);
    diagram_->setShape({});
    diagram_->setVisible(false);
    showRows(false);
    return;
  }

  const auto& st = s.stage();
  job_->setText(QString::fromStdString(st.job_name().empty() ? st.job_id() : st.job_name()));
  job_->setToolTip(tr("Job %1").arg(QString::fromStdString(st.job_id())));
  // Pipeline and stage by their place, counted from 1 as the coordinator reports them.
  position_->setText(
      tr("Pipeline %1 · stage %2 of %3 · %4")
          .arg(st.pipeline() + 1)
          .arg(st.stage() + 1)
          .arg(st.stage_count())
          .arg(Format::blockRange(st.first_block(), st.last_block(), st.block_count())));
  PipelineDiagram::Shape shape;
  shape.stage_count = static_cast<int>(st.stage_count());
  shape.stage = static_cast<int>(st.stage());
  shape.first_block = st.first_block();
  shape.last_block = st.last_block();
  shape.block_count = st.block_count();
  shape.active = s.state() == pb::CONTRIBUTING;
  // The whole swarm as the coordinator reports it, when it does: every pipeline's stages
  // with their throughput (this PC's among them), updated as it re-plans.
  std::map<int, std::map<int, PipelineDiagram::Shape::Seat>> seats;
  for (const auto& n : s.run().nodes()) {
    if (n.pipeline() < 0 || n.stage() < 0) continue;
    seats[n.pipeline()][n.stage()] = {n.first_block(), n.last_block(), n.samples_per_s(),
                                      n.key() == s.node_key()};
  }
  for (const auto& [p, stages] : seats) {
    auto& row = shape.swarm.emplace_back();
    for (const auto& [st_index, seat] : stages) row.push_back(seat);
  }
  diagram_->setShape(shape);
  diagram_->setVisible(true);

  previous_.value->setText(st.prev_endpoint().empty() ? tr("the dataset (first stage)")
                                                      : QString::fromStdString(st.prev_endpoint()));
  next_.value->setText(st.next_endpoint().empty() ? tr("nobody: computes the loss (last stage)")
                                                  : QString::fromStdString(st.next_endpoint()));
  in_flight_.value->setText(tr("%n micro-batch(es)", nullptr, static_cast<int>(st.in_flight())));
  versions_.value->setText(
      tr("%1 stashed · %2")
          .arg(Format::count(static_cast<quint64>(std::max<qint64>(0, st.live_versions()))),
               Format::bytes(static_cast<quint64>(std::max<qint64>(0, st.stash_bytes())))));
  lost_.value->setText(
      tr("%1 · %2").arg(Format::count(static_cast<quint64>(std::max<qint64>(0, st.dropped()))),
                        Format::count(static_cast<quint64>(std::max<qint64>(0, st.rejected())))));
  lost_.value->setToolTip(
      tr("Dropped: micro-batches whose gradient did not come back in time. Rejected: messages "
         "that did not match what this stage expected."));
  sent_.value->setText(Format::bytes(st.bytes_sent()));
  showPartners(st);
  showRows(true);
  showRun(s);

  QString note;
  if (st.finished()) note = tr("Fed every micro-batch it was asked to; none is in flight.");
  note_->setText(note);
  note_->setVisible(!note.isEmpty());
  applyColours();
}

// The stages of other pipelines this one averages with (Ravnest's multi-ring): one line each,
// by pipeline, with where its rings listen and how many parameters the two share; a partner
// this node has excluded (its averages were clipped hard again and again) is marked.
void SwarmCard::showPartners(const pb::StageSnapshot& st) {
  if (st.ring_partners().empty()) {
    partners_.value->setText(tr("none: no other pipeline averages with this one"));
    partners_.value->setToolTip(QString());
    return;
  }
  QStringList lines, keys;
  for (const auto& p : st.ring_partners()) {
    QString line =
        tr("pipeline %1 · %2 · %3 values shared")
            .arg(p.pipeline() + 1)
            .arg(QString::fromStdString(p.endpoint()).remove(QStringLiteral("tcp://")),
                 Format::count(static_cast<quint64>(std::max<qint64>(0, p.shared_values()))));
    const bool excluded = std::find(st.excluded_peers().begin(), st.excluded_peers().end(),
                                    p.key()) != st.excluded_peers().end();
    if (excluded) line = tr("%1 · excluded").arg(line);
    lines << line;
    keys << QString::fromStdString(p.key());
  }
  partners_.value->setText(lines.join(QLatin1Char('\n')));
  partners_.value->setToolTip(keys.join(QLatin1Char('\n')));
}

void SwarmCard::showRun(const pb::NodeSnapshot& s) {
  const bool has_run = s.has_run() && s.run().nodes_size() > 0;
  for (const auto* row : {&run_, &rank_, &run_loss_}) grid_->setRowVisible(*row, has_run);
  grid_->setRowVisible(archive_, has_run && s.run().has_archive());
  if (!has_run) {
    run_view_->setVisible(false);
    return;
  }
  const auto& run = s.run();
  // The coordinator answers one page of the volunteers: it says how many there are in all,
  // and this PC's own row and place among all of them (a coordinator from before paging sends
  // every volunteer and neither: count and rank them here).
  const int volunteers =
      run.total_nodes() > 0 ? static_cast<int>(run.total_nodes()) : run.nodes_size();
  run_.value->setText(tr("%n volunteer(s) in %1 · %2 samples/s", nullptr, volunteers)
                          .arg(tr("%n pipeline(s)", nullptr, static_cast<int>(run.pipelines())))
                          .arg(QLocale().toString(run.samples_per_s(), 'f', 1)));
  run_.value->setToolTip(
      tr("Plan %1 from the coordinator; it has re-planned %n time(s) as volunteers came and went.",
         nullptr, static_cast<int>(run.replans()))
          .arg(run.plan_version()));
  // The leaderboard: volunteers by the samples of their work that the stages receiving it
  // confirmed (what a volunteer claims for itself does not rank it), this PC among them.
  int rank = 1;
  std::int64_t mine = -1, claimed = 0;
  if (run.asker_rank() > 0 && run.asker().key() == s.node_key()) {
    rank = static_cast<int>(run.asker_rank());
    mine = run.asker().confirmed_samples();
    claimed = run.asker().samples();
  } else {
    for (const auto& n : run.nodes()) {
      if (n.key() == s.node_key()) {
        mine = n.confirmed_samples();
        claimed = n.samples();
      }
    }
    for (const auto& n : run.nodes()) {
      if (n.key() != s.node_key() && n.confirmed_samples() > mine) ++rank;
    }
  }
  rank_.value->setText(mine < 0 ? tr("not ranked yet")
                                : tr("#%1 of %2 by confirmed samples (%3)")
                                      .arg(rank)
                                      .arg(volunteers)
                                      .arg(Format::count(static_cast<quint64>(mine))));
  rank_.value->setToolTip(
      mine < 0 ? QString()
               : tr("The stages that received this PC's work confirmed %1 of the %2 samples it "
                    "did; the run credits only confirmed work.")
                     .arg(Format::count(static_cast<quint64>(mine)),
                          Format::count(static_cast<quint64>(std::max<std::int64_t>(0, claimed)))));
  showRunCurves(run);
  if (run.has_archive()) showArchive(run);
}

// The training loss the volunteers report and, beside it, the held-out loss of each snapshot
// the coordinator archives (the same held-out samples every time: the curve that says whether
// the model generalises), once there are two points to draw between.
void SwarmCard::showRunCurves(const pb::RunStatus& run) {
  const bool held_out = run.validation_size() > 0;
  if (run.loss_size() < 2) {
    run_series_->clear();
    validation_series_->clear();
    run_view_->setVisible(false);
  } else {
    auto first = run.loss(0).unix_ms();
    if (held_out) first = std::min(first, run.validation(0).unix_ms());
    double low = run.loss(0).loss(), high = low, right = 1.0;
    const auto points_of = [&](const auto& curve) {
      QList<QPointF> points;
      for (const auto& p : curve) {
        points << QPointF(static_cast<double>(p.unix_ms() - first) / 60000.0, p.loss());
        low = std::min(low, p.loss());
        high = std::max(high, p.loss());
        right = std::max(right, points.back().x());
      }
      return points;
    };
    run_series_->replace(points_of(run.loss()));
    validation_series_->replace(points_of(run.validation()));
    run_chart_->legend()->setVisible(held_out);
    run_x_->setRange(0, right);
    // Whole minutes once there are a few; tenths before (else the ticks repeat "1").
    run_x_->setLabelFormat(right >= 4 ? QStringLiteral("%.0f") : QStringLiteral("%.1f"));
    const double pad = std::max((high - low) * 0.08, 0.05);
    run_y_->setRange(std::max(0.0, low - pad), high + pad);
    const auto& last = run.loss(run.loss_size() - 1);
    QString description =
        tr("The run's loss went from %1 to %2 in %3")
            .arg(QLocale().toString(run.loss(0).loss(), 'f', 3),
                 QLocale().toString(last.loss(), 'f', 3),
                 Format::duration(static_cast<double>(last.unix_ms() - first) / 1000.0));
    if (held_out) {
      description += QLatin1String("; ") +
                     tr("its held-out loss is %1")
                         .arg(QLocale().toString(
                             run.validation(run.validation_size() - 1).loss(), 'f', 3));
    }
    run_view_->setAccessibleDescription(description);
    run_view_->setVisible(true);
  }
  if (run.loss_size() > 0) {
    QString text = tr("%1 (from %2)")
                       .arg(QLocale().toString(run.loss(run.loss_size() - 1).loss(), 'f', 3))
                       .arg(QLocale().toString(run.loss(0).loss(), 'f', 3));
    if (run.has_evaluation()) {
      text += QStringLiteral(" · ") +
              tr("held-out %1").arg(QLocale().toString(run.evaluation().validation_loss(), 'f', 3));
    }
    run_loss_.value->setText(text);
  } else {
    run_loss_.value->setText(tr("no loss reported yet"));
  }
}

// The coordinator's archive of the whole model: its latest snapshot, and the latest blocks
// that came back from one (no volunteer held them any more; they resumed from the snapshot,
// not from the job's initial weights).
void SwarmCard::showArchive(const pb::RunStatus& run) {
  const auto& a = run.archive();
  const auto now = QDateTime::currentMSecsSinceEpoch();
  const auto ago = [now](std::int64_t unix_ms) {
    return Format::duration(std::max<double>(0, static_cast<double>(now - unix_ms) / 1000.0));
  };
  if (a.latest_snapshot() == 0) {
    archive_.value->setText(tr("no snapshot yet"));
    archive_.value->setToolTip(
        tr("The coordinator keeps snapshots of the whole model, collected from the volunteers "
           "who train it."));
    return;
  }
  QString text =
      tr("snapshot %1, %2 ago").arg(a.latest_snapshot()).arg(ago(a.latest_unix_ms()));
  QStringList lines;
  for (const auto& r : a.restorations()) {
    lines << tr("Blocks %1–%2 came back from snapshot %3, %4 ago: no volunteer held them.")
                 .arg(r.first_block())
                 .arg(r.last_block() - 1)
                 .arg(r.snapshot())
                 .arg(ago(r.unix_ms()));
  }
  if (!lines.isEmpty()) {
    const auto& r = a.restorations(a.restorations_size() - 1);
    text += QStringLiteral(" · ") + tr("blocks %1–%2 restored from snapshot %3")
                                        .arg(r.first_block())
                                        .arg(r.last_block() - 1)
                                        .arg(r.snapshot());
  }
  archive_.value->setText(text);
  archive_.value->setToolTip(lines.join(QLatin1Char('\n')));
}

void SwarmCard::showDisconnected() {
  // The place of a node that is gone stays visible, dimmed by the state card's "Not running".
  if (in_pipeline_) return;
  job_->setText(tr("Not in a pipeline yet"));
  position_->setText(tr("Waiting for rookery-node"));
  reach_->setVisible(false);
  note_->setText(tr("The swarm is shown once rookery-node answers."));
  note_->setVisible(true);
  diagram_->setVisible(false);
  run_view_->setVisible(false);
  showRows(false);
}

void SwarmCard::showRows(bool visible) {
  for (const auto* row : {&previous_, &next_, &in_flight_, &versions_, &lost_, &sent_, &partners_,
                          &run_, &rank_, &run_loss_, &archive_}) {
    grid_->setRowVisible(*row, visible);
  }
  grid_->setVisible(visible);
}

QString SwarmCard::jobText() const { return job_->text(); }

QString SwarmCard::positionText() const { return position_->text(); }

QString SwarmCard::reachText() const {
  return reach_->isVisibleTo(this) ? reach_->text() : QString();
}

QString SwarmCard::summaryText() const {
  QStringList parts{job_->text(), position_->text()};
  if (reach_->isVisibleTo(this)) parts << reach_->text();
  for (auto* label : grid_->findChildren<QLabel*>()) {
    if (label->isVisibleTo(this)) parts << label->text();
  }
  if (note_->isVisibleTo(this)) parts << note_->text();
  return parts.join(QLatin1Char('\n'));
}

void SwarmCard::changeEvent(QEvent* event) {
  Card::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) applyColours();
}

void SwarmCard::applyColours() {
  for (auto* l : {position_, note_}) {
    QPalette pal = l->palette();
    pal.setColor(QPalette::WindowText, theme::secondaryText(palette()));
    l->setPalette(pal);
  }
  if (!run_series_) return;  // palette changes while the card is being built
  const QPalette pal = palette();
  run_series_->setPen(QPen(theme::accent(pal), 2.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
  validation_series_->setPen(
      QPen(theme::warning(pal), 2.0, Qt::DashLine, Qt::RoundCap, Qt::RoundJoin));
  run_chart_->legend()->setLabelColor(theme::secondaryText(pal));
  QColor grid = theme::secondaryText(pal);
  grid.setAlphaF(0.25f);
  for (auto* axis : {run_x_, run_y_}) {
    axis->setLabelsColor(theme::secondaryText(pal));
    axis->setTitleBrush(theme::secondaryText(pal));
    axis->setLinePenColor(grid);
    axis->setGridLineColor(grid);
  }
}

}  // namespace rookery::ui
