#pragma once
// The resource governor's decision: from the owner's preferences, what the sensors read and
// the time, whether the node runs, runs slowed, or pauses, with the reason in words. Pure
// apart from its own memory (hysteresis, snooze), with the clock injected, so every rule is
// tested with a fake clock and fake sensor readings.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "governor/preferences.hpp"
#include "governor/schedule.hpp"

namespace rookery::governor {

class WallClock {
 public:
  virtual ~WallClock() = default;
  virtual std::int64_t now_unix_ms() const = 0;
  virtual LocalTime local(std::int64_t unix_ms) const = 0;
};

// The system clock in the local time zone.
class SystemClock final : public WallClock {
 public:
  std::int64_t now_unix_ms() const override;
  LocalTime local(std::int64_t unix_ms) const override;
};

// What the sensors read now; std::nullopt where a sensor does not work on this PC.
struct Readings {
  int logical_cores = 1;
  std::optional<double> input_idle_seconds;  // the desktop session (GUI) or terminals
  std::optional<bool> fullscreen_app;
  std::optional<bool> on_battery;
  std::optional<double> other_cpu_percent;  // all programs but the node, % of all cores
  std::optional<double> gpu_temperature_c;  // hottest GPU
  std::optional<std::vector<std::string>>
      listed_programs_running;          // which of exclusive_programs run
  std::uint64_t node_memory_bytes = 0;  // resident
  std::uint64_t ram_total_bytes = 0;
  bool computes_on_gpu = false;
};

// The reason as a code and its values, for a GUI that words it in the user's language; the
// English `reason` says the same for logs and headless users.
struct Why {
  enum class Code {
    None,
    Snoozed,  // until_unix_ms
    Schedule,
    OnBattery,
    ProgramRunning,  // text: the program
    FullScreen,
    InUseOff,     // in use, and compute while in use is off
    IdleOff,      // idle, and compute while idle is off
    GpuInUseOff,  // in use, and the GPU may not be used then
    GpuHot,       // value: °C, limit: the cap
    OtherCpu,  // value: other programs' CPU %, limit: resumes below (0: still above the threshold)
    Memory,    // value: resident bytes, limit: bytes allowed
    UserActive,  // running or slowed under the in-use profile; value: threads, limit: cores
    PcIdle,      // ... the idle profile
  };
  Code code = Code::None;
  double value = 0;
  double limit = 0;
  std::int64_t until_unix_ms = 0;
  std::string text;
};

struct Decision {
  enum class State { Running, Slowed, Paused };
  State state = State::Running;
  std::string reason;          // "user active", "on battery", "GPU 84 °C > 80 °C", "schedule"
  Why why;                     // the same as a code
  bool user_active = true;     // the in-use profile applies
  int threads = 1;             // intra-op threads allowed
  int cpu_time_percent = 100;  // duty cycle
  bool use_gpu = true;
  std::uint64_t upload_bytes_per_s = 0;  // 0: unlimited
  std::uint64_t download_bytes_per_s = 0;
  std::int64_t snoozed_until_unix_ms = 0;  // 0: not snoozed

  bool paused() const { return state == State::Paused; }
};

const char* state_name(Decision::State s);  // "running", "slowed", "paused"

class Governor {
 public:
  // Hysteresis of the other-programs CPU rule: resume only once their load has stayed this
  // many points under the threshold for `kCpuResumeHold`.
  static constexpr double kCpuResumeBand = 10.0;
  static constexpr std::chrono::seconds kCpuResumeHold{10};
  // GPU temperature: resume once this many degrees under the cap.
  static constexpr double kGpuResumeBand = 5.0;
  static constexpr std::chrono::minutes kSnoozeLength{60};

  explicit Governor(const WallClock& clock) : clock_(clock) {}

  Decision decide(const Preferences& prefs, const Readings& readings);

  // Snoozing pauses everything until the given time (0 ends a snooze).
  void snooze_until(std::int64_t unix_ms) { snoozed_until_ = unix_ms; }
  std::int64_t snoozed_until() const { return snoozed_until_; }

 private:
  std::string clock_text(std::int64_t unix_ms) const;

  const WallClock& clock_;
  std::int64_t snoozed_until_ = 0;
  bool cpu_load_paused_ = false;
  std::int64_t cpu_load_low_since_ =
      -1;  // unix ms the load first fell under the resume line; -1: not under
  bool gpu_hot_ = false;
};

}  // namespace rookery::governor
