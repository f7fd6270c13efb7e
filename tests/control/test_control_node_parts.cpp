// The node's parts in one process, on a hand-set clock: the control API's answers, the
// event stream's numbering, the snooze kept across restarts and the current speed's window.
#include <QTemporaryDir>
#include <QTest>

#include <mutex>

#include "clock/clock.hpp"
#include "node/control_handler.hpp"
#include "node/governor_bridge.hpp"
#include "node/ledger_recorder.hpp"
#include "node/node_status.hpp"
#include "reach/tcp.hpp"
#include "store/database.hpp"

using namespace rookery;
using namespace std::chrono_literals;
namespace pb = rookery::wire::pb;

namespace {
// A node without its threads: the parts wired as NodeService wires them.
struct Parts {
  explicit Parts(const std::filesystem::path& path, const clock::Clock& clock)
      : db(path),
        governor(
            mutex, [](const auto&, const auto&) {}, clock),
        ledger(clock),
        status(config, identity, governor, ledger, clock),
        control(config, identity, mutex, status, governor, ledger) {
    governor.open(db, {});
    std::lock_guard lock(mutex);
    governor.govern_locked();
    status.ready = true;
  }
  pb::ControlReply request(pb::ControlRequest r) {
    pb::ControlReply out;
    control.answer(r, out);
    return out;
  }
  pb::ControlReply request(pb::ControlRequest::Kind kind) {
    pb::ControlRequest r;
    r.set_kind(kind);
    return request(r);
  }

  node::NodeConfig config;
  net::CurveKeyPair identity;
  std::mutex mutex;
  store::Database db;
  node::GovernorBridge governor;
  node::LedgerRecorder ledger;
  node::NodeStatus status;
  node::ControlHandler control;
};

std::filesystem::path db_path(const QTemporaryDir& dir) {
  return dir.filePath("state.db").toStdString();
}

// A unit of work that takes no time: what the ledger counts, without computing.
class NoWork final : public node::Workload {
 public:
  std::string description() const override { return "nothing"; }
  node::WorkUnitResult run_unit() override { return {}; }
  node::WorkCounters counters() const override { return counted; }
  node::WorkCounters counted;  // what the test says it did
};
}  // namespace

class TestControlNodeParts : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void snoozeRange_data() {
    QTest::addColumn<qint64>("seconds");
    QTest::addColumn<bool>("ok");
    QTest::newRow("negative") << qint64{-1} << false;
    QTest::newRow("end the snooze") << qint64{0} << true;
    QTest::newRow("a minute") << qint64{60} << true;
    QTest::newRow("a week") << qint64{7 * 24 * 3600} << true;
    QTest::newRow("past a week") << qint64{7 * 24 * 3600 + 1} << false;
  }
  void snoozeRange() {
    QFETCH(qint64, seconds);
    QFETCH(bool, ok);
    QTemporaryDir dir;
    clock::ManualClock clock;
    Parts node(db_path(dir), clock);
    pb::ControlRequest r;
    r.set_kind(pb::ControlRequest::SNOOZE);
    r.set_snooze_seconds(seconds);
    const auto reply = node.request(r);
    QCOMPARE(reply.ok(), ok);
    QCOMPARE(reply.error().empty(), ok);
    const auto until = ok && seconds > 0 ? clock.unix_ms() + seconds * 1000 : 0;
    QCOMPARE(reply.snapshot().governor().snoozed_until_unix_ms(), until);
  }

  // The snooze is kept in the state database: a node started again is still snoozed, and
  // the snooze ends when the clock passes it.
  void snoozeOutlastsARestart() {
    QTemporaryDir dir;
    clock::ManualClock clock;
    std::int64_t until = 0;
    {
      Parts node(db_path(dir), clock);
      pb::ControlRequest r;
      r.set_kind(pb::ControlRequest::SNOOZE);
      r.set_snooze_seconds(600);
      until = node.request(r).snapshot().governor().snoozed_until_unix_ms();
      QCOMPARE(until, clock.unix_ms() + 600'000);
    }
    Parts again(db_path(dir), clock);
    QCOMPARE(
        again.request(pb::ControlRequest::STATUS).snapshot().governor().snoozed_until_unix_ms(),
        until);
    clock.advance(601s);
    {
      std::lock_guard lock(again.mutex);
      again.governor.govern_locked();
    }
    QCOMPARE(
        again.request(pb::ControlRequest::STATUS).snapshot().governor().snoozed_until_unix_ms(),
        std::int64_t{0});
  }

  void contributeAndPauseChangeTheState() {
    clock::ManualClock clock;
    QTemporaryDir dir;
    Parts node(db_path(dir), clock);
    QCOMPARE(node.request(pb::ControlRequest::STATUS).snapshot().state(), pb::PAUSED);
    auto reply = node.request(pb::ControlRequest::CONTRIBUTE);
    QVERIFY(reply.ok());
    QCOMPARE(reply.snapshot().state(), pb::CONTRIBUTING);
    reply = node.request(pb::ControlRequest::PAUSE);
    QCOMPARE(reply.snapshot().state(), pb::PAUSED);
    QCOMPARE(reply.snapshot().state_why().code(), pb::NODE_PRESS_CONTRIBUTE);
    // Each change of state is an event for the stream.
    std::lock_guard lock(node.mutex);
    const auto events = node.status.take_events_locked();
    int state_changes = 0;
    for (const auto& [kind, text] : events) {
      if (kind == pb::ControlEvent::STATE_CHANGED && text.starts_with("state: ")) ++state_changes;
    }
    QCOMPARE(state_changes, 2);
  }

  void leaveJobNeedsAJob() {
    clock::ManualClock clock;
    QTemporaryDir dir;
    Parts node(db_path(dir), clock);
    const auto reply = node.request(pb::ControlRequest::LEAVE_JOB);
    QVERIFY(!reply.ok());
    QCOMPARE(reply.error(), std::string("this node has joined no coordinator's job"));
    QCOMPARE(reply.snapshot().state(), pb::PAUSED);
  }

  // The first run's probe as a control command: the node dials with its own identity, and
  // says what came of it as a code (here nobody listens, and a malformed key).
  void probeCoordinatorAnswersWithACode() {
    clock::ManualClock clock;
    QTemporaryDir dir;
    Parts node(db_path(dir), clock);
    node.identity = net::CurveKeyPair::generate();
    std::uint16_t closed = 0;
    {
      const reach::Fd listener = reach::listen_tcp("127.0.0.1", 0);
      closed = reach::local_port(listener.get());
    }
    pb::ControlRequest r;
    r.set_kind(pb::ControlRequest::PROBE_COORDINATOR);
    r.mutable_probe()->set_endpoint("tcp://127.0.0.1:" + std::to_string(closed));
    r.mutable_probe()->set_key(net::CurveKeyPair::generate().public_key);
    r.mutable_probe()->set_job_id("j");
    r.mutable_probe()->set_timeout_ms(300);
    auto reply = node.request(r);
    QVERIFY(reply.ok());
    QCOMPARE(reply.probe_result().outcome(), pb::CoordinatorProbeResult::UNREACHABLE);
    QVERIFY(reply.has_snapshot());
    r.mutable_probe()->set_key("not a key");
    reply = node.request(r);
    QCOMPARE(reply.probe_result().outcome(), pb::CoordinatorProbeResult::FAILED);
    QCOMPARE(reply.probe_result().detail(), std::string("the key is not a Z85 key"));
  }

  // Events rise by exactly one, and each carries the snapshot with its own number.
  void eventsAreNumberedOneByOne() {
    clock::ManualClock clock;
    QTemporaryDir dir;
    Parts node(db_path(dir), clock);
    std::lock_guard lock(node.mutex);
    for (std::uint64_t seq = 1; seq <= 3; ++seq) {
      const auto ev = node.status.next_event_locked(pb::ControlEvent::TELEMETRY, {});
      QCOMPARE(ev.seq(), seq);
      QCOMPARE(ev.snapshot().seq(), seq);
      QCOMPARE(ev.unix_ms(), clock.unix_ms());
    }
  }

  // The current speed counts the units of the last five seconds only.
  void currentSpeedWindow_data() {
    QTest::addColumn<int>("after_ms");
    QTest::addColumn<bool>("contributing");
    QTest::addColumn<double>("gflops");
    QTest::newRow("over the first second") << 500 << true << 2.0;
    QTest::newRow("over two seconds") << 2000 << true << 1.0;
    QTest::newRow("units older than five seconds") << 6000 << true << 0.0;
    QTest::newRow("paused") << 2000 << false << 0.0;
  }
  void currentSpeedWindow() {
    QFETCH(int, after_ms);
    QFETCH(bool, contributing);
    QFETCH(double, gflops);
    clock::ManualClock clock;
    node::LedgerRecorder ledger(clock);
    NoWork unit;
    unit.counted.flops = 2e9;
    unit.counted.busy_seconds = 0.1;
    ledger.record_locked(unit);
    clock.advance(std::chrono::milliseconds(after_ms));
    ledger.update_rate_locked(contributing);
    QCOMPARE(ledger.work_locked().current_gflops(), gflops);
    QCOMPARE(ledger.work_locked().work_units(), std::uint64_t{1});
  }
};

QTEST_APPLESS_MAIN(TestControlNodeParts)
#include "test_control_node_parts.moc"
