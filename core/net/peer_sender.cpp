#include "net/peer_sender.hpp"

#include <spdlog/spdlog.h>

#include "net/token_bucket.hpp"

namespace rookery::net {

namespace {
constexpr int kSendTimeoutMs = 3000;
}  // namespace

PeerSender::PeerSender(SecureContext& ctx, const CurveKeyPair& identity, std::size_t queue_capacity, SocketOptions socket)
    : ctx_(ctx), identity_(identity), capacity_(std::max<std::size_t>(1, queue_capacity)), socket_options_(socket) {
  thread_ = std::thread([this] { run(); });
}

PeerSender::~PeerSender() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_flag_ = true;
  not_empty_.notify_all();
  not_full_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool PeerSender::send(const PeerAddress& to, FrameBuilder build) {
  std::unique_lock lock(mutex_);
  not_full_.wait(lock, [&] { return stopping_ || queue_.size() < capacity_; });
  if (stopping_) return false;
  queue_.push_back({to, std::move(build)});
  not_empty_.notify_one();
  return true;
}

void PeerSender::forget(const std::string& endpoint) {
  std::lock_guard lock(mutex_);
  forget_.push_back(endpoint);
  for (auto it = queue_.begin(); it != queue_.end();) {
    it = it->to.endpoint == endpoint ? queue_.erase(it) : std::next(it);
  }
  not_empty_.notify_one();
  not_full_.notify_all();
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
  return queue_.size();
}

void PeerSender::run() {
  std::map<std::string, zmq::socket_t> sockets;
  for (;;) {
    Item item;
    std::vector<std::string> forget;
    {
      std::unique_lock lock(mutex_);
      not_empty_.wait(lock, [&] { return stopping_ || !queue_.empty() || !forget_.empty(); });
      forget.swap(forget_);
      if (stopping_) break;
      if (!queue_.empty()) {
        item = std::move(queue_.front());
        queue_.pop_front();
        not_full_.notify_one();
      }
    }
    for (const auto& e : forget) sockets.erase(e);
    if (!item.build) continue;
    std::uint64_t bytes = 0;
    bool ok = true;
    try {
      auto it = sockets.find(item.to.endpoint);
      if (it == sockets.end()) {
        auto s = connect_curve_client(ctx_, zmq::socket_type::dealer, item.to.endpoint, identity_, item.to.key,
                                      socket_options_);
        // Queue nothing for a peer that is not connected, and give up on one that stops
        // reading: a dead peer must not stall messages to the others.
        s.set(zmq::sockopt::immediate, true);
        s.set(zmq::sockopt::sndtimeo, kSendTimeoutMs);
        it = sockets.emplace(item.to.endpoint, std::move(s)).first;
      }
      auto frames = item.build();
      for (const auto& f : frames) bytes += f.size();
      if (!upload_bucket().acquire(bytes, &stop_flag_)) break;  // stopping while held back by the upload cap
      for (std::size_t i = 0; i < frames.size(); ++i) {
        // Blocks at the high-water mark: the peer is slower than us, so we wait for it.
        const auto r = it->second.send(frames[i], i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
        if (!r) {
          ok = false;
          spdlog::warn("peer {} is not accepting messages (gone or stalled); message dropped", item.to.endpoint);
          sockets.erase(it);  // reconnect afresh next time
          break;
        }
      }
    } catch (const std::exception& e) {
      ok = false;
      spdlog::warn("sending to {} failed: {}", item.to.endpoint, e.what());
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

}  // namespace rookery::net
