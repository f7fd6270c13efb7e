#pragma once
// Tells the node whether its owner is at the PC: input idleness and whether another
// application is full-screen, every few seconds and at once when the owner comes back.
// Sources, best first: the X11 screensaver extension (input anywhere in the session) and
// _NET_WM_STATE of the active window (full-screen) where the GUI runs on X11 with libXss;
// otherwise this window's own input (idleness only). source() says which one works.
#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <filesystem>
#include <optional>

class QTimer;

namespace rookery::ui {

class PresenceReporter : public QObject {
  Q_OBJECT

 public:
  explicit PresenceReporter(std::filesystem::path runtime_dir, QObject* parent = nullptr);

  struct Presence {
    double idle_seconds = -1;
    QString idle_source;
    bool idle_covers_session = false;  // input anywhere in the session, not only this window's
    std::optional<bool> fullscreen;
    QString fullscreen_source;
  };
  Presence read() const;

 public Q_SLOTS:
  // Sends the current presence to the node; false when it did not answer.
  bool report();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  std::filesystem::path runtime_dir_;
  QTimer* timer_;
  QElapsedTimer last_input_;  // this application's own input
  bool was_idle_ = false;
};

}  // namespace rookery::ui
