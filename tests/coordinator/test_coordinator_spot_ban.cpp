// A verified ban for a lying pipeline stage, end to end: six rookery-node processes, each too
// small to hold the model alone, join a rookery-coordinator and are planned into two pipelines
// of three with the same cuts (the `uniform` planner), SWARM-wired. One of them lies with every
// message it sends through the pipeline: its activations go forward sign-flipped x10 and its
// gradients go back sign-flipped x10 ('--fault corrupt-work'), so it lies whatever seat the
// planner gives it. The stages that receive its work spot-check it (core/pipeline/spot_check.hpp:
// activations recomputed by the other holder of its blocks; gradients re-derived from what the
// checker sent and what the stage after it confirms sending), refuse it, and name it in their
// heartbeats; the coordinator bans it once a majority of the stages on one side of it agree. It
// is planned out, its joins are refused with the reason, and the honest five train on.
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>

#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"
#include "net/identity.hpp"
#include "net/rpc.hpp"
#include "rookery/envelope.pb.h"
#include "support/coordinator_rpc.hpp"
#include "support/pipeline_harness.hpp"
#include "support/processes.hpp"

using namespace rookery;
using namespace rookery::testing;
namespace pb = wire::pb;

class TestCoordinatorSpotBan : public QObject {
  Q_OBJECT

  static constexpr int kVolunteers = 6;
  static constexpr int kLiar = kVolunteers - 1;

  QTemporaryDir dir_;
  std::unique_ptr<QProcess> coordinator_;
  std::string endpoint_, key_;
  std::vector<std::unique_ptr<QProcess>> nodes_;
  std::vector<QByteArray> output_;
  std::vector<QString> keys_;
  net::SecureContext ctx_{1};
  net::CurveKeyPair me_ = net::CurveKeyPair::generate();

  std::optional<pb::RunStatus> status() { return run_status(ctx_, me_, endpoint_, key_, 10); }

  template <typename Pred>
  std::optional<pb::RunStatus> wait_for(Pred pred, int timeout_ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeout_ms) {
      if (auto s = status(); s && pred(*s)) return s;
      QTest::qWait(300);
    }
    return std::nullopt;
  }

  static std::int64_t total_samples(const pb::RunStatus& s) {
    std::int64_t n = 0;
    for (const auto& node : s.nodes()) n += node.samples();
    return n;
  }

 private Q_SLOTS:
  void aLyingStageIsCaughtByItsNeighboursAndBanned() {
    QVERIFY(dir_.isValid());
    auto job = job::load_job_spec(ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
    job.id = "spot-ban-demo";
    job.micro_batch_size = 8;
    job.staleness = 2;
    const QString job_path = dir_.filePath("job.json");
    {
      QFile f(job_path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray::fromStdString(job::to_json(job)));
    }
    // Half of what the whole model needs: three volunteers make a pipeline.
    const auto need = cluster::model_memory_bytes(coordinator::block_profiles(job), coordinator::training_settings(job));
    const auto memory_mb = std::max<std::int64_t>(1, static_cast<std::int64_t>(0.5 * static_cast<double>(need)) >> 20);
    endpoint_ = "tcp://127.0.0.1:" + std::to_string(free_tcp_port());
    const QString ready = dir_.filePath("ready");
    coordinator_ = std::make_unique<QProcess>();
    coordinator_->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    coordinator_->setStandardOutputFile(QProcess::nullDevice());
    coordinator_->start(coordinator_bin(), {"--bind", QString::fromStdString(endpoint_), "--data-dir",
                                            dir_.filePath("coordinator"), "--ready-file", ready, "--job", job_path,
                                            "--heartbeat-ms", "300", "--averaging-interval-ms", "1000", "--planner",
                                            "uniform"});
    const auto address = wait_for_coordinator_ready(ready, 5000, coordinator_.get());
    QVERIFY2(address, "the coordinator did not start");
    key_ = address->key.toStdString();
    output_.resize(kVolunteers);
    for (int i = 0; i < kVolunteers; ++i) {
      const QString d = dir_.filePath(QString("node%1").arg(i));
      QProcess id;
      id.start(node_bin(), {"--data-dir", d, "--print-identity"});
      QVERIFY(id.waitForFinished(10000));
      keys_.push_back(QString::fromUtf8(id.readAllStandardOutput()).trimmed());
      auto p = std::make_unique<QProcess>();
      p->setProcessChannelMode(QProcess::MergedChannels);
      auto* raw = p.get();
      connect(raw, &QProcess::readyRead, this, [this, raw, i] { output_[std::size_t(i)] += raw->readAll(); });
      QStringList args{"--data-dir", d, "--runtime-dir", d + "/run", "--join", "spot-ban-demo", "--coordinator",
                       QString::fromStdString(endpoint_), "--coordinator-key", QString::fromStdString(key_),
                       "--memory-limit-mb", QString::number(memory_mb), "--contribute", "--threads", "1",
                       "--benchmark-seconds", "0.05"};
      if (i == kLiar) args << "--fault" << "corrupt-work";
      p->start(node_bin(), args);
      QVERIFY(p->waitForStarted(5000));
      nodes_.push_back(std::move(p));
    }
    const auto liar = keys_[kLiar].toStdString();
    // The liar's seat, whichever the planner chose, while it still has one.
    int seat_pipeline = -1, seat_stage = -1;
    bool banned = false;
    std::optional<pb::RunStatus> s;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 150000 && !banned) {
      QTest::qWait(300);
      s = status();
      if (!s) continue;
      for (const auto& n : s->nodes()) {
        if (n.key() == liar && n.pipeline() >= 0) {
          seat_pipeline = n.pipeline();
          seat_stage = n.stage();
        }
      }
      for (const auto& b : s->banned()) banned = banned || b.key() == liar;
    }
    QVERIFY2(banned, "the lying stage was not banned within 150 s");
    QCOMPARE(s->banned_size(), 1);  // nobody honest
    const QString reason = QString::fromStdString(s->banned(0).reason());
    qInfo("the liar (pipeline %d, stage %d of 3) was banned after %.1f s: %s", seat_pipeline + 1, seat_stage + 1,
          t.elapsed() / 1000.0, qPrintable(reason));
    QVERIFY2(seat_stage >= 0, "the liar was never seated");
    QVERIFY2(reason.contains("spot-checks"), "banned for something else than its spot-checks");
    // Which side caught it follows from its seat: a first stage sends only activations, a last
    // stage only gradients.
    if (seat_stage == 0) QVERIFY(reason.contains("activations"));
    if (seat_stage == 2) QVERIFY(reason.contains("gradients"));
    // Planned out, refused when it asks again, and the honest five train on.
    s = wait_for(
        [&](const pb::RunStatus& st) {
          for (const auto& n : st.nodes()) {
            if (n.key() == liar) return false;
          }
          return st.pipelines() >= 1;
        },
        20000);
    QVERIFY2(s, "the banned volunteer is still planned");
    const std::int64_t before = total_samples(*s);
    s = wait_for([&](const pb::RunStatus& st) { return total_samples(st) > before; }, 30000);
    QVERIFY2(s, "the honest volunteers stopped training");
    QTRY_VERIFY_WITH_TIMEOUT(QString::fromUtf8(output_[kLiar]).contains("banned from this job"), 10000);
  }

  void cleanupTestCase() {
    for (auto& p : nodes_) {
      if (p->state() != QProcess::NotRunning) {
        p->terminate();
        if (!p->waitForFinished(20000)) p->kill();
      }
    }
    if (coordinator_ && coordinator_->state() != QProcess::NotRunning) {
      coordinator_->terminate();
      coordinator_->waitForFinished(5000);
    }
  }
};

QTEST_GUILESS_MAIN(TestCoordinatorSpotBan)
#include "test_coordinator_spot_ban.moc"
