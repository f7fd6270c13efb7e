#pragma once
// A real rookery-node for GUI tests: started from $ROOKERY_NODE_BIN in a temporary folder,
// with a short benchmark and fast telemetry so the tests wait little. Also helpers to ask
// a node directly (a ControlClient of the test's own) and to watch processes the GUI
// started detached, which the test cannot wait for as a parent.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <filesystem>
#include <memory>
#include <vector>

#include "control/control_client.hpp"
#include "support/processes.hpp"

namespace rookery::gui_test {

namespace pb = rookery::wire::pb;

inline QString nodeProgram() { return rookery::testing::node_bin(); }

// Quick start-up and frequent telemetry; one compute thread leaves the test machine usable.
inline QStringList fastNodeArguments(const QTemporaryDir& dir) {
  return {QStringLiteral("--data-dir"),          dir.filePath(QStringLiteral("data")),
          QStringLiteral("--benchmark-seconds"), QStringLiteral("0.1"),
          QStringLiteral("--telemetry-ms"),      QStringLiteral("200"),
          QStringLiteral("--threads"),           QStringLiteral("1")};
}

// The window's settings (QSettings) in `dir`, under an application name of the test's own, so a
// test never reads or writes the user's.
inline void useTestSettings(const QTemporaryDir& dir, const QString& application) {
  qunsetenv("ROOKERY_DATA_DIR");
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                     dir.filePath(QStringLiteral("config")));
  QCoreApplication::setOrganizationName(QStringLiteral("RookeryTest"));
  QCoreApplication::setApplicationName(application);
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
  if (!QTest::qWaitFor([pid] { return !processAlive(pid); }, 10000))
    ::kill(static_cast<pid_t>(pid), SIGKILL);
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

  // `extra`: more of rookery-node's options (--join ..., --preference ...).
  bool start(const QTemporaryDir& dir, const QStringList& extra = {}) {
    runtime_dir_ = runtimeDirIn(dir);
    process_.setProcessChannelMode(QProcess::ForwardedChannels);
    process_.start(nodeProgram(), fastNodeArguments(dir)
                                      << QStringLiteral("--runtime-dir")
                                      << QString::fromStdString(runtime_dir_.string()) << extra);
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

// A static pipeline of real rookery-node processes on loopback training the demo job, the
// way scripts/run-pipeline.sh starts one: a key per stage from --print-identity, blocks
// split as evenly as the model allows, one plan file. Stage 0 is left paused (the GUI under
// test contributes it); the others contribute from the start.
class TestPipeline {
 public:
  ~TestPipeline() {
    for (auto& p : processes_) {
      if (p->state() == QProcess::NotRunning) continue;
      p->kill();
      p->waitForFinished(5000);
    }
  }

  static QString demoJob() {
    return QStringLiteral(ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
  }

  // Blocks of the demo job's model, counted as the model library does (GPT: embedding,
  // depth layers, head).
  static int demoBlocks() {
    QFile f(demoJob());
    if (!f.open(QIODevice::ReadOnly)) return 0;
    const auto model =
        QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("model")).toObject();
    return model.value(QStringLiteral("depth")).toInt() + 2;
  }

  bool start(const QTemporaryDir& dir, int stages) {
    dir_ = dir.path();
    const int blocks = demoBlocks();
    if (blocks < stages) return false;
    QJsonArray plan_stages;
    for (int i = 0; i < stages; ++i) {
      QProcess identity;
      identity.start(nodeProgram(), {QStringLiteral("--data-dir"), dataDir(i),
                                     QStringLiteral("--print-identity")});
      if (!identity.waitForFinished(10000) || identity.exitCode() != 0) return false;
      const int port = rookery::testing::free_tcp_port();
      if (port == 0) return false;
      endpoints_ << QStringLiteral("tcp://127.0.0.1:%1").arg(port);
      blocks_.push_back({i * blocks / stages, (i + 1) * blocks / stages});
      plan_stages.append(QJsonObject{
          {QStringLiteral("blocks"), QJsonArray{blocks_.back().first, blocks_.back().second}},
          {QStringLiteral("endpoint"), endpoints_.back()},
          {QStringLiteral("key"), QString::fromUtf8(identity.readAllStandardOutput()).trimmed()}});
    }
    block_count_ = blocks;
    QFile plan(planPath());
    if (!plan.open(QIODevice::WriteOnly)) return false;
    plan.write(QJsonDocument(QJsonObject{{QStringLiteral("job"), demoJob()},
                                         {QStringLiteral("pipeline"), 0},
                                         {QStringLiteral("stages"), plan_stages}})
                   .toJson());
    plan.close();
    // The last stage first: each stage connects to the next one when it starts.
    for (int i = stages - 1; i >= 0; --i) {
      auto p = std::make_unique<QProcess>();
      p->setProcessChannelMode(QProcess::MergedChannels);
      p->setStandardOutputFile(QDir(dir_).filePath(QStringLiteral("stage%1.log").arg(i)));
      QStringList args{QStringLiteral("--data-dir"),
                       dataDir(i),
                       QStringLiteral("--runtime-dir"),
                       QString::fromStdString(runtimeDir(i).string()),
                       QStringLiteral("--plan"),
                       planPath(),
                       QStringLiteral("--stage"),
                       QString::number(i),
                       QStringLiteral("--benchmark-seconds"),
                       QStringLiteral("0.1"),
                       QStringLiteral("--telemetry-ms"),
                       QStringLiteral("200"),
                       QStringLiteral("--threads"),
                       QStringLiteral("1")};
      if (i > 0) args << QStringLiteral("--contribute");
      p->start(nodeProgram(), args);
      if (!p->waitForStarted(5000)) return false;
      processes_.insert(processes_.begin(), std::move(p));
    }
    return true;
  }

  // Waits until every stage answers with its stage in the snapshot.
  bool waitReady(int timeout_ms = 30000) {
    return QTest::qWaitFor(
        [this] {
          for (std::size_t i = 0; i < processes_.size(); ++i) {
            auto a = askNode(runtimeDir(static_cast<int>(i)));
            if (!a.ok || a.snapshot.state() == pb::STARTING || !a.snapshot.has_stage())
              return false;
          }
          return true;
        },
        timeout_ms);
  }

  QString log(int stage) const {
    QFile f(QDir(dir_).filePath(QStringLiteral("stage%1.log").arg(stage)));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
  }

  QString dataDir(int stage) const {
    return QDir(dir_).filePath(QStringLiteral("stage%1").arg(stage));
  }
  std::filesystem::path runtimeDir(int stage) const {
    return std::filesystem::path(
        QDir(dir_).filePath(QStringLiteral("run%1").arg(stage)).toStdString());
  }
  QString planPath() const { return QDir(dir_).filePath(QStringLiteral("plan.json")); }
  QString endpoint(int stage) const { return endpoints_.value(stage); }
  std::pair<int, int> blocks(int stage) const {
    return blocks_.at(static_cast<std::size_t>(stage));
  }
  int blockCount() const { return block_count_; }
  QProcess& process(int stage) { return *processes_.at(static_cast<std::size_t>(stage)); }

 private:
  QString dir_;
  QStringList endpoints_;
  std::vector<std::pair<int, int>> blocks_;
  int block_count_ = 0;
  std::vector<std::unique_ptr<QProcess>> processes_;
};

// A real rookery-coordinator running the demo job on a free loopback port; `extra`: more of
// its options (--invite-token ...). Its log is kept for the test to read.
class TestCoordinator {
 public:
  ~TestCoordinator() {
    process_.terminate();
    if (!process_.waitForFinished(5000)) process_.kill();
    process_.waitForFinished(2000);
  }
  bool start(const QTemporaryDir& dir, const QStringList& extra = {}) {
    const QString ready = dir.filePath(QStringLiteral("coordinator.ready"));
    process_.setProgram(QStringLiteral(ROOKERY_BINARY_DIR "/app/rookery-coordinator"));
    process_.setArguments(QStringList{QStringLiteral("--bind"), QStringLiteral("tcp://127.0.0.1:0"),
                                      QStringLiteral("--data-dir"),
                                      dir.filePath(QStringLiteral("coordinator")),
                                      QStringLiteral("--ready-file"), ready,
                                      QStringLiteral("--job"), TestPipeline::demoJob(),
                                      // a job is invite-only unless opened (--invite-token
                                      // in `extra` makes it invite-only again)
                                      QStringLiteral("--open")} +
                          extra);
    process_.setProcessChannelMode(QProcess::MergedChannels);
    process_.start();
    if (!process_.waitForStarted()) return false;
    const auto address = rookery::testing::wait_for_coordinator_ready(ready, 15000, &process_);
    if (!address) return false;
    endpoint = address->endpoint;
    key = address->key;
    return true;
  }
  // What a node needs to join its job (rookery-node's options).
  QStringList joinArguments(const QString& job = QStringLiteral("demo-bytes-gpt")) const {
    return {QStringLiteral("--join"),
            job,
            QStringLiteral("--coordinator"),
            endpoint,
            QStringLiteral("--coordinator-key"),
            key,
            QStringLiteral("--host"),
            QStringLiteral("127.0.0.1")};
  }
  // Its log so far.
  QString log() {
    output_ += QString::fromUtf8(process_.readAll());
    return output_;
  }
  QString endpoint, key;

 private:
  QProcess process_;
  QString output_;
};

}  // namespace rookery::gui_test
