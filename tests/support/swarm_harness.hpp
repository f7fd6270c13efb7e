#pragma once
// Runs several static pipelines of real rookery-node processes on loopback, training one job
// and averaging across pipelines in multi-rings: writes the job and a "pipelines" plan (keys
// from each node's --print-identity, a pipeline port and a ring port per node), starts and
// stops the nodes, and reads their checkpoints.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "control/control_client.hpp"
#include "support/pipeline_harness.hpp"
#include "support/processes.hpp"

namespace rookery::testing {

struct SwarmHarness {
  using Blocks = std::vector<std::pair<int, int>>;
  QTemporaryDir dir;
  QString job_path;
  QString plan_path;
  std::vector<Blocks> pipelines;
  std::vector<std::unique_ptr<QProcess>> nodes;  // index(p, s)
  std::vector<QString> keys;                     // index(p, s): each node's public key

  int index(int p, int s) const {
    int i = 0;
    for (int q = 0; q < p; ++q) i += int(pipelines[std::size_t(q)].size());
    return i + s;
  }
  QString node_dir(int p, int s) const { return dir.filePath(QString("p%1s%2").arg(p).arg(s)); }
  QString runtime_dir(int p, int s) const {
    return dir.filePath(QString("run-p%1s%2").arg(p).arg(s));
  }
  std::filesystem::path checkpoint(int p, int s, const std::string& job_id) const {
    const auto& b = pipelines[std::size_t(p)][std::size_t(s)];
    return std::filesystem::path(node_dir(p, s).toStdString()) / "checkpoints" /
           (job_id + "-p" + std::to_string(p) + "-b" + std::to_string(b.first) + "-" +
            std::to_string(b.second) + ".ckpt");
  }

  bool prepare(const QString& job_json, std::vector<Blocks> plan, int averaging_interval_ms) {
    pipelines = std::move(plan);
    job_path = dir.filePath("job.json");
    {
      QFile f(job_path);
      if (!f.open(QIODevice::WriteOnly)) return false;
      f.write(job_json.toUtf8());
    }
    QString pj;
    for (std::size_t p = 0; p < pipelines.size(); ++p) {
      QString stages;
      for (std::size_t s = 0; s < pipelines[p].size(); ++s) {
        QProcess id;
        id.start(node_bin(), {"--data-dir", node_dir(int(p), int(s)), "--print-identity"});
        if (!id.waitForFinished(10000) || id.exitCode() != 0) return false;
        const QString key = QString::fromUtf8(id.readAllStandardOutput()).trimmed();
        keys.push_back(key);
        stages +=
            QString(
                R"(%1{"blocks":[%2,%3],"endpoint":"tcp://127.0.0.1:%4","reduce_endpoint":"tcp://127.0.0.1:%5","key":"%6"})")
                .arg(s ? "," : "")
                .arg(pipelines[p][s].first)
                .arg(pipelines[p][s].second)
                .arg(free_tcp_port())
                .arg(free_tcp_port())
                .arg(key);
      }
      pj += QString(R"(%1{"stages":[%2]})").arg(p ? "," : "", stages);
    }
    plan_path = dir.filePath("plan.json");
    QFile f(plan_path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    // One multi-arg pass: a Z85 key may contain "%2", which a second .arg() would replace.
    f.write(QString(R"({"job":"%1","pipelines":[%2],"averaging_interval_ms":%3})")
                .arg(job_path, pj, QString::number(averaging_interval_ms))
                .toUtf8());
    nodes.resize(std::size_t(index(int(pipelines.size()), 0)));
    return true;
  }

  bool start(int p, int s, const QStringList& extra = {}) {
    auto& n = nodes[std::size_t(index(p, s))];
    n = std::make_unique<QProcess>();
    n->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    n->start(node_bin(),
             QStringList{"--data-dir", node_dir(p, s), "--runtime-dir", runtime_dir(p, s), "--plan",
                         plan_path, "--stage", QString::number(s), "--contribute", "--threads", "1",
                         "--benchmark-seconds", "0.05", "--telemetry-ms", "200"} +
                 extra);
    return n->waitForStarted(5000);
  }

  // Last stages first, so every stage finds its successor listening.
  bool start_all(const QStringList& first_stage_extra) {
    for (int p = 0; p < int(pipelines.size()); ++p) {
      for (int s = int(pipelines[std::size_t(p)].size()) - 1; s >= 0; --s) {
        if (!start(p, s, s == 0 ? first_stage_extra : QStringList{})) return false;
      }
    }
    return true;
  }

  control::ControlClient client(int p, int s) const {
    return control::ControlClient(control::ControlEndpoints::in(runtime_dir(p, s).toStdString()));
  }

  wire::pb::NodeSnapshot snapshot(int p, int s) const {
    return client(p, s).status(std::chrono::seconds(2)).snapshot;
  }

  // Waits until every pipeline's first stage has fed all its micro-batches, none in flight.
  bool wait_finished(int timeout_ms) {
    QElapsedTimer t;
    t.start();
    for (int p = 0; p < int(pipelines.size()); ++p) {
      auto c = client(p, 0);
      for (;;) {
        if (t.elapsed() > timeout_ms) return false;
        auto a = c.status(std::chrono::seconds(2));
        if (a.ok && a.snapshot.stage().finished()) break;
        if (nodes[std::size_t(index(p, 0))]->state() == QProcess::NotRunning) return false;
        QTest::qWait(100);
      }
    }
    return true;
  }

  // QUIT every node (each writes its checkpoint; a ring round still running ends within
  // its timeouts) and waits for clean exits.
  bool quit_all() {
    for (int p = 0; p < int(pipelines.size()); ++p) {
      for (int s = 0; s < int(pipelines[std::size_t(p)].size()); ++s) {
        auto& n = nodes[std::size_t(index(p, s))];
        if (n && n->state() != QProcess::NotRunning)
          client(p, s).request(wire::pb::ControlRequest::QUIT);
      }
    }
    bool ok = true;
    for (auto& n : nodes) {
      if (!n || n->state() == QProcess::NotRunning) continue;
      ok = n->waitForFinished(30000) && n->exitCode() == 0 && ok;
    }
    return ok;
  }

  ~SwarmHarness() {
    for (auto& n : nodes) {
      if (n && n->state() != QProcess::NotRunning) {
        n->kill();
        n->waitForFinished(5000);
      }
    }
  }
};

}  // namespace rookery::testing
