// A verified ban with real processes: four volunteers that each hold the whole model train as
// four one-stage pipelines averaging every second; one of them lies (its averaging updates are
// sign-flipped x1000). CenteredClip keeps the lie out of each honest aggregate, each honest
// node excludes the liar after three rounds and reports it in its heartbeat, and the
// coordinator bans the liar once a majority of its ring partners do: it is planned out, its
// joins are refused with the reason, and the honest volunteers train on.
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>

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

class TestCoordinatorBan : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::unique_ptr<QProcess> coordinator_;
  std::string endpoint_, key_;
  std::vector<std::unique_ptr<QProcess>> nodes_;
  std::vector<QByteArray> output_;
  std::vector<QString> keys_;
  net::SecureContext ctx_{1};
  net::CurveKeyPair me_ = net::CurveKeyPair::generate();

  std::optional<pb::RunStatus> status() { return run_status(ctx_, me_, endpoint_, key_, 10); }

 private Q_SLOTS:
  void aLiarIsBannedByItsRingPartnersAndTheRestTrainOn() {
    QVERIFY(dir_.isValid());
    auto job = job::load_job_spec(ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
    job.id = "ban-demo";
    job.micro_batch_size = 8;
    job.staleness = 1;
    const QString job_path = dir_.filePath("job.json");
    {
      QFile f(job_path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray::fromStdString(job::to_json(job)));
    }
    endpoint_ = "tcp://127.0.0.1:" + std::to_string(free_tcp_port());
    const QString ready = dir_.filePath("ready");
    coordinator_ = std::make_unique<QProcess>();
    coordinator_->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    coordinator_->setStandardOutputFile(QProcess::nullDevice());
    coordinator_->start(coordinator_bin(), {"--bind", QString::fromStdString(endpoint_), "--data-dir",
                                            dir_.filePath("coordinator"), "--ready-file", ready, "--job", job_path,
                                            "--heartbeat-ms", "300", "--averaging-interval-ms", "1000"});
    const auto address = wait_for_coordinator_ready(ready, 5000, coordinator_.get());
    QVERIFY2(address, "the coordinator did not start");
    key_ = address->key.toStdString();
    output_.resize(4);
    for (int i = 0; i < 4; ++i) {
      const QString d = dir_.filePath(QString("node%1").arg(i));
      QProcess id;
      id.start(node_bin(), {"--data-dir", d, "--print-identity"});
      QVERIFY(id.waitForFinished(10000));
      keys_.push_back(QString::fromUtf8(id.readAllStandardOutput()).trimmed());
      auto p = std::make_unique<QProcess>();
      p->setProcessChannelMode(QProcess::MergedChannels);
      auto* raw = p.get();
      connect(raw, &QProcess::readyRead, this, [this, raw, i] { output_[std::size_t(i)] += raw->readAll(); });
      QStringList args{"--data-dir", d, "--runtime-dir", d + "/run", "--join", "ban-demo", "--coordinator",
                       QString::fromStdString(endpoint_), "--coordinator-key", QString::fromStdString(key_),
                       "--contribute", "--threads", "1", "--benchmark-seconds", "0.05"};
      if (i == 3) args << "--fault" << "sign-flip-averaging";
      p->start(node_bin(), args);
      QVERIFY(p->waitForStarted(5000));
      nodes_.push_back(std::move(p));
    }
    const auto liar = keys_[3].toStdString();
    QElapsedTimer t;
    t.start();
    std::optional<pb::RunStatus> s;
    bool banned = false;
    while (t.elapsed() < 120000 && !banned) {
      QTest::qWait(500);
      s = status();
      for (int i = 0; s && i < s->banned_size(); ++i) banned = banned || s->banned(i).key() == liar;
    }
    QVERIFY2(banned, "the liar was not banned within 120 s");
    qInfo("banned after %.1f s: %s", t.elapsed() / 1000.0, s->banned(0).reason().c_str());
    QCOMPARE(s->banned_size(), 1);  // nobody honest
    // Planned out, refused when it asks again, and the honest three train on.
    const auto after = [&](const pb::RunStatus& st) {
      for (const auto& n : st.nodes()) {
        if (n.key() == liar) return false;
      }
      return st.nodes_size() == 3 && st.pipelines() >= 1;
    };
    QElapsedTimer t2;
    t2.start();
    while (t2.elapsed() < 20000 && !(s && after(*s))) {
      QTest::qWait(300);
      s = status();
    }
    QVERIFY2(s && after(*s), "the banned volunteer is still planned");
    std::int64_t before = 0;
    for (const auto& n : s->nodes()) before += n.samples();
    QTest::qWait(6000);
    s = status();
    QVERIFY(s);
    std::int64_t later = 0;
    for (const auto& n : s->nodes()) later += n.samples();
    QVERIFY2(later > before, "the honest volunteers stopped training");
    QVERIFY2(QString::fromUtf8(output_[3]).contains("banned from this job"),
             "the liar's join was not refused with the reason");
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

QTEST_GUILESS_MAIN(TestCoordinatorBan)
#include "test_coordinator_ban.moc"
