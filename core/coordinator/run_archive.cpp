#include "coordinator/run_archive.hpp"

#include <spdlog/spdlog.h>

#include "job/optimizer_buffers.hpp"
#include "model/cost.hpp"

namespace rookery::coordinator {

namespace pb = wire::pb;

namespace {

std::vector<std::int64_t> block_params(const job::JobSpec& job) {
  std::vector<std::int64_t> counts;
  for (const auto& c : model::block_costs(job.model)) counts.push_back(c.params);
  return counts;
}

}  // namespace

RunArchive::RunArchive(std::filesystem::path dir, const job::JobSpec& job,
                       std::chrono::milliseconds interval, CoordinatorState& state,
                       std::mutex& state_mutex, net::SecureContext& ctx,
                       const net::CurveKeyPair& identity, std::function<ArchiveRound()> round,
                       Evaluate evaluate, const clock::Clock& clock)
    : state_(state),
      state_mutex_(state_mutex),
      evaluate_(std::move(evaluate)),
      clock_(clock),
      archive_(std::move(dir), job.id, block_params(job)) {
  archivist_ = std::make_unique<Archivist>(
      ctx, identity, archive_, job::optimizer_state_buffers(job.optimizer), interval,
      std::move(round), std::chrono::seconds(3),
      [this](std::shared_ptr<const pipeline::ShardSnapshot> snapshot, std::uint64_t seq,
             std::uint64_t plan_version) { stored(std::move(snapshot), seq, plan_version); });
}

RunArchive::~RunArchive() { archivist_.reset(); }

void RunArchive::stored(std::shared_ptr<const pipeline::ShardSnapshot> snapshot, std::uint64_t seq,
                        std::uint64_t plan_version) {
  try {
    std::lock_guard lock(state_mutex_);
    state_.add_snapshot({seq, clock_.unix_ms(), plan_version});
  } catch (const std::exception& e) {
    spdlog::error("cannot record model archive snapshot {}: {}", seq, e.what());
  }
  if (!evaluate_ || !snapshot) return;
  // Real time, whatever clock the coordinator's rules read: what evaluating costs this machine.
  const auto start = std::chrono::steady_clock::now();
  if (evaluated_at_ != std::chrono::steady_clock::time_point{} &&
      start - evaluated_at_ < std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                  evaluation_took_ / kEvaluationShare)) {
    return;
  }
  pb::Evaluation e;
  bool evaluated = false;
  try {
    e = evaluate_(*snapshot, seq);
    evaluated = true;
  } catch (const std::exception& ex) {
    spdlog::warn("cannot evaluate model archive snapshot {}: {}", seq, ex.what());
  }
  evaluated_at_ = start;
  evaluation_took_ = std::chrono::steady_clock::now() - start;
  if (!evaluated) return;
  spdlog::info("snapshot {}: held-out loss {:.4f} over {} samples{}", seq, e.validation_loss(),
               e.held_out_samples(),
               e.predictions_size() > 0 ? ", accuracy " + std::to_string(e.accuracy()) : "");
  try {
    std::lock_guard lock(state_mutex_);
    state_.add_evaluation(e);
  } catch (const std::exception& ex) {
    spdlog::error("cannot record the evaluation of snapshot {}: {}", seq, ex.what());
  }
}

void RunArchive::serve(const pb::ShardRequest& q, net::Reply& reply) {
  archive_.serve(q, reply);
  if (!reply.header.has_shard_reply()) return;
  const auto seq = archive_.latest_seq();
  const auto now = clock_.steady_now();
  {
    std::lock_guard lock(restored_mutex_);
    auto& last = restored_[{q.first_block(), q.last_block(), seq}];
    if (last != std::chrono::steady_clock::time_point{} && now - last < kRestorationRepeat) return;
    last = now;
  }
  spdlog::warn("blocks [{}, {}) came back from model archive snapshot {}: no live node held them",
               q.first_block(), q.last_block(), seq);
  pb::Restoration r;
  r.set_unix_ms(clock_.unix_ms());
  r.set_first_block(q.first_block());
  r.set_last_block(q.last_block());
  r.set_snapshot(seq);
  try {
    std::lock_guard lock(state_mutex_);
    state_.add_restoration(r);
  } catch (const std::exception& e) {
    spdlog::error("cannot record a restoration from the model archive: {}", e.what());
  }
}

void RunArchive::describe(pb::ArchiveStatus& out) const {
  if (const auto s = state_.latest_snapshot()) {
    out.set_latest_snapshot(s->seq);
    out.set_latest_unix_ms(s->unix_ms);
    out.set_latest_plan_version(s->plan_version);
  }
  for (auto& r : state_.restorations(kRestorationsShown)) *out.add_restorations() = std::move(r);
}

}  // namespace rookery::coordinator
