#pragma once
// "Start with my session": the per-user entry that opens Rookery in the tray (--minimized)
// when the user logs in. The entry itself is the setting, written and removed by the app,
// never installed for everyone: on Linux an XDG autostart file,
// $XDG_CONFIG_HOME/autostart/org.rookery.Rookery.desktop; on Windows a value in the user's
// Run key; on macOS a LaunchAgent in ~/Library/LaunchAgents.
#include <QString>

namespace rookery::ui {

class Autostart {
 public:
  static constexpr const char* kEntryName = "org.rookery.Rookery";

  // Where this user's entry lives (a file, or on Windows a registry value).
  static QString location();

  // Whether the session starts Rookery. On Linux, as the XDG autostart specification reads
  // it: the user's file overrides one of the same name in $XDG_CONFIG_DIRS/autostart, and an
  // entry with Hidden=true, X-GNOME-Autostart-enabled=false (what session settings write to
  // switch it off) or a TryExec program that no longer exists starts nothing.
  static bool isEnabled();

  // Writes the entry, starting `program` (empty: this executable) with --minimized, or
  // removes it. When disabling on Linux while an administrator's entry of the same name
  // exists in $XDG_CONFIG_DIRS/autostart, the user's file says Hidden=true instead, which is
  // how the specification switches a system entry off for one user. False, with the reason
  // in `error`, when the entry cannot be written or removed.
  static bool setEnabled(bool enabled, const QString& program = {}, QString* error = nullptr);

  // The XDG desktop entry written on Linux for `program`.
  static QString desktopEntry(const QString& program);
  // One argument as an Exec= value holds it: field codes' % doubled, quoted when it has a
  // reserved character, then the string escapes applied (Desktop Entry Specification 1.5).
  static QString execArgument(const QString& argument);
};

}  // namespace rookery::ui
