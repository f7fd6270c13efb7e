// The re-planner's periodic check with spares waiting, with a clock set by hand. A spare the
// last plan left out with a reason is no change of membership: the check tries a fresh plan
// (installed only when it predicts 20% more than the seats in force), where it used to
// re-plan incrementally at every check and never try a fresh one (at scale some volunteer
// always waits). One that found nothing worth its moves is tried again a minute later, or at
// once when a capacity changed. A volunteer the plan never placed (one back from a long pause, or a join whose
// re-plan is still settling) is a change: the check re-plans.
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>

#include "clock/clock.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/membership.hpp"
#include "coordinator/replanner.hpp"
#include "support/demo_job.hpp"

using namespace rookery;
using namespace std::chrono_literals;
using coordinator::PlanThread;
using coordinator::RePlanner;
using coordinator::Volunteer;

namespace {

Volunteer volunteer(int i, double flops, std::int64_t memory) {
  Volunteer v;
  v.member.key = "spares" + std::to_string(i);
  v.member.key.resize(40, 'x');
  v.member.profile.flops_per_s = flops;
  v.member.profile.free_memory_bytes = memory;
  v.member.profile.upload_bytes_per_s = v.member.profile.download_bytes_per_s = 1e9;
  v.member.profile.rtt_s = 1e-4;
  v.member.stage_endpoint = "tcp://127.0.0.1:" + std::to_string(20000 + i);
  v.member.reduce_endpoint = "tcp://127.0.0.1:" + std::to_string(21000 + i);
  v.member.shard_endpoint = "tcp://127.0.0.1:" + std::to_string(22000 + i);
  v.has_data = true;
  return v;
}

}  // namespace

class TestReplannerSpares : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

 private Q_SLOTS:
  void aWaitingSpareLetsTheCheckTryAFreshPlan() {
    coordinator::CoordinatorState state(std::filesystem::path(dir_.path().toStdString()) /
                                        "spares.db");
    clock::ManualClock clock;
    const auto job = testing::demo_job("spares");
    RePlanner replanner(state, job, "ours", 1000ms, PlanThread::Mode::inline_plans, clock);
    // Each holds 0.9 of the model, so a pipeline takes two; four fast ones and a very slow one,
    // which would be its pipeline's bottleneck: it waits unseated, with a reason.
    const auto memory = static_cast<std::int64_t>(
        0.9 * double(cluster::model_memory_bytes(coordinator::block_profiles(job),
                                                 coordinator::training_settings(job))));
    std::map<std::string, Volunteer> live;
    for (int i = 0; i < 4; ++i) {
      auto v = volunteer(i, 50e9, memory);
      live[v.member.key] = v;
    }
    const auto slow = volunteer(5, 1e6, memory);
    live[slow.member.key] = slow;
    replanner.changed();
    clock.advance(1000ms);
    replanner.tick(live);
    QCOMPARE(replanner.current().version, std::uint64_t(1));
    std::size_t waiting = 0;
    for (const auto& [k, v] : live) {
      if (replanner.seat_of(k).first >= 0) continue;
      ++waiting;
      QVERIFY2(replanner.unassigned_reason(k).code() != wire::pb::Verdict::JOINED_AFTER_PLAN,
               "an unseated volunteer has no reason from the plan");
    }
    QVERIFY2(waiting > 0, "the plan seated everyone: no spare to test with");

    // The check, 10 s after the start: nothing changed but spares wait, so it tries a fresh
    // plan, which seats the same (the version stays).
    QCOMPARE(replanner.last_check(), RePlanner::Check::none);
    clock.advance(9s);
    replanner.tick(live);
    QCOMPARE(replanner.last_check(), RePlanner::Check::fresh_plan);
    QCOMPARE(replanner.current().version, std::uint64_t(1));
    // It found nothing worth its moves: not tried again within a minute, unless a capacity
    // changes (a heartbeat offering a quarter of what a seated volunteer joined with).
    clock.advance(10s);
    replanner.tick(live);
    QCOMPARE(replanner.last_check(), RePlanner::Check::skipped);
    std::string fast;
    for (const auto& [k, v] : live) {
      if (replanner.seat_of(k).first >= 0) fast = k;
    }
    wire::pb::Heartbeat h;
    h.set_plan_version(1);
    h.set_flops_per_s(0.25 * 50e9);
    replanner.observe_capacity(fast, live[fast], h);
    clock.advance(10s);
    replanner.tick(live);
    QCOMPARE(replanner.last_check(), RePlanner::Check::fresh_plan);
    live[fast].member.profile.flops_per_s = 50e9;  // back as it was
    live[fast].offered_flops = 0;
    const auto version = replanner.current().version;

    // A volunteer the plan never placed (its join's re-plan still settling): the next check
    // re-plans with it.
    auto late = volunteer(6, 50e9, memory);
    live[late.member.key] = late;
    clock.advance(10s);
    replanner.tick(live);
    QCOMPARE(replanner.last_check(), RePlanner::Check::replanned);
    QCOMPARE(replanner.current().version, version + 1);
    QVERIFY(replanner.seat_of(late.member.key).first >= 0 ||
            replanner.unassigned_reason(late.member.key).code() !=
                wire::pb::Verdict::JOINED_AFTER_PLAN);

    // A seated volunteer paused for over 10 s is a change too.
    std::string seated;
    for (const auto& [k, v] : live) {
      if (replanner.seat_of(k).first >= 0) seated = k;
    }
    live[seated].contributing = false;
    live[seated].paused_since = clock.steady_now();
    clock.advance(10s);
    replanner.tick(live);
    QCOMPARE(replanner.last_check(), RePlanner::Check::replanned);
    QVERIFY(replanner.seat_of(seated).first < 0);
  }
};

QTEST_GUILESS_MAIN(TestReplannerSpares)
#include "test_replanner_spares.moc"
