#pragma once
// The contribution ledger: every unit of pipeline work this node completed (a forward or a
// backward of a micro-batch, with its samples and the FLOPs of the cost model), in the state
// database. Written in batches (LedgerWriter: one transaction every few seconds and at stop),
// so a kill -9 loses at most the last few seconds and never leaves half a batch: the unit
// rows, the quarter-hour sums and the totals change together or not at all (WAL).
//
// Credit is BOINC's: 1 credit (a "cobblestone") = 432 GFLOP, i.e. a device that sustains
// 1 GFLOP/s earns 200 credits a day (BOINC lib/common_defs.h: COBBLESTONE_SCALE 200/86400e9).
// The recent average credit (RAC) is credits per day, averaged with an exponential decay of
// half-life 7 days, updated on each grant exactly as BOINC's update_average() (lib/util.cpp)
// does and decayed for display as BOINC's decay_average() (html/inc/credit.inc) does.
//
// Unit rows are kept for `unit_retention` (default 2 days, for receipts to come); the
// quarter-hour sums and the totals are kept for good. Per-hour and per-day history is in the
// node's local time.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "store/database.hpp"

namespace rookery::store {

inline constexpr double kSecondsPerDay = 86400.0;
inline constexpr double kCreditPerFlop = 200.0 / 86400e9;          // BOINC's COBBLESTONE_SCALE
inline constexpr double kRacHalfLifeSeconds = 7 * kSecondsPerDay;  // BOINC's CREDIT_HALF_LIFE

inline double credit_for_flops(double flops) { return flops * kCreditPerFlop; }

// BOINC's update_average (lib/util.cpp), times in seconds: folds `work` granted at `now`
// (started at `work_start`, used only for the very first grant) into `avg`, an average of
// work per day that halves every `half_life` without new work; `avg_time` is when `avg` was
// last updated (0: never) and becomes `now`.
//   weight = exp(-(now - avg_time) * ln 2 / half_life)
//   avg    = avg * weight + (1 - weight) * work / ((now - avg_time) / 1 day)
// with BOINC's first-order limit avg += ln 2 * work * 1 day / half_life when 1 - weight <= 1e-6
// (a grant right after the previous one), and avg = work / ((now - work_start) / 1 day) the
// first time (the span taken as at least a second, where BOINC would divide by zero). The
// ledger makes each written batch one grant, at the time its newest unit finished.
void update_average(double now, double work_start, double work, double half_life, double& avg,
                    double& avg_time);
// BOINC's decay_average: `avg` (as of `avg_time`) as it stands at `now` with no new work.
double decay_average(double avg, double avg_time, double now, double half_life);

struct LedgerUnit {
  std::int64_t finished_unix_ms = 0;
  double seconds = 0;            // compute time of the unit
  std::int64_t samples = 0;      // samples whose backward completed in the unit
  double flops = 0;              // from the cost model
  std::uint64_t bytes_sent = 0;  // pipeline traffic since the previous unit
  std::uint64_t bytes_received = 0;
  std::string job_id;
};

struct LedgerSums {
  std::int64_t units = 0;
  std::int64_t samples = 0;
  double flops = 0;
  double seconds = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t bytes_received = 0;
  double credit = 0;

  void add(const LedgerUnit& u);
  void add(const LedgerSums& s);
};

struct LedgerTotals : LedgerSums {
  double rac = 0;                  // credits per day as of rac_unix_ms
  std::int64_t rac_unix_ms = 0;    // 0: no credit granted yet
  std::int64_t first_unix_ms = 0;  // the first unit recorded (0: none)
  std::int64_t last_unix_ms = 0;   // the newest unit recorded
  // The RAC decayed to `now_unix_ms` (what it is now, with no credit since rac_unix_ms).
  double rac_at(std::int64_t now_unix_ms) const;
};

// One hour or day of history: [start, end) in unix milliseconds.
struct LedgerPeriod : LedgerSums {
  std::int64_t start_unix_ms = 0;
  std::int64_t end_unix_ms = 0;
};

enum class LedgerPeriodKind { Hour, Day };

class Ledger {
 public:
  explicit Ledger(Database& db, std::chrono::hours unit_retention = std::chrono::hours(48));

  // Appends `units` (in order of finishing) as one grant, in one transaction: their rows,
  // the quarter-hour sums, the totals and the RAC; all or nothing (throws StoreError, e.g.
  // the disk is full, and then nothing changed). Unit rows older than the retention before
  // the newest unit are deleted in the same transaction.
  void append(const std::vector<LedgerUnit>& units);
  LedgerTotals totals();
  // `count` consecutive hours or days in the node's local time, oldest first, the last one
  // containing `now_unix_ms`; periods without work are there with zeros.
  std::vector<LedgerPeriod> history(LedgerPeriodKind kind, int count, std::int64_t now_unix_ms);
  // The unit rows still kept, oldest first (receipts; tests).
  std::vector<LedgerUnit> units(std::int64_t since_unix_ms = 0);

  Database& database() { return db_; }

 private:
  Database& db_;
  std::chrono::hours retention_;
};

// Batches units in memory and writes them as one transaction every `flush_interval`
// (flush_if_due, from the node's event loop) and at stop (flush). record() is cheap and
// thread-safe (the worker calls it after each unit). A failed write (disk full, I/O error)
// is logged, the units stay pending and are retried at the next flush: nothing is lost
// unless the process dies with them pending, and nothing committed is ever touched.
class LedgerWriter {
 public:
  using Clock = std::chrono::steady_clock;
  // Pending units beyond this are folded into one (totals kept, per-unit rows not) so a
  // disk that stays full cannot make the node's memory grow without bound.
  static constexpr std::size_t kMaxPending = 100000;

  LedgerWriter(Database& db, std::chrono::milliseconds flush_interval = std::chrono::seconds(5));

  // A unit with a negative or non-finite amount could never be written: it is logged and
  // dropped (returns false) rather than kept to block every later write.
  bool record(LedgerUnit unit);
  // Writes the pending units when `flush_interval` has passed since the last write.
  // Returns false when a write failed (see last_error()).
  bool flush_if_due(Clock::time_point now = Clock::now());
  // Writes the pending units now.
  bool flush();

  // The committed totals, as of the last successful write (no database read).
  LedgerTotals totals() const;
  std::size_t pending() const;
  static bool valid(const LedgerUnit& unit);
  std::string last_error() const;  // empty once a write succeeded again
  std::uint64_t batches_written() const;
  std::chrono::milliseconds flush_interval() const { return interval_; }
  Ledger& ledger() { return ledger_; }

 private:
  bool write(Clock::time_point now);

  Ledger ledger_;
  const std::chrono::milliseconds interval_;
  mutable std::mutex mutex_;  // pending_, totals_, error state
  std::mutex write_mutex_;    // one write at a time
  std::vector<LedgerUnit> pending_;
  LedgerTotals totals_;
  std::string last_error_;
  Clock::time_point last_flush_;
  Clock::time_point last_error_logged_{};
  std::uint64_t batches_ = 0;
};

}  // namespace rookery::store
