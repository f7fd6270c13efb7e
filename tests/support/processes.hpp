#pragma once
// Starting the real Rookery programs from tests: binaries come from the environment CTest
// sets (ROOKERY_NODE_BIN, ROOKERY_COORDINATOR_BIN), state goes to a temporary folder.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <string>
#include <thread>

namespace rookery::testing {

inline QString node_bin() { return qEnvironmentVariable("ROOKERY_NODE_BIN", ROOKERY_BINARY_DIR "/app/rookery-node"); }
inline QString coordinator_bin() {
  return qEnvironmentVariable("ROOKERY_COORDINATOR_BIN", ROOKERY_BINARY_DIR "/app/rookery-coordinator");
}

// A rookery-node in its own data and runtime folders; killed (if still running) on destruction.
struct NodeProcess {
  QTemporaryDir dir;
  QProcess process;

  QString runtime_dir() const { return dir.filePath("run"); }
  QString data_dir() const { return dir.filePath("data"); }

  bool start(const QStringList& extra = {}) {
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(node_bin(), QStringList{"--runtime-dir", runtime_dir(), "--data-dir", data_dir(),
                                          "--benchmark-seconds", "0.1", "--telemetry-ms", "100", "--threads", "1"} +
                                  extra);
    return process.waitForStarted(5000);
  }
  ~NodeProcess() {
    if (process.state() != QProcess::NotRunning) {
      process.kill();
      process.waitForFinished(5000);
    }
  }
};

// A rookery-coordinator on a free loopback port; `endpoint` and `key` are read from its ready file.
struct CoordinatorProcess {
  QTemporaryDir dir;
  QProcess process;
  std::string endpoint;
  std::string key;

  bool start(const QStringList& extra = {}) {
    const QString ready = dir.filePath("ready");
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(coordinator_bin(), QStringList{"--bind", "tcp://127.0.0.1:0", "--data-dir", dir.filePath("data"),
                                                 "--ready-file", ready} + extra);
    if (!process.waitForStarted(5000)) return false;
    for (int i = 0; i < 200 && !QFile::exists(ready); ++i) {
      if (process.state() == QProcess::NotRunning) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    QFile f(ready);
    if (!f.open(QIODevice::ReadOnly)) return false;
    const auto parts = QString::fromUtf8(f.readAll()).trimmed().split(' ');
    if (parts.size() != 2) return false;
    endpoint = parts[0].toStdString();
    key = parts[1].toStdString();
    return true;
  }
  ~CoordinatorProcess() {
    if (process.state() != QProcess::NotRunning) {
      process.terminate();
      if (!process.waitForFinished(3000)) process.kill();
      process.waitForFinished(3000);
    }
  }
};

}  // namespace rookery::testing
