#include "net/peer_sender.hpp"

#include <spdlog/spdlog.h>

#include <optional>

#include "net/token_bucket.hpp"

namespace rookery::net {

PeerSender::PeerSender(SecureContext& ctx, const CurveKeyPair& identity, std::size_t lane_capacity,
                       SocketOptions socket, Timing timing)
    : ctx_(ctx),
      identity_(identity),
      capacity_(std::max<std::size_t>(1, lane_capacity)),
      socket_options_(socket),
      timing_(timing) {}

PeerSender::~PeerSender() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    while (!lanes_.empty()) retire_locked(lanes_.begin()->second);
  }
  std::vector<std::shared_ptr<Lane>> retired;
  {
    std::lock_guard lock(mutex_);
    retired.swap(retired_);
  }
  // A lane in the middle of a send gives up within the send timeout (linger is 0).
  for (auto& lane : retired) lane->thread.join();
}

std::shared_ptr<PeerSender::Lane> PeerSender::lane_locked(const PeerAddress& to) {
  if (stopping_) return nullptr;
  const auto it = lanes_.find(to.endpoint);
  if (it != lanes_.end()) {
    if (it->second->to.key == to.key) return it->second;
    retire_locked(it->second);  // another node took that address: a new socket for its key
  }
  auto lane = std::make_shared<Lane>();
  lane->to = to;
  lanes_.emplace(to.endpoint, lane);
  lane->thread = std::thread([this, lane] { run(lane); });
  return lane;
}

void PeerSender::retire_locked(const std::shared_ptr<Lane>& lane) {
  const auto it = lanes_.find(lane->to.endpoint);
  if (it != lanes_.end() && it->second == lane) lanes_.erase(it);
  lane->stop = true;
  failed_ += lane->queue.size();
  lane->queue.clear();
  lane->wake.notify_all();
  lane->not_full.notify_all();
  retired_.push_back(lane);
}

// Joins the retired lanes whose threads are done (one still inside a send is left for later:
// a caller must not wait on that peer's timeout).
void PeerSender::join_retired() {
  std::vector<std::shared_ptr<Lane>> done;
  {
    std::lock_guard lock(mutex_);
    if (retired_.empty()) return;
    for (auto it = retired_.begin(); it != retired_.end();) {
      if ((*it)->done) {
        done.push_back(std::move(*it));
        it = retired_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& lane : done) lane->thread.join();
}

bool PeerSender::send(const PeerAddress& to, FrameBuilder build) {
  join_retired();
  std::unique_lock lock(mutex_);
  const auto lane = lane_locked(to);
  if (!lane) return false;
  lane->not_full.wait(lock,
                      [&] { return stopping_ || lane->stop || lane->queue.size() < capacity_; });
  if (stopping_ || lane->stop) return false;
  lane->queue.push_back(std::move(build));
  lane->wake.notify_one();
  return true;
}

bool PeerSender::post(const PeerAddress& to, FrameBuilder build) {
  join_retired();
  std::lock_guard lock(mutex_);
  const auto lane = lane_locked(to);
  if (!lane) return false;
  if (lane->queue.size() >= 2 * capacity_) {
    ++failed_;
    spdlog::debug("peer {} has {} messages waiting: one more dropped", to.endpoint,
                  lane->queue.size());
    return false;
  }
  lane->queue.push_back(std::move(build));
  lane->wake.notify_one();
  return true;
}

void PeerSender::forget(const std::string& endpoint) {
  std::lock_guard lock(mutex_);
  const auto it = lanes_.find(endpoint);
  if (it != lanes_.end()) retire_locked(it->second);
}

void PeerSender::run(const std::shared_ptr<Lane>& lane) {
  struct Done {
    Lane& lane;
    ~Done() { lane.done = true; }
  } done{*lane};
  std::optional<zmq::socket_t> socket;
  std::string dialled;  // where the socket connects: the peer's endpoint, or its reversal route
  for (;;) {
    FrameBuilder build;
    {
      std::unique_lock lock(mutex_);
      const bool woken = lane->wake.wait_for(lock, timing_.idle_close,
                                             [&] { return lane->stop || !lane->queue.empty(); });
      if (lane->stop) return;
      if (!woken) {  // idle: close the socket and end; the next message opens a new lane
        retire_locked(lane);
        return;
      }
      build = std::move(lane->queue.front());
      lane->queue.pop_front();
      lane->not_full.notify_one();
    }
    std::uint64_t bytes = 0;
    bool ok = true;
    try {
      // A peer that became reachable by reversal since (or stopped being): dial it afresh.
      if (socket && ctx_.routes().resolve(lane->to.endpoint, lane->to.key) != dialled) {
        socket.reset();
      }
      if (!socket) {
        dialled = ctx_.routes().resolve(lane->to.endpoint, lane->to.key);
        socket = connect_curve_client(ctx_, zmq::socket_type::dealer, lane->to.endpoint, identity_,
                                      lane->to.key, socket_options_);
        // Queue nothing for a peer that is not connected, and give up on one that stops
        // reading (within the send timeout) instead of waiting for it forever.
        socket->set(zmq::sockopt::immediate, true);
        socket->set(zmq::sockopt::sndtimeo, static_cast<int>(timing_.send_timeout.count()));
      }
      auto frames = build();
      for (const auto& f : frames) bytes += f.size();
      if (!upload_bucket().acquire(bytes, &lane->stop))
        return;  // forgotten while held back by the upload cap
      for (std::size_t i = 0; i < frames.size(); ++i) {
        // Blocks at the high-water mark: the peer is slower than us, so its lane waits for it.
        const auto r = socket->send(
            frames[i], i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
        if (!r) {
          ok = false;
          spdlog::warn("peer {} is not accepting messages (gone or stalled); message dropped",
                       lane->to.endpoint);
          socket.reset();  // reconnect afresh next time
          break;
        }
      }
    } catch (const std::exception& e) {
      ok = false;
      socket.reset();
      spdlog::warn("sending to {} failed: {}", lane->to.endpoint, e.what());
    }
    std::lock_guard lock(mutex_);
    if (ok) {
      ++sent_;
      bytes_ += bytes;
    } else {
      ++failed_;
    }
  }
}

std::uint64_t PeerSender::sent() const {
  std::lock_guard lock(mutex_);
  return sent_;
}
std::uint64_t PeerSender::failed() const {
  std::lock_guard lock(mutex_);
  return failed_;
}
std::uint64_t PeerSender::bytes_sent() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}
std::size_t PeerSender::queued() const {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto& [endpoint, lane] : lanes_) n += lane->queue.size();
  return n;
}
std::size_t PeerSender::lanes() const {
  std::lock_guard lock(mutex_);
  return lanes_.size();
}

}  // namespace rookery::net
