#pragma once
// The worker thread: measures the device, starts the workload (benchmark, pipeline stage or a
// coordinator's job), then computes one unit at a time at idle priority under the governor's
// decision: it pauses (draining first, if asked) and changes its thread count only between
// units, and rests after each unit in proportion to the CPU share it may use.
#include <memory>
#include <mutex>
#include <thread>

#include "clock/clock.hpp"
#include "governor/duty_cycle.hpp"
#include "net/identity.hpp"
#include "node/governor_bridge.hpp"
#include "node/ledger_recorder.hpp"
#include "node/node_service.hpp"
#include "node/node_status.hpp"
#include "node/workload.hpp"

namespace rookery::node {

class ComputeWorker {
 public:
  ComputeWorker(const NodeConfig& config, const net::CurveKeyPair& identity, std::mutex& node_mutex,
                NodeStatus& status, GovernorBridge& governor, LedgerRecorder& ledger,
                const clock::Clock& clock = clock::SystemClock::instance());
  ~ComputeWorker();  // joins; quit first (NodeStatus::request_quit_locked)
  ComputeWorker(const ComputeWorker&) = delete;
  ComputeWorker& operator=(const ComputeWorker&) = delete;

  void start();
  // Waits for the thread: after a quit, the unit in progress finishes and its state is saved.
  void join();

 private:
  void run();
  // The workload, once the device is measured; nullptr when it cannot start (status says why).
  std::shared_ptr<Workload> start_workload(int threads, const std::string& priority);
  struct Benchmark {
    double gflops = 0;
    bool on_job_blocks = false;  // else a matmul: a first-time joiner re-measures (DeviceSpeed)
  };
  // The device's speed in the planner's units (model/block_benchmark), for about
  // config_.benchmark_seconds.
  Benchmark benchmark(const std::string& dev) const;
  // Units until quit (true) or a unit fails (false: the status says why).
  bool compute(Workload& work, int max_threads);

  const NodeConfig& config_;
  const net::CurveKeyPair& identity_;
  std::mutex& mutex_;
  NodeStatus& status_;
  GovernorBridge& governor_;
  LedgerRecorder& ledger_;
  const clock::Clock& clock_;
  governor::DutyCycle duty_;
  std::thread thread_;
};

}  // namespace rookery::node
