#pragma once
// A rate over a sliding window of recent work: the samples a node trained per second, the
// FLOP it did per second of compute. Entries older than the window are forgotten when the
// caller says what time it is; the rate is over the time the window's entries span.
#include <chrono>
#include <deque>

namespace rookery::node {

class RateWindow {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  explicit RateWindow(std::chrono::steady_clock::duration span) : span_(span) {}

  // `amount` of work (samples, FLOP) finished at `at`, which took `busy_seconds` of compute.
  // Entries come in time order.
  void add(TimePoint at, double amount, double busy_seconds = 0) {
    add(at, amount, busy_seconds, at);
  }
  // The same for work done over [since, at]: a difference between two counts of it.
  void add(TimePoint at, double amount, double busy_seconds, TimePoint since);
  // Forgets what finished more than the window's span before `now`.
  void expire(TimePoint now);
  void clear() { entries_.clear(); }

  double amount() const;
  double busy_seconds() const;
  // The amount per second of wall time since the oldest entry (since it began, for work over a
  // time), counted as at least one second so that a first burst does not read as a huge rate;
  // 0 when the window is empty.
  double per_second(TimePoint now) const;
  // The amount per second of compute; 0 without any.
  double per_busy_second() const;

 private:
  struct Entry {
    TimePoint at, since;
    double amount = 0, busy_seconds = 0;
  };
  std::chrono::steady_clock::duration span_;
  std::deque<Entry> entries_;
};

}  // namespace rookery::node
