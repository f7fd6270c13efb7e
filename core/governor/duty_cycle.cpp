#include "governor/duty_cycle.hpp"

#include <algorithm>

namespace rookery::governor {

std::chrono::nanoseconds DutyCycle::after_work(std::chrono::nanoseconds busy, int percent,
                                               Clock::time_point end) {
  record(true, busy, end);
  percent = std::clamp(percent, 1, 100);
  if (percent >= 100) {
    debt_ = std::chrono::nanoseconds{0};
    return debt_;
  }
  debt_ += busy * (100 - percent) / percent;
  if (debt_ < kMinRest) return std::chrono::nanoseconds{0};
  const auto rest = debt_;
  debt_ = std::chrono::nanoseconds{0};
  return rest;
}

void DutyCycle::rested(std::chrono::nanoseconds idle, Clock::time_point end) {
  record(false, idle, end);
}

void DutyCycle::record(bool busy, std::chrono::nanoseconds d, Clock::time_point end) {
  history_.push_back({end, {busy, d}});
  while (!history_.empty() && end - history_.front().first > kWindow) history_.pop_front();
}

double DutyCycle::measured_share(Clock::time_point now) const {
  // Each recorded stretch, clipped to the last kWindow.
  const auto window_start = now - kWindow;
  std::chrono::nanoseconds busy{0};
  Clock::time_point first = now;
  for (const auto& [end, entry] : history_) {
    const auto start = std::max(end - entry.second, window_start);
    const auto stop = std::min(end, now);
    if (stop <= start) continue;
    if (entry.first) busy += stop - start;
    first = std::min(first, start);
  }
  const auto span = now - first;
  if (span <= std::chrono::nanoseconds{0}) return 0;
  return std::min(1.0, std::chrono::duration<double>(busy).count() /
                           std::chrono::duration<double>(span).count());
}

}  // namespace rookery::governor
