#pragma once
// Runs a static pipeline of real rookery-node processes on loopback for a test: writes the
// job and the plan (keys from each node's --print-identity), starts and stops stages, and
// reads their checkpoints.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <string>
#include <vector>

#include "control/control_client.hpp"
#include "support/processes.hpp"

namespace rookery::testing {

struct PipelineHarness {
  QTemporaryDir dir;
  QString job_path;
  QString plan_path;
  std::vector<std::pair<int, int>> blocks;
  std::vector<int> ports;
  std::vector<std::unique_ptr<QProcess>> nodes;

  QString stage_dir(int i) const { return dir.filePath(QString("stage%1").arg(i)); }
  QString runtime_dir(int i) const { return dir.filePath(QString("run%1").arg(i)); }
  std::filesystem::path checkpoint(int i, const std::string& job_id) const {
    return std::filesystem::path(stage_dir(i).toStdString()) / "checkpoints" /
           (job_id + "-p0-b" + std::to_string(blocks[i].first) + "-" +
            std::to_string(blocks[i].second) + ".ckpt");
  }

  bool prepare(const QString& job_json, std::vector<std::pair<int, int>> stage_blocks) {
    blocks = std::move(stage_blocks);
    job_path = dir.filePath("job.json");
    {
      QFile f(job_path);
      if (!f.open(QIODevice::WriteOnly)) return false;
      f.write(job_json.toUtf8());
    }
    QString stages;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      QProcess id;
      id.start(node_bin(), {"--data-dir", stage_dir(int(i)), "--print-identity"});
      if (!id.waitForFinished(10000) || id.exitCode() != 0) return false;
      const QString key = QString::fromUtf8(id.readAllStandardOutput()).trimmed();
      ports.push_back(free_tcp_port());
      stages += QString("%1{\"blocks\":[%2,%3],\"endpoint\":\"tcp://127.0.0.1:%4\",\"key\":\"%5\"}")
                    .arg(i ? "," : "")
                    .arg(blocks[i].first)
                    .arg(blocks[i].second)
                    .arg(ports.back())
                    .arg(key);
    }
    plan_path = dir.filePath("plan.json");
    QFile p(plan_path);
    if (!p.open(QIODevice::WriteOnly)) return false;
    p.write(
        QString("{\"job\":\"%1\",\"pipeline\":0,\"stages\":[%2]}").arg(job_path, stages).toUtf8());
    nodes.resize(blocks.size());
    return true;
  }

  bool start(int i, const QStringList& extra = {}) {
    nodes[i] = std::make_unique<QProcess>();
    nodes[i]->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    nodes[i]->start(
        node_bin(),
        QStringList{"--data-dir", stage_dir(i), "--runtime-dir", runtime_dir(i), "--plan",
                    plan_path, "--stage", QString::number(i), "--contribute", "--threads", "1",
                    "--benchmark-seconds", "0.05", "--telemetry-ms", "200"} +
            extra);
    return nodes[i]->waitForStarted(5000);
  }

  // Starts the last stage first, so every stage finds its successor listening.
  bool start_all(const QStringList& first_stage_extra, const QStringList& all_extra = {}) {
    for (int i = int(blocks.size()) - 1; i >= 0; --i) {
      if (!start(i, (i == 0 ? first_stage_extra : QStringList{}) + all_extra)) return false;
    }
    return true;
  }

  control::ControlClient client(int i) const {
    return control::ControlClient(control::ControlEndpoints::in(runtime_dir(i).toStdString()));
  }

  wire::pb::NodeSnapshot snapshot(int i) const {
    auto c = client(i);
    return c.status(std::chrono::seconds(2)).snapshot;
  }

  // Waits until the first stage has fed all its micro-batches and none is in flight.
  bool wait_finished(int timeout_ms) {
    auto c = client(0);
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeout_ms) {
      auto a = c.status(std::chrono::seconds(2));
      if (a.ok && a.snapshot.stage().finished()) return true;
      if (nodes[0]->state() == QProcess::NotRunning) return false;
      QTest::qWait(100);
    }
    return false;
  }

  // QUIT every stage (each writes its checkpoint) and waits for clean exits.
  bool quit_all() {
    bool ok = true;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (!nodes[i] || nodes[i]->state() == QProcess::NotRunning) continue;
      auto c = client(int(i));
      c.request(wire::pb::ControlRequest::QUIT);
      ok = nodes[i]->waitForFinished(20000) && nodes[i]->exitCode() == 0 && ok;
    }
    return ok;
  }

  ~PipelineHarness() {
    for (auto& n : nodes) {
      if (n && n->state() != QProcess::NotRunning) {
        n->kill();
        n->waitForFinished(5000);
      }
    }
  }
};

}  // namespace rookery::testing
