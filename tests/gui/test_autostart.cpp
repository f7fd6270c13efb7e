// "Start with my session": the XDG autostart entry in a temporary $XDG_CONFIG_HOME, written,
// read back and removed by ui/autostart and by the Settings dialog's checkbox; entries the
// desktop switched off, administrators' entries, odd program paths, a read-only folder.
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "ui/autostart.hpp"
#include "ui/settings_dialog.hpp"

using rookery::ui::Autostart;

namespace {

QString readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

void writeAll(const QString& path, const QByteArray& text) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(text);
}

// desktop-file-validate, where desktop-file-utils is installed: the entry is a valid desktop file.
void validateDesktopFile(const QString& path) {
  const QString validator = QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate"));
  if (validator.isEmpty()) return;
  QProcess p;
  p.start(validator, {path});
  QVERIFY(p.waitForFinished(10000));
  const QString out = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
  QVERIFY2(p.exitCode() == 0 && !out.contains(QLatin1String("error")), qPrintable(out));
}

}  // namespace

class TestAutostart : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void init() {
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
    qputenv("XDG_CONFIG_HOME", dir_->filePath(QStringLiteral("config")).toUtf8());
    qputenv("XDG_CONFIG_DIRS", dir_->filePath(QStringLiteral("xdg")).toUtf8());
    // A real executable for TryExec to find.
    program_ = dir_->filePath(QStringLiteral("bin/rookery"));
    writeAll(program_, "#!/bin/sh\n");
    QFile(program_).setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
  }

  void location() {
    QCOMPARE(Autostart::location(),
             dir_->filePath(QStringLiteral("config/autostart/org.rookery.Rookery.desktop")));
  }

  void enableThenDisable() {
    QVERIFY(!Autostart::isEnabled());
    QString error;
    QVERIFY2(Autostart::setEnabled(true, program_, &error), qPrintable(error));
    QVERIFY(Autostart::isEnabled());
    const QString text = readAll(Autostart::location());
    QVERIFY(text.startsWith(QLatin1String("[Desktop Entry]\n")));
    QVERIFY(text.contains(QLatin1String("\nType=Application\n")));
    QVERIFY(text.contains(QStringLiteral("\nExec=%1 --minimized\n").arg(program_)));
    QVERIFY(text.contains(QStringLiteral("\nTryExec=%1\n").arg(program_)));
    QVERIFY(text.contains(QLatin1String("\nIcon=org.rookery.Rookery\n")));
    validateDesktopFile(Autostart::location());

    QVERIFY(Autostart::setEnabled(true, program_, &error));  // again: same entry
    QVERIFY(Autostart::isEnabled());
    QVERIFY2(Autostart::setEnabled(false, program_, &error), qPrintable(error));
    QVERIFY(!QFile::exists(Autostart::location()));
    QVERIFY(!Autostart::isEnabled());
    QVERIFY(Autostart::setEnabled(false, program_, &error));  // nothing to remove: fine
  }

  // The desktop's own switches (GNOME's Startup Applications, KDE, tweak tools) win.
  void switchedOffByTheDesktop_data() {
    QTest::addColumn<QByteArray>("extra");
    QTest::newRow("Hidden") << QByteArray("Hidden=true\n");
    QTest::newRow("GNOME") << QByteArray("X-GNOME-Autostart-enabled=false\n");
  }
  void switchedOffByTheDesktop() {
    QFETCH(QByteArray, extra);
    QVERIFY(Autostart::setEnabled(true, program_));
    QString text = readAll(Autostart::location());
    text.replace(QLatin1String("X-GNOME-Autostart-enabled=true\n"), QString());
    writeAll(Autostart::location(), text.toUtf8() + extra);
    QVERIFY(!Autostart::isEnabled());
    QVERIFY(Autostart::setEnabled(true, program_));  // the user asks again: enabled
    QVERIFY(Autostart::isEnabled());
  }

  // After the package is removed the entry stays in the user's home, but starts nothing.
  void programGone() {
    QVERIFY(Autostart::setEnabled(true, program_));
    QVERIFY(QFile::remove(program_));
    QVERIFY(!Autostart::isEnabled());
  }

  // An administrator's entry in $XDG_CONFIG_DIRS/autostart: the user's Hidden=true overrides it.
  void systemEntry() {
    const QString system =
        dir_->filePath(QStringLiteral("xdg/autostart/org.rookery.Rookery.desktop"));
    writeAll(system, Autostart::desktopEntry(program_).toUtf8());
    QVERIFY(Autostart::isEnabled());
    QString error;
    QVERIFY2(Autostart::setEnabled(false, program_, &error), qPrintable(error));
    QVERIFY(readAll(Autostart::location()).contains(QLatin1String("\nHidden=true\n")));
    validateDesktopFile(Autostart::location());
    QVERIFY(!Autostart::isEnabled());
    QVERIFY(QFile::exists(system));
    QVERIFY(Autostart::setEnabled(true, program_));
    QVERIFY(Autostart::isEnabled());
  }

  void execArgument_data() {
    QTest::addColumn<QString>("argument");
    QTest::addColumn<QString>("exec");
    QTest::newRow("plain") << "/usr/bin/rookery"
                           << "/usr/bin/rookery";
    QTest::newRow("space") << "/opt/My Apps/rookery"
                           << "\"/opt/My Apps/rookery\"";
    QTest::newRow("percent") << "/opt/100%/rookery"
                             << "/opt/100%%/rookery";
    // Quoting escapes " ` $ \ with a backslash; the string escape then doubles every backslash.
    QTest::newRow("dollar") << "/opt/$x/rookery"
                            << "\"/opt/\\\\$x/rookery\"";
    QTest::newRow("quote") << "/opt/a\"b/rookery"
                           << "\"/opt/a\\\\\"b/rookery\"";
    QTest::newRow("backslash") << "/opt/a\\b/rookery"
                               << "\"/opt/a\\\\\\\\b/rookery\"";
  }
  void execArgument() {
    QFETCH(QString, argument);
    QFETCH(QString, exec);
    QCOMPARE(Autostart::execArgument(argument), exec);
  }

  // Odd but possible install folders still give a valid entry.
  void oddProgramPath() {
    const QString odd = dir_->filePath(QStringLiteral("My Apps $1 100%/rookery"));
    writeAll(odd, "#!/bin/sh\n");
    QFile(odd).setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QVERIFY(Autostart::setEnabled(true, odd));
    QVERIFY(Autostart::isEnabled());
    validateDesktopFile(Autostart::location());
  }

  void lineBreakRefused() {
    QString error;
    QVERIFY(!Autostart::setEnabled(true, QStringLiteral("/opt/a\nb/rookery"), &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(Autostart::location()));
  }

  // The config folder cannot take the entry (here a file stands where the autostart folder
  // should be, which stops root as well as a user): the caller gets the reason.
  void unwritableConfig() {
    writeAll(dir_->filePath(QStringLiteral("config/autostart")), "not a folder\n");
    QString error;
    QVERIFY(!Autostart::setEnabled(true, program_, &error));
    QVERIFY2(error.contains(QLatin1String("autostart")), qPrintable(error));
    QVERIFY(!Autostart::isEnabled());
  }

  // The Settings dialog's checkbox shows the entry and Save applies it, node or no node.
  void settingsDialogCheckbox() {
    rookery::ui::SettingsDialog dialog(
        std::filesystem::path(dir_->filePath(QStringLiteral("run")).toStdString()));
    dialog.setAutostartProgram(program_);
    QCheckBox* box = dialog.autostartCheckBox();
    QVERIFY(box);
    QCOMPARE(box->objectName(), QStringLiteral("autostartCheckBox"));
    QVERIFY(!box->isChecked());
    box->setChecked(true);
    QVERIFY2(dialog.save(), qPrintable(dialog.errorText()));
    QVERIFY(Autostart::isEnabled());
    QVERIFY(readAll(Autostart::location())
                .contains(QStringLiteral("\nExec=%1 --minimized\n").arg(program_)));

    rookery::ui::SettingsDialog again(
        std::filesystem::path(dir_->filePath(QStringLiteral("run")).toStdString()));
    again.setAutostartProgram(program_);
    QVERIFY(again.autostartCheckBox()->isChecked());
    again.autostartCheckBox()->setChecked(false);
    QVERIFY2(again.save(), qPrintable(again.errorText()));
    QVERIFY(!QFile::exists(Autostart::location()));
  }

 private:
  std::unique_ptr<QTemporaryDir> dir_;
  QString program_;
};

QTEST_MAIN(TestAutostart)
#include "test_autostart.moc"
