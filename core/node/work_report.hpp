#pragma once
// What this volunteer did since it joined, as its heartbeats report it: the work it claims
// (samples, micro-batches, FLOP, loss: its workload's counters; the rates it trains at, from
// their differences), the receipts for the peers' work it consumed, by which the coordinator
// credits them, and the peers its stage left out or caught. Retired stages' receipts stay in
// the totals.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "node/rate_window.hpp"
#include "node/work_counters.hpp"
#include "pipeline/stage_runtime.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::node {

class WorkReport {
 public:
  using Receipts = std::map<std::string, pipeline::StageStats::Receipt>;
  using Source = std::function<WorkCounters()>;

  // `counters`: the workload's snapshot (Workload::counters), read at every heartbeat.
  // `claim`: the factor the work is claimed at, 1 but for fault injection in tests (a
  // volunteer that claims more than it did; the receipts show what it did).
  explicit WorkReport(Source counters, std::int64_t claim = 1)
      : counters_(std::move(counters)), claim_(claim) {}

  // The current stage's peers left out, caught and receipts, as its runtime counts them.
  void stage_stats(pipeline::StageStats stats);
  // The stage retired with these receipts: they stay in the totals.
  void stage_retired(const Receipts& receipts);
  // The stage trains other blocks: the speed it shows is measured on those only.
  void new_blocks();

  // A proof that an excluded ring partner lied, as an owner or forwarder (reduce/ring_proof.hpp)
  // that the coordinator has not answered yet, if any; the node sends it on its own.
  std::optional<std::vector<std::byte>> unanswered_proof();
  // The coordinator answered `proof` (whether or not it proved anything): not sent again.
  void proof_answered(std::span<const std::byte> proof);

  // Fills the work, receipts and peers of a heartbeat sent at `now`: the counters' totals as
  // they are now, and rates from their differences since earlier heartbeats.
  void describe(wire::pb::Heartbeat& h, RateWindow::TimePoint now);

 private:
  static void add(Receipts& into, const Receipts& from);
  static std::string digest(std::span<const std::byte> proof);
  // Adds the work since the previous snapshot to the rate windows.
  void sample_locked(const WorkCounters& c, RateWindow::TimePoint now);

  const Source counters_;
  const std::int64_t claim_;
  std::mutex mutex_;   // the worker reports stages, the coordinator client heartbeats
  WorkCounters seen_;  // the snapshot recent_ has taken in, and when
  std::optional<RateWindow::TimePoint> seen_at_;
  WorkCounters busy_seen_;                      // the snapshot busy_ has taken in
  RateWindow recent_{std::chrono::seconds(5)};  // samples trained
  RateWindow busy_{std::chrono::seconds(30)};   // FLOP and compute time
  std::vector<std::string> excluded_;           // ring partners our aggregator leaves out
  std::vector<std::string> caught_;             // senders our spot-checks caught
  std::vector<std::vector<std::byte>> proofs_;  // that excluded partners lied
  std::set<std::string> answered_;              // digests of the proofs the coordinator answered
  Receipts retired_receipts_, live_receipts_;
};

}  // namespace rookery::node
