#include "node/plan_follower.hpp"

#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "node/shard_handover.hpp"
#include "node/shard_server.hpp"
#include "node/stage_workload.hpp"
#include "node/swarm_checkpoint.hpp"
#include "node/work_report.hpp"
#include "pipeline/checkpoint_file.hpp"
#include "pipeline/stage_plan.hpp"
#include "pipeline/stage_runtime.hpp"
#include "reduce/block_parameter_counts.hpp"

namespace rookery::node {

namespace {

constexpr std::int64_t kSampleIdsPerPlan = 1'000'000'000;  // each plan's pipelines read fresh ids
constexpr auto kSnapshotEvery = std::chrono::seconds(2);   // how stale the served shard may be
constexpr auto kReadyWait = std::chrono::seconds(10);  // feed anyway after this (coordinator gone)

}  // namespace

PlanFollower::PlanFollower(StageWorkloadOptions stage, const net::CurveKeyPair& identity,
                           ShardServer& shards, ShardHandover& handover, WorkReport& work,
                           const clock::Clock& clock)
    : stage_options_(std::move(stage)),
      identity_(identity),
      shards_(shards),
      handover_(handover),
      work_(work),
      clock_(clock),
      last_snapshot_(clock.steady_now()),
      checkpoint_dir_(stage_options_.checkpoint_dir),
      checkpoint_interval_(std::max(1, stage_options_.checkpoint_interval_s)),
      last_checkpoint_(clock.steady_now()),
      ready_deadline_(clock.steady_now()) {
  // Stages keep no checkpoint of their own here (theirs is named by pipeline and seat, which
  // plans change): the follower keeps the node's shard, whatever seat it trains.
  stage_options_.checkpoint_dir.clear();
}

PlanFollower::~PlanFollower() = default;

bool PlanFollower::hold_feeding() const {
  return draining_ || !(pipeline_ready_ || clock_.steady_now() > ready_deadline_);
}

WorkUnitResult PlanFollower::run_unit() {
  std::optional<PendingPlan> pending;
  {
    std::lock_guard lock(mutex_);
    if (pending_) pending = std::exchange(pending_, std::nullopt);
  }
  if (pending) switch_to(*pending);
  if (!stage_) {
    std::unique_lock lock(mutex_);
    cv_.wait_for(lock, std::chrono::milliseconds(200), [&] { return pending_.has_value(); });
    WorkUnitResult idle;
    idle.did_work = false;
    return idle;
  }
  // A first stage feeds a new pipeline only once every stage of it runs the new plan.
  const bool hold = hold_feeding();
  if (hold != holding_) {
    holding_ = hold;
    stage_->set_draining(hold);
    if (!hold && !draining_)
      spdlog::info("plan {}: every stage of the pipeline is ready", plan_version_.load());
  }
  auto r = stage_->run_unit();
  const auto now = clock_.steady_now();
  if (now - last_snapshot_ > kSnapshotEvery) {
    last_snapshot_ = now;
    shards_.hold(snapshot_of(*stage_), /*live=*/true);
    work_.stage_stats(stage_->runtime().stats());
  }
  if (now - last_checkpoint_ > checkpoint_interval_) save_checkpoint();
  return r;
}

void PlanFollower::finish() {
  if (stage_) stage_->finish();
  save_checkpoint();
}

void PlanFollower::restore_checkpoint(const std::string& job_id) {
  restore_tried_ = true;
  if (checkpoint_dir_.empty()) return;
  const auto path = swarm_checkpoint_path(checkpoint_dir_, job_id);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return;
  try {
    auto restored = load_swarm_checkpoint(path, job_id);
    const auto expected = shards_.parameters_of(restored.first_block, restored.last_block);
    if (static_cast<std::int64_t>(restored.values.size()) != expected) {
      throw pipeline::CheckpointError(
          "checkpoint " + path.string() + " holds " + std::to_string(restored.values.size()) +
          " parameters for blocks [" + std::to_string(restored.first_block) + ", " +
          std::to_string(restored.last_block) + "), which have " + std::to_string(expected) +
          " in this job");
    }
    spdlog::info(
        "swarm checkpoint {}: blocks [{}, {}) as this node held them under plan {} (optimizer "
        "step {}, moment step {}); they are taken back where no peer holds a copy trained longer",
        path.string(), restored.first_block, restored.last_block, restored.plan_version,
        restored.optimizer_steps,
        restored.moment_step_of(restored.first_block, restored.last_block));
    shards_.hold(std::move(restored), /*live=*/false);
  } catch (const std::exception& e) {
    // Kept as it is for its owner to look at, never trained from; the next save replaces it.
    spdlog::error("{}; this node starts without it", e.what());
  }
}

void PlanFollower::save_checkpoint() {
  last_checkpoint_ = clock_.steady_now();
  if (checkpoint_dir_.empty() || !stage_) return;
  try {
    save_swarm_checkpoint(swarm_checkpoint_path(checkpoint_dir_, stage_->plan().job.id),
                          stage_->plan().job.id, snapshot_of(*stage_));
  } catch (const std::exception& e) {
    spdlog::error("swarm checkpoint not written: {} (tried again in {} s)", e.what(),
                  checkpoint_interval_.count());
  }
}

void PlanFollower::set_draining(bool draining) {
  draining_ = draining;
  holding_ = hold_feeding();
  if (stage_) stage_->set_draining(holding_);
}

bool PlanFollower::drained() const { return !stage_ || stage_->drained(); }

std::optional<std::string> PlanFollower::description() const {
  std::lock_guard lock(stage_mutex_);
  if (stage_) return stage_->description();
  return std::nullopt;
}

void PlanFollower::describe(wire::pb::NodeSnapshot& snapshot) const {
  std::lock_guard lock(stage_mutex_);
  if (stage_) stage_->describe(snapshot);
}

WorkCounters PlanFollower::counters() const {
  std::lock_guard lock(stage_mutex_);
  return stage_ ? retired_.then(stage_->counters()) : retired_;
}

void PlanFollower::offer(PendingPlan plan) {
  std::lock_guard lock(mutex_);
  if (plan.version == queued_version_) return;  // the worker may still be switching to it
  queued_version_ = plan.version;
  pending_ = std::move(plan);
  cv_.notify_all();
}

void PlanFollower::pipeline_ready(std::uint64_t version) {
  if (version == plan_version_.load()) pipeline_ready_ = true;
}

void PlanFollower::restrict_peers(std::vector<std::string> members) {
  {
    std::lock_guard lock(mutex_);
    members_ = members;
  }
  std::lock_guard lock(stage_mutex_);
  if (stage_) stage_->runtime().restrict_peers(members);
}

ShardSnapshot PlanFollower::snapshot_of(StageWorkload& w) const {
  ShardSnapshot s;
  const auto& me = w.plan().stages[w.stage_index()];
  s.first_block = me.first_block;
  s.last_block = me.last_block;
  s.optimizer_steps = w.runtime().optimizer_steps();
  s.plan_version = plan_version_.load();
  s.values = w.runtime().parameters();
  s.state = w.runtime().optimizer_state();
  s.block_moment_steps = w.runtime().block_moment_steps();
  return s;
}

void PlanFollower::switch_to(const PendingPlan& p) {
  pipeline::StagePlan plan;
  try {
    plan = pipeline::stage_plan_from_message(p.plan, p.job_path);
    if (!shards_.knows_blocks())
      shards_.set_block_counts(reduce::block_parameter_counts(plan.job.model));
    if (!restore_tried_) restore_checkpoint(plan.job.id);
  } catch (const std::exception& e) {
    spdlog::error("plan {} from the coordinator is not usable: {} (keeping plan {})", p.version,
                  e.what(), plan_version_.load());
    return;
  }
  const auto place = plan.find(identity_.public_key);
  // Retire the current stage: its parameters stay available to peers that take its blocks.
  if (stage_) {
    shards_.hold(snapshot_of(*stage_), /*live=*/false);
    work_.stage_retired(stage_->runtime().stats().receipts);
    // Out of the lock, then destroyed: closing a stage may wait out a send to a peer that
    // stopped reading (PeerSenderTiming::send_timeout), and describe() and the heartbeat's
    // path to it must not wait with it (a heartbeat held 2 s gets a volunteer planned out).
    std::unique_ptr<StageWorkload> retiring;
    {
      std::lock_guard lock(stage_mutex_);
      retired_ = retired_.then(stage_->counters());
      retiring = std::move(stage_);
    }
    retiring.reset();
  }
  pipeline_ready_ = false;
  ready_deadline_ = clock_.steady_now() + kReadyWait;
  if (!place) {
    plan_version_ = p.version;
    spdlog::info("plan {}: this node has no seat (waiting for the next plan)", p.version);
    return;
  }
  auto selected = plan.select(place->first);
  const auto& seat = selected.stages[place->second];
  std::unique_ptr<StageWorkload> next;
  try {
    next = std::make_unique<StageWorkload>(
        std::make_pair(std::move(selected), place->second), stage_options_, identity_,
        static_cast<std::int64_t>(p.version) * kSampleIdsPerPlan);
  } catch (const std::exception& e) {
    spdlog::error("plan {}: cannot start stage {} of pipeline {}: {}", p.version, place->second + 1,
                  place->first + 1, e.what());
    return;
  }
  {  // a plan names members only, but one removed since it was made is refused already
    std::lock_guard lock(mutex_);
    if (!members_.empty()) next->runtime().restrict_peers(members_);
  }
  const auto fetched = handover_.load(*next, seat.first_block, seat.last_block, p.sources);
  spdlog::info("plan {}: pipeline {} of {}, stage {} of {}, blocks [{}, {}); {}", p.version,
               place->first + 1, plan.pipelines.size(), place->second + 1,
               plan.pipelines[place->first].size(), seat.first_block, seat.last_block, fetched);
  holding_ = true;  // until the pipeline is ready
  next->set_draining(true);
  {
    std::lock_guard lock(stage_mutex_);
    stage_ = std::move(next);
  }
  work_.new_blocks();
  plan_version_ = p.version;  // reported from now on: this stage listens
  last_snapshot_ = clock_.steady_now() - kSnapshotEvery;  // serve the new shard at once
}

}  // namespace rookery::node
