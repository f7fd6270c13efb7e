#pragma once
// What the node is doing and why, as its clients see it: the state and its reason (in words,
// and as a code a GUI words in the user's language), the snapshot that carries them with the
// device, the work, the governor and the ledger, and the stream of events, each numbered one
// more than the last so that a client sees when it missed some.
// Its fields and the _locked functions are guarded by the node's lock; the node's parts write
// the fields they own (the worker: ready, failure, workload; the control API: want_contribute).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "clock/clock.hpp"
#include "device/nvml.hpp"
#include "device/system_info.hpp"
#include "net/identity.hpp"
#include "node/governor_bridge.hpp"
#include "node/ledger_recorder.hpp"
#include "node/node_service.hpp"
#include "node/workload.hpp"
#include "rookery/control.pb.h"

namespace rookery::node {

class NodeStatus {
 public:
  using Event = std::pair<pb::ControlEvent::Kind, std::string>;

  NodeStatus(const NodeConfig& config, const net::CurveKeyPair& identity,
             const GovernorBridge& governor, const LedgerRecorder& ledger,
             const clock::Clock& clock = clock::SystemClock::instance());

  bool ready = false;  // start-up benchmark done
  bool want_contribute = false;
  bool quitting = false;
  bool leaving = false;  // quitting to leave the coordinator's job (LEAVE_JOB)
  std::string failure;   // non-empty: the worker failed
  pb::ReasonCode failure_code = pb::REASON_UNKNOWN;  // the failure as a code (its text: the error)
  pb::DeviceSnapshot device;
  pb::CoordinatorLink coordinator;
  std::string workload_description;
  std::shared_ptr<Workload> workload;  // set once by the worker; describe() is thread-safe
  int exit_code = 0;

  // The worker waits on worker_cv (contribute, a new decision, quit); the event loop on
  // events_cv (an event to publish, quit).
  std::condition_variable worker_cv;
  std::condition_variable events_cv;

  pb::NodeState state_locked() const;
  std::string reason_locked() const;
  pb::NodeSnapshot snapshot_locked() const;
  double uptime_seconds() const;

  // Quits (to leave the job too, with `leave`): the worker stops after its unit, the loop ends.
  void request_quit_locked(bool leave = false);
  // The worker failed: the node says why, in words and as a code.
  void fail_locked(std::string why, pb::ReasonCode code);

  // Events wait for the event loop, which numbers and publishes them.
  void post_event_locked(pb::ControlEvent::Kind kind, std::string message);
  void post_state_locked();  // "state: <the state>"
  std::deque<Event> take_events_locked();
  bool has_events_locked() const { return !pending_events_.empty(); }
  // The next event of the stream: numbered, stamped, with the snapshot as of now.
  pb::ControlEvent next_event_locked(pb::ControlEvent::Kind kind, const std::string& message);

  // The event loop's device telemetry, read outside the lock.
  void record_telemetry_locked(const device::CpuInfo& cpu,
                               const device::CpuLoadSampler::Sample& load, const device::Nvml& nvml,
                               const std::vector<device::GpuReading>& gpus);

 private:
  void state_why_locked(pb::NodeSnapshot& s) const;

  const NodeConfig& config_;
  const net::CurveKeyPair& identity_;
  const GovernorBridge& governor_;
  const LedgerRecorder& ledger_;
  const clock::Clock& clock_;
  const std::chrono::steady_clock::time_point started_;
  std::deque<Event> pending_events_;
  std::atomic<std::uint64_t> seq_{0};  // last published event
};

}  // namespace rookery::node
