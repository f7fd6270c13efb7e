#pragma once
// What the node computes while contributing, one unit at a time. The node pauses, slows
// down and reads the work counted only at unit boundaries, so a unit is short (well under a
// second).
#include <filesystem>
#include <memory>
#include <string>

#include "net/identity.hpp"
#include "node/work_counters.hpp"
#include "rookery/control.pb.h"

namespace rookery::node {

namespace pb = rookery::wire::pb;

// What the work was is in the workload's counters; a unit only says whether there was any.
struct WorkUnitResult {
  bool did_work = true;  // false: waited for work that did not come
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string description() const = 0;
  virtual WorkUnitResult run_unit() = 0;
  // What it computed since it started, counted by the thread that runs the units: a
  // consistent snapshot, cheap enough to read after every unit, from any thread.
  virtual WorkCounters counters() const = 0;
  // Called once on a clean stop, from the thread that ran the units (save state here).
  virtual void finish() {}
  // Extra state for the node's snapshot (the pipeline shard, when there is one).
  virtual void describe(pb::NodeSnapshot& snapshot) const { (void)snapshot; }
  // Pausing gracefully: while draining, no new work is started (a first stage feeds no new
  // micro-batches) but what peers already handed over is finished. drained() is true once
  // nothing is held for peers; the node then pauses for real. Called from the worker thread.
  virtual void set_draining(bool draining) { (void)draining; }
  virtual bool drained() const { return true; }
};

// Runs the device's matmul benchmark as the unit of work: real floating-point work on the
// device the node would train on, used until the node has a pipeline shard to train.
std::unique_ptr<Workload> make_matmul_workload(const std::string& device, int n = 768,
                                               double unit_seconds = 0.2);

struct StageWorkloadOptions {
  std::filesystem::path plan_path;  // the static stage plan (JSON)
  int stage = 0;                    // which of its stages this node is
  std::string device = "cpu";
  std::filesystem::path checkpoint_dir;
  int checkpoint_interval_s = 300;
  long max_micro_batches = 0;  // first stage: stop feeding after this many (tests)
  int micro_batch_timeout_ms = 20000;
  long flush_every = 0;   // first stage: GPipe's synchronous schedule (benchmarks)
  std::string fault;      // fault injection for tests (pipeline::StageConfig::fault)
  std::string bind_host;  // where the stage's sockets listen ("*": everywhere); "": as planned
  // The node's own ports for its stage and its ring (0: the planned endpoint's). Peers may dial
  // other ports that lead there: a router's mapping, a relay's.
  std::uint16_t stage_port = 0, reduce_port = 0;
};

// Trains the node's shard of a pipeline (core/pipeline's StageRuntime) as the unit of work:
// each unit is one forward, backward, or new micro-batch. Throws for an unusable plan or a
// corrupt checkpoint, with the reason.
std::unique_ptr<Workload> make_stage_workload(const StageWorkloadOptions& options,
                                              const net::CurveKeyPair& identity);

}  // namespace rookery::node
