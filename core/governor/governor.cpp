#include "governor/governor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "clock/clock.hpp"

namespace rookery::governor {

namespace {
std::string percent(double v) { return std::to_string(static_cast<int>(std::lround(v))) + "%"; }

std::string gib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB", static_cast<double>(bytes) / 1e9);
  return buf;
}
}  // namespace

std::int64_t SystemClock::now_unix_ms() const { return clock::unix_ms(); }

LocalTime SystemClock::local(std::int64_t unix_ms) const {
  const std::time_t t = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  ::localtime_r(&t, &tm);
  return LocalTime{(tm.tm_wday + 6) % 7, tm.tm_hour * 60 + tm.tm_min};
}

const char* state_name(Decision::State s) {
  switch (s) {
    case Decision::State::Running:
      return "running";
    case Decision::State::Slowed:
      return "slowed";
    default:
      return "paused";
  }
}

std::string Governor::clock_text(std::int64_t unix_ms) const {
  const auto t = clock_.local(unix_ms);
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02d:%02d", t.hour(), t.minute());
  return buf;
}

Decision Governor::decide(const Preferences& prefs, const Readings& r) {
  const auto now = clock_.now_unix_ms();
  Decision d;

  // Which profile: in use unless the PC is known to be idle long enough.
  d.user_active =
      !(r.input_idle_seconds && *r.input_idle_seconds >= prefs.idle_after_minutes * 60.0);
  const Profile& profile = d.user_active ? prefs.in_use : prefs.idle;
  const int cores = std::max(1, r.logical_cores);
  d.threads = std::clamp(cores * profile.cpu_cores_percent / 100, 1, cores);
  d.cpu_time_percent = profile.cpu_time_percent;
  d.use_gpu = profile.use_gpu;
  d.upload_bytes_per_s = static_cast<std::uint64_t>(prefs.upload_kib_per_s) * 1024;
  d.download_bytes_per_s = static_cast<std::uint64_t>(prefs.download_kib_per_s) * 1024;

  // Hysteresis state advances on every call, whatever rule decides, so a rule that starts
  // mattering later sees the true history.
  const int threshold = prefs.pause_above_other_cpu_percent;
  if (threshold <= 0 || !r.other_cpu_percent) {
    cpu_load_paused_ = false;
    cpu_load_low_since_ = -1;
  } else if (*r.other_cpu_percent > threshold) {
    cpu_load_paused_ = true;
    cpu_load_low_since_ = -1;
  } else if (cpu_load_paused_) {
    if (*r.other_cpu_percent <= threshold - kCpuResumeBand) {
      if (cpu_load_low_since_ < 0) cpu_load_low_since_ = now;
      if (now - cpu_load_low_since_ >=
          std::chrono::duration_cast<std::chrono::milliseconds>(kCpuResumeHold).count()) {
        cpu_load_paused_ = false;
        cpu_load_low_since_ = -1;
      }
    } else {
      cpu_load_low_since_ = -1;
    }
  }
  const int gpu_cap = prefs.gpu_max_temperature_c;
  if (gpu_cap <= 0 || !r.gpu_temperature_c) {
    gpu_hot_ = false;
  } else if (*r.gpu_temperature_c > gpu_cap) {
    gpu_hot_ = true;
  } else if (*r.gpu_temperature_c <= gpu_cap - kGpuResumeBand) {
    gpu_hot_ = false;
  }
  if (snoozed_until_ != 0 && now >= snoozed_until_) snoozed_until_ = 0;  // the snooze is over
  d.snoozed_until_unix_ms = snoozed_until_;

  auto pause = [&](std::string text, Why::Code code, double value = 0, double limit = 0) {
    d.state = Decision::State::Paused;
    d.reason = std::move(text);
    d.why.code = code;
    d.why.value = value;
    d.why.limit = limit;
    return d;
  };
  using C = Why::Code;
  if (snoozed_until_ != 0) {
    d.why.until_unix_ms = snoozed_until_;
    return pause("snoozed until " + clock_text(snoozed_until_), C::Snoozed);
  }
  if (!prefs.schedule.allows(clock_.local(now))) return pause("schedule", C::Schedule);
  if (prefs.pause_on_battery && r.on_battery.value_or(false))
    return pause("on battery", C::OnBattery);
  if (r.listed_programs_running && !r.listed_programs_running->empty()) {
    d.why.text = r.listed_programs_running->front();
    return pause(r.listed_programs_running->front() + " is running", C::ProgramRunning);
  }
  if (prefs.pause_while_fullscreen && r.fullscreen_app.value_or(false)) {
    return pause("a full-screen application runs", C::FullScreen);
  }
  if (!profile.run) {
    return d.user_active ? pause("user active", C::InUseOff)
                         : pause("PC idle (compute while idle is off)", C::IdleOff);
  }
  if (r.computes_on_gpu && !profile.use_gpu)
    return pause("user active (GPU use while in use is off)", C::GpuInUseOff);
  if (r.computes_on_gpu && gpu_hot_) {
    const auto celsius = std::lround(*r.gpu_temperature_c);
    return pause("GPU " + std::to_string(static_cast<int>(celsius)) + " °C > " +
                     std::to_string(gpu_cap) + " °C",
                 C::GpuHot, static_cast<double>(celsius), gpu_cap);
  }
  if (cpu_load_paused_) {
    const bool resuming = *r.other_cpu_percent <= threshold;
    return pause(
        "other programs use " + percent(*r.other_cpu_percent) + " CPU" +
            (resuming ? " (resumes below " + percent(threshold - kCpuResumeBand) + ")" : ""),
        C::OtherCpu, std::round(*r.other_cpu_percent), resuming ? threshold - kCpuResumeBand : 0.0);
  }
  if (r.ram_total_bytes > 0) {
    const auto allowed =
        r.ram_total_bytes / 100 * static_cast<std::uint64_t>(profile.memory_percent);
    if (r.node_memory_bytes > allowed) {
      return pause("memory " + gib(r.node_memory_bytes) + " > " + gib(allowed) + " allowed",
                   C::Memory, static_cast<double>(r.node_memory_bytes),
                   static_cast<double>(allowed));
    }
  }

  d.why.code = d.user_active ? C::UserActive : C::PcIdle;
  d.why.value = d.threads;  // of `limit` cores (the CPU time is Decision::cpu_time_percent)
  d.why.limit = cores;
  const std::string who = d.user_active ? "user active" : "PC idle";
  std::vector<std::string> caps;
  if (d.threads < cores)
    caps.push_back(std::to_string(d.threads) + " of " + std::to_string(cores) + " cores");
  if (d.cpu_time_percent < 100) caps.push_back(std::to_string(d.cpu_time_percent) + "% CPU time");
  if (caps.empty()) {
    d.state = Decision::State::Running;
    d.reason = who;
  } else {
    d.state = Decision::State::Slowed;
    d.reason = who + ": ";
    for (std::size_t i = 0; i < caps.size(); ++i) d.reason += (i ? ", " : "") + caps[i];
  }
  return d;
}

}  // namespace rookery::governor
