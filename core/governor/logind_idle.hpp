#pragma once
// logind's idle hint: whether every login session on this PC is idle, and since when
// (org.freedesktop.login1.Manager's IdleHint and IdleSinceHint on the system bus).
//
// It is the governor's input-idleness source where no desktop session reports one: a
// Wayland desktop (where the GUI cannot use the X11 screensaver extension), and a headless
// node run by the systemd user unit. logind works the hint out itself for text and SSH
// sessions; a graphical session's desktop sets it (GNOME and KDE do when the screen blanks).
// A session that never sets it keeps the PC "in use", the safe side.
//
// The bus is the system bus, or DBUS_SYSTEM_BUS_ADDRESS where that is set (tests start a
// private bus with a fake logind). The connection is kept and opened again after a failure;
// each read waits at most `timeout`.
#include <chrono>
#include <memory>

#include "governor/sensors.hpp"

namespace rookery::governor {

class LogindIdle {
 public:
  explicit LogindIdle(std::chrono::milliseconds timeout = std::chrono::milliseconds(300));
  ~LogindIdle();
  LogindIdle(const LogindIdle&) = delete;
  LogindIdle& operator=(const LogindIdle&) = delete;

  // idle_seconds: 0 while some session is in use, else the seconds since all went idle;
  // nullopt (with the reason in detail) where logind cannot be asked.
  IdleReading read();

 private:
  struct Bus;
  std::unique_ptr<Bus> bus_;
  std::chrono::milliseconds timeout_;
};

}  // namespace rookery::governor
