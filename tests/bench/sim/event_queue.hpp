#pragma once
// The simulation's clock and agenda: events in time order (ties in the order scheduled), run one
// after the other while a ManualClock is moved to each event's time, so that the coordinator's
// classes, which read that clock, see simulated time pass.
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "clock/clock.hpp"

namespace rookery::sim {

class EventQueue {
 public:
  explicit EventQueue(clock::ManualClock& clock) : clock_(clock) {}

  // Simulated milliseconds since the start.
  std::int64_t now_ms() const { return now_ms_; }
  // `action` runs at now + delay (a negative delay runs it now, after what is due now).
  void after(std::int64_t delay_ms, std::function<void()> action);
  // Runs the events due up to `end_ms` and leaves the clock there. Returns the events run.
  std::uint64_t run_until(std::int64_t end_ms);
  std::size_t pending() const { return events_.size(); }

 private:
  struct Event {
    std::int64_t at_ms;
    std::uint64_t seq;
    std::function<void()> action;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.at_ms != b.at_ms ? a.at_ms > b.at_ms : a.seq > b.seq;
    }
  };
  void move_clock_to(std::int64_t ms);

  clock::ManualClock& clock_;
  std::int64_t now_ms_ = 0;
  std::uint64_t seq_ = 0;
  std::priority_queue<Event, std::vector<Event>, Later> events_;
};

}  // namespace rookery::sim
