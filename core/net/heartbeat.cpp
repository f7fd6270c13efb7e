#include "net/heartbeat.hpp"

namespace rookery::net {

SteadyClock system_steady_clock() {
  return [] { return std::chrono::steady_clock::now(); };
}

LivenessTracker::LivenessTracker(std::chrono::milliseconds timeout, SteadyClock clock)
    : timeout_(timeout), clock_(std::move(clock)) {}

void LivenessTracker::seen(const std::string& peer) {
  std::lock_guard lock(mutex_);
  last_seen_[peer] = clock_();
}

void LivenessTracker::forget(const std::string& peer) {
  std::lock_guard lock(mutex_);
  last_seen_.erase(peer);
}

bool LivenessTracker::alive(const std::string& peer) const {
  std::lock_guard lock(mutex_);
  auto it = last_seen_.find(peer);
  return it != last_seen_.end() && clock_() - it->second <= timeout_;
}

std::vector<std::string> LivenessTracker::expire() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> dead;
  const auto now = clock_();
  for (auto it = last_seen_.begin(); it != last_seen_.end();) {
    if (now - it->second > timeout_) {
      dead.push_back(it->first);
      it = last_seen_.erase(it);
    } else {
      ++it;
    }
  }
  return dead;
}

std::vector<std::string> LivenessTracker::alive_peers() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  const auto now = clock_();
  for (const auto& [peer, t] : last_seen_) {
    if (now - t <= timeout_) out.push_back(peer);
  }
  return out;
}

}  // namespace rookery::net
