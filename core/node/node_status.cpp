#include "node/node_status.hpp"

#include <unistd.h>

#include <spdlog/spdlog.h>

#include "node/reasons.hpp"

namespace rookery::node {

namespace {
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

bool governed(const governor::Decision& d) {
  return d.paused() || d.state == governor::Decision::State::Slowed;
}
}  // namespace

NodeStatus::NodeStatus(const NodeConfig& config, const net::CurveKeyPair& identity,
                       const GovernorBridge& governor, const LedgerRecorder& ledger,
                       const clock::Clock& clock)
    : config_(config),
      identity_(identity),
      governor_(governor),
      ledger_(ledger),
      clock_(clock),
      started_(clock.steady_now()) {}

pb::NodeState NodeStatus::state_locked() const {
  if (quitting) return pb::STOPPING;
  if (!failure.empty()) return pb::FAILED;
  if (!ready) return pb::STARTING;
  return want_contribute ? pb::CONTRIBUTING : pb::PAUSED;
}

std::string NodeStatus::reason_locked() const {
  const auto& decision = governor_.decision_locked();
  switch (state_locked()) {
    case pb::STOPPING:
      return "stopping: saving state";
    case pb::FAILED:
      return failure;
    case pb::STARTING:
      return "measuring this PC's compute speed";
    case pb::CONTRIBUTING:
      if (decision.paused()) return "paused: " + decision.reason;
      if (decision.state == governor::Decision::State::Slowed) return "slowed: " + decision.reason;
      return workload_description;
    default:
      return "paused: press Contribute to start";
  }
}

// reason_locked() as a code: what the GUI words in the user's language.
void NodeStatus::state_why_locked(pb::NodeSnapshot& s) const {
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
      if (governed(governor_.decision_locked())) {
        why.set_code(pb::NODE_GOVERNED);
      } else if (s.has_stage()) {
        why.set_code(pb::NODE_TRAINING);
      } else if (config_.join) {
        why.set_code(pb::NODE_VOLUNTEER);
        why.set_text(config_.join->job_id);
      } else if (!config_.stage) {
        why.set_code(pb::NODE_BENCHMARK);
      }
      break;
    default:
      why.set_code(pb::NODE_PRESS_CONTRIBUTE);
      break;
  }
}

double NodeStatus::uptime_seconds() const {
  return std::chrono::duration<double>(clock_.steady_now() - started_).count();
}

pb::NodeSnapshot NodeStatus::snapshot_locked() const {
  pb::NodeSnapshot s;
  s.set_seq(seq_.load());
  s.set_state(state_locked());
  s.set_state_reason(reason_locked());
  *s.mutable_device() = device;
  *s.mutable_work() = ledger_.work_locked();
  *s.mutable_coordinator() = coordinator;
  s.set_version(ROOKERY_VERSION);
  s.set_pid(::getpid());
  s.set_node_key(identity_.public_key);
  s.set_uptime_seconds(uptime_seconds());
  s.set_data_dir(config_.data_dir.string());
  if (workload) workload->describe(s);
  state_why_locked(s);
  governor_.describe_locked(*s.mutable_governor());
  ledger_.describe_locked(*s.mutable_ledger());
  return s;
}

void NodeStatus::request_quit_locked(bool leave) {
  if (leave) leaving = true;
  quitting = true;
  worker_cv.notify_all();
  events_cv.notify_all();
}

void NodeStatus::fail_locked(std::string why, pb::ReasonCode code) {
  failure = std::move(why);
  failure_code = code;
  spdlog::error("{}", failure);
  post_event_locked(pb::ControlEvent::STATE_CHANGED, failure);
}

void NodeStatus::post_event_locked(pb::ControlEvent::Kind kind, std::string message) {
  pending_events_.emplace_back(kind, std::move(message));
  events_cv.notify_all();
}

void NodeStatus::post_state_locked() {
  post_event_locked(pb::ControlEvent::STATE_CHANGED,
                    std::string("state: ") + state_name(state_locked()));
}

std::deque<NodeStatus::Event> NodeStatus::take_events_locked() {
  std::deque<Event> events;
  events.swap(pending_events_);
  return events;
}

pb::ControlEvent NodeStatus::next_event_locked(pb::ControlEvent::Kind kind,
                                               const std::string& message) {
  pb::ControlEvent ev;
  ev.set_seq(seq_.load() + 1);
  seq_.store(ev.seq());
  ev.set_kind(kind);
  ev.set_message(message);
  ev.set_unix_ms(clock_.unix_ms());
  *ev.mutable_snapshot() = snapshot_locked();
  return ev;
}

void NodeStatus::record_telemetry_locked(const device::CpuInfo& cpu,
                                         const device::CpuLoadSampler::Sample& load,
                                         const device::Nvml& nvml,
                                         const std::vector<device::GpuReading>& gpus) {
  device.set_cpu_model(cpu.model);
  device.set_cpu_cores(cpu.logical_cores);
  device.set_ram_total_bytes(cpu.ram_total_bytes);
  device.set_ram_available_bytes(device::ram_available_bytes());
  device.set_cpu_load_percent(load.machine_percent);
  device.set_node_cpu_percent(load.self_percent);
  device.set_gpu_status(nvml.status());
  to_reason(nvml.state(), nvml.gpu_count(), *device.mutable_gpu_status_why());
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
}

}  // namespace rookery::node
