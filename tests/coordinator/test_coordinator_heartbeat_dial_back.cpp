// A join that reports where it may be reached is dialled back, which takes the whole dial-back
// timeout (1.5 s) when nothing answers. The coordinator defers that join's reply and dials on
// a thread of its own, so its request thread answers heartbeats and other joins meanwhile; and
// the Sybil caps count the joins in flight, so joins waiting for their dial-back together
// cannot exceed them. An in-process coordinator on its real CURVE socket, volunteers played
// with their own keys; caps of 2 per address, loopback counted.
#include <QTest>

#include <chrono>
#include <future>
#include <thread>

#include "support/coordinator_rpc.hpp"
#include "support/inprocess_coordinator.hpp"

using namespace rookery;
using namespace rookery::testing;
using namespace std::chrono_literals;

namespace {

// A join whose candidate nobody answers: an address for documentation (RFC 5737), which no
// host holds (loopback candidates are never dialled).
wire::pb::Envelope unreachable_join(const std::string& job_id) {
  auto e = join_request(job_id, 41003, 50e9, 1 << 30, 1e9, 1e-3);
  e.mutable_join()->mutable_reach()->add_hosts("192.0.2.1");
  return e;
}

struct Timed {
  std::optional<wire::pb::Envelope> reply;
  std::chrono::duration<double> took{};
};

Timed timed_request(net::SecureContext& ctx, const net::CurveKeyPair& me,
                    const InProcessCoordinator& c, wire::pb::Envelope e) {
  const auto start = std::chrono::steady_clock::now();
  Timed t;
  t.reply = coordinator_request(ctx, me, c.endpoint(), c.key(), std::move(e), 5s);
  t.took = std::chrono::steady_clock::now() - start;
  return t;
}

}  // namespace

class TestCoordinatorHeartbeatDialBack : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void aJoinBeingDialledBackHoldsUpNobody() {
    InProcessCoordinator coordinator("dial-back", [](coordinator::CoordinatorConfig& c) {
      c.caps = {2, 0, true};
      c.archive_interval = 0ms;
    });
    QVERIFY(coordinator.ok());
    net::SecureContext ctx;
    const auto a = net::CurveKeyPair::generate(), b = net::CurveKeyPair::generate(),
               c = net::CurveKeyPair::generate();
    const auto& job = coordinator.job().id;

    const auto joined =
        timed_request(ctx, a, coordinator, join_request(job, 41000, 50e9, 1 << 30, 1e9, 1e-3));
    QVERIFY(joined.reply && joined.reply->join_reply().accepted());

    auto b_join = std::async(std::launch::async, [&] {
      return timed_request(ctx, b, coordinator, unreachable_join(job));
    });
    std::this_thread::sleep_for(200ms);  // b's dial-back is under way

    // a's heartbeats are answered at once while b waits.
    for (int i = 0; i < 5; ++i) {
      wire::pb::Envelope e;
      e.mutable_heartbeat()->set_contributing(true);
      const auto beat = timed_request(ctx, a, coordinator, e);
      QVERIFY(beat.reply && beat.reply->has_heartbeat_reply());
      QVERIFY(beat.reply->heartbeat_reply().known());
      QVERIFY2(beat.took < 500ms, "a heartbeat waited behind a join's dial-back");
    }
    // c joins from the same address meanwhile: a live and b in flight fill the cap of 2.
    const auto refused = timed_request(ctx, c, coordinator, unreachable_join(job));
    QVERIFY(refused.reply && refused.reply->has_join_reply());
    QVERIFY(!refused.reply->join_reply().accepted());
    QCOMPARE(refused.reply->join_reply().refusal().code(),
             wire::pb::Verdict::TOO_MANY_FROM_ADDRESS);
    QCOMPARE(refused.reply->join_reply().refusal().value(), 2.0);
    QVERIFY2(refused.took < 500ms, "a refused join waited behind another's dial-back");

    // b's own answer comes once its dial-back gave up: admitted, told nobody could dial it.
    const auto b_joined = b_join.get();
    QVERIFY(b_joined.reply && b_joined.reply->has_join_reply());
    QVERIFY(b_joined.reply->join_reply().accepted());
    QCOMPARE(b_joined.reply->join_reply().reach().way(), wire::pb::REACH_UNREACHABLE);
    QVERIFY(b_joined.took >= 1s);
    QCOMPARE(coordinator.stop(), 0);
  }
};

QTEST_GUILESS_MAIN(TestCoordinatorHeartbeatDialBack)
#include "test_coordinator_heartbeat_dial_back.moc"
