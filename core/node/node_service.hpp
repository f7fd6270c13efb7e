#pragma once
// The node process, composed of its parts: ComputeWorker (the worker thread), GovernorBridge
// (the governor with its sensors, preferences and snooze), LedgerRecorder (the work done and
// the contribution ledger), NodeStatus (state, snapshots, events) and ControlHandler (the
// local control API); NodeService starts them and runs the event and telemetry loop.
// Threads: the caller of run() publishes events and telemetry and reads the governor's
// sensors; the RPC server thread answers local clients; the worker thread computes at idle
// priority, under the resource governor's decision (threads, duty cycle, pauses at unit
// boundaries). Preferences and the snooze live in the state database (data_dir/state.db).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "control/control_endpoints.hpp"
#include "node/coordinated_workload.hpp"
#include "node/workload.hpp"
#include "rookery/control.pb.h"

namespace rookery::node {

namespace pb = rookery::wire::pb;

struct NodeConfig {
  std::filesystem::path data_dir;     // keys, state, logs
  std::filesystem::path runtime_dir;  // control sockets (0700)
  std::string device = "auto";        // "auto" (CUDA when present), "cpu", "cuda:N"
  int threads = 0;                    // intra-op threads; 0 = all logical cores
  bool contribute_on_start = false;
  std::chrono::milliseconds telemetry_interval{1000};
  double benchmark_seconds = 0.5;             // start-up matmul benchmark
  std::string coordinator_endpoint;           // optional: tcp://host:port
  std::string coordinator_key;                // its CURVE public key (Z85)
  std::optional<StageWorkloadOptions> stage;  // train this pipeline stage (else: benchmark work)
  std::optional<CoordinatedOptions> join;  // or: join a coordinator's job and train what it assigns
  // Preferences to store before starting (rookery-node --preference KEY=VALUE); validated
  // all together, the node refuses to start on a bad one.
  std::map<std::string, std::string> set_preferences;
};

class NodeService {
 public:
  explicit NodeService(NodeConfig config);
  ~NodeService();
  NodeService(const NodeService&) = delete;
  NodeService& operator=(const NodeService&) = delete;

  // Runs until quit is requested (control API, signal). Returns the process exit code.
  int run();
  // Thread-safe; may be called from a signal-waiting thread.
  void request_quit(const std::string& why);

 private:
  int serve(const control::ControlEndpoints& endpoints);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rookery::node
