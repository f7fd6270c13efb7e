#include <torch/torch.h>

#include "pipeline/stage_inbox.hpp"

#include <spdlog/spdlog.h>

#include "net/identity.hpp"

namespace rookery::pipeline {

StageInbox::StageInbox(std::size_t capacity, StageCounters& counters)
    : capacity_(capacity), counters_(counters) {}

void StageInbox::push(Inbound in) {
  std::size_t waiting = 0;
  {
    std::lock_guard lock(mutex_);
    auto& q = in.backward ? backwards_ : forwards_;
    if (q.size() < capacity_) {
      q.push_back(std::move(in));
      cv_.notify_one();
      return;
    }
    waiting = q.size();
  }
  counters_.update([](StageStats& s) { ++s.rejected; });
  spdlog::warn("stage inbox full ({} waiting): dropped a message from {}", waiting,
               net::short_key(in.sender));
}

void StageInbox::push_checked(Inbound in) {
  std::lock_guard lock(mutex_);
  (in.backward ? backwards_ : forwards_).push_back(std::move(in));
  cv_.notify_one();
}

void StageInbox::refuse(Inbound in) {
  counters_.update([](StageStats& s) { ++s.rejected; });
  if (!in.backward) return;
  in.discard = true;
  in.tensor = torch::Tensor();
  std::lock_guard lock(mutex_);
  backwards_.push_back(std::move(in));  // beyond the capacity: one per refused micro-batch
  cv_.notify_one();
}

bool StageInbox::push_recompute(Recompute r) {
  std::lock_guard lock(mutex_);
  if (recomputes_.size() >= kMaxRecomputes) return false;
  recomputes_.push_back(std::move(r));
  cv_.notify_one();
  return true;
}

StageInbox::Item StageInbox::take(std::chrono::milliseconds wait,
                                  const std::function<bool()>& can_forward,
                                  const std::function<bool()>& can_feed) {
  std::unique_lock lock(mutex_);
  auto ready = [&] {
    return !backwards_.empty() || !recomputes_.empty() || (!forwards_.empty() && can_forward()) ||
           can_feed();
  };
  if (!ready()) cv_.wait_for(lock, wait, ready);
  Item item;
  if (!backwards_.empty()) {
    item.work = std::move(backwards_.front());
    backwards_.pop_front();
  } else if (!recomputes_.empty()) {
    item.recompute = std::move(recomputes_.front());
    recomputes_.pop_front();
  } else if (!forwards_.empty() && can_forward()) {
    item.work = std::move(forwards_.front());
    forwards_.pop_front();
  }
  return item;
}

void StageInbox::wake() {
  std::lock_guard lock(mutex_);
  cv_.notify_all();
}

bool StageInbox::no_gradients() const {
  std::lock_guard lock(mutex_);
  return backwards_.empty();
}

}  // namespace rookery::pipeline
