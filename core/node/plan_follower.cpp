#include "node/plan_follower.hpp"

#include <utility>

#include <spdlog/spdlog.h>

#include "node/shard_handover.hpp"
#include "node/shard_server.hpp"
#include "node/stage_workload.hpp"
#include "node/work_report.hpp"
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
      ready_deadline_(clock.steady_now()) {
  // A stale local checkpoint must not win: the swarm holds the state.
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
  return r;
}

void PlanFollower::finish() {
  if (stage_) stage_->finish();
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
  return s;
}

void PlanFollower::switch_to(const PendingPlan& p) {
  pipeline::StagePlan plan;
  try {
    plan = pipeline::stage_plan_from_message(p.plan, p.job_path);
    if (!shards_.knows_blocks())
      shards_.set_block_counts(reduce::block_parameter_counts(plan.job.model));
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
