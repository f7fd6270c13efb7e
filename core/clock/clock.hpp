#pragma once
// Time, read in one place. unix_ms() is the wall clock that records and messages carry;
// Clock is what timing rules (heartbeat deadlines, re-plan periods, expiry) read, so that
// their tests set the time by hand (ManualClock) instead of sleeping.
#include <atomic>
#include <chrono>
#include <cstdint>

namespace rookery::clock {

// Milliseconds since the Unix epoch, from the system clock.
inline std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class Clock {
 public:
  virtual ~Clock() = default;
  // Wall time, for what is recorded or sent.
  virtual std::int64_t unix_ms() const = 0;
  // Monotonic time, for deadlines and periods.
  virtual std::chrono::steady_clock::time_point steady_now() const = 0;
};

class SystemClock final : public Clock {
 public:
  std::int64_t unix_ms() const override { return clock::unix_ms(); }
  std::chrono::steady_clock::time_point steady_now() const override {
    return std::chrono::steady_clock::now();
  }
  // One shared instance for code that is not handed a clock.
  static const SystemClock& instance() {
    static const SystemClock clock;
    return clock;
  }
};

// A clock that moves only when told to; thread-safe, so a test can advance it while a
// service's threads read it.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(std::int64_t start_unix_ms = 1'700'000'000'000) : unix_ms_(start_unix_ms) {}
  std::int64_t unix_ms() const override { return unix_ms_.load(); }
  std::chrono::steady_clock::time_point steady_now() const override {
    return std::chrono::steady_clock::time_point(std::chrono::milliseconds(steady_ms_.load()));
  }
  void advance(std::chrono::milliseconds by) {
    unix_ms_ += by.count();
    steady_ms_ += by.count();
  }

 private:
  std::atomic<std::int64_t> unix_ms_;
  std::atomic<std::int64_t> steady_ms_{1'000'000};
};

}  // namespace rookery::clock
