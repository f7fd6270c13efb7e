#include "net/token_bucket.hpp"

#include <algorithm>

namespace rookery::net {

TokenBucket::TokenBucket(std::uint64_t bytes_per_second) { set_rate(bytes_per_second); }

void TokenBucket::set_rate(std::uint64_t bytes_per_second, std::uint64_t burst) {
  std::lock_guard lock(mutex_);
  refill(Clock::now());
  rate_ = bytes_per_second;
  burst_ = burst ? burst : std::max<std::uint64_t>(16 * 1024, bytes_per_second / 4);
  tokens_ = std::min(tokens_, static_cast<double>(burst_));
  changed_.notify_all();
}

std::uint64_t TokenBucket::rate() const {
  std::lock_guard lock(mutex_);
  return rate_;
}

void TokenBucket::refill(Clock::time_point now) {
  if (rate_ > 0) {
    tokens_ = std::min(
        static_cast<double>(burst_),
        tokens_ + std::chrono::duration<double>(now - last_).count() * static_cast<double>(rate_));
  }
  last_ = now;
}

bool TokenBucket::acquire(std::uint64_t bytes, const std::atomic<bool>* cancel) {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (closed_ || (cancel && cancel->load())) return false;
    const auto now = Clock::now();
    refill(now);
    if (rate_ == 0) {
      passed_.fetch_add(bytes, std::memory_order_relaxed);
      return true;
    }
    // Wait until the bucket holds the bytes, or is full for a message larger than it.
    const double need = std::min(static_cast<double>(bytes), static_cast<double>(burst_));
    if (tokens_ >= need) {
      tokens_ -= static_cast<double>(bytes);
      passed_.fetch_add(bytes, std::memory_order_relaxed);
      return true;
    }
    const auto wait = std::chrono::duration<double>((need - tokens_) / static_cast<double>(rate_));
    changed_.wait_for(
        lock, std::min<Clock::duration>(
                  std::chrono::duration_cast<Clock::duration>(wait) + std::chrono::microseconds(50),
                  std::chrono::milliseconds(100)));
  }
}

bool TokenBucket::try_acquire(std::uint64_t bytes) {
  std::lock_guard lock(mutex_);
  if (closed_) return false;
  refill(Clock::now());
  if (rate_ > 0 && tokens_ < std::min(static_cast<double>(bytes), static_cast<double>(burst_)))
    return false;
  if (rate_ > 0) tokens_ -= static_cast<double>(bytes);
  passed_.fetch_add(bytes, std::memory_order_relaxed);
  return true;
}

void TokenBucket::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  changed_.notify_all();
}

TokenBucket& upload_bucket() {
  static TokenBucket bucket;
  return bucket;
}

TokenBucket& download_bucket() {
  static TokenBucket bucket;
  return bucket;
}

}  // namespace rookery::net
