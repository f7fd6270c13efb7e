#pragma once
// Following the coordinator's plans: the worker trains the stage the current plan gives this
// node, and when a new plan arrives (someone joined, left or died) it retires that stage
// between two work units and starts the new one, its blocks taken over by a ShardHandover.
// A first stage feeds a new pipeline only once every stage of it runs the new plan (or a
// while has passed). Meanwhile the stage's shard is kept on the shard server for the peers.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "clock/clock.hpp"
#include "net/identity.hpp"
#include "node/workload.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::pipeline {
struct ShardSnapshot;
}  // namespace rookery::pipeline

namespace rookery::node {

class ShardHandover;
class ShardServer;
class StageWorkload;
class WorkReport;

// A plan the coordinator sent, waiting for the worker to switch to it.
struct PendingPlan {
  std::uint64_t version = 0;
  wire::pb::Plan plan;
  std::filesystem::path job_path;              // the job's spec, as the coordinator sent it
  std::vector<wire::pb::ShardSource> sources;  // who held the blocks before
};

class PlanFollower {
 public:
  // Stages start with `stage` options.
  PlanFollower(StageWorkloadOptions stage, const net::CurveKeyPair& identity, ShardServer& shards,
               ShardHandover& handover, WorkReport& work,
               const clock::Clock& clock = clock::SystemClock::instance());
  ~PlanFollower();

  // The worker's thread: Workload's calls.
  WorkUnitResult run_unit();
  void finish();
  void set_draining(bool draining);
  bool drained() const;

  // Any thread: the stage's description and snapshot, when there is a stage.
  std::optional<std::string> description() const;
  void describe(wire::pb::NodeSnapshot& snapshot) const;
  // Any thread: the work of every stage this node trained, retired ones included.
  WorkCounters counters() const;

  // The coordinator client's thread.
  // The plan whose stage listens (0: none yet).
  std::uint64_t plan_version() const { return plan_version_.load(); }
  bool contributing() const { return !draining_.load(); }
  // Queues `plan` for the worker unless it is queued already.
  void offer(PendingPlan plan);
  // The coordinator says every stage of this node's pipeline runs plan `version`.
  void pipeline_ready(std::uint64_t version);
  // Only these keys reach the stage from now on (the job's members).
  void restrict_peers(std::vector<std::string> members);

 private:
  void switch_to(const PendingPlan& p);
  pipeline::ShardSnapshot snapshot_of(StageWorkload& w) const;
  // The swarm checkpoint (swarm_checkpoint.hpp): read back once the first plan names the
  // job, written every checkpoint interval and when the node finishes.
  void restore_checkpoint(const std::string& job_id);
  void save_checkpoint();
  bool hold_feeding() const;  // under draining_, pipeline_ready_, ready_deadline_

  StageWorkloadOptions stage_options_;
  const net::CurveKeyPair& identity_;
  ShardServer& shards_;
  ShardHandover& handover_;
  WorkReport& work_;
  const clock::Clock& clock_;

  // The worker's.
  std::unique_ptr<StageWorkload> stage_;
  mutable std::mutex stage_mutex_;  // guards stage_ and retired_ against other threads
  WorkCounters retired_;            // what the retired stages computed, in all
  std::chrono::steady_clock::time_point last_snapshot_;
  std::filesystem::path checkpoint_dir_;  // empty: no swarm checkpoints
  std::chrono::seconds checkpoint_interval_;
  std::chrono::steady_clock::time_point last_checkpoint_;
  bool restore_tried_ = false;
  std::atomic<bool> draining_{false};
  bool holding_ = false;                     // the stage is told to start no micro-batch
  std::atomic<bool> pipeline_ready_{false};  // every stage of the pipeline runs our plan
  std::chrono::steady_clock::time_point ready_deadline_;
  std::atomic<std::uint64_t> plan_version_{0};

  // Shared with the coordinator client.
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::optional<PendingPlan> pending_;
  std::uint64_t queued_version_ = 0;
  std::vector<std::string> members_;  // the job's members, as the coordinator last listed them
};

}  // namespace rookery::node
