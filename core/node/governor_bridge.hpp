#pragma once
// The resource governor at work in the node: the owner's preferences and the snooze (kept in
// the state database), the sensors, and the presence the desktop session reports, turned into
// one decision that the worker obeys and the bandwidth buckets enforce.
// The _locked functions are called with the node's lock held; read_sensors takes it itself.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "clock/clock.hpp"
#include "device/nvml.hpp"
#include "device/system_info.hpp"
#include "governor/governor.hpp"
#include "governor/logind_idle.hpp"
#include "governor/preferences.hpp"
#include "governor/sensors.hpp"
#include "rookery/control.pb.h"

namespace rookery::store {
class Database;
class Settings;
}  // namespace rookery::store

namespace rookery::node {

namespace pb = rookery::wire::pb;

class GovernorBridge {
 public:
  // Told, with the node's lock held, that the decision changed (state, reason, threads or
  // CPU share): the worker must look again and clients hear of it.
  using OnChange =
      std::function<void(const governor::Decision& before, const governor::Decision& now)>;

  GovernorBridge(std::mutex& node_mutex, OnChange on_change,
                 const clock::Clock& clock = clock::SystemClock::instance());
  ~GovernorBridge();
  GovernorBridge(const GovernorBridge&) = delete;
  GovernorBridge& operator=(const GovernorBridge&) = delete;

  // Stores `set` (validated all together: throws on a bad one), then loads the preferences and
  // the snooze from the state database. Throws on a store that cannot be used.
  void open(store::Database& db, const std::map<std::string, std::string>& set);

  const governor::Decision& decision_locked() const { return decision_; }
  const governor::Preferences& preferences_locked() const { return prefs_; }
  // The decision's CPU share, without the lock: the coordinator client's heartbeats read it
  // while snapshots hold the lock to describe the workload.
  int cpu_time_percent() const { return cpu_time_percent_.load(); }
  void set_logical_cores_locked(int cores) { readings_.logical_cores = cores; }
  void set_computes_on_gpu_locked(bool on_gpu) { computes_on_gpu_ = on_gpu; }
  void set_duty_measured_locked(double share) { duty_measured_ = share; }

  // Re-decides from the current preferences and readings.
  void govern_locked();
  void describe_locked(pb::GovernorSnapshot& g) const;

  // Control requests; each decides again.
  void fill_preferences_locked(pb::ControlReply& reply) const;
  // All or nothing; throws std::invalid_argument for a bad value, StoreError for the disk.
  void set_preferences_locked(const std::map<std::string, std::string>& changes);
  void reset_preferences_locked();
  void snooze_locked(std::int64_t seconds);  // 0 ends the snooze
  void report_presence_locked(const pb::DesktopPresence& presence);

  // The event loop's sensor pass: OS sensors read outside the lock, then one decision.
  void read_sensors(const device::CpuLoadSampler::Sample& load,
                    const std::vector<device::GpuReading>& gpus, const device::Nvml& nvml,
                    const device::CpuInfo& cpu);

 private:
  bool presence_fresh_locked() const;
  std::optional<double> input_idle_seconds_locked(bool presence_fresh) const;
  void describe_sensor_locked(pb::SensorStatus& out) const;
  void persist_snooze_locked();
  void reload_preferences_locked();

  std::mutex& mutex_;
  const OnChange on_change_;
  const clock::Clock& clock_;
  std::unique_ptr<governor::WallClock> wall_clock_;  // clock_, as the governor reads it
  governor::Governor gov_;

  // --- guarded by the node's lock ---
  std::unique_ptr<store::Settings> settings_;
  std::unique_ptr<governor::PreferenceStore> preference_store_;
  governor::Preferences prefs_ = governor::Preferences::defaults();
  governor::Decision decision_;  // what the worker obeys
  std::atomic<int> cpu_time_percent_{100};
  governor::Readings readings_;  // the latest sensor readings
  std::vector<governor::SensorStatus> sensors_;
  device::NvmlState nvml_state_ = device::NvmlState::NoDriver;
  unsigned nvml_gpus_ = 0;
  pb::DesktopPresence presence_;  // the latest report of the desktop session
  std::optional<std::chrono::steady_clock::time_point> presence_expires_;
  // Input idleness where no desktop session reports it: logind's idle hint, else terminals.
  governor::IdleReading session_idle_;
  double duty_measured_ = 0;
  bool computes_on_gpu_ = false;
  std::optional<double> idle_seconds_used_;  // the input idleness the last decision used

  // --- the event loop's ---
  governor::LogindIdle logind_;
  std::chrono::steady_clock::time_point next_programs_{}, next_battery_{};
  governor::BatteryReading battery_;
  governor::ProgramsReading programs_;
};

}  // namespace rookery::node
