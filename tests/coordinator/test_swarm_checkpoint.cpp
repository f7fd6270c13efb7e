// Swarm checkpoints with real processes: two rookery-node volunteers, each
// able to hold about 70% of the model, form one pipeline of two stages under a real
// rookery-coordinator; no block has a second holder. Each checkpoints its shard every second.
//
// - The first stage's volunteer is killed with SIGKILL and started again in its folder before
//   the coordinator gives up on it: the plan still holds, so it takes its seat again, and its
//   blocks come back from its checkpoint (nobody else holds them), not from the job's initial
//   weights. The loss of the first micro-batches through it is the loss before the kill, not
//   a restart's (ln 256).
// - Its checkpoint damaged (a flipped byte) while it is down: the node says so, starts without
//   it, and trains.
// - The model archive: with a third volunteer, the coordinator collects a
//   snapshot of the whole model every second. The first stage's volunteer is killed for good:
//   in the next plan nobody holds its blocks, and whoever takes them fetches them from the
//   coordinator's archive, not from the job's initial weights; the loss goes on from where
//   it was. The run's status names the blocks that came back, and the coordinator's evaluation
//   of its snapshots: a held-out loss well below an untrained model's, and text it writes; the
//   owner's dashboard, rendered by headless Chromium, shows both, and no volunteer's key or
//   endpoint.
//   The archive's newest snapshot exports as a model PyTorch loads.
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>

#include "cluster/planning.hpp"
#include "control/control_client.hpp"
#include "coordinator/swarm_planner.hpp"
#include "coordinator/model_archive.hpp"
#include "support/headless_chromium.hpp"
#include "job/job_spec.hpp"
#include "model/cost.hpp"
#include "net/identity.hpp"
#include "rookery/envelope.pb.h"
#include "support/demo_job.hpp"
#include "support/swarm_test.hpp"

using namespace rookery;
using namespace rookery::testing;
namespace pb = wire::pb;

namespace {
const QString kJob = "swarm-checkpoint";
}

class TestSwarmCheckpoint : public SwarmTest {
  Q_OBJECT

  QStringList node_args_;
  job::JobSpec job_;
  QByteArray coordinator_out_;  // its standard output so far

  std::int64_t now_ms() const { return QDateTime::currentMSecsSinceEpoch(); }

  // The mean training loss of the next `count` micro-batches volunteer `i` (the last stage)
  // completes, from its control socket.
  std::optional<double> next_losses(int i, int count, int timeout_ms) {
    control::ControlClient c(
        control::ControlEndpoints::in((volunteers_.dir(i) + "/run").toStdString()));
    QElapsedTimer t;
    t.start();
    std::uint64_t seen = 0;
    double sum = 0;
    int n = 0;
    while (t.elapsed() < timeout_ms) {
      const auto a = c.status(std::chrono::seconds(2));
      if (a.ok && a.snapshot.work().last_loss() > 0) {
        const auto samples = a.snapshot.work().samples();
        if (seen != 0 && samples != seen) {
          sum += a.snapshot.work().last_loss();
          if (++n == count) return sum / n;
        }
        seen = samples;
      }
      QTest::qWait(50);
    }
    return std::nullopt;
  }

  // Index of the volunteer seated at `stage` of the one pipeline, once both train.
  int trained_stage(int stage, int timeout_ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeout_ms) {
      if (const auto s = status(); s && s->pipelines() == 1) {
        int training = 0, at = -1;
        for (const auto& n : s->nodes()) {
          training += n.pipeline() >= 0 && n.samples() > 0;
          if (n.pipeline() == 0 && n.stage() == stage) {
            for (std::size_t i = 0; i < volunteers_.keys.size(); ++i)
              if (volunteers_.keys[i].toStdString() == n.key()) at = int(i);
          }
        }
        if (training == 2 && at >= 0) return at;
      }
      QTest::qWait(300);
    }
    return -1;
  }

  int index_of(const std::string& key) const {
    for (std::size_t i = 0; i < volunteers_.keys.size(); ++i)
      if (volunteers_.keys[i].toStdString() == key) return int(i);
    return -1;
  }

  // Where the coordinator serves its dashboard (it prints "DASHBOARD <url>").
  QString dashboard_url() {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 10000) {
      coordinator_out_ += coordinator_.process.readAllStandardOutput();
      const auto at = coordinator_out_.indexOf("DASHBOARD ");
      const auto end = at < 0 ? -1 : coordinator_out_.indexOf('\n', at);
      if (end > at) return QString::fromUtf8(coordinator_out_.mid(at + 10, end - at - 10));
      coordinator_.process.waitForReadyRead(200);
    }
    return {};
  }

  std::filesystem::path archive_dir() const {
    return std::filesystem::path(coordinator_.dir.filePath("data").toStdString()) / "archive";
  }

  std::filesystem::path checkpoint_of(int i) const {
    return std::filesystem::path(volunteers_.dir(i).toStdString()) / "checkpoints" /
           ("swarm-" + kJob.toStdString() + ".ckpt");
  }

  // Kills volunteer `i`, lets `while_down` act, and starts it again; returns what it printed
  // since, once `until` appears in it (empty after 60 s).
  QString restart(int i, const std::function<void()>& while_down, const QString& until) {
    auto& p = *volunteers_.processes[std::size_t(i)];
    ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
    p.waitForFinished(5000);
    if (while_down) while_down();
    auto& out = volunteers_.output[std::size_t(i)];
    const auto from = out.size();
    if (!volunteers_.start(i, kJob, node_args_)) return {};
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000) {
      const QString since = QString::fromUtf8(out.mid(from));
      if (since.contains(until)) return since;
      QTest::qWait(200);
    }
    qWarning("%s", out.mid(from).constData());
    return {};
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    const auto job = write_small_demo_job(dir_.filePath("job.json"), kJob.toStdString());
    QVERIFY(job);
    job_ = *job;
    // Each may hold 70% of the model: two form one pipeline, and neither holds it alone.
    const auto need = cluster::model_memory_bytes(coordinator::block_profiles(*job),
                                                  coordinator::training_settings(*job));
    node_args_ = {
        "--memory-limit-mb",
        QString::number(std::max<std::int64_t>(1, std::int64_t(0.7 * double(need)) >> 20)),
        "--checkpoint-interval",
        "1",
        "--telemetry-ms",
        "200"};
    // Slow to give up on a volunteer: a restart within it finds the plan as it was.
    QVERIFY(
        start_swarm(dir_.filePath("volunteers"),
                    {"--job", dir_.filePath("job.json"), "--heartbeat-ms", "300", "--dead-after-ms",
                     "15000", "--planner", "uniform", "--archive-interval", "1",
                     "--dashboard-port", "0"}));
    for (int i = 0; i < 2; ++i) QVERIFY(volunteers_.add(kJob, node_args_));
  }

  void aKilledVolunteerResumesItsBlocksFromItsCheckpoint() {
    const int first = trained_stage(0, 90000);
    QVERIFY2(first >= 0, "two volunteers did not form a training pipeline within 90 s");
    const int last = 1 - first;
    // Trained for a while: the loss has left ln 256 (5.55) well behind.
    QTest::qWait(20000);
    const auto trained = next_losses(last, 12, 60000);
    QVERIFY(trained);
    QVERIFY2(*trained < 4.5, qPrintable(QString("the run's loss is still %1").arg(*trained)));
    QVERIFY(std::filesystem::exists(checkpoint_of(first)));

    const auto killed_at = now_ms();
    const QString out = restart(first, {}, "taken back from this node's checkpoint");
    QVERIFY2(!out.isEmpty(), "the restarted volunteer did not take its blocks from its checkpoint");
    QVERIFY2(out.contains("swarm checkpoint"), qPrintable(out));
    QVERIFY2(!out.contains("start from the job's initial weights"), qPrintable(out));
    QVERIFY(trained_stage(0, 60000) == first);  // the same seat: the plan held
    // The loss of the first micro-batches through it: the run's, not a restart's.
    const auto after = next_losses(last, 12, 60000);
    QVERIFY(after);
    qInfo(
        "loss %.3f before the SIGKILL, %.3f right after the restart (ln 256 = %.3f); "
        "%.1f s from the kill to training from the checkpoint",
        *trained, *after, std::log(256.0), (now_ms() - killed_at) / 1000.0);
    QVERIFY2(*after < *trained + 0.4,
             qPrintable(QString("the loss rose from %1 to %2").arg(*trained).arg(*after)));
  }

  void aDamagedCheckpointIsRefusedAndTheNodeTrainsWithoutIt() {
    const int first = trained_stage(0, 60000);
    QVERIFY(first >= 0);
    const auto path = checkpoint_of(first);
    const QString out = restart(
        first,
        [&] {
          std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
          f.seekg(100);
          char c = 0;
          f.read(&c, 1);
          f.seekp(100);
          c = static_cast<char>(c ^ 0x10);
          f.write(&c, 1);
        },
        ", stage ");
    QVERIFY2(out.contains("checksum mismatch") && out.contains("starts without it"),
             qPrintable(out));
    QVERIFY2(!out.contains("taken back from this node's checkpoint"), qPrintable(out));
    QVERIFY(trained_stage(0, 60000) >= 0);
  }

  void aBlockWhoseEveryHolderLeftComesBackFromTheArchive() {
    const auto known = status();
    QVERIFY(known);
    QVERIFY(volunteers_.add(kJob, node_args_));
    // Every seated volunteer trains under the plan that knows the newcomer (a new one, or the
    // same layout after a while: it may stay unseated), and the archive holds it.
    std::optional<pb::RunStatus> before;
    std::vector<std::int64_t> counts;
    for (const auto& c : model::block_costs(job_.model)) counts.push_back(c.params);
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 90000 && !before) {
      const auto s = status();
      const bool replanned =
          s && (s->plan_version() > known->plan_version() || t.elapsed() > 20000);
      if (s && replanned && s->pipelines() == 1 && s->nodes_size() == 3) {
        bool training = true;
        for (const auto& n : s->nodes()) {
          if (n.pipeline() >= 0)
            training = training && n.samples() > 0 && n.plan_version() == s->plan_version();
        }
        const coordinator::ModelArchive archive(archive_dir(), job_.id, counts);
        if (training && archive.latest() && archive.latest()->plan_version == s->plan_version())
          before = s;
      }
      QTest::qWait(500);
    }
    QVERIFY2(before, "three volunteers did not train under one plan with it archived in 90 s");
    QTest::qWait(3000);
    int victim = -1, last = -1;
    std::int64_t from = 0, to = 0;
    int last_stage = -1;
    for (const auto& n : before->nodes()) {
      if (n.pipeline() < 0) continue;
      const int i = index_of(n.key());
      if (n.stage() == 0) victim = i, from = n.first_block(), to = n.last_block();
      if (n.stage() > last_stage) last_stage = n.stage(), last = i;
    }
    QVERIFY(victim >= 0 && last >= 0 && victim != last);
    const auto trained = next_losses(last, 12, 60000);
    QVERIFY(trained);

    std::vector<qsizetype> marks;
    for (const auto& out : volunteers_.output) marks.push_back(out.size());
    auto& p = *volunteers_.processes[std::size_t(victim)];
    ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
    p.waitForFinished(5000);
    // The next plan, without it, trains.
    std::optional<pb::RunStatus> after;
    t.restart();
    while (t.elapsed() < 90000 && !after) {
      const auto s = status();
      if (s && s->plan_version() > before->plan_version() && s->pipelines() == 1) {
        bool training = true, seated = false;
        for (const auto& n : s->nodes()) {
          if (n.pipeline() < 0) continue;
          seated = true;
          training =
              training && index_of(n.key()) != victim && n.plan_version() == s->plan_version();
        }
        if (seated && training) after = s;
      }
      QTest::qWait(300);
    }
    QVERIFY2(after, "the swarm did not train again without the first stage's volunteer in 90 s");
    // Its blocks came from the archive.
    const QString archive_words =
        QString("from %1").arg(QString::fromStdString(net::short_key(coordinator_.key)));
    QString taken;
    int new_last = -1, new_last_stage = -1;
    for (const auto& n : after->nodes()) {
      if (n.pipeline() < 0) continue;
      const int i = index_of(n.key());
      if (n.stage() > new_last_stage) new_last_stage = n.stage(), new_last = i;
      const QString out =
          QString::fromUtf8(volunteers_.output[std::size_t(i)].mid(marks[std::size_t(i)]));
      QVERIFY2(!out.contains("start from the job's initial weights"), qPrintable(out));
      if (n.first_block() < to && n.last_block() > from && out.contains(archive_words))
        taken += out;
    }
    QVERIFY2(!taken.isEmpty(), "no volunteer fetched the lost blocks from the archive");
    const auto resumed = next_losses(new_last, 12, 60000);
    QVERIFY(resumed);
    qInfo(
        "blocks [%lld, %lld) lost with their only holder came back from the archive; loss %.3f "
        "before, %.3f after (ln 256 = %.3f)",
        static_cast<long long>(from), static_cast<long long>(to), *trained, *resumed,
        std::log(256.0));
    QVERIFY2(*resumed < *trained + 0.4,
             qPrintable(QString("the loss rose from %1 to %2").arg(*trained).arg(*resumed)));

    // The run says so, and judges the archived model on held-out text: its validation curve,
    // and what it writes.
    std::optional<pb::RunStatus> judged;
    t.restart();
    while (t.elapsed() < 60000 && !judged) {
      const auto s = status();
      if (s && s->archive().restorations_size() > 0 && s->has_evaluation() &&
          s->validation_size() >= 2)
        judged = s;
      else
        QTest::qWait(500);
    }
    QVERIFY2(judged, "the run's status shows no restoration, or no evaluation, within 60 s");
    bool named = false;
    for (const auto& r : judged->archive().restorations())
      named = named || (r.first_block() < to && r.last_block() > from && r.snapshot() > 0);
    QVERIFY2(named, "the restorations do not name the lost blocks");
    const auto& e = judged->evaluation();
    qInfo("snapshot %llu: held-out loss %.3f over %lld samples; the model writes \"%s\" after "
          "\"%s\"",
          static_cast<unsigned long long>(e.snapshot()), e.validation_loss(),
          static_cast<long long>(e.held_out_samples()), e.text().c_str(), e.prompt().c_str());
    QVERIFY2(e.validation_loss() < 4.5 && e.held_out_samples() > 0,
             qPrintable(QString("held-out loss %1").arg(e.validation_loss())));
    QVERIFY(!e.prompt().empty() && e.text().size() >= 100);

    // The owner's dashboard, rendered by a real browser, shows the same, and no volunteer's key
    // or endpoint.
    const QString url = dashboard_url();
    QVERIFY2(url.startsWith("http://127.0.0.1:"), qPrintable(url));
    testing::HeadlessChromium browser;
    QVERIFY2(browser.available(), "chromium is not installed (scripts/install-deps.sh)");
    const QString dom = QString::fromUtf8(browser.run(url, {"--dump-dom"}));
    QVERIFY2(QRegularExpression("<body[^>]*data-updates=\"[1-9]").match(dom).hasMatch(),
             qPrintable(dom.left(3000)));
    QVERIFY2(dom.contains(QString("data-first-block=\"%1\"").arg(from)), qPrintable(dom));
    QVERIFY2(dom.contains("id=\"sample-prompt\"") && dom.contains("id=\"sample-text\""),
             qPrintable(dom));
    const auto word = QString::fromStdString(e.prompt()).section(' ', 0, 0);
    QVERIFY2(dom.contains(word.toHtmlEscaped()), qPrintable(word));
    QStringList secrets(volunteers_.keys.begin(), volunteers_.keys.end());
    secrets << QString::fromStdString(coordinator_.key) << "tcp://";
    for (const auto& secret : secrets) QVERIFY2(!dom.contains(secret), qPrintable(secret));

    // The run's model, from the archive, as a folder PyTorch loads.
    QProcess exporter;
    exporter.setProcessChannelMode(QProcess::MergedChannels);
    exporter.start(coordinator_bin(), {"--job", dir_.filePath("job.json"), "export", "--from",
                                       QString::fromStdString(archive_dir().string()), "--out",
                                       dir_.filePath("exported")});
    QVERIFY(exporter.waitForFinished(60000));
    const QString said = QString::fromUtf8(exporter.readAll());
    QVERIFY2(exporter.exitCode() == 0 && said.contains("model archive snapshot"), qPrintable(said));
    QVERIFY(QFile::exists(dir_.filePath("exported/model.safetensors")));
    QVERIFY(QFile::exists(dir_.filePath("exported/config.json")));
  }
};

QTEST_GUILESS_MAIN(TestSwarmCheckpoint)
#include "test_swarm_checkpoint.moc"
