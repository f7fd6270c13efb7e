#pragma once
// Everything about the system tray, behind one class: the icon for the node's state
// (contributing, paused, error), its tooltip, its menu (Contribute/Pause, Open Rookery,
// Quit) and notifications. The menu and its actions exist even where the desktop has no
// tray, so the rest of the GUI (and its tests) can rely on them.
#include <QObject>

#include "rookery/control.pb.h"
#include "ui/app_resources.hpp"

class QAction;
class QMenu;
class QSystemTrayIcon;

namespace rookery::ui {

class TrayIcon : public QObject {
  Q_OBJECT

 public:
  explicit TrayIcon(QObject* parent = nullptr);
  ~TrayIcon() override;

  // Whether this desktop shows tray icons at all.
  static bool available();
  // Shows the icon where a tray exists; returns whether it is shown.
  bool show();
  bool isVisible() const;

  void showNodeState(const wire::pb::NodeSnapshot& snapshot);
  void showDisconnected(const QString& why);
  // A short notification from the tray; ignored where there is no tray.
  void notify(const QString& title, const QString& message);

  QMenu* menu() const { return menu_; }
  QAction* contributeAction() const { return contribute_; }  // its text says Contribute or Pause
  QAction* openAction() const { return open_; }
  QAction* quitAction() const { return quit_; }

 Q_SIGNALS:
  void contributeRequested();
  void pauseRequested();
  void openRequested();
  void quitRequested();

 private:
  void setState(TrayState state, const QString& tooltip);

  QMenu* menu_;
  QAction* contribute_;
  QAction* open_;
  QAction* quit_;
  QSystemTrayIcon* icon_ = nullptr;
  bool pause_next_ = false;  // what the contribute action does next
};

}  // namespace rookery::ui
