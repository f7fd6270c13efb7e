#include "node/governor_bridge.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "net/token_bucket.hpp"
#include "node/reasons.hpp"
#include "store/database.hpp"
#include "store/settings.hpp"

namespace rookery::node {

namespace {
constexpr const char* kSnoozeKey = "governor.state.snoozed_until_unix_ms";
constexpr auto kDefaultPresenceValidity = std::chrono::seconds(10);
constexpr auto kProgramScanInterval = std::chrono::seconds(2);
constexpr auto kBatteryInterval = std::chrono::seconds(5);

// The node's clock as the governor reads it; local time from the system's time zone.
class GovernorClock final : public governor::WallClock {
 public:
  explicit GovernorClock(const clock::Clock& clock) : clock_(clock) {}
  std::int64_t now_unix_ms() const override { return clock_.unix_ms(); }
  governor::LocalTime local(std::int64_t unix_ms) const override {
    return governor::SystemClock().local(unix_ms);
  }

 private:
  const clock::Clock& clock_;
};

pb::GovernorSnapshot::Decision to_pb(governor::Decision::State s) {
  switch (s) {
    case governor::Decision::State::Running:
      return pb::GovernorSnapshot::RUNNING;
    case governor::Decision::State::Slowed:
      return pb::GovernorSnapshot::SLOWED;
    default:
      return pb::GovernorSnapshot::PAUSED;
  }
}
}  // namespace

GovernorBridge::GovernorBridge(std::mutex& node_mutex, OnChange on_change,
                               const clock::Clock& clock)
    : mutex_(node_mutex),
      on_change_(std::move(on_change)),
      clock_(clock),
      wall_clock_(std::make_unique<GovernorClock>(clock)),
      gov_(*wall_clock_) {}

GovernorBridge::~GovernorBridge() = default;

void GovernorBridge::open(store::Database& db, const std::map<std::string, std::string>& set) {
  auto settings = std::make_unique<store::Settings>(db);
  auto preference_store = std::make_unique<governor::PreferenceStore>(*settings);
  if (!set.empty()) preference_store->set(set);
  std::vector<std::string> problems;
  auto prefs = preference_store->load(&problems);
  for (const auto& p : problems) spdlog::warn("settings: {}", p);
  const auto snooze = settings->get(kSnoozeKey);
  std::lock_guard lock(mutex_);
  settings_ = std::move(settings);
  preference_store_ = std::move(preference_store);
  prefs_ = std::move(prefs);
  if (snooze) {
    try {
      gov_.snooze_until(std::stoll(*snooze));
    } catch (const std::exception&) {
      spdlog::warn("settings: ignoring an unreadable snooze time \"{}\"", *snooze);
    }
  }
}

bool GovernorBridge::presence_fresh_locked() const {
  return presence_expires_ && clock_.steady_now() < *presence_expires_;
}

// Seconds since the owner's last input, from the best source there is: the desktop session's
// own report where it covers the whole session (X11); where the GUI sees only its own
// window's input, the more recent of that and logind's hint (either one seeing input means
// the owner is there); with no GUI, logind's hint or else terminals. nullopt: unknown.
std::optional<double> GovernorBridge::input_idle_seconds_locked(bool presence_fresh) const {
  const bool reported = presence_fresh && presence_.input_idle_seconds() >= 0;
  if (reported && presence_.idle_covers_session()) return presence_.input_idle_seconds();
  if (reported) {
    // Terminals do not count here: input at a terminal (an SSH session, the one that started
    // this node) is not the desktop owner's.
    return session_idle_.from_logind
               ? std::min(presence_.input_idle_seconds(), *session_idle_.idle_seconds)
               : presence_.input_idle_seconds();
  }
  return session_idle_.idle_seconds;
}

void GovernorBridge::govern_locked() {
  const bool presence_fresh = presence_fresh_locked();
  auto r = readings_;
  r.computes_on_gpu = computes_on_gpu_;
  r.input_idle_seconds.reset();
  r.fullscreen_app.reset();
  r.input_idle_seconds = input_idle_seconds_locked(presence_fresh);
  if (presence_fresh && presence_.fullscreen_known()) r.fullscreen_app = presence_.fullscreen_app();
  const auto before = decision_;
  decision_ = gov_.decide(prefs_, r);
  cpu_time_percent_ = decision_.cpu_time_percent;
  idle_seconds_used_ = r.input_idle_seconds;
  if (decision_.upload_bytes_per_s != net::upload_bucket().rate())
    net::upload_bucket().set_rate(decision_.upload_bytes_per_s);
  if (decision_.download_bytes_per_s != net::download_bucket().rate()) {
    net::download_bucket().set_rate(decision_.download_bytes_per_s);
  }
  if (decision_.state != before.state || decision_.reason != before.reason ||
      decision_.threads != before.threads ||
      decision_.cpu_time_percent != before.cpu_time_percent) {
    on_change_(before, decision_);
  }
}

void GovernorBridge::describe_locked(pb::GovernorSnapshot& g) const {
  g.set_decision(to_pb(decision_.state));
  g.set_reason(decision_.reason);
  to_reason(decision_.why, *g.mutable_why());
  g.set_user_active(decision_.user_active);
  g.set_threads(decision_.threads);
  g.set_cpu_time_percent(decision_.cpu_time_percent);
  g.set_use_gpu(decision_.use_gpu);
  g.set_upload_bytes_per_s(decision_.upload_bytes_per_s);
  g.set_download_bytes_per_s(decision_.download_bytes_per_s);
  g.set_snoozed_until_unix_ms(decision_.snoozed_until_unix_ms);
  g.set_duty_cycle_measured(duty_measured_);
  for (const auto& sensor : sensors_) {
    auto* out = g.add_sensors();
    out->set_name(sensor.name);
    out->set_working(sensor.working);
    out->set_detail(sensor.detail);
    out->set_kind(sensor_kind(sensor.kind));
    describe_sensor_locked(*out);
  }
}

// A sensor's reading as a code with its value, from what the governor decided on.
void GovernorBridge::describe_sensor_locked(pb::SensorStatus& out) const {
  auto& why = *out.mutable_reading();
  const bool presence_fresh = presence_fresh_locked();
  switch (out.kind()) {
    case pb::SensorStatus::INPUT_IDLENESS:
      if (out.working() && idle_seconds_used_) {
        why.set_code(pb::SENSOR_INPUT_IDLE);
        why.set_value(static_cast<double>(static_cast<long>(*idle_seconds_used_)));
        if (presence_fresh && presence_.input_idle_seconds() >= 0)
          why.set_text(presence_.idle_source());
      } else if (!out.working()) {
        why.set_code(pb::SENSOR_NO_INPUT_SOURCE);
      }
      break;
    case pb::SensorStatus::FULLSCREEN:
      if (out.working()) {
        why.set_code(presence_.fullscreen_app() ? pb::SENSOR_FULLSCREEN_RUNS
                                                : pb::SENSOR_FULLSCREEN_NONE);
        why.set_text(presence_.fullscreen_source());
      } else if (!presence_fresh) {
        why.set_code(pb::SENSOR_NO_DESKTOP);
      }
      break;
    case pb::SensorStatus::BATTERY:
      if (readings_.on_battery)
        why.set_code(*readings_.on_battery ? pb::SENSOR_ON_BATTERY : pb::SENSOR_ON_MAINS);
      break;
    case pb::SensorStatus::PROGRAMS:
      if (prefs_.exclusive_programs.empty()) {
        why.set_code(pb::SENSOR_NO_PROGRAMS_LISTED);
      } else if (readings_.listed_programs_running && readings_.listed_programs_running->empty()) {
        why.set_code(pb::SENSOR_PROGRAMS_NOT_RUNNING);
        why.set_value(static_cast<double>(prefs_.exclusive_programs.size()));
      } else if (readings_.listed_programs_running) {
        std::string names;
        for (const auto& n : *readings_.listed_programs_running)
          names += (names.empty() ? "" : ", ") + n;
        why.set_code(pb::SENSOR_PROGRAMS_RUNNING);
        why.set_text(names);
      }
      break;
    case pb::SensorStatus::CPU_LOAD:
      if (readings_.other_cpu_percent) {
        why.set_code(pb::SENSOR_OTHER_CPU);
        why.set_value(static_cast<double>(static_cast<int>(*readings_.other_cpu_percent)));
      }
      break;
    case pb::SensorStatus::GPU:
      if (out.working() && readings_.gpu_temperature_c) {
        why.set_code(pb::SENSOR_GPU_TEMPERATURE);
        why.set_value(static_cast<double>(static_cast<int>(*readings_.gpu_temperature_c)));
      } else {
        to_reason(nvml_state_, nvml_gpus_, why);  // no telemetry: NVML says why
      }
      break;
    case pb::SensorStatus::MEMORY:
      if (readings_.node_memory_bytes > 0) {
        why.set_code(pb::SENSOR_MEMORY);
        why.set_value(static_cast<double>(readings_.node_memory_bytes));
      }
      break;
    default:
      break;
  }
}

void GovernorBridge::fill_preferences_locked(pb::ControlReply& reply) const {
  const auto values = preference_store_->values();
  for (const auto& spec : governor::preference_table()) {
    auto* p = reply.add_preferences();
    p->set_key(spec.key);
    p->set_value(values.at(spec.key));
    p->set_default_value(spec.default_value);
    p->set_scope(governor::scope_name(spec.scope));
    p->set_type(governor::type_name(spec.type));
    p->set_min(spec.min);
    p->set_max(spec.max);
    p->set_unit(spec.unit);
    p->set_label(spec.label);
  }
}

void GovernorBridge::reload_preferences_locked() {
  prefs_ = preference_store_->load();
  govern_locked();
}

void GovernorBridge::set_preferences_locked(const std::map<std::string, std::string>& changes) {
  preference_store_->set(changes);
  reload_preferences_locked();
}

void GovernorBridge::reset_preferences_locked() {
  preference_store_->reset();
  reload_preferences_locked();
}

void GovernorBridge::persist_snooze_locked() {
  if (gov_.snoozed_until() == 0) {
    settings_->erase(kSnoozeKey);
  } else {
    settings_->set(kSnoozeKey, std::to_string(gov_.snoozed_until()));
  }
}

void GovernorBridge::snooze_locked(std::int64_t seconds) {
  gov_.snooze_until(seconds == 0 ? 0 : wall_clock_->now_unix_ms() + seconds * 1000);
  try {
    persist_snooze_locked();
  } catch (const std::exception& e) {
    spdlog::warn("snooze not saved: {}", e.what());
  }
  govern_locked();
}

void GovernorBridge::report_presence_locked(const pb::DesktopPresence& presence) {
  presence_ = presence;
  const auto valid = presence_.valid_for_ms() > 0
                         ? std::chrono::milliseconds(presence_.valid_for_ms())
                         : std::chrono::milliseconds(kDefaultPresenceValidity);
  presence_expires_ = clock_.steady_now() + valid;
  govern_locked();
}

void GovernorBridge::read_sensors(const device::CpuLoadSampler::Sample& load,
                                  const std::vector<device::GpuReading>& gpus,
                                  const device::Nvml& nvml, const device::CpuInfo& cpu) {
  std::vector<std::string> listed;
  {
    std::lock_guard lock(mutex_);
    listed = prefs_.exclusive_programs;
  }
  const auto now = clock_.steady_now();
  if (now >= next_battery_) {
    battery_ = governor::read_battery();
    next_battery_ = now + kBatteryInterval;
  }
  if (listed.empty()) {
    programs_ = {std::vector<std::string>{}, "no programs listed"};
  } else if (now >= next_programs_) {
    programs_ = governor::find_programs(listed);
    next_programs_ = now + kProgramScanInterval;
  }
  auto idle = logind_.read();
  if (!idle.idle_seconds) {
    auto terminals = governor::terminal_idle();
    terminals.detail = idle.detail + "; " + terminals.detail;
    idle = std::move(terminals);
  }
  const auto memory = governor::resident_memory_bytes();
  std::optional<double> hottest;
  for (const auto& g : gpus) {
    if (g.temperature_c >= 0 && (!hottest || g.temperature_c > *hottest)) hottest = g.temperature_c;
  }

  std::lock_guard lock(mutex_);
  readings_.logical_cores = cpu.logical_cores;
  readings_.on_battery = battery_.on_battery;
  readings_.listed_programs_running = programs_.running;
  readings_.other_cpu_percent = load.others_percent;
  readings_.gpu_temperature_c = hottest;
  readings_.node_memory_bytes = memory;
  readings_.ram_total_bytes = cpu.ram_total_bytes;
  session_idle_ = std::move(idle);
  const bool presence_fresh = presence_expires_ && now < *presence_expires_;
  sensors_.clear();
  if (presence_fresh && presence_.input_idle_seconds() >= 0) {
    sensors_.push_back({governor::SensorKind::InputIdleness, "input idleness", true,
                        "no input for " +
                            std::to_string(static_cast<long>(presence_.input_idle_seconds())) +
                            " s (" + presence_.idle_source() + ")"});
  } else if (session_idle_.idle_seconds) {
    sensors_.push_back(
        {governor::SensorKind::InputIdleness, "input idleness", true, session_idle_.detail});
  } else {
    sensors_.push_back({governor::SensorKind::InputIdleness, "input idleness", false,
                        "no desktop session reports it and " + session_idle_.detail +
                            ": the PC counts as in use"});
  }
  if (presence_fresh && presence_.fullscreen_known()) {
    sensors_.push_back(
        {governor::SensorKind::FullScreen, "full-screen", true,
         (presence_.fullscreen_app() ? "a full-screen application runs (" : "none (") +
             presence_.fullscreen_source() + ")"});
  } else {
    sensors_.push_back(
        {governor::SensorKind::FullScreen, "full-screen", false,
         presence_fresh ? presence_.fullscreen_source() : "no desktop session reports it"});
  }
  sensors_.push_back(
      {governor::SensorKind::Battery, "battery", battery_.on_battery.has_value(), battery_.detail});
  sensors_.push_back({governor::SensorKind::Programs, "programs", programs_.running.has_value(),
                      programs_.detail});
  sensors_.push_back(
      {governor::SensorKind::CpuLoad, "cpu load", true,
       "other programs " + std::to_string(static_cast<int>(load.others_percent)) + "%"});
  sensors_.push_back({governor::SensorKind::Gpu, "gpu", hottest.has_value(),
                      hottest ? "hottest GPU " + std::to_string(static_cast<int>(*hottest)) + " °C"
                              : nvml.status()});
  nvml_state_ = nvml.state();
  nvml_gpus_ = nvml.gpu_count();
  sensors_.push_back({governor::SensorKind::Memory, "memory", memory > 0,
                      std::to_string(memory / (1024 * 1024)) + " MiB resident"});
  govern_locked();
}

}  // namespace rookery::node
