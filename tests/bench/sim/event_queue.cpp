#include "event_queue.hpp"

#include <algorithm>
#include <chrono>

namespace rookery::sim {

void EventQueue::after(std::int64_t delay_ms, std::function<void()> action) {
  events_.push({now_ms_ + std::max<std::int64_t>(delay_ms, 0), seq_++, std::move(action)});
}

void EventQueue::move_clock_to(std::int64_t ms) {
  if (ms > now_ms_) clock_.advance(std::chrono::milliseconds(ms - now_ms_));
  now_ms_ = std::max(now_ms_, ms);
}

std::uint64_t EventQueue::run_until(std::int64_t end_ms) {
  std::uint64_t ran = 0;
  while (!events_.empty() && events_.top().at_ms <= end_ms) {
    // Moved out before running: the action may schedule more.
    Event e = std::move(const_cast<Event&>(events_.top()));
    events_.pop();
    move_clock_to(e.at_ms);
    e.action();
    ++ran;
  }
  move_clock_to(end_ms);
  return ran;
}

}  // namespace rookery::sim
