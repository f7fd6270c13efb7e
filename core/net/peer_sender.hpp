#pragma once
// One-way messages to peers. Every peer has a lane of its own: a FIFO of closures that build
// the frames (so encoding, compression included, runs off the caller's thread) and a thread
// that owns that peer's DEALER socket and sends them in order. A peer that stops reading holds
// up its own lane only; messages to every other peer go on. (With one sender thread for all
// peers, a stalled stage held every message to every other peer for up to the send timeout
// each, the shared queue filled, and the receiver thread that answers spot-checks blocked on
// it: one slow volunteer froze its neighbours.)
//
// send() blocks while the peer's lane is full: the backpressure a pipeline wants from a next
// hop that is slower than us. post() never blocks: it may fill a lane to twice that (its
// messages are small answers), and beyond it the message is dropped and counted; it is for
// answers sent from a thread that must not wait on any one peer.
// A message the peer does not take within the send timeout (gone or stalled) is dropped and
// the socket is made afresh for the next one. Every message first passes the process's upload
// token bucket (net::upload_bucket(), the governor's upload cap). A lane idle for a minute
// closes its socket and ends its thread; the next message to that peer opens a new one.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
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

struct PeerSenderTiming {
  std::chrono::milliseconds send_timeout{
      3000};  // a peer that takes no message for this long: dropped
  std::chrono::milliseconds idle_close{60000};  // a lane with nothing to send for this long: closed
};

class PeerSender {
 public:
  using FrameBuilder = std::function<std::vector<zmq::message_t>()>;

  using Timing = PeerSenderTiming;

  // `lane_capacity`: messages queued per peer before send() waits and post() drops.
  PeerSender(SecureContext& ctx, const CurveKeyPair& identity, std::size_t lane_capacity,
             SocketOptions socket = {}, Timing timing = {});
  ~PeerSender();
  PeerSender(const PeerSender&) = delete;
  PeerSender& operator=(const PeerSender&) = delete;

  // Enqueues a message; blocks while this peer's lane is full. False once stopping.
  bool send(const PeerAddress& to, FrameBuilder build);
  // Enqueues a message unless this peer's lane holds twice `lane_capacity` (then it is dropped
  // and counted as failed). Never blocks. False when dropped or stopping.
  bool post(const PeerAddress& to, FrameBuilder build);
  // Drops the lane to a peer (it died or left): its queued messages are discarded.
  void forget(const std::string& endpoint);

  std::uint64_t sent() const;
  std::uint64_t failed() const;
  std::uint64_t bytes_sent() const;
  std::size_t queued() const;  // messages waiting, all lanes
  std::size_t lanes() const;   // peers with an open lane

 private:
  struct Lane {
    PeerAddress to;
    std::deque<FrameBuilder> queue;
    std::condition_variable wake, not_full;
    std::atomic<bool> stop{false};  // forgotten or stopping: read by the bandwidth wait too
    std::atomic<bool> done{false};  // its thread is about to return: joining it does not wait
    std::thread thread;
  };
  std::shared_ptr<Lane> lane_locked(const PeerAddress& to);
  void run(const std::shared_ptr<Lane>& lane);
  void retire_locked(const std::shared_ptr<Lane>& lane);
  void join_retired();

  SecureContext& ctx_;
  CurveKeyPair identity_;
  std::size_t capacity_;
  SocketOptions socket_options_;
  Timing timing_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Lane>> lanes_;  // by endpoint
  std::vector<std::shared_ptr<Lane>> retired_;          // lanes whose threads end or ended, to join
  bool stopping_ = false;
  std::uint64_t sent_ = 0, failed_ = 0, bytes_ = 0;
};

}  // namespace rookery::net
