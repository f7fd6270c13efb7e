#include "ui/tray_icon.hpp"

#include <QAction>
#include <QMenu>
#include <QSystemTrayIcon>

#include "ui/app_resources.hpp"
#include "ui/format.hpp"

namespace rookery::ui {

namespace pb = wire::pb;

TrayIcon::TrayIcon(QObject* parent) : QObject(parent), menu_(new QMenu) {
  menu_->setAccessibleName(tr("Rookery tray menu"));
  contribute_ = menu_->addAction(tr("Contribute"));
  contribute_->setObjectName(QStringLiteral("trayContribute"));
  contribute_->setEnabled(false);
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
  connect(open_, &QAction::triggered, this, &TrayIcon::openRequested);
  connect(quit_, &QAction::triggered, this, &TrayIcon::quitRequested);
  if (available()) {
    icon_ = new QSystemTrayIcon(trayIcon(TrayState::Paused), this);
    icon_->setContextMenu(menu_);
    connect(icon_, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
      if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick) Q_EMIT openRequested();
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
  const bool contributing = s.state() == pb::CONTRIBUTING;
  pause_next_ = contributing;
  contribute_->setText(contributing ? tr("Pause") : tr("Contribute"));
  contribute_->setEnabled(s.state() == pb::PAUSED || s.state() == pb::CONTRIBUTING || s.state() == pb::STARTING);
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
  setState(TrayState::Error, tr("Rookery: %1").arg(why));
}

void TrayIcon::notify(const QString& title, const QString& message) {
  if (icon_ && icon_->isVisible()) icon_->showMessage(title, message, appIcon(), 6000);
}

void TrayIcon::setState(TrayState state, const QString& tooltip) {
  if (!icon_) return;
  icon_->setIcon(trayIcon(state));
  icon_->setToolTip(tooltip);
}

}  // namespace rookery::ui
