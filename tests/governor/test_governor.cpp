// The governor's decision table with a fake clock and fake sensor readings: every
// preference, the hysteresis of the CPU-load and GPU-temperature rules, snooze expiry, the
// schedule, and the preference table's validation and persistence.
#include <QTemporaryDir>
#include <QTest>

#include "governor/duty_cycle.hpp"
#include "governor/governor.hpp"
#include "governor/preferences.hpp"
#include "store/database.hpp"
#include "store/settings.hpp"
#include "governor/fake_clock.hpp"

using namespace rookery;
using governor::Decision;
using State = governor::Decision::State;

namespace {
governor::Preferences prefs(std::map<std::string, std::string> v = {}) {
  return governor::Preferences::from_values(v);
}

// A desktop PC: 8 cores, 16 GB, mains, no full-screen app, nothing listed running, idle
// state known.
governor::Readings idle_pc() {
  governor::Readings r;
  r.logical_cores = 8;
  r.input_idle_seconds = 3600;
  r.fullscreen_app = false;
  r.on_battery = false;
  r.other_cpu_percent = 5;
  r.listed_programs_running = std::vector<std::string>{};
  r.node_memory_bytes = 1'000'000'000;
  r.ram_total_bytes = 16'000'000'000;
  return r;
}
governor::Readings busy_pc() {
  auto r = idle_pc();
  r.input_idle_seconds = 2;
  return r;
}
}  // namespace

class TestGovernor : public QObject {
  Q_OBJECT

  testing::FakeClock clock_;

 private Q_SLOTS:
  void init() {
    clock_ = {};
    clock_.set(2, 14, 0);  // Wednesday 14:00
  }

  void idlePcRunsAtFullSpeed() {
    governor::Governor g(clock_);
    const auto d = g.decide(prefs(), idle_pc());
    QCOMPARE(d.state, State::Running);
    QCOMPARE(d.reason, std::string("PC idle"));
    QVERIFY(!d.user_active);
    QCOMPARE(d.threads, 8);
    QCOMPARE(d.cpu_time_percent, 100);
    QVERIFY(d.use_gpu);
    QCOMPARE(d.upload_bytes_per_s, std::uint64_t{0});
  }

  void userActiveAppliesTheInUseProfile() {
    governor::Governor g(clock_);
    auto d = g.decide(prefs(), busy_pc());  // defaults: half the cores, no GPU while in use
    QCOMPARE(d.state, State::Slowed);
    QCOMPARE(d.reason, std::string("user active: 4 of 8 cores"));
    QVERIFY(d.user_active);
    QCOMPARE(d.threads, 4);
    QVERIFY(!d.use_gpu);
    d = g.decide(prefs({{"in_use.cpu_time_percent", "30"}, {"in_use.cpu_cores_percent", "25"}}),
                 busy_pc());
    QCOMPARE(d.reason, std::string("user active: 2 of 8 cores, 30% CPU time"));
    QCOMPARE(d.cpu_time_percent, 30);
    d = g.decide(prefs({{"in_use.run", "false"}}), busy_pc());
    QCOMPARE(d.state, State::Paused);
    QCOMPARE(d.reason, std::string("user active"));
    // At least one thread, however small the share.
    d = g.decide(prefs({{"in_use.cpu_cores_percent", "1"}}), busy_pc());
    QCOMPARE(d.threads, 1);
  }

  void idleAfterTheConfiguredMinutes() {
    governor::Governor g(clock_);
    auto r = busy_pc();
    r.input_idle_seconds = 179;
    QVERIFY(g.decide(prefs(), r).user_active);  // default: 3 minutes
    r.input_idle_seconds = 180;
    QVERIFY(!g.decide(prefs(), r).user_active);
    QVERIFY(g.decide(prefs({{"idle_after_minutes", "10"}}), r).user_active);
    // Unknown idleness: the owner may be there, so the in-use profile applies.
    r.input_idle_seconds.reset();
    QVERIFY(g.decide(prefs(), r).user_active);
    // Compute while idle can be turned off too.
    r.input_idle_seconds = 3600;
    const auto d = g.decide(prefs({{"idle.run", "false"}}), r);
    QCOMPARE(d.state, State::Paused);
    QCOMPARE(d.reason, std::string("PC idle (compute while idle is off)"));
  }

  void idleProfileCapsApply() {
    governor::Governor g(clock_);
    const auto d = g.decide(
        prefs({{"idle.cpu_time_percent", "75"}, {"idle.cpu_cores_percent", "50"}}), idle_pc());
    QCOMPARE(d.state, State::Slowed);
    QCOMPARE(d.reason, std::string("PC idle: 4 of 8 cores, 75% CPU time"));
  }

  void gpuWhileInUse() {
    governor::Governor g(clock_);
    auto r = busy_pc();
    r.computes_on_gpu = true;
    auto d = g.decide(prefs(), r);
    QCOMPARE(d.state, State::Paused);
    QCOMPARE(d.reason, std::string("user active (GPU use while in use is off)"));
    QCOMPARE(g.decide(prefs({{"in_use.use_gpu", "true"}}), r).state, State::Slowed);
    r.input_idle_seconds = 3600;
    QCOMPARE(g.decide(prefs(), r).state, State::Running);
  }

  void battery() {
    governor::Governor g(clock_);
    auto r = idle_pc();
    r.on_battery = true;
    auto d = g.decide(prefs(), r);
    QCOMPARE(d.state, State::Paused);
    QCOMPARE(d.reason, std::string("on battery"));
    QCOMPARE(g.decide(prefs({{"pause_on_battery", "false"}}), r).state, State::Running);
    r.on_battery.reset();  // no battery sensor: no pause
    QCOMPARE(g.decide(prefs(), r).state, State::Running);
  }

  void fullscreenApplication() {
    governor::Governor g(clock_);
    auto r = idle_pc();
    r.fullscreen_app = true;
    QCOMPARE(g.decide(prefs(), r).reason, std::string("a full-screen application runs"));
    QCOMPARE(g.decide(prefs({{"pause_while_fullscreen", "false"}}), r).state, State::Running);
  }

  void listedProgram() {
    governor::Governor g(clock_);
    auto r = idle_pc();
    r.listed_programs_running = std::vector<std::string>{"blender"};
    const auto d = g.decide(prefs({{"exclusive_programs", "steam, blender"}}), r);
    QCOMPARE(d.state, State::Paused);
    QCOMPARE(d.reason, std::string("blender is running"));
  }

  void gpuTemperatureWithHysteresis() {
    governor::Governor g(clock_);
    auto r = idle_pc();
    r.computes_on_gpu = true;
    r.gpu_temperature_c = 84;
    auto d = g.decide(prefs(), r);
    QCOMPARE(d.state, State::Paused);
    QCOMPARE(d.reason, std::string("GPU 84 °C > 80 °C"));
    r.gpu_temperature_c = 78;  // under the cap, not yet 5 degrees under
    QCOMPARE(g.decide(prefs(), r).state, State::Paused);
    r.gpu_temperature_c = 75;
    QCOMPARE(g.decide(prefs(), r).state, State::Running);
    r.gpu_temperature_c = 78;  // warming again, still under the cap: keeps running
    QCOMPARE(g.decide(prefs(), r).state, State::Running);
    r.gpu_temperature_c = 95;
    QCOMPARE(g.decide(prefs({{"gpu_max_temperature_c", "0"}}), r).state,
             State::Running);  // no limit
    QCOMPARE(g.decide(prefs({{"gpu_max_temperature_c", "99"}}), r).state, State::Running);
    // A CPU-only node is not paused for the GPU's temperature.
    governor::Governor cpu(clock_);
    r.computes_on_gpu = false;
    QCOMPARE(cpu.decide(prefs(), r).state, State::Running);
  }

  void otherProgramsCpuLoadWithHysteresis() {
    governor::Governor g(clock_);
    const auto p = prefs({{"pause_above_other_cpu_percent", "50"}});
    auto r = idle_pc();
    r.other_cpu_percent = 45;
    QCOMPARE(g.decide(p, r).state, State::Running);
    r.other_cpu_percent = 85;
    auto d = g.decide(p, r);
    QCOMPARE(d.state, State::Paused);
    QCOMPARE(d.reason, std::string("other programs use 85% CPU"));
    // Under the threshold but inside the band: still paused.
    r.other_cpu_percent = 45;
    clock_.advance_ms(60000);
    d = g.decide(p, r);
    QCOMPARE(d.state, State::Paused);
    QCOMPARE(d.reason, std::string("other programs use 45% CPU (resumes below 40%)"));
    // Under the band: resumes only after staying there for the hold time.
    r.other_cpu_percent = 30;
    QCOMPARE(g.decide(p, r).state, State::Paused);
    clock_.advance_ms(9000);
    QCOMPARE(g.decide(p, r).state, State::Paused);
    // A spike back into the band restarts the hold.
    r.other_cpu_percent = 42;
    clock_.advance_ms(500);
    QCOMPARE(g.decide(p, r).state, State::Paused);
    r.other_cpu_percent = 30;
    clock_.advance_ms(500);
    QCOMPARE(g.decide(p, r).state, State::Paused);
    clock_.advance_ms(9999);
    QCOMPARE(g.decide(p, r).state, State::Paused);
    clock_.advance_ms(1);
    QCOMPARE(g.decide(p, r).state, State::Running);
    // 0 turns the rule off; an unknown load never pauses.
    r.other_cpu_percent = 99;
    governor::Governor off(clock_);
    QCOMPARE(off.decide(prefs(), r).state, State::Running);
    r.other_cpu_percent.reset();
    QCOMPARE(off.decide(p, r).state, State::Running);
  }

  void memoryCap() {
    governor::Governor g(clock_);
    auto r = busy_pc();
    r.node_memory_bytes = 9'000'000'000;  // in use: 50% of 16 GB
    auto d = g.decide(prefs(), r);
    QCOMPARE(d.state, State::Paused);
    QCOMPARE(d.reason, std::string("memory 9.0 GB > 8.0 GB allowed"));
    r.input_idle_seconds = 3600;  // idle: 90%
    QCOMPARE(g.decide(prefs(), r).state, State::Running);
  }

  void schedulePerWeekday() {
    governor::Governor g(clock_);
    const auto p = prefs({{"schedule", "mon-fri 18:00-08:00; weekends 00:00-24:00"}});
    clock_.set(2, 14, 0);  // Wednesday afternoon: outside
    auto d = g.decide(p, idle_pc());
    QCOMPARE(d.state, State::Paused);
    QCOMPARE(d.reason, std::string("schedule"));
    clock_.set(2, 18, 0);
    QCOMPARE(g.decide(p, idle_pc()).state, State::Running);
    clock_.set(3, 7, 59);  // Thursday morning: Wednesday's window past midnight
    QCOMPARE(g.decide(p, idle_pc()).state, State::Running);
    clock_.set(3, 8, 0);
    QCOMPARE(g.decide(p, idle_pc()).state, State::Paused);
    clock_.set(5, 13, 0);  // Saturday
    QCOMPARE(g.decide(p, idle_pc()).state, State::Running);
    clock_.set(0, 7,
               0);  // Monday morning: Sunday's window ended at midnight, Friday's does not reach
    QCOMPARE(g.decide(p, idle_pc()).state, State::Paused);
    // The schedule is local time.
    clock_.utc_offset_minutes = 120;
    clock_.set(2, 19, 0);
    QCOMPARE(g.decide(p, idle_pc()).state, State::Running);
  }

  void snoozeAndItsExpiry() {
    clock_.set(2, 13, 5);
    governor::Governor g(clock_);
    g.snooze_until(clock_.now + std::chrono::duration_cast<std::chrono::milliseconds>(
                                    governor::Governor::kSnoozeLength)
                                    .count());
    auto d = g.decide(prefs(), idle_pc());
    QCOMPARE(d.state, State::Paused);
    QCOMPARE(d.reason, std::string("snoozed until 14:05"));
    QCOMPARE(d.snoozed_until_unix_ms, g.snoozed_until());
    clock_.advance_ms(3600 * 1000 - 1);
    QCOMPARE(g.decide(prefs(), idle_pc()).state, State::Paused);
    clock_.advance_ms(1);
    d = g.decide(prefs(), idle_pc());
    QCOMPARE(d.state, State::Running);
    QCOMPARE(d.snoozed_until_unix_ms, std::int64_t{0});
    QCOMPARE(g.snoozed_until(), std::int64_t{0});
    // Ending a snooze early.
    g.snooze_until(clock_.now + 60000);
    QCOMPARE(g.decide(prefs(), idle_pc()).state, State::Paused);
    g.snooze_until(0);
    QCOMPARE(g.decide(prefs(), idle_pc()).state, State::Running);
  }

  void bandwidthCaps() {
    governor::Governor g(clock_);
    const auto d =
        g.decide(prefs({{"upload_kib_per_s", "256"}, {"download_kib_per_s", "1024"}}), idle_pc());
    QCOMPARE(d.upload_bytes_per_s, std::uint64_t{256 * 1024});
    QCOMPARE(d.download_bytes_per_s, std::uint64_t{1024 * 1024});
    QCOMPARE(d.state, State::Running);  // bandwidth caps do not slow compute
  }

  void firstPauseReasonWins() {
    governor::Governor g(clock_);
    auto r = busy_pc();
    r.on_battery = true;
    r.fullscreen_app = true;
    QCOMPARE(g.decide(prefs({{"in_use.run", "false"}}), r).reason, std::string("on battery"));
  }

  void preferenceValidation() {
    QCOMPARE(governor::validate_preference("in_use.use_gpu", " Yes "), std::string("true"));
    QCOMPARE(governor::validate_preference("idle.cpu_time_percent", "075"), std::string("75"));
    QCOMPARE(governor::validate_preference("exclusive_programs", "steam,, blender ,steam"),
             std::string("steam, blender"));
    auto refused = [](const std::string& k, const std::string& v) -> std::string {
      try {
        governor::validate_preference(k, v);
      } catch (const std::invalid_argument& e) {
        return e.what();
      }
      return {};
    };
    QCOMPARE(refused("in_use.cpu_time_percent", "150"),
             std::string("in_use.cpu_time_percent: 150 is outside 1-100 % of the time"));
    QCOMPARE(refused("in_use.cpu_time_percent", "0"),
             std::string("in_use.cpu_time_percent: 0 is outside 1-100 % of the time"));
    QCOMPARE(refused("in_use.cpu_time_percent", "12abc"),
             std::string("in_use.cpu_time_percent: \"12abc\" is not a whole number"));
    QCOMPARE(
        refused("in_use.cpu_time_percent", "99999999999999999999"),
        std::string("in_use.cpu_time_percent: \"99999999999999999999\" is not a whole number"));
    QCOMPARE(refused("pause_on_battery", "maybe"),
             std::string("pause_on_battery: \"maybe\" is not true or false"));
    QCOMPARE(refused("no_such_thing", "1"), std::string("unknown setting \"no_such_thing\""));
    QVERIFY(refused("schedule", "mon-fri 25:00-08:00").find("no such time of day") !=
            std::string::npos);
    QVERIFY(refused("schedule", "someday 10:00-11:00").find("unknown day") != std::string::npos);
    QVERIFY(refused("schedule", "mon 10:00").find("HH:MM-HH:MM") != std::string::npos);
    QVERIFY(refused("exclusive_programs", "bin/steam").find("absolute path") != std::string::npos);
    // Every entry of the table has a valid default and a label.
    for (const auto& spec : governor::preference_table()) {
      QCOMPARE(governor::validate_preference(spec.key, spec.default_value),
               std::string(spec.default_value));
      QVERIFY(*spec.label);
    }
  }

  void preferencesPersistAndBadInputChangesNothing() {
    QTemporaryDir dir;
    const auto path = std::filesystem::path(dir.path().toStdString()) / "state.db";
    {
      store::Database db(path);
      store::Settings settings(db);
      governor::PreferenceStore store(settings);
      store.set({{"in_use.cpu_time_percent", "40"}, {"schedule", "daily 20:00-06:00"}});
      // One bad value refuses the whole change.
      QVERIFY_THROWS_EXCEPTION(
          std::invalid_argument,
          store.set({{"in_use.cpu_time_percent", "60"}, {"idle.cpu_cores_percent", "101"}}));
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.set({{"nonsense", "1"}}));
      QCOMPARE(store.values().at("in_use.cpu_time_percent"), std::string("40"));
      // A value stored by another version that no longer validates falls back to the default, reported.
      settings.set("governor.idle.cpu_time_percent", "250");
    }
    store::Database db(path);
    store::Settings settings(db);
    governor::PreferenceStore store(settings);
    std::vector<std::string> problems;
    const auto p = store.load(&problems);
    QCOMPARE(p.in_use.cpu_time_percent, 40);
    QCOMPARE(p.idle.cpu_time_percent, 100);
    QCOMPARE(p.schedule_text, std::string("daily 20:00-06:00"));
    QCOMPARE(problems.size(), std::size_t{1});
    QCOMPARE(*settings.get("governor.idle.cpu_time_percent"),
             std::string("250"));  // kept, not deleted
    store.reset();
    QCOMPARE(store.load().in_use.cpu_time_percent, 100);
  }

  void dutyCycleRestsInProportion() {
    using namespace std::chrono;
    governor::DutyCycle dc;
    auto t = steady_clock::time_point{} + hours(1);
    // 200 ms units at 25%: 600 ms rest after each; the measured share converges to 25%.
    for (int i = 0; i < 10; ++i) {
      t += milliseconds(200);
      const auto rest = dc.after_work(milliseconds(200), 25, t);
      QCOMPARE(duration_cast<milliseconds>(rest).count(), 600);
      t += rest;
      dc.rested(rest, t);
    }
    QVERIFY(std::abs(dc.measured_share(t) - 0.25) <= 0.011);  // the 5 s window holds 6.25 cycles
    // Short units accumulate their rest until it is worth a sleep.
    governor::DutyCycle small;
    QCOMPARE(small.after_work(milliseconds(5), 50, t).count(), 0);
    QCOMPARE(small.after_work(milliseconds(5), 50, t).count(), 0);
    QCOMPARE(small.after_work(milliseconds(5), 50, t).count(), 0);
    QCOMPARE(duration_cast<milliseconds>(small.after_work(milliseconds(5), 50, t)).count(), 20);
    QCOMPARE(small.after_work(milliseconds(500), 100, t).count(), 0);
  }
};

QTEST_GUILESS_MAIN(TestGovernor)
#include "test_governor.moc"
