#include "node/node_service.hpp"

#include <unistd.h>

#include <spdlog/spdlog.h>

#include "control/control_client.hpp"
#include "device/nvml.hpp"
#include "device/system_info.hpp"
#include "net/identity.hpp"
#include "net/paths.hpp"
#include "net/rpc.hpp"
#include "node/compute_worker.hpp"
#include "node/control_handler.hpp"
#include "node/governor_bridge.hpp"
#include "node/ledger_recorder.hpp"
#include "node/node_status.hpp"
#include "node/workload.hpp"
#include "store/database.hpp"
#include "wire/message.hpp"
#include "clock/clock.hpp"

namespace rookery::node {

namespace {
using Clock = std::chrono::steady_clock;

using clock::unix_ms;
}  // namespace

struct NodeService::Impl {
  NodeConfig config;
  net::CurveKeyPair identity;

  std::mutex mutex;  // the node's lock: over its status, governor decision and ledger
  std::unique_ptr<store::Database> state_db;  // before the parts that keep their state in it

  // The governor's decision, enforced; the lambda runs with the lock held.
  GovernorBridge governor{
      mutex, [this](const governor::Decision& before, const governor::Decision& now) {
        status.worker_cv.notify_all();
        if (status.ready && now.state != before.state) {
          spdlog::info("governor: {} ({})", governor::state_name(now.state), now.reason);
        }
        status.post_event_locked(
            pb::ControlEvent::STATE_CHANGED,
            std::string("governor: ") + governor::state_name(now.state) + " (" + now.reason + ")");
      }};

  LedgerRecorder ledger;  // this session's work and the contribution ledger (in state_db)
  NodeStatus status{config, identity, governor, ledger};
  ControlHandler control{config, identity, mutex, status, governor, ledger};
  bool coordinator_failure_logged = false;  // the first failed ping is logged, then each loss
  ComputeWorker worker{config, identity, mutex, status, governor, ledger};

  // --- the event loop (caller of run()) ---
  void refresh_telemetry(device::CpuLoadSampler& load, const device::Nvml& nvml,
                         const device::CpuInfo& cpu) {
    const auto sample = load.sample();
    const auto gpus = nvml.read();
    governor.read_sensors(sample, gpus, nvml, cpu);
    std::lock_guard lock(mutex);
    status.record_telemetry_locked(cpu, sample, nvml, gpus);
    ledger.update_rate_locked(status.state_locked() == pb::CONTRIBUTING);
  }

  // After the worker stopped (its unit done, its state saved): the coordinated workload goes
  // (no heartbeat may join the job again) and the coordinator hears that this node leaves.
  std::string leave_job(net::SecureContext& ctx) {
    std::shared_ptr<Workload> gone;
    {
      std::lock_guard lock(mutex);
      gone = std::move(status.workload);
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
    status.coordinator.set_endpoint(config.coordinator_endpoint);
    if (r.ok() && r.message->header.has_pong()) {
      // Said once it answers again, so that the window does not keep showing the loss.
      if (!status.coordinator.reachable() && coordinator_failure_logged)
        status.post_event_locked(pb::ControlEvent::LOG, "the coordinator answers again");
      status.coordinator.set_reachable(true);
      status.coordinator.set_rtt_ms(
          std::chrono::duration<double, std::milli>(Clock::now() - sent).count());
      status.coordinator.set_status("connected to coordinator " +
                                    r.message->header.pong().version());
      status.coordinator.mutable_why()->set_code(pb::COORDINATOR_CONNECTED);
      status.coordinator.mutable_why()->set_text(r.message->header.pong().version());
    } else {
      client.reset();  // a fresh connection next time
      if (status.coordinator.reachable() || !coordinator_failure_logged) {
        status.post_event_locked(pb::ControlEvent::LOG, "coordinator unreachable: " + r.error);
        coordinator_failure_logged = true;
      }
      status.coordinator.set_reachable(false);
      status.coordinator.set_status("coordinator unreachable: " + r.error);
      status.coordinator.mutable_why()->set_code(pb::COORDINATOR_UNREACHABLE);
      status.coordinator.mutable_why()->set_text(r.error);
    }
  }
};

NodeService::NodeService(NodeConfig config) : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
  if (impl_->config.data_dir.empty()) impl_->config.data_dir = net::default_data_dir();
  if (impl_->config.runtime_dir.empty()) impl_->config.runtime_dir = net::default_runtime_dir();
  impl_->status.want_contribute = impl_->config.contribute_on_start;
  // Which coordinator this node answers to is known from the start; whether it is reachable
  // is known once the first ping has come back.
  if (!impl_->config.coordinator_endpoint.empty()) {
    impl_->status.coordinator.set_endpoint(impl_->config.coordinator_endpoint);
    if (impl_->config.join) impl_->status.coordinator.set_job_id(impl_->config.join->job_id);
    impl_->status.coordinator.set_status("connecting to the coordinator");
    impl_->status.coordinator.mutable_why()->set_code(pb::COORDINATOR_CONNECTING);
  }
}

NodeService::~NodeService() {
  request_quit("shutting down");
  impl_->worker.join();
}

void NodeService::request_quit(const std::string& why) {
  std::lock_guard lock(impl_->mutex);
  if (!impl_->status.quitting) spdlog::info("quit requested: {}", why);
  impl_->status.request_quit_locked();
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
    return m.control.handle(c, msg);
  });
  spdlog::info("control API at {}", m.config.runtime_dir.string());

  m.worker.start();

  device::CpuLoadSampler load;
  device::Nvml nvml;
  const auto cpu = device::read_cpu_info();
  std::unique_ptr<net::RpcClient> coordinator;
  auto publish = [&](pb::ControlEvent::Kind kind, const std::string& message) {
    wire::pb::Envelope env;
    {
      std::lock_guard lock(m.mutex);
      *env.mutable_control_event() = m.status.next_event_locked(kind, message);
    }
    auto frames = wire::encode(std::move(env));
    for (std::size_t i = 0; i < frames.size(); ++i) {
      publisher.send(frames[i],
                     i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
    }
  };

  auto next_tick = Clock::now();
  for (;;) {
    std::deque<NodeStatus::Event> events;
    bool quitting = false;
    {
      std::unique_lock lock(m.mutex);
      m.status.events_cv.wait_until(
          lock, next_tick, [&] { return m.status.quitting || m.status.has_events_locked(); });
      events = m.status.take_events_locked();
      quitting = m.status.quitting;
    }
    for (auto& [kind, text] : events) publish(kind, text);
    if (quitting) break;
    if (Clock::now() >= next_tick) {
      m.refresh_telemetry(load, nvml, cpu);
      {
        std::lock_guard lock(m.mutex);
        m.ledger.log_progress_locked(m.status.state_locked() == pb::CONTRIBUTING);
      }
      m.ping_coordinator(coordinator, ctx);
      m.ledger.flush_if_due();
      publish(pb::ControlEvent::TELEMETRY, {});
      next_tick = Clock::now() + m.config.telemetry_interval;
    }
  }
  m.worker.join();   // the current unit finishes first
  m.ledger.flush();  // the units since the last write
  const std::string farewell =
      m.status.leaving ? m.leave_job(ctx) : std::string("rookery-node stopped");
  publish(pb::ControlEvent::STATE_CHANGED, "state: stopping");
  publish(pb::ControlEvent::SHUTDOWN, farewell);
  if (m.status.exit_code != 0) return m.status.exit_code;
  spdlog::info("stopped cleanly after {:.0f} s; {} work units, {:.3f} TFLOP",
               m.status.uptime_seconds(), m.ledger.work_locked().work_units(),
               m.ledger.work_locked().flops() / 1e12);
  return 0;
}

}  // namespace rookery::node
