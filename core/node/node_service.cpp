#include "node/node_service.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>

#include <spdlog/spdlog.h>

#include "control/control_client.hpp"
#include "device/blas_info.hpp"
#include "device/compute_probe.hpp"
#include "device/nvml.hpp"
#include "device/system_info.hpp"
#include "governor/blas_threads.hpp"
#include "governor/duty_cycle.hpp"
#include "governor/governor.hpp"
#include "governor/logind_idle.hpp"
#include "governor/preferences.hpp"
#include "governor/sensors.hpp"
#include "governor/thread_priority.hpp"
#include "net/identity.hpp"
#include "net/paths.hpp"
#include "net/rpc.hpp"
#include "net/token_bucket.hpp"
#include "node/ledger_recorder.hpp"
#include "node/reasons.hpp"
#include "node/workload.hpp"
#include "store/database.hpp"
#include "store/settings.hpp"
#include "wire/message.hpp"
#include "clock/clock.hpp"

namespace rookery::node {

namespace {
using Clock = std::chrono::steady_clock;

using clock::unix_ms;

const char* state_name(pb::NodeState s) {
  switch (s) {
    case pb::STARTING:
      return "starting";
    case pb::PAUSED:
      return "paused";
    case pb::CONTRIBUTING:
      return "contributing";
    case pb::STOPPING:
      return "stopping";
    case pb::FAILED:
      return "failed";
    default:
      return "unknown";
  }
}

constexpr const char* kSnoozeKey = "governor.state.snoozed_until_unix_ms";
constexpr auto kDefaultPresenceValidity = std::chrono::seconds(10);
constexpr auto kProgramScanInterval = std::chrono::seconds(2);
constexpr auto kBatteryInterval = std::chrono::seconds(5);

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

struct NodeService::Impl {
  NodeConfig config;
  net::CurveKeyPair identity;
  const Clock::time_point started = Clock::now();

  // --- shared state, guarded by mutex ---
  std::mutex mutex;
  std::condition_variable worker_cv;  // wakes the worker: contribute / quit
  std::condition_variable loop_cv;    // wakes the event loop: a pending event / quit
  bool ready = false;                 // start-up benchmark done
  bool want_contribute = false;
  bool quitting = false;
  bool leaving = false;  // quitting to leave the coordinator's job (LEAVE_JOB)
  std::string failure;   // non-empty: the worker failed
  pb::ReasonCode failure_code =
      pb::REASON_UNKNOWN;  // the failure as a code (its text is the error)
  std::deque<std::pair<pb::ControlEvent::Kind, std::string>> pending_events;
  pb::DeviceSnapshot device;
  pb::CoordinatorLink coordinator;
  bool coordinator_failure_logged = false;  // the first failed ping is logged, then each loss
  std::string workload_description;
  std::shared_ptr<Workload> workload;  // set once by the worker; describe() is thread-safe
  int exit_code = 0;
  std::atomic<std::uint64_t> seq{0};  // last published event

  std::thread worker;

  // --- the resource governor (guarded by mutex) ---
  std::unique_ptr<store::Database> state_db;
  std::unique_ptr<store::Settings> settings;
  std::unique_ptr<governor::PreferenceStore> preference_store;
  governor::SystemClock wall_clock;
  governor::Governor gov{wall_clock};
  governor::Preferences prefs = governor::Preferences::defaults();
  governor::Decision decision;  // what the worker obeys
  // decision.cpu_time_percent, for the coordinator client's heartbeats: read without the lock,
  // which snapshots hold while they describe the workload and read the ledger.
  std::atomic<int> cpu_time_percent{100};
  governor::Readings readings;  // the latest sensor readings
  std::vector<governor::SensorStatus> sensors;
  pb::DesktopPresence presence;  // the latest report of the desktop session
  std::optional<Clock::time_point> presence_expires;
  // Input idleness where no desktop session reports it: logind's idle hint, else terminals.
  governor::IdleReading session_idle;
  governor::LogindIdle logind;  // used by the event loop only
  governor::DutyCycle duty;     // the worker's
  double duty_measured = 0;
  bool computes_on_gpu = false;
  std::optional<double> idle_seconds_used;  // the input idleness the last decision used

  LedgerRecorder ledger;  // this session's work and the contribution ledger (in state_db)

  // Seconds since the owner's last input, from the best source there is: the desktop session's
  // own report where it covers the whole session (X11); where the GUI sees only its own
  // window's input, the more recent of that and logind's hint (either one seeing input means
  // the owner is there); with no GUI, logind's hint or else terminals. nullopt: unknown.
  std::optional<double> input_idle_seconds_locked(bool presence_fresh) const {
    const bool reported = presence_fresh && presence.input_idle_seconds() >= 0;
    if (reported && presence.idle_covers_session()) return presence.input_idle_seconds();
    if (reported) {
      const bool logind_knows =
          session_idle.idle_seconds && session_idle.detail.starts_with("logind:");
      return logind_knows ? std::min(presence.input_idle_seconds(), *session_idle.idle_seconds)
                          : presence.input_idle_seconds();
    }
    return session_idle.idle_seconds;
  }

  // Re-decides from the current preferences and readings; wakes the worker and tells clients
  // when the decision changed.
  void govern_locked() {
    const bool presence_fresh = presence_expires && Clock::now() < *presence_expires;
    auto r = readings;
    r.computes_on_gpu = computes_on_gpu;
    r.input_idle_seconds.reset();
    r.fullscreen_app.reset();
    r.input_idle_seconds = input_idle_seconds_locked(presence_fresh);
    if (presence_fresh && presence.fullscreen_known()) r.fullscreen_app = presence.fullscreen_app();
    const auto before = decision;
    decision = gov.decide(prefs, r);
    cpu_time_percent = decision.cpu_time_percent;
    idle_seconds_used = r.input_idle_seconds;
    if (decision.upload_bytes_per_s != net::upload_bucket().rate())
      net::upload_bucket().set_rate(decision.upload_bytes_per_s);
    if (decision.download_bytes_per_s != net::download_bucket().rate()) {
      net::download_bucket().set_rate(decision.download_bytes_per_s);
    }
    if (decision.state != before.state || decision.reason != before.reason ||
        decision.threads != before.threads ||
        decision.cpu_time_percent != before.cpu_time_percent) {
      worker_cv.notify_all();
      if (ready && decision.state != before.state) {
        spdlog::info("governor: {} ({})", governor::state_name(decision.state), decision.reason);
      }
      post_event_locked(pb::ControlEvent::STATE_CHANGED, std::string("governor: ") +
                                                             governor::state_name(decision.state) +
                                                             " (" + decision.reason + ")");
    }
  }

  void describe_governor_locked(pb::GovernorSnapshot& g) const {
    g.set_decision(to_pb(decision.state));
    g.set_reason(decision.reason);
    to_reason(decision.why, *g.mutable_why());
    g.set_user_active(decision.user_active);
    g.set_threads(decision.threads);
    g.set_cpu_time_percent(decision.cpu_time_percent);
    g.set_use_gpu(decision.use_gpu);
    g.set_upload_bytes_per_s(decision.upload_bytes_per_s);
    g.set_download_bytes_per_s(decision.download_bytes_per_s);
    g.set_snoozed_until_unix_ms(decision.snoozed_until_unix_ms);
    g.set_duty_cycle_measured(duty_measured);
    for (const auto& sensor : sensors) {
      auto* out = g.add_sensors();
      out->set_name(sensor.name);
      out->set_working(sensor.working);
      out->set_detail(sensor.detail);
      describe_sensor_locked(*out);
    }
  }

  // A sensor's reading as a code with its value, from what the governor decided on.
  void describe_sensor_locked(pb::SensorStatus& out) const {
    out.set_kind(sensor_kind(out.name()));
    auto& why = *out.mutable_reading();
    const bool presence_fresh = presence_expires && Clock::now() < *presence_expires;
    switch (out.kind()) {
      case pb::SensorStatus::INPUT_IDLENESS:
        if (out.working() && idle_seconds_used) {
          why.set_code(pb::SENSOR_INPUT_IDLE);
          why.set_value(static_cast<double>(static_cast<long>(*idle_seconds_used)));
          if (presence_fresh && presence.input_idle_seconds() >= 0)
            why.set_text(presence.idle_source());
        } else if (!out.working()) {
          why.set_code(pb::SENSOR_NO_INPUT_SOURCE);
        }
        break;
      case pb::SensorStatus::FULLSCREEN:
        if (out.working()) {
          why.set_code(presence.fullscreen_app() ? pb::SENSOR_FULLSCREEN_RUNS
                                                 : pb::SENSOR_FULLSCREEN_NONE);
          why.set_text(presence.fullscreen_source());
        } else if (!presence_fresh) {
          why.set_code(pb::SENSOR_NO_DESKTOP);
        }
        break;
      case pb::SensorStatus::BATTERY:
        if (readings.on_battery)
          why.set_code(*readings.on_battery ? pb::SENSOR_ON_BATTERY : pb::SENSOR_ON_MAINS);
        break;
      case pb::SensorStatus::PROGRAMS:
        if (prefs.exclusive_programs.empty()) {
          why.set_code(pb::SENSOR_NO_PROGRAMS_LISTED);
        } else if (readings.listed_programs_running && readings.listed_programs_running->empty()) {
          why.set_code(pb::SENSOR_PROGRAMS_NOT_RUNNING);
          why.set_value(static_cast<double>(prefs.exclusive_programs.size()));
        } else if (readings.listed_programs_running) {
          std::string names;
          for (const auto& n : *readings.listed_programs_running)
            names += (names.empty() ? "" : ", ") + n;
          why.set_code(pb::SENSOR_PROGRAMS_RUNNING);
          why.set_text(names);
        }
        break;
      case pb::SensorStatus::CPU_LOAD:
        if (readings.other_cpu_percent) {
          why.set_code(pb::SENSOR_OTHER_CPU);
          why.set_value(static_cast<double>(static_cast<int>(*readings.other_cpu_percent)));
        }
        break;
      case pb::SensorStatus::GPU:
        if (out.working() && readings.gpu_temperature_c) {
          why.set_code(pb::SENSOR_GPU_TEMPERATURE);
          why.set_value(static_cast<double>(static_cast<int>(*readings.gpu_temperature_c)));
        } else {
          classify_gpu_status(out.detail(), why);  // no telemetry: NVML says why
        }
        break;
      case pb::SensorStatus::MEMORY:
        if (readings.node_memory_bytes > 0) {
          why.set_code(pb::SENSOR_MEMORY);
          why.set_value(static_cast<double>(readings.node_memory_bytes));
        }
        break;
      default:
        break;
    }
  }

  void fill_preferences_locked(pb::ControlReply& reply) {
    const auto values = preference_store->values();
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

  void persist_snooze_locked() {
    if (gov.snoozed_until() == 0) {
      settings->erase(kSnoozeKey);
    } else {
      settings->set(kSnoozeKey, std::to_string(gov.snoozed_until()));
    }
  }

  // The event loop's sensor pass: OS sensors read outside the lock, then one decision.
  void read_sensors(const device::CpuLoadSampler::Sample& load,
                    const std::vector<device::GpuReading>& gpus, const device::Nvml& nvml,
                    const device::CpuInfo& cpu, Clock::time_point& next_programs,
                    Clock::time_point& next_battery, governor::BatteryReading& battery,
                    governor::ProgramsReading& programs) {
    std::vector<std::string> listed;
    {
      std::lock_guard lock(mutex);
      listed = prefs.exclusive_programs;
    }
    const auto now = Clock::now();
    if (now >= next_battery) {
      battery = governor::read_battery();
      next_battery = now + kBatteryInterval;
    }
    if (listed.empty()) {
      programs = {std::vector<std::string>{}, "no programs listed"};
    } else if (now >= next_programs) {
      programs = governor::find_programs(listed);
      next_programs = now + kProgramScanInterval;
    }
    auto idle = logind.read();
    if (!idle.idle_seconds) {
      auto terminals = governor::terminal_idle();
      terminals.detail = idle.detail + "; " + terminals.detail;
      idle = std::move(terminals);
    }
    const auto memory = governor::resident_memory_bytes();
    std::optional<double> hottest;
    for (const auto& g : gpus) {
      if (g.temperature_c >= 0 && (!hottest || g.temperature_c > *hottest))
        hottest = g.temperature_c;
    }

    std::lock_guard lock(mutex);
    readings.logical_cores = cpu.logical_cores;
    readings.on_battery = battery.on_battery;
    readings.listed_programs_running = programs.running;
    readings.other_cpu_percent = load.others_percent;
    readings.gpu_temperature_c = hottest;
    readings.node_memory_bytes = memory;
    readings.ram_total_bytes = cpu.ram_total_bytes;
    session_idle = std::move(idle);
    const bool presence_fresh = presence_expires && now < *presence_expires;
    sensors.clear();
    if (presence_fresh && presence.input_idle_seconds() >= 0) {
      sensors.push_back({"input idleness", true,
                         "no input for " +
                             std::to_string(static_cast<long>(presence.input_idle_seconds())) +
                             " s (" + presence.idle_source() + ")"});
    } else if (session_idle.idle_seconds) {
      sensors.push_back({"input idleness", true, session_idle.detail});
    } else {
      sensors.push_back({"input idleness", false,
                         "no desktop session reports it and " + session_idle.detail +
                             ": the PC counts as in use"});
    }
    if (presence_fresh && presence.fullscreen_known()) {
      sensors.push_back(
          {"full-screen", true,
           (presence.fullscreen_app() ? "a full-screen application runs (" : "none (") +
               presence.fullscreen_source() + ")"});
    } else {
      sensors.push_back(
          {"full-screen", false,
           presence_fresh ? presence.fullscreen_source() : "no desktop session reports it"});
    }
    sensors.push_back({"battery", battery.on_battery.has_value(), battery.detail});
    sensors.push_back({"programs", programs.running.has_value(), programs.detail});
    sensors.push_back(
        {"cpu load", true,
         "other programs " + std::to_string(static_cast<int>(load.others_percent)) + "%"});
    sensors.push_back({"gpu", hottest.has_value(),
                       hottest ? "hottest GPU " + std::to_string(static_cast<int>(*hottest)) + " °C"
                               : nvml.status()});
    sensors.push_back(
        {"memory", memory > 0, std::to_string(memory / (1024 * 1024)) + " MiB resident"});
    govern_locked();
  }

  pb::NodeState state_locked() const {
    if (quitting) return pb::STOPPING;
    if (!failure.empty()) return pb::FAILED;
    if (!ready) return pb::STARTING;
    return want_contribute ? pb::CONTRIBUTING : pb::PAUSED;
  }

  std::string reason_locked() const {
    switch (state_locked()) {
      case pb::STOPPING:
        return "stopping: saving state";
      case pb::FAILED:
        return failure;
      case pb::STARTING:
        return "measuring this PC's compute speed";
      case pb::CONTRIBUTING:
        if (decision.paused()) return "paused: " + decision.reason;
        if (decision.state == governor::Decision::State::Slowed)
          return "slowed: " + decision.reason;
        return workload_description;
      default:
        return "paused: press Contribute to start";
    }
  }

  // reason_locked() as a code: what the GUI words in the user's language.
  void state_why_locked(pb::NodeSnapshot& s) const {
    auto& why = *s.mutable_state_why();
    switch (state_locked()) {
      case pb::STOPPING:
        why.set_code(pb::NODE_STOPPING);
        break;
      case pb::FAILED:
        why.set_code(failure_code);
        if (const auto colon = failure.find(": ");
            failure_code != pb::REASON_UNKNOWN && colon != std::string::npos) {
          why.set_text(failure.substr(colon + 2));
        }
        break;
      case pb::STARTING:
        why.set_code(pb::NODE_MEASURING);
        break;
      case pb::CONTRIBUTING:
        if (decision.paused() || decision.state == governor::Decision::State::Slowed) {
          why.set_code(pb::NODE_GOVERNED);
        } else if (s.has_stage()) {
          why.set_code(pb::NODE_TRAINING);
        } else if (config.join) {
          why.set_code(pb::NODE_VOLUNTEER);
          why.set_text(config.join->job_id);
        } else if (!config.stage) {
          why.set_code(pb::NODE_BENCHMARK);
        }
        break;
      default:
        why.set_code(pb::NODE_PRESS_CONTRIBUTE);
        break;
    }
  }

  pb::NodeSnapshot snapshot_locked() const {
    pb::NodeSnapshot s;
    s.set_seq(seq.load());
    s.set_state(state_locked());
    s.set_state_reason(reason_locked());
    *s.mutable_device() = device;
    *s.mutable_work() = ledger.work_locked();
    *s.mutable_coordinator() = coordinator;
    s.set_version(ROOKERY_VERSION);
    s.set_pid(::getpid());
    s.set_node_key(identity.public_key);
    s.set_uptime_seconds(std::chrono::duration<double>(Clock::now() - started).count());
    s.set_data_dir(config.data_dir.string());
    if (workload) workload->describe(s);
    // The workload may say more of the coordinator (joined, its seat, refused) than the ping did.
    if (s.coordinator().status() != coordinator.status()) {
      classify_coordinator_status(s.coordinator().status(),
                                  *s.mutable_coordinator()->mutable_why());
    }
    state_why_locked(s);
    describe_governor_locked(*s.mutable_governor());
    ledger.describe_locked(*s.mutable_ledger());
    return s;
  }

  void post_event_locked(pb::ControlEvent::Kind kind, std::string message) {
    pending_events.emplace_back(kind, std::move(message));
    loop_cv.notify_all();
  }

  // --- the control API (RPC server thread) ---
  std::optional<net::Reply> handle_control(const net::RequestContext&, wire::Message& msg) {
    net::Reply reply;
    auto* out = reply.header.mutable_control_reply();
    if (!msg.header.has_control_request()) {
      out->set_ok(false);
      out->set_error("not a control request");
      return reply;
    }
    std::lock_guard lock(mutex);
    const auto before = state_locked();
    switch (msg.header.control_request().kind()) {
      case pb::ControlRequest::STATUS:
        out->set_ok(true);
        break;
      case pb::ControlRequest::CONTRIBUTE:
        if (!failure.empty()) {
          out->set_error("cannot contribute: " + failure);
          break;
        }
        want_contribute = true;
        worker_cv.notify_all();
        out->set_ok(true);
        break;
      case pb::ControlRequest::PAUSE:
        want_contribute = false;
        out->set_ok(true);
        break;
      case pb::ControlRequest::QUIT:
        quitting = true;
        worker_cv.notify_all();
        loop_cv.notify_all();
        out->set_ok(true);
        break;
      case pb::ControlRequest::GET_PREFERENCES:
        fill_preferences_locked(*out);
        out->set_ok(true);
        break;
      case pb::ControlRequest::SET_PREFERENCES:
      case pb::ControlRequest::RESET_PREFERENCES:
        try {
          if (msg.header.control_request().kind() == pb::ControlRequest::RESET_PREFERENCES) {
            preference_store->reset();
          } else {
            std::map<std::string, std::string> changes;
            for (const auto& v : msg.header.control_request().set()) changes[v.key()] = v.value();
            preference_store->set(changes);  // all or nothing
          }
          prefs = preference_store->load();
          govern_locked();
          post_event_locked(pb::ControlEvent::LOG, "settings saved");
          out->set_ok(true);
        } catch (const std::exception& e) {  // invalid_argument: a bad value; StoreError: the disk
          out->set_error(std::string("settings not changed: ") + e.what());
        }
        fill_preferences_locked(*out);
        break;
      case pb::ControlRequest::SNOOZE: {
        const auto seconds = msg.header.control_request().snooze_seconds();
        if (seconds < 0 || seconds > 7 * 24 * 3600) {
          out->set_error("snooze_seconds must be 0 (end the snooze) to 604800 (a week)");
          break;
        }
        gov.snooze_until(seconds == 0 ? 0 : wall_clock.now_unix_ms() + seconds * 1000);
        try {
          persist_snooze_locked();
        } catch (const std::exception& e) {
          spdlog::warn("snooze not saved: {}", e.what());
        }
        govern_locked();
        out->set_ok(true);
        break;
      }
      case pb::ControlRequest::REPORT_PRESENCE: {
        presence = msg.header.control_request().presence();
        const auto valid = presence.valid_for_ms() > 0
                               ? std::chrono::milliseconds(presence.valid_for_ms())
                               : std::chrono::milliseconds(kDefaultPresenceValidity);
        presence_expires = Clock::now() + valid;
        govern_locked();
        out->set_ok(true);
        break;
      }
      case pb::ControlRequest::LEDGER_HISTORY:
        ledger.history_locked(msg.header.control_request().history(), *out);
        break;
      case pb::ControlRequest::LEAVE_JOB:
        if (!config.join) {
          out->set_error("this node has joined no coordinator's job");
          break;
        }
        spdlog::info("leaving job {}: finishing the work unit in progress first",
                     config.join->job_id);
        leaving = true;
        quitting = true;
        worker_cv.notify_all();
        loop_cv.notify_all();
        out->set_ok(true);
        break;
      default:
        out->set_error("unknown control request");
        break;
    }
    const auto after = state_locked();
    if (before != after)
      post_event_locked(pb::ControlEvent::STATE_CHANGED,
                        std::string("state: ") + state_name(after));
    *out->mutable_snapshot() = snapshot_locked();
    return reply;
  }

  // --- the worker thread ---
  void work_loop() {
    const auto prio = governor::lower_current_thread_priority();
    const auto cpu = device::read_cpu_info();
    const int max_threads = config.threads > 0 ? config.threads : cpu.logical_cores;
    const int threads =
        max_threads;  // the benchmark measures the whole device; the governor caps after
    device::set_compute_threads(threads);
    governor::set_blas_threads(threads);
    std::string dev = config.device;
    device::ComputeDevice compute;
    std::shared_ptr<Workload> work_source;
    try {
      compute = device::detect_compute_device();
      if (dev == "auto") dev = compute.device;
      if (dev.rfind("cuda", 0) == 0 && !compute.cuda_available) {
        throw std::runtime_error("device " + dev +
                                 " requested but CUDA is not available to LibTorch");
      }
      const auto blas = device::detect_blas();
      const auto bench = device::measure_matmul(dev, 1024, config.benchmark_seconds);
      spdlog::info("compute on {} with {} thread(s) at {}; BLAS: {}", dev, threads,
                   prio.description, blas.description);
      spdlog::info("measured {:.1f} GFLOP/s (1024x1024 fp32 matmul, {} rounds)", bench.gflops,
                   bench.rounds);
      if (!blas.optimised && dev == "cpu") {
        spdlog::warn(
            "LibTorch multiplies through the reference BLAS: training will be ~30x slower than "
            "with "
            "OpenBLAS (run scripts/install-deps.sh, or: update-alternatives --config "
            "libblas.so.3-*)");
      }
      if (config.join) {
        auto options = *config.join;
        options.stage.device = dev;
        // The speed the coordinator plans with is what the owner lets Rookery use: the
        // device's measured FLOP/s times the governor's duty cycle.
        int duty = 100;
        {
          std::lock_guard lock(mutex);
          duty = std::clamp(decision.cpu_time_percent, 1, 100);
        }
        options.flops_per_s = bench.gflops * 1e9 * duty / 100.0;
        options.benchmark_flops_per_s = bench.gflops * 1e9;
        options.current_flops_per_s = [this, flops = bench.gflops * 1e9] {
          return flops * std::clamp(cpu_time_percent.load(), 1, 100) / 100.0;
        };
        work_source = make_coordinated_workload(options, identity);
      } else if (config.stage) {
        auto options = *config.stage;
        options.device = dev;
        work_source = make_stage_workload(options, identity);
      } else {
        work_source = make_matmul_workload(dev);
      }
      std::lock_guard lock(mutex);
      workload = work_source;
      device.set_compute_device(dev);
      device.set_cuda_available(compute.cuda_available);
      device.set_blas(blas.description);
      device.set_measured_gflops(bench.gflops);
      device.set_compute_threads(device::compute_threads());
      computes_on_gpu = dev.rfind("cuda", 0) == 0;
      govern_locked();
      workload_description = work_source->description();
      ledger.set_activity_locked(workload_description);
      ready = true;
      post_event_locked(pb::ControlEvent::STATE_CHANGED,
                        std::string("state: ") + state_name(state_locked()));
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex);
      failure = std::string("cannot start: ") + e.what();
      failure_code = pb::NODE_CANNOT_START;
      spdlog::error("{}", failure);
      post_event_locked(pb::ControlEvent::STATE_CHANGED, failure);
      if (config.stage ||
          config.join) {  // headless pipeline stage: nothing to wait for, exit with the reason
        exit_code = 4;
        quitting = true;
        loop_cv.notify_all();
      }
      return;
    }

    int applied_threads = threads;
    // A drain ends when nothing is in flight, or at the latest after kDrainLimit (a peer that
    // never returns a gradient: its micro-batches would expire then anyway).
    constexpr auto kDrainLimit = std::chrono::seconds(10);
    bool draining = false;
    auto drain_deadline = Clock::now();
    for (;;) {
      int cpu_time_percent = 100;
      {
        std::unique_lock lock(mutex);
        const auto waiting_since = Clock::now();
        // The governor pauses here, at a unit boundary: the unit in progress always finishes.
        // With finish_micro_batches_before_pause, a pause first drains: no new micro-batch
        // starts, and the ones peers handed over are finished, so neighbours see a clean stop.
        const bool run = want_contribute && !decision.paused();
        if (run || !draining) drain_deadline = Clock::now() + kDrainLimit;
        const bool drain = !run && prefs.finish_micro_batches_before_pause &&
                           !work_source->drained() && Clock::now() < drain_deadline;
        work_source->set_draining(!run);
        if (drain && !draining)
          spdlog::info("pausing: finishing the micro-batches in flight first");
        draining = drain;
        if (!drain) {
          worker_cv.wait(lock, [&] { return quitting || (want_contribute && !decision.paused()); });
          work_source->set_draining(false);
        }
        if (quitting) break;
        duty.rested(Clock::now() - waiting_since);
        cpu_time_percent = decision.cpu_time_percent;
        const int allowed = std::min(max_threads, decision.threads);
        if (allowed != applied_threads) {
          // OpenMP's thread count belongs to the calling thread: set it from the worker.
          device::set_compute_threads(allowed);
          governor::set_blas_threads(allowed);
          applied_threads = allowed;
          device.set_compute_threads(device::compute_threads());
          spdlog::info("governor: {} compute thread(s)", applied_threads);
        }
      }
      WorkUnitResult r;
      const auto unit_start = Clock::now();
      try {
        r = work_source->run_unit();
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex);
        failure = std::string("work failed: ") + e.what();
        failure_code = pb::NODE_WORK_FAILED;
        spdlog::error("{}", failure);
        post_event_locked(pb::ControlEvent::STATE_CHANGED, failure);
        return;
      }
      const auto unit_end = Clock::now();
      if (r.did_work) {
        // Duty cycle: rest in proportion to the compute just done (woken early by quit or pause).
        const auto rest = duty.after_work(unit_end - unit_start, cpu_time_percent, unit_end);
        if (rest > std::chrono::nanoseconds{0}) {
          std::unique_lock lock(mutex);
          worker_cv.wait_for(
              lock, rest, [&] { return quitting || decision.cpu_time_percent > cpu_time_percent; });
          duty.rested(Clock::now() - unit_end);
        }
      } else {
        duty.rested(unit_end - unit_start);
      }
      std::lock_guard lock(mutex);
      duty_measured = duty.measured_share();
      if (r.did_work) ledger.record_locked(*work_source, r);
    }
    work_source->finish();  // the current unit is done: save state
  }

  // --- the event loop (caller of run()) ---
  struct SensorSchedule {
    Clock::time_point next_programs{}, next_battery{};
    governor::BatteryReading battery;
    governor::ProgramsReading programs;
  };

  void refresh_telemetry(device::CpuLoadSampler& load, const device::Nvml& nvml,
                         const device::CpuInfo& cpu, SensorSchedule& sched) {
    const auto sample = load.sample();
    const auto gpus = nvml.read();
    read_sensors(sample, gpus, nvml, cpu, sched.next_programs, sched.next_battery, sched.battery,
                 sched.programs);
    std::lock_guard lock(mutex);
    device.set_cpu_model(cpu.model);
    device.set_cpu_cores(cpu.logical_cores);
    device.set_ram_total_bytes(cpu.ram_total_bytes);
    device.set_ram_available_bytes(device::ram_available_bytes());
    device.set_cpu_load_percent(sample.machine_percent);
    device.set_node_cpu_percent(sample.self_percent);
    device.set_gpu_status(nvml.status());
    classify_gpu_status(nvml.status(), *device.mutable_gpu_status_why());
    device.clear_gpus();
    for (const auto& g : gpus) {
      auto* t = device.add_gpus();
      t->set_index(g.index);
      t->set_name(g.name);
      t->set_memory_total_bytes(g.memory_total_bytes);
      t->set_memory_used_bytes(g.memory_used_bytes);
      t->set_utilization_percent(g.utilization_percent);
      t->set_temperature_c(g.temperature_c);
      t->set_power_w(g.power_w);
      t->set_power_limit_w(g.power_limit_w);
    }
    ledger.update_rate_locked(state_locked() == pb::CONTRIBUTING);
  }

  // After the worker stopped (its unit done, its state saved): the coordinated workload goes
  // (no heartbeat may join the job again) and the coordinator hears that this node leaves.
  std::string leave_job(net::SecureContext& ctx) {
    std::shared_ptr<Workload> gone;
    {
      std::lock_guard lock(mutex);
      gone = std::move(workload);
    }
    gone.reset();
    const auto& job = *config.join;
    wire::pb::Envelope request;
    request.mutable_leave()->set_job_id(job.job_id);
    try {
      net::RpcClient client(ctx, job.coordinator_endpoint, &identity, job.coordinator_key);
      auto r = client.request(std::move(request), std::chrono::milliseconds(2000));
      if (r.ok() && r.message->header.has_leave_reply() && r.message->header.leave_reply().left()) {
        spdlog::info("left job {}: the coordinator plans around this node", job.job_id);
      } else {
        spdlog::warn(
            "left job {}; the coordinator did not confirm ({}): it plans around this node once its "
            "heartbeats stop",
            job.job_id, r.ok() ? "it did not know this node" : r.error);
      }
    } catch (const std::exception& e) {
      spdlog::warn("left job {}; the coordinator could not be told: {}", job.job_id, e.what());
    }
    return "left job " + job.job_id;
  }

  void ping_coordinator(std::unique_ptr<net::RpcClient>& client, net::SecureContext& ctx) {
    if (config.coordinator_endpoint.empty()) return;
    if (!client)
      client = std::make_unique<net::RpcClient>(ctx, config.coordinator_endpoint, &identity,
                                                config.coordinator_key);
    wire::pb::Envelope ping;
    const auto sent = Clock::now();
    ping.mutable_ping()->set_sent_unix_us(unix_ms() * 1000);
    auto r = client->request(std::move(ping), std::chrono::milliseconds(700));
    std::lock_guard lock(mutex);
    coordinator.set_endpoint(config.coordinator_endpoint);
    if (r.ok() && r.message->header.has_pong()) {
      coordinator.set_reachable(true);
      coordinator.set_rtt_ms(
          std::chrono::duration<double, std::milli>(Clock::now() - sent).count());
      coordinator.set_status("connected to coordinator " + r.message->header.pong().version());
      coordinator.mutable_why()->set_code(pb::COORDINATOR_CONNECTED);
      coordinator.mutable_why()->set_text(r.message->header.pong().version());
    } else {
      client.reset();  // a fresh connection next time
      if (coordinator.reachable() || !coordinator_failure_logged) {
        post_event_locked(pb::ControlEvent::LOG, "coordinator unreachable: " + r.error);
        coordinator_failure_logged = true;
      }
      coordinator.set_reachable(false);
      coordinator.set_status("coordinator unreachable: " + r.error);
      coordinator.mutable_why()->set_code(pb::COORDINATOR_UNREACHABLE);
      coordinator.mutable_why()->set_text(r.error);
    }
  }
};

NodeService::NodeService(NodeConfig config) : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
  if (impl_->config.data_dir.empty()) impl_->config.data_dir = net::default_data_dir();
  if (impl_->config.runtime_dir.empty()) impl_->config.runtime_dir = net::default_runtime_dir();
  impl_->want_contribute = impl_->config.contribute_on_start;
  // Which coordinator this node answers to is known from the start; whether it is reachable
  // is known once the first ping has come back.
  if (!impl_->config.coordinator_endpoint.empty()) {
    impl_->coordinator.set_endpoint(impl_->config.coordinator_endpoint);
    if (impl_->config.join) impl_->coordinator.set_job_id(impl_->config.join->job_id);
    impl_->coordinator.set_status("connecting to the coordinator");
    impl_->coordinator.mutable_why()->set_code(pb::COORDINATOR_CONNECTING);
  }
}

NodeService::~NodeService() {
  request_quit("shutting down");
  if (impl_->worker.joinable()) impl_->worker.join();
}

void NodeService::request_quit(const std::string& why) {
  std::lock_guard lock(impl_->mutex);
  if (!impl_->quitting) spdlog::info("quit requested: {}", why);
  impl_->quitting = true;
  impl_->worker_cv.notify_all();
  impl_->loop_cv.notify_all();
}

int NodeService::run() {
  auto& m = *impl_;
  const auto endpoints = control::ControlEndpoints::in(m.config.runtime_dir);
  try {
    net::ensure_private_dir(m.config.data_dir);
    net::ensure_private_dir(m.config.runtime_dir);
    m.identity = net::CurveKeyPair::load_or_create(m.config.data_dir / "keys", "node");
  } catch (const std::exception& e) {
    spdlog::error("cannot prepare the node's folders: {}", e.what());
    return 2;
  }
  try {
    m.state_db = std::make_unique<store::Database>(m.config.data_dir / "state.db");
    m.settings = std::make_unique<store::Settings>(*m.state_db);
    m.preference_store = std::make_unique<governor::PreferenceStore>(*m.settings);
    if (!m.config.set_preferences.empty()) m.preference_store->set(m.config.set_preferences);
    std::vector<std::string> problems;
    m.prefs = m.preference_store->load(&problems);
    for (const auto& p : problems) spdlog::warn("settings: {}", p);
    m.ledger.open(*m.state_db);
    if (const auto snooze = m.settings->get(kSnoozeKey)) {
      try {
        m.gov.snooze_until(std::stoll(*snooze));
      } catch (const std::exception&) {
        spdlog::warn("settings: ignoring an unreadable snooze time \"{}\"", *snooze);
      }
    }
  } catch (const std::exception& e) {
    spdlog::error("cannot use the node's state: {}", e.what());
    return 2;
  }
  {
    std::lock_guard lock(m.mutex);
    m.readings.logical_cores = device::read_cpu_info().logical_cores;
    m.govern_locked();
  }
  {
    // One node per user: a second one would steal the first one's control sockets.
    control::ControlClient probe(endpoints);
    auto a = probe.status(std::chrono::milliseconds(500));
    if (a.ok) {
      spdlog::error("another rookery-node (pid {}) is already running for this user at {}",
                    a.snapshot.pid(), m.config.runtime_dir.string());
      return 3;
    }
  }
  spdlog::info("rookery-node {} (pid {}), identity {}, data in {}", ROOKERY_VERSION, ::getpid(),
               net::short_key(m.identity.public_key), m.config.data_dir.string());

  int rc = serve(endpoints);
  // libzmq leaves ipc socket files behind; a client must not mistake them for a live node.
  std::error_code ec;
  std::filesystem::remove(m.config.runtime_dir / "control.sock", ec);
  std::filesystem::remove(m.config.runtime_dir / "events.sock", ec);
  return rc;
}

int NodeService::serve(const control::ControlEndpoints& endpoints) {
  auto& m = *impl_;
  net::SecureContext ctx(1);
  zmq::socket_t publisher(ctx.zmq(), zmq::socket_type::pub);
  publisher.set(zmq::sockopt::linger, 200);
  publisher.set(zmq::sockopt::sndhwm, 1000);
  publisher.bind(endpoints.events);
  net::RpcServer::Config rc;
  rc.endpoint = endpoints.requests;
  net::RpcServer server(ctx, nullptr, rc, [&m](const net::RequestContext& c, wire::Message& msg) {
    return m.handle_control(c, msg);
  });
  spdlog::info("control API at {}", m.config.runtime_dir.string());

  m.worker = std::thread([&m] { m.work_loop(); });

  device::CpuLoadSampler load;
  device::Nvml nvml;
  const auto cpu = device::read_cpu_info();
  std::unique_ptr<net::RpcClient> coordinator;
  Impl::SensorSchedule sensor_schedule;
  auto publish = [&](pb::ControlEvent::Kind kind, const std::string& message) {
    pb::ControlEvent ev;
    {
      std::lock_guard lock(m.mutex);
      ev.set_seq(m.seq.load() + 1);
      m.seq.store(ev.seq());
      ev.set_kind(kind);
      ev.set_message(message);
      ev.set_unix_ms(unix_ms());
      *ev.mutable_snapshot() = m.snapshot_locked();
    }
    wire::pb::Envelope env;
    *env.mutable_control_event() = std::move(ev);
    auto frames = wire::encode(std::move(env));
    for (std::size_t i = 0; i < frames.size(); ++i) {
      publisher.send(frames[i],
                     i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
    }
  };

  auto next_tick = Clock::now();
  for (;;) {
    std::deque<std::pair<pb::ControlEvent::Kind, std::string>> events;
    bool quitting = false;
    {
      std::unique_lock lock(m.mutex);
      m.loop_cv.wait_until(lock, next_tick,
                           [&] { return m.quitting || !m.pending_events.empty(); });
      events.swap(m.pending_events);
      quitting = m.quitting;
    }
    for (auto& [kind, text] : events) publish(kind, text);
    if (quitting) break;
    if (Clock::now() >= next_tick) {
      m.refresh_telemetry(load, nvml, cpu, sensor_schedule);
      {
        std::lock_guard lock(m.mutex);
        m.ledger.log_progress_locked(m.state_locked() == pb::CONTRIBUTING);
      }
      m.ping_coordinator(coordinator, ctx);
      m.ledger.flush_if_due();
      publish(pb::ControlEvent::TELEMETRY, {});
      next_tick = Clock::now() + m.config.telemetry_interval;
    }
  }
  if (m.worker.joinable()) m.worker.join();  // the current unit finishes first
  m.ledger.flush();                          // the units since the last write
  const std::string farewell = m.leaving ? m.leave_job(ctx) : std::string("rookery-node stopped");
  publish(pb::ControlEvent::STATE_CHANGED, "state: stopping");
  publish(pb::ControlEvent::SHUTDOWN, farewell);
  if (m.exit_code != 0) return m.exit_code;
  spdlog::info("stopped cleanly after {:.0f} s; {} work units, {:.3f} TFLOP",
               std::chrono::duration<double>(Clock::now() - m.started).count(),
               m.ledger.work_locked().work_units(), m.ledger.work_locked().flops() / 1e12);
  return 0;
}

}  // namespace rookery::node
