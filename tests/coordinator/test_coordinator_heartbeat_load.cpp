// A coordinator under the load of 2,000 volunteers keeps every heartbeat under its deadline
// while it plans them. The coordinator runs in this process on its real CURVE socket; the
// volunteers are played by this process too (support/volunteer_crowd.hpp): 2,000 key pairs,
// 2,000 CURVE connections on loopback, each heartbeating every 500 ms and asking for the run's
// status every 3 s, as nodes do. Volunteers are declared dead after 3 s without a heartbeat.
//  - All 2,000 join and are planned (the plan of 2,000 is made on the plan thread while their
//    heartbeats flow), then heartbeat for 5 s more.
//  - 100 more join: the swarm is planned again, while every heartbeat is still answered in time.
// Checked: no volunteer was ever told to join again (declared dead), no request went unanswered,
// no reply was one a node's decoder refuses, the slowest heartbeat answered in under the 3 s
// deadline, and nobody went 3 s without an answered heartbeat. Printed: heartbeat and status
// round trips (p50, p99, max), and how many plans and member lists went out (plans and lists
// share a byte budget, and a plan of 2,000 seats is over what a node accepts: see
// coordinator_service.cpp).
#include <QTest>

#include <chrono>
#include <cstdio>
#include <optional>
#include <thread>

#include "cluster/planning.hpp"
#include "coordinator/swarm_planner.hpp"
#include "support/inprocess_coordinator.hpp"
#include "support/volunteer_crowd.hpp"

using namespace rookery;
using namespace rookery::testing;

namespace {

constexpr int kVolunteers = 2000;
constexpr int kLateJoiners = 100;
constexpr auto kDeadAfter = std::chrono::milliseconds(3000);

void print(const char* what, const CrowdFigures& f) {
  std::printf(
      "%s: %zu heartbeats p50 %.1f ms p99 %.1f ms max %.1f ms; %zu status answers p50 %.1f ms "
      "p99 %.1f ms; longest silence %.0f ms; lost %zu, told to join again %zu; %zu plan(s) and "
      "%zu member list(s) delivered\n",
      what, f.heartbeat_ms.size(), CrowdFigures::percentile(f.heartbeat_ms, 0.5),
      CrowdFigures::percentile(f.heartbeat_ms, 0.99), CrowdFigures::percentile(f.heartbeat_ms, 1),
      f.status_ms.size(), CrowdFigures::percentile(f.status_ms, 0.5),
      CrowdFigures::percentile(f.status_ms, 0.99), f.longest_silence_ms, f.lost, f.unknown,
      f.plans_received, f.member_lists_received);
  std::fflush(stdout);
}

// The newest plan the crowd's heartbeat replies name, once it is at least `version`; nullopt
// when it is not within 30 s.
std::optional<std::uint64_t> wait_for_plan(VolunteerCrowd& crowd, std::uint64_t version) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    if (const auto newest = crowd.figures().newest_plan; newest >= version) return newest;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return std::nullopt;
}

void check(const CrowdFigures& f) {
  QCOMPARE(f.undecodable, std::size_t(0));  // nothing a node's decoder would refuse
  QCOMPARE(f.unknown, std::size_t(0));
  QCOMPARE(f.lost, std::size_t(0));
  QVERIFY(!f.heartbeat_ms.empty());
  QVERIFY2(CrowdFigures::percentile(f.heartbeat_ms, 1) < double(kDeadAfter.count()),
           "a heartbeat was answered after the death deadline");
  QVERIFY2(f.longest_silence_ms < double(kDeadAfter.count()),
           "a volunteer went longer than the death deadline without an answered heartbeat");
}

}  // namespace

class TestCoordinatorHeartbeatLoad : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void twoThousandVolunteersAreHeardWhileTheyArePlanned() {
    if (!raise_file_limit(4 * (kVolunteers + kLateJoiners) + 1024)) {
      QSKIP("this process may not open enough files for 2,100 connections (ulimit -n)");
    }
    InProcessCoordinator coordinator("heartbeat-load", [](coordinator::CoordinatorConfig& c) {
      c.heartbeat_interval = std::chrono::milliseconds(500);
      c.dead_after = kDeadAfter;
      c.settle = std::chrono::milliseconds(1000);
    });
    QVERIFY2(coordinator.ok(), "the coordinator did not start");
    // Each holds 60% of the model: pipelines of two.
    CrowdOptions options;
    options.free_memory =
        static_cast<std::int64_t>(0.6 * double(cluster::model_memory_bytes(
                                            coordinator::block_profiles(coordinator.job()),
                                            coordinator::training_settings(coordinator.job()))));
    options.volunteers = kVolunteers;
    VolunteerCrowd crowd(coordinator.endpoint(), coordinator.key(), coordinator.job().id, options);
    crowd.start();
    QVERIFY2(crowd.wait_joined(std::chrono::seconds(60)), "not all 2,000 were admitted in 60 s");

    // Planned while they heartbeat: their replies name the first plan (made on the plan thread).
    const auto planned = wait_for_plan(crowd, 1);
    QVERIFY2(planned, "the 2,000 were not planned within 30 s");
    std::this_thread::sleep_for(std::chrono::seconds(5));
    const auto first = crowd.figures(/*reset=*/true);
    print("2,000 joining, planned, heartbeating", first);
    check(first);
    if (QTest::currentTestFailed()) return;

    // A crowd joins late: the 2,100 are planned again while the first 2,000 heartbeat.
    options.volunteers = kLateJoiners;
    options.port_base += 3 * kVolunteers;
    VolunteerCrowd late(coordinator.endpoint(), coordinator.key(), coordinator.job().id, options);
    late.start();
    QVERIFY2(late.wait_joined(std::chrono::seconds(30)), "not all late joiners were admitted");
    const auto replanned = wait_for_plan(crowd, *planned + 1);
    std::this_thread::sleep_for(std::chrono::seconds(5));
    late.stop();
    crowd.stop();
    const auto second = crowd.figures();
    print("2,000 heartbeating while 2,100 are planned", second);
    QVERIFY2(replanned, "the late joiners did not lead to a new plan within 30 s");
    check(second);
    check(late.figures());
    QCOMPARE(coordinator.stop(), 0);
  }
};

QTEST_GUILESS_MAIN(TestCoordinatorHeartbeatLoad)
#include "test_coordinator_heartbeat_load.moc"
