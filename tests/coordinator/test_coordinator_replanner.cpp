// When the coordinator re-plans, with a clock set by hand: once membership has settled, at once
// after a ban, around a volunteer paused for over 10 s (and back when it resumes), and when a
// capacity change makes a fresh plan markedly faster.
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <thread>

#include "clock/clock.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/membership.hpp"
#include "coordinator/replanner.hpp"
#include "job/job_spec.hpp"
#include "support/demo_job.hpp"

using namespace rookery;
using namespace std::chrono_literals;
using coordinator::PlanThread;
using coordinator::RePlanner;
using coordinator::Volunteer;

namespace {

constexpr auto kSettle = 1000ms;

std::string key_of(int i) {
  std::string k = "node" + std::to_string(i);
  k.resize(40, 'x');
  return k;
}

// `n` volunteers holding the dataset, each with memory for 0.9 of the model: one pipeline.
std::map<std::string, Volunteer> volunteers(int n) {
  const auto job = testing::demo_job("replanner");
  const auto memory = static_cast<std::int64_t>(
      0.9 * static_cast<double>(cluster::model_memory_bytes(coordinator::block_profiles(job),
                                                            coordinator::training_settings(job))));
  std::map<std::string, Volunteer> live;
  for (int i = 0; i < n; ++i) {
    Volunteer v;
    v.member.key = key_of(i);
    v.member.profile.flops_per_s = 50e9;
    v.member.profile.free_memory_bytes = memory;
    v.member.profile.upload_bytes_per_s = v.member.profile.download_bytes_per_s = 1e9;
    v.member.profile.rtt_s = 1e-4;
    v.member.stage_endpoint = "tcp://127.0.0.1:" + std::to_string(20000 + i);
    v.member.reduce_endpoint = "tcp://127.0.0.1:" + std::to_string(21000 + i);
    v.member.shard_endpoint = "tcp://127.0.0.1:" + std::to_string(22000 + i);
    v.has_data = true;
    live[v.member.key] = v;
  }
  return live;
}

bool seated(const RePlanner& r, const std::string& key) { return r.current().find(key).first >= 0; }

}  // namespace

class TestCoordinatorRePlanner : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::unique_ptr<coordinator::CoordinatorState> state_;
  std::unique_ptr<clock::ManualClock> clock_;
  std::unique_ptr<RePlanner> replanner_;

  // Three volunteers seated by a first plan, one second after the start.
  std::map<std::string, Volunteer> seat_three() {
    auto live = volunteers(3);
    replanner_->changed();
    clock_->advance(kSettle);
    replanner_->tick(live);
    if (replanner_->current().version != 1) return {};
    for (const auto& [k, v] : live) {
      if (!seated(*replanner_, k)) return {};
    }
    return live;
  }

 private Q_SLOTS:
  void init() {
    static int n = 0;
    state_ = std::make_unique<coordinator::CoordinatorState>(
        std::filesystem::path(dir_.path().toStdString()) / ("r" + std::to_string(++n) + ".db"));
    clock_ = std::make_unique<clock::ManualClock>();
    replanner_ = std::make_unique<RePlanner>(*state_, testing::demo_job("replanner"), "ours",
                                             kSettle, PlanThread::Mode::inline_plans, *clock_);
  }

  void settle_data() {
    QTest::addColumn<int>("after_ms");
    QTest::addColumn<bool>("replanned");
    QTest::newRow("at once") << 0 << false;
    QTest::newRow("still settling") << 999 << false;
    QTest::newRow("settled") << 1000 << true;
    QTest::newRow("long settled") << 5000 << true;
  }

  // A join, a death or a leave re-plans once membership has been still for `settle`.
  void settle() {
    QFETCH(int, after_ms);
    QFETCH(bool, replanned);
    const auto live = volunteers(3);
    replanner_->changed();
    clock_->advance(std::chrono::milliseconds(after_ms));
    replanner_->tick(live);
    QCOMPARE(replanner_->current().version, std::uint64_t(replanned ? 1 : 0));
    QCOMPARE(replanner_->replans(), std::uint32_t(replanned ? 1 : 0));
    QCOMPARE(state_->plan_count(), std::int64_t(replanned ? 1 : 0));
  }

  // On its own thread (the service's way), the plan is made while ticks return, and a later
  // tick installs it.
  void aPlanMadeOnThePlanThreadIsInstalledByALaterTick() {
    RePlanner threaded(*state_, testing::demo_job("replanner"), "ours", kSettle,
                       PlanThread::Mode::own_thread, *clock_);
    const auto live = volunteers(3);
    threaded.changed();
    clock_->advance(kSettle);
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (threaded.current().version == 0 && std::chrono::steady_clock::now() < deadline) {
      threaded.tick(live);
      std::this_thread::sleep_for(10ms);
    }
    QCOMPARE(threaded.current().version, std::uint64_t(1));
    QCOMPARE(threaded.last_planned_volunteers(), std::size_t(3));
    for (const auto& [k, v] : live) QVERIFY(threaded.seat_of(k).first >= 0);
    QCOMPARE(threaded.seat_of("not a volunteer"), (std::pair{-1, -1}));
  }

  void aLaterChangeRestartsTheWait() {
    const auto live = volunteers(3);
    replanner_->changed();
    clock_->advance(800ms);
    replanner_->changed();
    clock_->advance(800ms);
    replanner_->tick(live);
    QCOMPARE(replanner_->current().version, std::uint64_t(0));
    clock_->advance(200ms);
    replanner_->tick(live);
    QCOMPARE(replanner_->current().version, std::uint64_t(1));
  }

  void aBanReplansAtOnce() {
    replanner_->changed_urgently();
    replanner_->tick(volunteers(3));
    QCOMPARE(replanner_->current().version, std::uint64_t(1));
  }

  void plannable_data() {
    QTest::addColumn<bool>("has_data");
    QTest::addColumn<bool>("contributing");
    QTest::addColumn<int>("paused_ms");
    QTest::addColumn<bool>("plannable");
    QTest::newRow("contributing") << true << true << 0 << true;
    QTest::newRow("fetching the dataset") << false << true << 0 << false;
    QTest::newRow("just paused") << true << false << 0 << true;
    QTest::newRow("paused under 10 s") << true << false << 9999 << true;
    QTest::newRow("paused 10 s") << true << false << 10000 << false;
    QTest::newRow("paused a minute") << true << false << 60000 << false;
  }

  void plannable() {
    QFETCH(bool, has_data);
    QFETCH(bool, contributing);
    QFETCH(int, paused_ms);
    QFETCH(bool, plannable);
    Volunteer v;
    v.has_data = has_data;
    v.contributing = contributing;
    v.paused_since = clock_->steady_now();
    clock_->advance(std::chrono::milliseconds(paused_ms));
    QCOMPARE(replanner_->plannable(v), plannable);
  }

  // Checked every 10 s: a pause over 10 s takes a volunteer out of the plan, not a shorter one,
  // and it is back in once it contributes again.
  void aLongPauseIsPlannedAroundAtTheNextCheck() {
    auto live = seat_three();
    QVERIFY(!live.empty());
    auto& paused = live.begin()->second;
    paused.contributing = false;
    paused.paused_since = clock_->steady_now();
    clock_->advance(9s);  // the first check, 10 s after the start: paused for 9 s
    replanner_->tick(live);
    QCOMPARE(replanner_->current().version, std::uint64_t(1));
    clock_->advance(9s);  // no check before 10 s more
    replanner_->tick(live);
    QCOMPARE(replanner_->current().version, std::uint64_t(1));
    clock_->advance(1s);
    replanner_->tick(live);
    QCOMPARE(replanner_->current().version, std::uint64_t(2));
    QVERIFY(!seated(*replanner_, paused.member.key));
    paused.contributing = true;
    clock_->advance(10s);
    replanner_->tick(live);
    QCOMPARE(replanner_->current().version, std::uint64_t(3));
    QVERIFY(seated(*replanner_, paused.member.key));
    QCOMPARE(replanner_->previous().version, std::uint64_t(2));
  }

  void capacity_data() {
    QTest::addColumn<double>("offered");  // of the capacity it joined with
    QTest::addColumn<double>("planned");  // what the planner uses next
    QTest::addColumn<bool>("replanned");
    QTest::newRow("a little less") << 0.9 << 1.0 << false;
    QTest::newRow("a little more") << 1.2 << 1.0 << false;
    QTest::newRow("a quarter") << 0.25 << 0.25 << true;
  }

  // What the owner allows, from heartbeats: a change over a quarter updates the profile, and a
  // fresh plan replaces the current one at the next check when it predicts 20% more.
  void capacity() {
    QFETCH(double, offered);
    QFETCH(double, planned);
    QFETCH(bool, replanned);
    auto live = seat_three();
    QVERIFY(!live.empty());
    std::string widest;
    std::int64_t width = 0;
    for (const auto& s : replanner_->current().pipelines[0]) {
      if (s.last_block - s.first_block > width) {
        width = s.last_block - s.first_block;
        widest = s.key;
      }
    }
    auto& v = live[widest];
    wire::pb::Heartbeat h;
    h.set_plan_version(1);
    h.set_flops_per_s(offered * 50e9);
    replanner_->observe_capacity(widest, v, h);
    QCOMPARE(v.offered_flops, offered * 50e9);
    QCOMPARE(v.member.profile.flops_per_s, planned * 50e9);
    clock_->advance(9s);  // the check, 10 s after the start
    replanner_->tick(live);
    QCOMPARE(replanner_->current().version, std::uint64_t(replanned ? 2 : 1));
  }
};

QTEST_GUILESS_MAIN(TestCoordinatorRePlanner)
#include "test_coordinator_replanner.moc"
