#pragma once
// Real headless Chromium (Debian's `chromium`) rendering a page, for the tests of web pages:
// `run` loads a URL with the arguments a test adds (--dump-dom: the DOM after its scripts ran
// for five seconds of virtual time; --screenshot=...) and returns what it printed. Each browser
// keeps its own profile folder, removed with it. Needs Qt Core.
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace rookery::testing {

class HeadlessChromium {
 public:
  HeadlessChromium() : program_(QStandardPaths::findExecutable("chromium")) {}

  // False where chromium is not installed (tests skip then).
  bool available() const { return !program_.isEmpty() && profile_.isValid(); }

  // Its standard output, empty when it did not finish within 90 s.
  QByteArray run(const QString& url, const QStringList& extra) {
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    QStringList args = {"--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-dev-shm-usage",
                        "--no-first-run",
                        "--hide-scrollbars",
                        "--user-data-dir=" + profile_.path(),
                        "--virtual-time-budget=5000"};
    args << extra << url;
    p.start(program_, args);
    if (!p.waitForFinished(90'000)) {
      p.kill();
      p.waitForFinished();
      qWarning("chromium did not finish: %s", p.readAllStandardError().constData());
      return {};
    }
    if (p.exitCode() != 0) qWarning("chromium: %s", p.readAllStandardError().constData());
    return p.readAllStandardOutput();
  }

 private:
  QString program_;
  QTemporaryDir profile_;
};

}  // namespace rookery::testing
