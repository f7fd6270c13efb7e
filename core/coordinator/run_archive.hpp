#pragma once
// The run's model, kept and judged: the ModelArchive of snapshots, the Archivist that collects
// them from the nodes, the evaluation of every snapshot (the model's loss on the job's
// held-out samples, and what it writes or predicts), and the record of it all in the state
// file: each snapshot, each evaluation (the run's validation curve) and each time blocks came
// back from a snapshot because no live node held them.
//
// Evaluating needs the model itself (LibTorch), which the coordinator's library does not link:
// the program that runs the coordinator hands in `Evaluate` (rookery::evaluation's
// ModelEvaluator in rookery-coordinator). It runs on the archivist's thread, after the
// snapshot is stored and outside every lock, so no heartbeat waits for it.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "clock/clock.hpp"
#include "coordinator/archivist.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/model_archive.hpp"
#include "job/job_spec.hpp"
#include "net/rpc.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::coordinator {

// Restorations of the same blocks from the same snapshot within this long are one (a node
// that retries its handover asks again).
inline constexpr auto kRestorationRepeat = std::chrono::seconds(60);
// Restorations a run status carries: the most recent.
inline constexpr std::size_t kRestorationsShown = 16;
// Evaluating takes at most this share of one core: a snapshot that comes sooner after the last
// evaluation than its duration divided by this is stored but not evaluated (an archive
// collected every few seconds would otherwise evaluate without pause).
inline constexpr double kEvaluationShare = 0.1;

class RunArchive {
 public:
  // Starts the archivist (every `interval`). `round` gives the current plan's holders (it
  // takes the coordinator's lock itself); `state_mutex` guards `state`, shared with the
  // coordinator's request thread. `evaluate` may be empty: snapshots are then not evaluated.
  RunArchive(std::filesystem::path dir, const job::JobSpec& job, std::chrono::milliseconds interval,
             CoordinatorState& state, std::mutex& state_mutex, net::SecureContext& ctx,
             const net::CurveKeyPair& identity, std::function<ArchiveRound()> round,
             Evaluate evaluate, const clock::Clock& clock);
  ~RunArchive();  // stops the archivist first: its thread calls back into this

  bool has_snapshot() const { return archive_.latest() != nullptr; }

  // Blocks from the latest snapshot for a member taking over blocks no peer holds any more;
  // each time it does, the restoration is recorded (the window and the dashboard show it).
  void serve(const wire::pb::ShardRequest& q, net::Reply& reply);

  // The archive's part of a run status, from the state file (the caller holds `state_mutex`).
  void describe(wire::pb::ArchiveStatus& out) const;

 private:
  void stored(std::shared_ptr<const pipeline::ShardSnapshot> snapshot, std::uint64_t seq,
              std::uint64_t plan_version);

  CoordinatorState& state_;
  std::mutex& state_mutex_;
  Evaluate evaluate_;
  const clock::Clock& clock_;
  // The last evaluation's start and duration (archivist's thread only).
  std::chrono::steady_clock::time_point evaluated_at_{};
  std::chrono::steady_clock::duration evaluation_took_{};
  ModelArchive archive_;
  std::mutex restored_mutex_;
  // (first block, last block, snapshot) -> when last recorded
  std::map<std::tuple<std::int64_t, std::int64_t, std::uint64_t>,
           std::chrono::steady_clock::time_point>
      restored_;
  std::unique_ptr<Archivist> archivist_;  // last: its thread calls stored()
};

}  // namespace rookery::coordinator
