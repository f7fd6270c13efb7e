#pragma once
// The node's record of the work it did: this session's (WorkStats, in every snapshot) and, for
// pipeline work, each unit in the contribution ledger (core/store/ledger.hpp) in state.db.
// It counts nothing itself: after each unit it reads the workload's counters, shows their
// totals and records the difference since the previous unit (memory only); the event loop
// writes the ledger every few seconds and at stop. A local benchmark is no contribution and
// earns no credit, so the ledger leaves it out.
// A write that fails is logged and retried; the node runs on.
// The _locked functions are called with the node's lock held.
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>

#include "clock/clock.hpp"
#include "node/workload.hpp"
#include "rookery/control.pb.h"

namespace rookery::store {
class Database;
class LedgerWriter;
}  // namespace rookery::store

namespace rookery::node {

class LedgerRecorder {
 public:
  explicit LedgerRecorder(const clock::Clock& clock = clock::SystemClock::instance());
  ~LedgerRecorder();
  LedgerRecorder(const LedgerRecorder&) = delete;
  LedgerRecorder& operator=(const LedgerRecorder&) = delete;

  // Opens the ledger in the state database and logs its totals so far. Throws on a bad store.
  void open(store::Database& db);

  // The worker finished a unit of work for `source`: what its counters say was done since the
  // previous unit (since it started, for a new workload).
  void record_locked(const Workload& source);
  const pb::WorkStats& work_locked() const { return work_; }
  void set_activity_locked(const std::string& activity) { work_.set_activity(activity); }
  // The current speed, over the last few seconds of units; 0 while not contributing.
  void update_rate_locked(bool contributing);
  // A line every few seconds while contributing: what a headless volunteer watches.
  void log_progress_locked(bool contributing);

  void describe_locked(pb::LedgerTotals& out) const;
  void history_locked(const pb::LedgerHistoryQuery& q, pb::ControlReply& out);

  // Write the recorded units when due / now; the event loop's, without the node's lock.
  void flush_if_due();
  void flush();

 private:
  void drop_old_flops(std::chrono::steady_clock::time_point now);

  const clock::Clock& clock_;
  pb::WorkStats work_;
  std::deque<std::pair<std::chrono::steady_clock::time_point, double>> recent_flops_;
  std::chrono::steady_clock::time_point last_progress_log_;
  std::uint64_t last_progress_samples_ = 0;

  const Workload* counted_ = nullptr;  // the workload whose counters were last read
  WorkCounters seen_;                  // what they said then

  std::unique_ptr<store::LedgerWriter> ledger_;
  const Workload* ledger_workload_ = nullptr;            // the workload ledger_job_ was read from
  std::string ledger_job_;                               // its job; empty: not pipeline work
  std::uint64_t ledger_sent_ = 0, ledger_received_ = 0;  // the byte counters at the last unit
  int ledger_units_since_describe_ = 0;
};

}  // namespace rookery::node
