#pragma once
// Joins two TCP connections: what arrives on one is written to the other, both ways, until
// either end closes; then both are closed. The relay's forwarding: it never parses what it
// carries (CURVE ciphertext), and its bytes pass through the relay's bandwidth cap.
#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>

#include "net/token_bucket.hpp"
#include "reach/tcp.hpp"

namespace rookery::reach {

class TcpSplice {
 public:
  // Sees every chunk forwarded (tests use it to check what a relay could read).
  using Tap = std::function<void(const char* data, std::size_t size)>;

  TcpSplice(Fd a, Fd b, net::TokenBucket& cap, Tap tap = {});
  ~TcpSplice();  // closes both ends and waits for the thread
  TcpSplice(const TcpSplice&) = delete;
  TcpSplice& operator=(const TcpSplice&) = delete;

  bool finished() const { return finished_.load(); }
  std::uint64_t bytes() const { return bytes_.load(); }

 private:
  void run();

  Fd a_, b_;
  net::TokenBucket& cap_;
  Tap tap_;
  std::atomic<bool> stop_{false}, finished_{false};
  std::atomic<std::uint64_t> bytes_{0};
  int wake_[2] = {-1, -1};  // a pipe that wakes the thread's poll on stop
  std::thread thread_;
};

}  // namespace rookery::reach
