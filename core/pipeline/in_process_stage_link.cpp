#include "pipeline/in_process_stage_link.hpp"

#include <condition_variable>
#include <deque>
#include <set>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "net/identity.hpp"
#include "wire/message.hpp"

namespace rookery::pipeline {

// What waits for one listening link: the messages sent to it, by whom, and whom it admits.
struct InProcessMailbox {
  struct Delivery {
    std::uint64_t from = 0;  // the sending link
    std::string from_key;
    StageLink::FrameBuilder build;
    std::shared_ptr<InProcessStageLink::Tally> tally;
  };
  std::string key;
  std::mutex mutex;
  std::condition_variable arrived, room;
  std::deque<Delivery> queue;
  std::map<std::uint64_t, std::size_t> waiting;  // messages in the queue, by sending link
  std::set<std::string> admitted;
  bool closed = false;
};

std::vector<std::string> InProcessStageHub::endpoints() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [endpoint, box] : mailboxes_) out.push_back(endpoint);
  return out;
}

void InProcessStageHub::attach(const std::string& endpoint, std::shared_ptr<InProcessMailbox> box) {
  std::lock_guard lock(mutex_);
  if (!mailboxes_.emplace(endpoint, std::move(box)).second)
    throw std::invalid_argument("a stage already listens at " + endpoint);
}

void InProcessStageHub::detach(const std::string& endpoint, const InProcessMailbox* box) {
  std::lock_guard lock(mutex_);
  const auto it = mailboxes_.find(endpoint);
  if (it != mailboxes_.end() && it->second.get() == box) mailboxes_.erase(it);
}

std::shared_ptr<InProcessMailbox> InProcessStageHub::find(const std::string& endpoint) const {
  std::lock_guard lock(mutex_);
  const auto it = mailboxes_.find(endpoint);
  return it == mailboxes_.end() ? nullptr : it->second;
}

namespace {
std::uint64_t next_link_id() {
  static std::atomic<std::uint64_t> n{1};
  return n++;
}
}  // namespace

InProcessStageLink::InProcessStageLink(InProcessStageHub& hub, std::string key,
                                       std::string endpoint, std::size_t lane_capacity)
    : hub_(hub),
      key_(std::move(key)),
      endpoint_(std::move(endpoint)),
      capacity_(std::max<std::size_t>(1, lane_capacity)),
      id_(next_link_id()),
      box_(std::make_shared<InProcessMailbox>()) {
  // Peers reply to a stage's endpoint, and stage_messages takes only tcp:// return addresses.
  if (endpoint_.rfind("tcp://", 0) != 0)
    throw std::invalid_argument("an in-process stage endpoint is written tcp://name:port, not " +
                                endpoint_);
  box_->key = key_;
}

InProcessStageLink::~InProcessStageLink() {
  hub_.detach(endpoint_, box_.get());
  {
    std::lock_guard lock(box_->mutex);
    box_->closed = true;
    for (auto& d : box_->queue) ++d.tally->failed;  // never delivered
    box_->queue.clear();
    box_->arrived.notify_all();
    box_->room.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

void InProcessStageLink::listen(Receiver receive) {
  receive_ = std::move(receive);
  hub_.attach(endpoint_, box_);
  thread_ = std::thread([this] { serve(); });
}

std::string InProcessStageLink::endpoint() const { return endpoint_; }

bool InProcessStageLink::send(const net::PeerAddress& to, FrameBuilder build) {
  return enqueue(to, std::move(build), true);
}

bool InProcessStageLink::post(const net::PeerAddress& to, FrameBuilder build) {
  return enqueue(to, std::move(build), false);
}

bool InProcessStageLink::enqueue(const net::PeerAddress& to, FrameBuilder build, bool wait) {
  auto drop = [&](const char* why) {
    ++tally_->failed;
    spdlog::warn("peer {} is not accepting messages ({}); message dropped", to.endpoint, why);
    return false;
  };
  const auto box = hub_.find(to.endpoint);
  if (!box) return drop("nobody listens there");
  // Where a CURVE handshake would fail: another key listens there, or ours is not admitted.
  if (box->key != to.key) return drop("another key listens there");
  std::unique_lock lock(box->mutex);
  if (!box->admitted.count(key_)) return drop("this stage is not admitted");
  if (wait) {
    box->room.wait(lock, [&] { return box->closed || box->waiting[id_] < capacity_; });
  } else if (box->waiting[id_] >= 2 * capacity_) {
    ++tally_->failed;
    spdlog::debug("peer {} has {} messages waiting: one more dropped", to.endpoint,
                  box->waiting[id_]);
    return false;
  }
  if (box->closed) return drop("it stopped listening");
  box->queue.push_back({id_, key_, std::move(build), tally_});
  ++box->waiting[id_];
  box->arrived.notify_one();
  return true;
}

// The receiver thread: what a socket and the RpcServer do with a message, without either.
void InProcessStageLink::serve() {
  const wire::Limits limits;  // the RpcServer's, for the stage's socket
  auto& box = *box_;
  for (;;) {
    InProcessMailbox::Delivery d;
    {
      std::unique_lock lock(box.mutex);
      box.arrived.wait(lock, [&] { return box.closed || !box.queue.empty(); });
      if (box.closed) return;
      d = std::move(box.queue.front());
      box.queue.pop_front();
      --box.waiting[d.from];
      box.room.notify_all();
    }
    std::vector<zmq::message_t> frames;
    try {
      frames = d.build();
    } catch (const std::exception& e) {
      ++d.tally->failed;
      spdlog::warn("sending to {} failed: {}", endpoint_, e.what());
      continue;
    }
    std::uint64_t bytes = 0;
    for (const auto& f : frames) bytes += f.size();
    ++d.tally->sent;
    d.tally->bytes += bytes;
    bool admitted = false;
    {
      std::lock_guard lock(box.mutex);
      admitted = box.admitted.count(d.from_key) > 0;
    }
    if (!admitted) {  // admitted when sent, revoked since: dropped silently
      ++refused_;
      continue;
    }
    if (frames.empty()) continue;
    auto decoded = frames.size() > limits.max_frames
                       ? wire::DecodeResult(wire::DecodeError{
                             wire::DecodeError::Kind::TooManyFrames, "message has too many frames"})
                       : wire::decode(std::move(frames), limits);
    if (!decoded) {
      ++refused_;
      spdlog::warn("rejected a malformed message from {}: {} ({})", net::short_key(d.from_key),
                   decoded.error().what, wire::decode_error_name(decoded.error().kind));
      continue;
    }
    try {
      receive_(d.from_key, decoded.message());
    } catch (const std::exception& e) {
      spdlog::warn("a message from {} failed: {}", net::short_key(d.from_key), e.what());
    }
  }
}

void InProcessStageLink::admit(const std::vector<std::string>& keys) {
  std::lock_guard lock(box_->mutex);
  box_->admitted = std::set<std::string>(keys.begin(), keys.end());
}

std::vector<std::string> InProcessStageLink::admitted() const {
  std::lock_guard lock(box_->mutex);
  return {box_->admitted.begin(), box_->admitted.end()};
}

std::uint64_t InProcessStageLink::bytes_sent() const { return tally_->bytes.load(); }
std::uint64_t InProcessStageLink::failed() const { return tally_->failed.load(); }
std::uint64_t InProcessStageLink::refused() const { return refused_.load(); }

}  // namespace rookery::pipeline
