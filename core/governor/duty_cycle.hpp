#pragma once
// Duty cycling for the CPU-time cap: after each unit of compute the worker rests long enough
// that compute takes `percent` of wall time. Rests are owed and paid in pieces of at least
// kMinRest, so very short units do not turn into a storm of tiny sleeps; a unit of 0.2 s at
// 25% gives a 0.8 s cycle, inside the 1 s granularity the governor promises.
#include <chrono>
#include <deque>
#include <utility>

namespace rookery::governor {

class DutyCycle {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds kMinRest{20};
  static constexpr std::chrono::seconds kWindow{5};  // for the measured share

  // Records `busy` time of compute that ended at `end` under a cap of `percent` (1-100) and
  // returns how long to rest now (zero while the debt is below kMinRest).
  std::chrono::nanoseconds after_work(std::chrono::nanoseconds busy, int percent,
                                      Clock::time_point end = Clock::now());
  // Records a rest (or any non-compute time the caller spent: paused, waiting for work).
  void rested(std::chrono::nanoseconds idle, Clock::time_point end = Clock::now());
  // The share of wall time spent computing over the last kWindow (0-1).
  double measured_share(Clock::time_point now = Clock::now()) const;
  void reset_debt() { debt_ = std::chrono::nanoseconds{0}; }

 private:
  void record(bool busy, std::chrono::nanoseconds d, Clock::time_point end);
  std::chrono::nanoseconds debt_{0};
  std::deque<std::pair<Clock::time_point, std::pair<bool, std::chrono::nanoseconds>>> history_;
};

}  // namespace rookery::governor
