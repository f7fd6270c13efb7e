#pragma once
// Who is alive: peers are alive while their heartbeats keep arriving.
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace rookery::net {

using SteadyClock = std::function<std::chrono::steady_clock::time_point()>;
SteadyClock system_steady_clock();

class LivenessTracker {
 public:
  explicit LivenessTracker(std::chrono::milliseconds timeout,
                           SteadyClock clock = system_steady_clock());

  void seen(const std::string& peer);
  void forget(const std::string& peer);
  bool alive(const std::string& peer) const;
  // Peers silent for longer than the timeout; they are removed and reported once.
  std::vector<std::string> expire();
  std::vector<std::string> alive_peers() const;
  std::chrono::milliseconds timeout() const { return timeout_; }

 private:
  std::chrono::milliseconds timeout_;
  SteadyClock clock_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::chrono::steady_clock::time_point> last_seen_;
};

}  // namespace rookery::net
