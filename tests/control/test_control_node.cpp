// The real rookery-node driven through its control API: snapshots, contribute / pause,
// events with sequence numbers and a detected gap, one node per user, clean quit.
#include <QTest>

#include <sys/stat.h>

#include "control/control_client.hpp"
#include "support/processes.hpp"

using namespace rookery;
using namespace std::chrono_literals;
namespace pb = rookery::wire::pb;

class TestControlNode : public QObject {
  Q_OBJECT

  static control::ControlEndpoints endpoints(const testing::NodeProcess& n) {
    return control::ControlEndpoints::in(n.runtime_dir().toStdString());
  }

  static bool wait_state(control::ControlClient& c, pb::NodeState want,
                         pb::NodeSnapshot* out = nullptr) {
    for (int i = 0; i < 150; ++i) {
      auto a = c.status(1s);
      if (a.ok && a.snapshot.state() == want) {
        if (out) *out = a.snapshot;
        return true;
      }
      QTest::qWait(100);
    }
    return false;
  }

 private Q_SLOTS:
  void driveTheNodeThroughItsApi() {
    testing::NodeProcess node;
    QVERIFY(node.start());
    control::ControlClient client(endpoints(node));
    pb::NodeSnapshot snap;
    QVERIFY(wait_state(client, pb::PAUSED, &snap));
    QCOMPARE(snap.pid(), node.process.processId());
    QVERIFY(snap.device().cpu_cores() >= 1);
    QVERIFY(!snap.device().cpu_model().empty());
    QVERIFY(snap.device().measured_gflops() > 0);
    QVERIFY(!snap.device().blas().empty());
    QCOMPARE(snap.device().compute_threads(), 1);
    QCOMPARE(snap.work().work_units(), std::uint64_t{0});

    // The control folder is private to the user.
    struct stat st {};
    QCOMPARE(::stat(node.runtime_dir().toLocal8Bit().constData(), &st), 0);
    QCOMPARE(st.st_mode & 0777, 0700u);

    auto a = client.request(pb::ControlRequest::CONTRIBUTE);
    QVERIFY2(a.ok, a.error.c_str());
    QCOMPARE(a.snapshot.state(), pb::CONTRIBUTING);
    // The worker runs at idle priority: on a busy machine it waits for spare CPU by design.
    QTRY_VERIFY_WITH_TIMEOUT(client.status().snapshot.work().work_units() >= 3, 90000);
    // Each unit is at least one 768^3 matrix product, so the node's FLOP count is real work.
    const auto w = client.status().snapshot.work();
    QVERIFY(w.flops() >= static_cast<double>(w.work_units()) * 2.0 * 768 * 768 * 768);

    a = client.request(pb::ControlRequest::PAUSE);
    QVERIFY(a.ok);
    QCOMPARE(a.snapshot.state(), pb::PAUSED);
    // Compute stops at the next unit boundary: after that, the count stays put.
    QTest::qWait(600);
    const auto units = client.status().snapshot.work().work_units();
    QTest::qWait(800);
    QCOMPARE(client.status().snapshot.work().work_units(), units);

    a = client.request(pb::ControlRequest::QUIT);
    QVERIFY(a.ok);
    QVERIFY(node.process.waitForFinished(10000));
    QCOMPARE(node.process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(node.process.exitCode(), 0);
    QVERIFY(!QFile::exists(node.runtime_dir() + "/control.sock"));
    auto gone = client.status(300ms);
    QVERIFY(!gone.ok);
    QCOMPARE(gone.error, std::string("rookery-node is not running"));
  }

  void eventsRiseByOneAndAGapIsDetected() {
    testing::NodeProcess node;
    QVERIFY(node.start());
    control::ControlClient client(endpoints(node));
    QVERIFY(wait_state(client, pb::PAUSED));
    client.subscribe();
    std::vector<control::ControlClient::Received> got;
    QTRY_VERIFY_WITH_TIMEOUT((got = client.drain_events(), client.stream().last_seq() >= 3), 5000);
    QCOMPARE(client.stream().gaps(), std::uint64_t{0});

    // A state change arrives as an event.
    QVERIFY(client.request(pb::ControlRequest::CONTRIBUTE).ok);
    bool saw_state_change = false;
    QTRY_VERIFY_WITH_TIMEOUT(([&] {
                               for (auto& r : client.wait_events(100ms)) {
                                 if (r.event.kind() == pb::ControlEvent::STATE_CHANGED &&
                                     r.event.snapshot().state() == pb::CONTRIBUTING) {
                                   saw_state_change = true;
                                 }
                               }
                               return saw_state_change;
                             }()),
                             5000);

    // Drop off the feed for a while (a suspended GUI, a reconnect): events are missed.
    const auto before = client.stream().last_seq();
    client.unsubscribe();
    QTest::qWait(700);  // telemetry every 100 ms
    client.subscribe();
    std::optional<control::EventStream::Gap> gap;
    QTRY_VERIFY_WITH_TIMEOUT(([&] {
                               for (auto& r : client.wait_events(100ms)) {
                                 if (r.gap) gap = r.gap;
                               }
                               return gap.has_value();
                             }()),
                             5000);
    QCOMPARE(gap->expected, before + 1);
    QVERIFY(gap->received > before + 1);
    QCOMPARE(client.stream().gaps(), std::uint64_t{1});

    // The client recovers with a fresh snapshot and follows on without further gaps.
    auto s = client.status();
    QVERIFY(s.ok);
    client.stream().resync(s.snapshot.seq());
    QTest::qWait(500);
    client.drain_events();
    QCOMPARE(client.stream().gaps(), std::uint64_t{1});
    QVERIFY(client.request(pb::ControlRequest::QUIT).ok);
    QVERIFY(node.process.waitForFinished(10000));
  }

  void secondNodeForTheSameUserIsRefused() {
    testing::NodeProcess first;
    QVERIFY(first.start());
    control::ControlClient client(endpoints(first));
    QVERIFY(wait_state(client, pb::PAUSED));
    QProcess second;
    second.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    second.start(testing::node_bin(),
                 {"--runtime-dir", first.runtime_dir(), "--data-dir", first.data_dir()});
    QVERIFY(second.waitForFinished(10000));
    QCOMPARE(second.exitCode(), 3);
    QVERIFY(client.status().ok);  // the first one is unharmed
  }

  void sigtermStopsCleanly() {
    testing::NodeProcess node;
    QVERIFY(node.start({"--contribute"}));
    control::ControlClient client(endpoints(node));
    QVERIFY(wait_state(client, pb::CONTRIBUTING));
    node.process.terminate();
    QVERIFY(node.process.waitForFinished(10000));
    QCOMPARE(node.process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(node.process.exitCode(), 0);
  }
};

QTEST_GUILESS_MAIN(TestControlNode)
#include "test_control_node.moc"
