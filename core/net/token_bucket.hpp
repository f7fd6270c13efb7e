#pragma once
// A token bucket for a bandwidth cap: bytes may pass at `rate` per second on average, with
// bursts up to `burst` bytes. acquire() blocks the calling thread until its bytes are
// covered; a message larger than the burst goes through once the bucket is full and leaves
// it in debt, so every message passes and the long-run rate still holds. Rate 0 = unlimited.
// Thread-safe; the rate can change while threads wait (they re-plan at once).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace rookery::net {

class TokenBucket {
 public:
  using Clock = std::chrono::steady_clock;

  explicit TokenBucket(std::uint64_t bytes_per_second = 0);
  // burst 0: a quarter of a second at the new rate (at least 16 KiB).
  void set_rate(std::uint64_t bytes_per_second, std::uint64_t burst = 0);
  std::uint64_t rate() const;
  // Waits until `bytes` may pass. Returns false (without waiting further) once closed or
  // once `cancel` becomes true (checked at least every 100 ms).
  bool acquire(std::uint64_t bytes, const std::atomic<bool>* cancel = nullptr);
  // The same without waiting: true when the bytes may pass now (and they are counted).
  bool try_acquire(std::uint64_t bytes);
  // Bytes let through since the process started (every acquire() that returned true): the
  // process's upload and download buckets count the pipeline traffic this way.
  std::uint64_t bytes_passed() const { return passed_.load(std::memory_order_relaxed); }
  // Wakes every waiter for good (shutdown).
  void close();

 private:
  void refill(Clock::time_point now);

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::uint64_t rate_ = 0, burst_ = 0;
  double tokens_ = 0;  // may go negative: debt from a message larger than the burst
  Clock::time_point last_ = Clock::now();
  bool closed_ = false;
  std::atomic<std::uint64_t> passed_{0};
};

// The process's upload and download buckets: the node's bandwidth caps cover every socket it
// sends or receives pipeline data on.
TokenBucket& upload_bucket();
TokenBucket& download_bucket();

}  // namespace rookery::net
