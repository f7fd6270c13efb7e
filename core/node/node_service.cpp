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
#include "governor/thread_priority.hpp"
#include "net/identity.hpp"
#include "net/paths.hpp"
#include "net/rpc.hpp"
#include "net/token_bucket.hpp"
#include "node/governor_bridge.hpp"
#include "node/ledger_recorder.hpp"
#include "node/reasons.hpp"
#include "node/workload.hpp"
#include "store/database.hpp"
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

  std::unique_ptr<store::Database> state_db;  // before the parts that keep their state in it

  // The governor's decision, enforced; the lambda runs with the lock held.
  GovernorBridge governor{
      mutex, [this](const governor::Decision& before, const governor::Decision& now) {
        worker_cv.notify_all();
        if (ready && now.state != before.state) {
          spdlog::info("governor: {} ({})", governor::state_name(now.state), now.reason);
        }
        post_event_locked(
            pb::ControlEvent::STATE_CHANGED,
            std::string("governor: ") + governor::state_name(now.state) + " (" + now.reason + ")");
      }};
  governor::DutyCycle duty;  // the worker's

  LedgerRecorder ledger;  // this session's work and the contribution ledger (in state_db)

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
        if (governor.decision_locked().paused())
          return "paused: " + governor.decision_locked().reason;
        if (governor.decision_locked().state == governor::Decision::State::Slowed)
          return "slowed: " + governor.decision_locked().reason;
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
        if (governor.decision_locked().paused() ||
            governor.decision_locked().state == governor::Decision::State::Slowed) {
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
    governor.describe_locked(*s.mutable_governor());
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
        governor.fill_preferences_locked(*out);
        out->set_ok(true);
        break;
      case pb::ControlRequest::SET_PREFERENCES:
      case pb::ControlRequest::RESET_PREFERENCES:
        try {
          if (msg.header.control_request().kind() == pb::ControlRequest::RESET_PREFERENCES) {
            governor.reset_preferences_locked();
          } else {
            std::map<std::string, std::string> changes;
            for (const auto& v : msg.header.control_request().set()) changes[v.key()] = v.value();
            governor.set_preferences_locked(changes);  // all or nothing
          }
          post_event_locked(pb::ControlEvent::LOG, "settings saved");
          out->set_ok(true);
        } catch (const std::exception& e) {  // invalid_argument: a bad value; StoreError: the disk
          out->set_error(std::string("settings not changed: ") + e.what());
        }
        governor.fill_preferences_locked(*out);
        break;
      case pb::ControlRequest::SNOOZE: {
        const auto seconds = msg.header.control_request().snooze_seconds();
        if (seconds < 0 || seconds > 7 * 24 * 3600) {
          out->set_error("snooze_seconds must be 0 (end the snooze) to 604800 (a week)");
          break;
        }
        governor.snooze_locked(seconds);
        out->set_ok(true);
        break;
      }
      case pb::ControlRequest::REPORT_PRESENCE: {
        governor.report_presence_locked(msg.header.control_request().presence());
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
          duty = std::clamp(governor.decision_locked().cpu_time_percent, 1, 100);
        }
        options.flops_per_s = bench.gflops * 1e9 * duty / 100.0;
        options.benchmark_flops_per_s = bench.gflops * 1e9;
        options.current_flops_per_s = [this, flops = bench.gflops * 1e9] {
          return flops * std::clamp(governor.cpu_time_percent(), 1, 100) / 100.0;
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
      governor.set_computes_on_gpu_locked(dev.rfind("cuda", 0) == 0);
      governor.govern_locked();
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
        const auto& decision = governor.decision_locked();
        const bool run = want_contribute && !decision.paused();
        if (run || !draining) drain_deadline = Clock::now() + kDrainLimit;
        const bool drain = !run &&
                           governor.preferences_locked().finish_micro_batches_before_pause &&
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
          worker_cv.wait_for(lock, rest, [&] {
            return quitting || governor.decision_locked().cpu_time_percent > cpu_time_percent;
          });
          duty.rested(Clock::now() - unit_end);
        }
      } else {
        duty.rested(unit_end - unit_start);
      }
      std::lock_guard lock(mutex);
      governor.set_duty_measured_locked(duty.measured_share());
      if (r.did_work) ledger.record_locked(*work_source, r);
    }
    work_source->finish();  // the current unit is done: save state
  }

  // --- the event loop (caller of run()) ---
  void refresh_telemetry(device::CpuLoadSampler& load, const device::Nvml& nvml,
                         const device::CpuInfo& cpu) {
    const auto sample = load.sample();
    const auto gpus = nvml.read();
    governor.read_sensors(sample, gpus, nvml, cpu);
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
    m.governor.open(*m.state_db, m.config.set_preferences);
    m.ledger.open(*m.state_db);
  } catch (const std::exception& e) {
    spdlog::error("cannot use the node's state: {}", e.what());
    return 2;
  }
  {
    std::lock_guard lock(m.mutex);
    m.governor.set_logical_cores_locked(device::read_cpu_info().logical_cores);
    m.governor.govern_locked();
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
      m.refresh_telemetry(load, nvml, cpu);
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
