#include "ui/autostart.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSaveFile>
#include <QStandardPaths>
#include <QStringList>
#include <QTextStream>

#if defined(Q_OS_WIN)
#include <QSettings>
#endif

namespace rookery::ui {

namespace {

QString programOrSelf(const QString& program) {
  return program.isEmpty() ? QCoreApplication::applicationFilePath() : program;
}

#if !defined(Q_OS_WIN)
bool writeFile(const QString& path, const QByteArray& contents, QString* error) {
  if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
    if (error)
      *error = QCoreApplication::translate("Autostart", "Cannot create the folder %1")
                   .arg(QFileInfo(path).absolutePath());
    return false;
  }
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(contents) != contents.size() ||
      !file.commit()) {
    if (error)
      *error = QCoreApplication::translate("Autostart", "Cannot write %1: %2")
                   .arg(path, file.errorString());
    return false;
  }
  return true;
}

bool removeFile(const QString& path, QString* error) {
  QFile file(path);
  if (!file.exists() || file.remove()) return true;
  if (error)
    *error = QCoreApplication::translate("Autostart", "Cannot remove %1: %2")
                 .arg(path, file.errorString());
  return false;
}
#endif

// A value of type string in a desktop entry: backslash and control characters escaped.
QString escapeString(const QString& value) {
  QString out;
  for (const QChar c : value) {
    if (c == QLatin1Char('\\')) {
      out += QLatin1String("\\\\");
    } else if (c == QLatin1Char('\n')) {
      out += QLatin1String("\\n");
    } else if (c == QLatin1Char('\t')) {
      out += QLatin1String("\\t");
    } else if (c == QLatin1Char('\r')) {
      out += QLatin1String("\\r");
    } else {
      out += c;
    }
  }
  return out;
}

#if !defined(Q_OS_WIN) && !defined(Q_OS_MACOS)
const QString kAutostartFile =
    QStringLiteral("autostart/%1.desktop").arg(QLatin1String(Autostart::kEntryName));

// The keys of the [Desktop Entry] group, unescaped enough for the ones read here.
QHash<QString, QString> readDesktopEntry(const QString& path) {
  QHash<QString, QString> keys;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return keys;
  QTextStream in(&file);
  bool in_group = false;
  while (!in.atEnd()) {
    const QString line = in.readLine().trimmed();
    if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
    if (line.startsWith(QLatin1Char('['))) {
      in_group = line == QLatin1String("[Desktop Entry]");
      continue;
    }
    const auto eq = line.indexOf(QLatin1Char('='));
    if (in_group && eq > 0) keys.insert(line.left(eq).trimmed(), line.mid(eq + 1).trimmed());
  }
  return keys;
}

// What the session would do with the entry at `path`: start something, or not.
bool entryStarts(const QString& path) {
  const auto keys = readDesktopEntry(path);
  if (keys.value(QStringLiteral("Hidden")) == QLatin1String("true")) return false;
  if (keys.value(QStringLiteral("X-GNOME-Autostart-enabled")) == QLatin1String("false"))
    return false;
  const QString try_exec =
      keys.value(QStringLiteral("TryExec")).replace(QLatin1String("\\\\"), QLatin1String("\\"));
  if (!try_exec.isEmpty()) {
    const QString found =
        QFileInfo(try_exec).isAbsolute() ? try_exec : QStandardPaths::findExecutable(try_exec);
    if (found.isEmpty() || !QFileInfo(found).isExecutable()) return false;
  }
  return keys.contains(QStringLiteral("Exec"));
}

// The administrators' entries of the same name ($XDG_CONFIG_DIRS/autostart), which the
// user's own file overrides.
QStringList systemEntries() {
  QStringList found;
  const QString user_dir = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
  for (const QString& dir :
       QStandardPaths::standardLocations(QStandardPaths::GenericConfigLocation)) {
    if (QDir(dir) == QDir(user_dir)) continue;
    const QString path = QDir(dir).filePath(kAutostartFile);
    if (QFileInfo::exists(path)) found << path;
  }
  return found;
}
#endif

#if defined(Q_OS_WIN)
const QString kRunKey =
    QStringLiteral("HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Run");
// Where Task Manager and Settings > Apps > Startup record an entry the user switched off.
const QString kApprovedKey = QStringLiteral(
    "HKEY_CURRENT_"
    "USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\StartupApproved\\Run");
const QString kRunValue = QStringLiteral("Rookery");
#endif

#if defined(Q_OS_MACOS)
QString launchAgentPlist(const QString& program) {
  return QStringLiteral(
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
             "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
             "<plist version=\"1.0\">\n<dict>\n"
             "  <key>Label</key>\n  <string>%1</string>\n"
             "  <key>ProgramArguments</key>\n  <array>\n    <string>%2</string>\n    "
             "<string>--minimized</string>\n  </array>\n"
             "  <key>RunAtLoad</key>\n  <true/>\n"
             "  <key>LimitLoadToSessionType</key>\n  <string>Aqua</string>\n"
             "  <key>ProcessType</key>\n  <string>Interactive</string>\n"
             "</dict>\n</plist>\n")
      .arg(QLatin1String(Autostart::kEntryName), program.toHtmlEscaped());
}
#endif

}  // namespace

QString Autostart::execArgument(const QString& argument) {
  QString arg = argument;
  arg.replace(QLatin1Char('%'), QLatin1String("%%"));
  static const QString reserved = QStringLiteral(" \t\n\"'\\><~|&;$*?#()`");
  bool quote = arg.isEmpty();
  for (const QChar c : arg) quote = quote || reserved.contains(c);
  if (quote) {
    QString q = QStringLiteral("\"");
    for (const QChar c : arg) {
      if (c == QLatin1Char('"') || c == QLatin1Char('`') || c == QLatin1Char('$') ||
          c == QLatin1Char('\\')) {
        q += QLatin1Char('\\');
      }
      q += c;
    }
    arg = q + QLatin1Char('"');
  }
  return escapeString(arg);
}

QString Autostart::desktopEntry(const QString& program) {
  return QStringLiteral(
             "[Desktop Entry]\n"
             "Type=Application\n"
             "Name=Rookery\n"
             "Comment=Contribute this PC to a training swarm in the background\n"
             "Icon=org.rookery.Rookery\n"
             "Exec=%1 --minimized\n"
             "TryExec=%2\n"
             "Terminal=false\n"
             "X-GNOME-Autostart-enabled=true\n"
             // After the panel (and its tray) is up, so --minimized finds a tray to hide in.
             "X-KDE-autostart-phase=2\n")
      .arg(execArgument(program), escapeString(program));
}

QString Autostart::location() {
#if defined(Q_OS_WIN)
  return kRunKey + QLatin1Char('\\') + kRunValue;
#elif defined(Q_OS_MACOS)
  return QDir::home().filePath(
      QStringLiteral("Library/LaunchAgents/%1.plist").arg(QLatin1String(kEntryName)));
#else
  return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation))
      .filePath(kAutostartFile);
#endif
}

bool Autostart::isEnabled() {
#if defined(Q_OS_WIN)
  if (!QSettings(kRunKey, QSettings::NativeFormat).contains(kRunValue)) return false;
  // An odd first byte (03, 07) is "disabled" in StartupApproved; even (02, 06) or none is enabled.
  const QByteArray approved =
      QSettings(kApprovedKey, QSettings::NativeFormat).value(kRunValue).toByteArray();
  return approved.isEmpty() || (static_cast<unsigned char>(approved[0]) & 1) == 0;
#elif defined(Q_OS_MACOS)
  return QFileInfo::exists(location());
#else
  const QString user = location();
  if (QFileInfo::exists(user)) return entryStarts(user);
  const QStringList system = systemEntries();
  return !system.isEmpty() && entryStarts(system.first());
#endif
}

bool Autostart::setEnabled(bool enabled, const QString& program_in, QString* error) {
  const QString program = QDir::cleanPath(QFileInfo(programOrSelf(program_in)).absoluteFilePath());
#if defined(Q_OS_WIN)
  QSettings run(kRunKey, QSettings::NativeFormat);
  QSettings approved(kApprovedKey, QSettings::NativeFormat);
  if (enabled) {
    run.setValue(kRunValue,
                 QStringLiteral("\"%1\" --minimized").arg(QDir::toNativeSeparators(program)));
    approved.remove(kRunValue);  // switched off in Task Manager earlier: the user asks again
  } else {
    run.remove(kRunValue);
  }
  run.sync();
  approved.sync();
  if (run.status() != QSettings::NoError) {
    if (error)
      *error = QCoreApplication::translate("Autostart", "Cannot change %1").arg(location());
    return false;
  }
  return true;
#elif defined(Q_OS_MACOS)
  if (!enabled) return removeFile(location(), error);
  return writeFile(location(), launchAgentPlist(program).toUtf8(), error);
#else
  if (program.contains(QLatin1Char('\n')) || program.contains(QLatin1Char('\r'))) {
    if (error)
      *error = QCoreApplication::translate(
          "Autostart", "A program path with a line break cannot start with the session");
    return false;
  }
  if (enabled) return writeFile(location(), desktopEntry(program).toUtf8(), error);
  if (systemEntries().isEmpty()) return removeFile(location(), error);
  return writeFile(location(), (desktopEntry(program) + QStringLiteral("Hidden=true\n")).toUtf8(),
                   error);
#endif
}

}  // namespace rookery::ui
