#pragma once
// One-way messages to peers from a thread of its own: callers enqueue a closure that builds
// the frames (so encoding, compression included, runs off the caller's thread), the sender
// thread owns one DEALER socket per peer and sends. Sends block only at the high-water mark,
// which is the backpressure a pipeline wants. Every message first passes the process's
// upload token bucket (net::upload_bucket(), the governor's upload cap).
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "net/secure_context.hpp"

namespace rookery::net {

struct PeerAddress {
  std::string endpoint;
  std::string key;
  bool empty() const { return endpoint.empty(); }
};

class PeerSender {
 public:
  using FrameBuilder = std::function<std::vector<zmq::message_t>()>;

  PeerSender(SecureContext& ctx, const CurveKeyPair& identity, std::size_t queue_capacity, SocketOptions socket = {});
  ~PeerSender();
  PeerSender(const PeerSender&) = delete;
  PeerSender& operator=(const PeerSender&) = delete;

  // Enqueues a message; blocks while the queue is full. Returns false once stopping.
  bool send(const PeerAddress& to, FrameBuilder build);
  // Drops the socket to a peer (it died or left); queued messages to it are discarded.
  void forget(const std::string& endpoint);

  std::uint64_t sent() const;
  std::uint64_t failed() const;
  std::uint64_t bytes_sent() const;
  std::size_t queued() const;

 private:
  void run();

  struct Item {
    PeerAddress to;
    FrameBuilder build;
  };
  SecureContext& ctx_;
  CurveKeyPair identity_;
  std::size_t capacity_;
  SocketOptions socket_options_;
  mutable std::mutex mutex_;
  std::condition_variable not_empty_, not_full_;
  std::deque<Item> queue_;
  std::vector<std::string> forget_;
  bool stopping_ = false;
  std::atomic<bool> stop_flag_{false};  // stopping_, readable without the mutex (bandwidth waits)
  std::uint64_t sent_ = 0, failed_ = 0, bytes_ = 0;
  std::thread thread_;
};

}  // namespace rookery::net
