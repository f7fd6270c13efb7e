#pragma once
// A real rookery-node that trains: one stage holding the whole of a tiny byte-level GPT (a
// one-stage pipeline, so a single process does real forward and backward micro-batches and
// its ledger fills), started from $ROOKERY_NODE_BIN in a temporary folder. The ledger is
// written every telemetry tick (ROOKERY_LEDGER_FLUSH_MS) so tests wait little.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <filesystem>

#include "control/control_client.hpp"
#include "support/processes.hpp"

namespace rookery::ledger_test {

namespace pb = rookery::wire::pb;

inline QString nodeBin() { return rookery::testing::node_bin(); }

class OneStageNode {
 public:
  explicit OneStageNode(const QString& root) : root_(root) {}
  ~OneStageNode() { kill9(); }

  QString dataDir() const { return QDir(root_).filePath(QStringLiteral("data")); }
  std::filesystem::path runtimeDir() const {
    return QDir(root_).filePath(QStringLiteral("run")).toStdString();
  }
  std::filesystem::path stateDb() const {
    return std::filesystem::path(dataDir().toStdString()) / "state.db";
  }
  QProcess& process() { return process_; }
  qint64 pid() const { return process_.processId(); }

  // Writes the job and the one-stage plan for this node's key.
  bool prepare() {
    QProcess id;
    id.start(nodeBin(),
             {QStringLiteral("--data-dir"), dataDir(), QStringLiteral("--print-identity")});
    if (!id.waitForFinished(20000) || id.exitCode() != 0) return false;
    const QString key = QString::fromUtf8(id.readAllStandardOutput()).trimmed();
    const QString job = QDir(root_).filePath(QStringLiteral("job.json"));
    QFile j(job);
    if (!j.open(QIODevice::WriteOnly)) return false;
    j.write(QStringLiteral(R"({"id": "ledger-gpt", "name": "Ledger test GPT",
      "model": {"kind": "gpt", "vocab": 256, "context": 16, "width": 32, "depth": 1, "heads": 2, "mlp_ratio": 4,
                "dropout": 0.0},
      "dataset": {"kind": "text", "path": "%1", "stride": 1, "shuffle": true},
      "optimizer": {"kind": "adamw", "lr": 0.001, "betas": [0.9, 0.95], "eps": 1e-8, "weight_decay": 0.1,
                    "schedule": {"warmup_steps": 10, "decay": "constant"}},
      "micro_batch_size": 8, "grad_accumulation": 1, "staleness": 1, "codec": "none", "averaging_period": 50,
      "seed": 3})")
                .arg(QStringLiteral(ROOKERY_SOURCE_DIR "/resources/demo/demo-text.txt"))
                .toUtf8());
    j.close();
    plan_ = QDir(root_).filePath(QStringLiteral("plan.json"));
    QFile p(plan_);
    if (!p.open(QIODevice::WriteOnly)) return false;
    p.write(QStringLiteral(R"({"job": "%1", "pipeline": 0, "stages": [{"blocks": [0, 3],
      "endpoint": "tcp://127.0.0.1:%2", "key": "%3"}]})")
                .arg(job)
                .arg(rookery::testing::free_tcp_port())
                .arg(key)
                .toUtf8());
    return true;
  }

  // `file_size_kib` > 0: the node may not write any file past that size (RLIMIT_FSIZE, with
  // SIGXFSZ ignored so a write fails instead of killing it): a full disk, for the ledger.
  bool start(bool contribute, int flush_ms = 1, int file_size_kib = 0) {
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("ROOKERY_LEDGER_FLUSH_MS"), QString::number(flush_ms));
    process_.setProcessEnvironment(env);
    process_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QStringList args{QStringLiteral("--data-dir"),
                     dataDir(),
                     QStringLiteral("--runtime-dir"),
                     QString::fromStdString(runtimeDir().string()),
                     QStringLiteral("--plan"),
                     plan_,
                     QStringLiteral("--stage"),
                     QStringLiteral("0"),
                     QStringLiteral("--threads"),
                     QStringLiteral("1"),
                     QStringLiteral("--benchmark-seconds"),
                     QStringLiteral("0.05"),
                     QStringLiteral("--telemetry-ms"),
                     QStringLiteral("50")};
    if (contribute) args << QStringLiteral("--contribute");
    if (file_size_kib > 0) {
      process_.start(
          QStringLiteral("/bin/sh"),
          QStringList{QStringLiteral("-c"),
                      QStringLiteral("trap '' XFSZ; ulimit -S -f %1 && exec \"$0\" \"$@\"")
                          .arg(file_size_kib * 2),  // 512-byte blocks
                      nodeBin()} +
              args);
    } else {
      process_.start(nodeBin(), args);
    }
    return process_.waitForStarted(5000);
  }

  control::ControlClient::Answer ask(
      std::chrono::milliseconds timeout = std::chrono::milliseconds(1000)) const {
    control::ControlClient client(control::ControlEndpoints::in(runtimeDir()));
    return client.status(timeout);
  }

  // Waits until the node answers with its stage loaded.
  bool waitReady(int timeout_ms = 60000) {
    return QTest::qWaitFor(
        [this] {
          const auto a = ask();
          return a.ok && a.snapshot.state() != pb::STARTING && a.snapshot.has_stage();
        },
        timeout_ms);
  }

  void kill9() {
    if (process_.state() == QProcess::NotRunning) return;
    process_.kill();  // SIGKILL
    process_.waitForFinished(10000);
  }

  bool quit() {
    control::ControlClient client(control::ControlEndpoints::in(runtimeDir()));
    if (!client.request(pb::ControlRequest::QUIT).ok) return false;
    return process_.waitForFinished(20000) && process_.exitStatus() == QProcess::NormalExit &&
           process_.exitCode() == 0;
  }

 private:
  QString root_;
  QString plan_;
  QProcess process_;
};

}  // namespace rookery::ledger_test
