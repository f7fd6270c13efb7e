#pragma once
// Everything about the system tray, behind one class: the icon for the node's state
// (contributing, paused, error), its tooltip, its menu (Contribute/Pause, Snooze for an
// hour / End the snooze, Open Rookery, Quit) and notifications. The menu and its actions exist even where the desktop has no
// tray, so the rest of the GUI (and its tests) can rely on them.
//
// Notifications come only when something needs the user: the node failed (a full disk
// named as such), its contribution ledger cannot be written for a full disk, the
// coordinator refused or banned this PC, the job ended. Which change
// calls for one is decided by pure functions of the node's snapshots and messages.
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QSystemTrayIcon>

#include <filesystem>
#include <optional>

#include "rookery/control.pb.h"
#include "ui/app_resources.hpp"

class QAction;
class QMenu;
class QSystemTrayIcon;

namespace rookery::ui {

struct TrayNotification {
  enum class Kind { NodeFailed, DiskFull, Refused, JobEnded };
  Kind kind;
  QString title;
  QString message;
  QSystemTrayIcon::MessageIcon icon = QSystemTrayIcon::Information;
};

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
  void notify(const QString& title, const QString& message,
              QSystemTrayIcon::MessageIcon icon = QSystemTrayIcon::Information);

  // What the user must hear about the node going from `before` (null: the first snapshot
  // seen) to `after`; nothing for changes that need no one (pauses, progress, restarts).
  static std::optional<TrayNotification> notificationFor(const wire::pb::NodeSnapshot* before,
                                                         const wire::pb::NodeSnapshot& after);
  // The same for a message the node logged (its LOG events).
  static std::optional<TrayNotification> notificationForMessage(const QString& node_message);
  // Text that names a full disk (the system's words for it, in the node's errors).
  static bool saysDiskFull(const QString& text);

  // Asks the node of `runtime_dir` to snooze for `seconds` (0: end the snooze), as the
  // snooze action's handler does. Returns whether the node took it; `error` says why not.
  static bool requestSnooze(const std::filesystem::path& runtime_dir, int seconds,
                            QString* error = nullptr);

 public Q_SLOTS:
  // A LOG event from the node: notifies when it needs the user.
  void showNodeMessage(const QString& message);

  QMenu* menu() const { return menu_; }
  QAction* contributeAction() const { return contribute_; }  // its text says Contribute or Pause
  QAction* snoozeAction() const { return snooze_; }  // Snooze for an hour, or End the snooze
  QAction* openAction() const { return open_; }
  QAction* quitAction() const { return quit_; }

 Q_SIGNALS:
  // A notification was decided (also where there is no tray to show it).
  void notified(const QString& title, const QString& message);
  void contributeRequested();
  void pauseRequested();
  // The snooze action: 3600 seconds, or 0 to end a snooze.
  void snoozeRequested(int seconds);
  void openRequested();
  void quitRequested();

 private:
  void setState(TrayState state, const QString& tooltip);
  void deliver(const TrayNotification& notification);

  QMenu* menu_;
  QAction* contribute_;
  QAction* snooze_;
  QAction* open_;
  QAction* quit_;
  QSystemTrayIcon* icon_ = nullptr;
  bool pause_next_ = false;                     // what the contribute action does next
  bool snoozed_ = false;                        // what the snooze action does next: end the snooze
  std::optional<wire::pb::NodeSnapshot> last_;  // the previous snapshot shown
  // The same notification twice within a minute (a LOG event and the snapshot saying one
  // thing) is shown once.
  std::optional<TrayNotification> last_notification_;
  QElapsedTimer since_last_notification_;
};

}  // namespace rookery::ui
