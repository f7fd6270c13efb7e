#include "ui/tray_icon.hpp"

#include <QAction>
#include <QDateTime>
#include <algorithm>
#include <iterator>
#include <QMenu>
#include <QSystemTrayIcon>

#include "control/control_client.hpp"
#include "ui/app_resources.hpp"
#include "ui/format.hpp"
#include "ui/reasons.hpp"

namespace rookery::ui {

namespace pb = wire::pb;

TrayIcon::TrayIcon(QObject* parent) : QObject(parent), menu_(new QMenu) {
  menu_->setAccessibleName(tr("Rookery tray menu"));
  contribute_ = menu_->addAction(tr("Contribute"));
  contribute_->setObjectName(QStringLiteral("trayContribute"));
  contribute_->setEnabled(false);
  snooze_ = menu_->addAction(tr("Snooze for an hour"));
  snooze_->setObjectName(QStringLiteral("traySnooze"));
  snooze_->setEnabled(false);
  open_ = menu_->addAction(tr("Open Rookery"));
  open_->setObjectName(QStringLiteral("trayOpen"));
  menu_->addSeparator();
  quit_ = menu_->addAction(tr("Quit"));
  quit_->setObjectName(QStringLiteral("trayQuit"));
  quit_->setToolTip(tr("Stop contributing, stop rookery-node and close Rookery"));
  connect(contribute_, &QAction::triggered, this, [this] {
    if (pause_next_) {
      Q_EMIT pauseRequested();
    } else {
      Q_EMIT contributeRequested();
    }
  });
  connect(snooze_, &QAction::triggered, this,
          [this] { Q_EMIT snoozeRequested(snoozed_ ? 0 : 3600); });
  connect(open_, &QAction::triggered, this, &TrayIcon::openRequested);
  connect(quit_, &QAction::triggered, this, &TrayIcon::quitRequested);
  if (available()) {
    icon_ = new QSystemTrayIcon(trayIcon(TrayState::Paused), this);
    icon_->setContextMenu(menu_);
    connect(icon_, &QSystemTrayIcon::activated, this,
            [this](QSystemTrayIcon::ActivationReason reason) {
              if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
                Q_EMIT openRequested();
            });
  }
  setState(TrayState::Paused, tr("Rookery"));
}

TrayIcon::~TrayIcon() { delete menu_; }

bool TrayIcon::available() { return QSystemTrayIcon::isSystemTrayAvailable(); }

bool TrayIcon::show() {
  if (!icon_) return false;
  icon_->show();
  return true;
}

bool TrayIcon::isVisible() const { return icon_ && icon_->isVisible(); }

void TrayIcon::showNodeState(const pb::NodeSnapshot& s) {
  if (auto n = notificationFor(last_ ? &*last_ : nullptr, s)) deliver(*n);
  last_ = s;
  const bool contributing = s.state() == pb::CONTRIBUTING;
  pause_next_ = contributing;
  contribute_->setText(contributing ? tr("Pause") : tr("Contribute"));
  contribute_->setEnabled(s.state() == pb::PAUSED || s.state() == pb::CONTRIBUTING ||
                          s.state() == pb::STARTING);
  snoozed_ = s.governor().snoozed_until_unix_ms() > QDateTime::currentMSecsSinceEpoch();
  snooze_->setText(snoozed_ ? tr("End the snooze") : tr("Snooze for an hour"));
  snooze_->setEnabled(s.state() == pb::PAUSED || s.state() == pb::CONTRIBUTING);
  const auto state = s.state() == pb::FAILED ? TrayState::Error
                     : contributing          ? TrayState::Contributing
                                             : TrayState::Paused;
  QString tip = tr("Rookery: %1").arg(Format::state(s.state(), true));
  if (contributing) tip += QLatin1Char('\n') + Format::gflopRate(s.work().current_gflops());
  setState(state, tip);
}

void TrayIcon::showDisconnected(const QString& why) {
  pause_next_ = false;
  contribute_->setText(tr("Contribute"));
  // Contribute stays possible: it starts rookery-node when it is not running.
  contribute_->setEnabled(true);
  snooze_->setEnabled(false);  // the node keeps the snooze: nobody to ask
  setState(TrayState::Error, tr("Rookery: %1").arg(why));
}

void TrayIcon::notify(const QString& title, const QString& message,
                      QSystemTrayIcon::MessageIcon icon) {
  if (!icon_ || !icon_->isVisible()) return;
  if (icon == QSystemTrayIcon::Information) {
    icon_->showMessage(title, message, appIcon(), 6000);
  } else {
    icon_->showMessage(title, message, icon, 10000);
  }
}

void TrayIcon::showNodeMessage(const QString& message) {
  if (auto n = notificationForMessage(message)) deliver(*n);
}

void TrayIcon::deliver(const TrayNotification& n) {
  if (last_notification_ && last_notification_->kind == n.kind &&
      since_last_notification_.isValid() && since_last_notification_.elapsed() < 60000) {
    return;
  }
  last_notification_ = n;
  since_last_notification_.start();
  notify(n.title, n.message, n.icon);
  Q_EMIT notified(n.title, n.message);
}

bool TrayIcon::requestSnooze(const std::filesystem::path& runtime_dir, int seconds,
                             QString* error) {
  control::ControlClient client(control::ControlEndpoints::in(runtime_dir));
  pb::ControlRequest r;
  r.set_kind(pb::ControlRequest::SNOOZE);
  r.set_snooze_seconds(std::max(0, seconds));
  const auto answer = client.request(r, std::chrono::milliseconds(1500));
  if (!answer.ok && error) *error = QString::fromStdString(answer.error);
  return answer.ok;
}

bool TrayIcon::saysDiskFull(const QString& text) {
  static const char* const words[] = {"no space left", "disk full", "disk is full", "enospc",
                                      "quota exceeded"};
  const QString lower = text.toLower();
  return std::any_of(std::begin(words), std::end(words),
                     [&lower](const char* w) { return lower.contains(QLatin1String(w)); });
}

namespace {
// The coordinator said no to this PC: refused its join, or banned it (the snapshot's code, set
// by the node; a node too old to send codes is not notified about, the window still says it).
bool refusedOrBanned(const pb::CoordinatorLink& c) {
  return c.why().code() == pb::COORDINATOR_REFUSED || c.why().code() == pb::COORDINATOR_BANNED;
}

// `reason`: the node's words (the system's for a full disk); `shown`: the same in the user's language.
TrayNotification failed(const QString& reason, QString shown = {}) {
  if (shown.isEmpty()) shown = reason;
  if (TrayIcon::saysDiskFull(reason)) {
    return {
        TrayNotification::Kind::DiskFull, TrayIcon::tr("Rookery: the disk is full"),
        TrayIcon::tr(
            "rookery-node cannot save its work: %1. Free some disk space on this PC, then start "
            "Rookery again.")
            .arg(shown),
        QSystemTrayIcon::Critical};
  }
  return {TrayNotification::Kind::NodeFailed, TrayIcon::tr("Rookery stopped contributing"),
          TrayIcon::tr("rookery-node reports an error: %1").arg(shown), QSystemTrayIcon::Critical};
}

// The ledger cannot be written: the node computes on and keeps the units to write.
TrayNotification ledgerFull(const QString& why) {
  return {TrayNotification::Kind::DiskFull, TrayIcon::tr("Rookery: the disk is full"),
          TrayIcon::tr("rookery-node cannot record your contribution: %1. Free some disk space on "
                       "this PC; the work "
                       "done meanwhile is written once there is room.")
              .arg(why),
          QSystemTrayIcon::Warning};
}

TrayNotification refused(const pb::CoordinatorLink& c) {
  const bool banned = c.why().code() == pb::COORDINATOR_BANNED;
  const QString why = Reasons::coordinatorWords(c.why());
  return {
      TrayNotification::Kind::Refused,
      banned ? TrayIcon::tr("The coordinator banned this PC")
             : TrayIcon::tr("The coordinator refused this PC"),
      (banned
           ? TrayIcon::tr("Banned from the job: %1. This PC no longer trains with the swarm; open "
                          "Rookery for "
                          "details.")
           : TrayIcon::tr(
                 "Refused: %1. This PC no longer trains with the swarm; open Rookery for details."))
          .arg(why),
      QSystemTrayIcon::Warning};
}

TrayNotification ended(const pb::NodeSnapshot& s) {
  const QString job = QString::fromStdString(!s.stage().job_name().empty() ? s.stage().job_name()
                                                                           : s.stage().job_id());
  return {
      TrayNotification::Kind::JobEnded, TrayIcon::tr("The training job ended"),
      job.isEmpty()
          ? TrayIcon::tr("This PC has nothing more to do for its job. Thank you for contributing!")
          : TrayIcon::tr("“%1” has ended: this PC has nothing more to do for it. Thank you for "
                         "contributing!")
                .arg(job),
      QSystemTrayIcon::Information};
}
}  // namespace

std::optional<TrayNotification> TrayIcon::notificationFor(const pb::NodeSnapshot* before,
                                                          const pb::NodeSnapshot& after) {
  const pb::NodeSnapshot none;
  const pb::NodeSnapshot& b = before ? *before : none;
  // A restarted node (another process) starts afresh: only its own failures count.
  const bool same_node = before && b.pid() == after.pid();
  if (after.state() == pb::FAILED && !(same_node && b.state() == pb::FAILED)) {
    return failed(QString::fromStdString(after.state_reason()), Reasons::state(after));
  }
  const QString ledger = QString::fromStdString(after.ledger().error());
  const QString previous_ledger =
      same_node ? QString::fromStdString(b.ledger().error()) : QString();
  if (saysDiskFull(ledger) && !saysDiskFull(previous_ledger)) return ledgerFull(ledger);
  if (refusedOrBanned(after.coordinator()) && !(same_node && refusedOrBanned(b.coordinator()))) {
    return refused(after.coordinator());
  }
  const bool finished_now = after.has_stage() && after.stage().finished();
  const bool finished_before = same_node && b.has_stage() && b.stage().finished();
  if (finished_now && !finished_before) return ended(after);
  return std::nullopt;
}

std::optional<TrayNotification> TrayIcon::notificationForMessage(const QString& message) {
  if (saysDiskFull(message)) return failed(message);
  return std::nullopt;
}

void TrayIcon::setState(TrayState state, const QString& tooltip) {
  if (!icon_) return;
  icon_->setIcon(trayIcon(state));
  icon_->setToolTip(tooltip);
}

}  // namespace rookery::ui
