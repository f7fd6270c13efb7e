#pragma once
// What this volunteer did since it joined, as its heartbeats report it: the work it claims
// (samples, micro-batches, FLOP, loss, the rates it trains at), the receipts for the peers'
// work it consumed, by which the coordinator credits them, and the peers its stage left out
// or caught. Retired stages' receipts stay in the totals.
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "node/rate_window.hpp"
#include "node/workload.hpp"
#include "pipeline/stage_runtime.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::node {

class WorkReport {
 public:
  using Receipts = std::map<std::string, pipeline::StageStats::Receipt>;

  // `claim`: the factor the work is claimed at, 1 but for fault injection in tests (a
  // volunteer that claims more than it did; the receipts show what it did).
  explicit WorkReport(std::int64_t claim = 1) : claim_(claim) {}

  // A unit of work that ended at `now`.
  void record(RateWindow::TimePoint now, const WorkUnitResult& r);
  // The current stage's peers left out, caught and receipts, as its runtime counts them.
  void stage_stats(pipeline::StageStats stats);
  // The stage retired with these receipts: they stay in the totals.
  void stage_retired(const Receipts& receipts);
  // The stage trains other blocks: the speed it shows is measured on those only.
  void new_blocks();

  // Fills the work, receipts and peers of a heartbeat sent at `now`.
  void describe(wire::pb::Heartbeat& h, RateWindow::TimePoint now) const;

 private:
  static void add(Receipts& into, const Receipts& from);

  const std::int64_t claim_;
  mutable std::mutex mutex_;  // the worker records, the coordinator client reports
  std::int64_t samples_ = 0, micro_batches_ = 0;
  double flops_ = 0, loss_ = -1;
  RateWindow recent_{std::chrono::seconds(5)};  // samples trained
  RateWindow busy_{std::chrono::seconds(30)};   // each unit's FLOP and compute time
  std::vector<std::string> excluded_;           // ring partners our aggregator leaves out
  std::vector<std::string> caught_;             // senders our spot-checks caught
  Receipts retired_receipts_, live_receipts_;
};

}  // namespace rookery::node
