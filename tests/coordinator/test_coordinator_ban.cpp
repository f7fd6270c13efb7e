// A verified ban with real processes: four volunteers that each hold the whole model train as
// four one-stage pipelines averaging every second; one of them lies (its averaging updates are
// sign-flipped x1000). CenteredClip keeps the lie out of each honest aggregate, each honest
// node excludes the liar after three rounds and reports it in its heartbeat, and the
// coordinator bans the liar once a majority of its ring partners do: it is planned out, its
// joins are refused with the reason, and the honest volunteers train on.
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>

#include "job/job_spec.hpp"
#include "net/identity.hpp"
#include "net/rpc.hpp"
#include "rookery/envelope.pb.h"
#include "support/coordinator_rpc.hpp"
#include "support/demo_job.hpp"
#include "support/processes.hpp"
#include "support/swarm_test.hpp"

using namespace rookery;
using namespace rookery::testing;
namespace pb = wire::pb;

class TestCoordinatorBan : public SwarmTest {
  Q_OBJECT

 private Q_SLOTS:
  void aLiarIsBannedByItsRingPartnersAndTheRestTrainOn() {
    QVERIFY(dir_.isValid());
    const QString job_path = dir_.filePath("job.json");
    QVERIFY(write_demo_job(job_path, "ban-demo", [](job::JobSpec& j) {
      j.micro_batch_size = 8;
      j.staleness = 1;
    }));
    QVERIFY2(start_swarm(dir_.path(), {"--job", job_path, "--heartbeat-ms", "300",
                                       "--averaging-interval-ms", "1000"}),
             "the coordinator did not start");
    for (int i = 0; i < 4; ++i) {
      QVERIFY(volunteers_.add(
          "ban-demo", i == 3 ? QStringList{"--fault", "sign-flip-averaging"} : QStringList{}));
    }
    const auto liar = volunteers_.keys[3].toStdString();
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
    QVERIFY2(QString::fromUtf8(volunteers_.output[3]).contains("banned from this job"),
             "the liar's join was not refused with the reason");
  }
};

QTEST_GUILESS_MAIN(TestCoordinatorBan)
#include "test_coordinator_ban.moc"
