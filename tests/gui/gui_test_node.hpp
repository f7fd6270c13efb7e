#pragma once
// A real rookery-node for GUI tests: started from $ROOKERY_NODE_BIN in a temporary folder,
// with a short benchmark and fast telemetry so the tests wait little. Also helpers to ask
// a node directly (a ControlClient of the test's own) and to watch processes the GUI
// started detached, which the test cannot wait for as a parent.
#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <filesystem>

#include "control/control_client.hpp"

namespace rookery::gui_test {

namespace pb = rookery::wire::pb;

inline QString nodeProgram() {
  return qEnvironmentVariable("ROOKERY_NODE_BIN", QStringLiteral(ROOKERY_BINARY_DIR "/app/rookery-node"));
}

// Quick start-up and frequent telemetry; one compute thread leaves the test machine usable.
inline QStringList fastNodeArguments(const QTemporaryDir& dir) {
  return {QStringLiteral("--data-dir"),          dir.filePath(QStringLiteral("data")),
          QStringLiteral("--benchmark-seconds"), QStringLiteral("0.1"),
          QStringLiteral("--telemetry-ms"),      QStringLiteral("200"),
          QStringLiteral("--threads"),           QStringLiteral("1")};
}

inline std::filesystem::path runtimeDirIn(const QTemporaryDir& dir) {
  return std::filesystem::path(dir.filePath(QStringLiteral("run")).toStdString());
}

// The node's state as the node itself reports it, asked independently of the GUI.
inline control::ControlClient::Answer askNode(const std::filesystem::path& runtime_dir) {
  control::ControlClient client(control::ControlEndpoints::in(runtime_dir));
  return client.status(std::chrono::milliseconds(1000));
}

inline bool processAlive(qint64 pid) {
  if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) != 0) return false;
  QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));  // a zombie nobody reaped is not alive
  if (!stat.open(QIODevice::ReadOnly)) return true;
  const QByteArray line = stat.readAll();
  const int close = line.lastIndexOf(')');
  return !(close > 0 && close + 2 < line.size() && line[close + 2] == 'Z');
}

// Stops a node by its control API (or SIGKILL when it does not answer) and waits for it.
inline void stopNode(const std::filesystem::path& runtime_dir, qint64 pid) {
  if (!processAlive(pid)) return;
  control::ControlClient client(control::ControlEndpoints::in(runtime_dir));
  client.request(pb::ControlRequest::QUIT, std::chrono::milliseconds(1000));
  if (!QTest::qWaitFor([pid] { return !processAlive(pid); }, 10000)) ::kill(static_cast<pid_t>(pid), SIGKILL);
}

// A node the test starts as its child.
class TestNode {
 public:
  TestNode() = default;
  ~TestNode() {
    if (process_.state() != QProcess::NotRunning) {
      process_.kill();
      process_.waitForFinished(5000);
    }
  }

  bool start(const QTemporaryDir& dir) {
    runtime_dir_ = runtimeDirIn(dir);
    process_.setProcessChannelMode(QProcess::ForwardedChannels);
    process_.start(nodeProgram(), fastNodeArguments(dir) << QStringLiteral("--runtime-dir")
                                                         << QString::fromStdString(runtime_dir_.string()));
    return process_.waitForStarted(5000);
  }

  // Waits until the node answers and its start-up benchmark is done.
  bool waitReady(int timeout_ms = 20000) {
    return QTest::qWaitFor(
        [this] {
          auto a = askNode(runtime_dir_);
          return a.ok && a.snapshot.state() != pb::STARTING;
        },
        timeout_ms);
  }

  QProcess& process() { return process_; }
  qint64 pid() const { return process_.processId(); }
  const std::filesystem::path& runtimeDir() const { return runtime_dir_; }

 private:
  QProcess process_;
  std::filesystem::path runtime_dir_;
};

}  // namespace rookery::gui_test
