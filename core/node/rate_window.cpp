#include "node/rate_window.hpp"

#include <algorithm>

namespace rookery::node {

void RateWindow::add(TimePoint at, double amount, double busy_seconds, TimePoint since) {
  entries_.push_back({at, std::min(since, at), amount, busy_seconds});
}

void RateWindow::expire(TimePoint now) {
  while (!entries_.empty() && now - entries_.front().at > span_) entries_.pop_front();
}

double RateWindow::amount() const {
  double sum = 0;
  for (const auto& e : entries_) sum += e.amount;
  return sum;
}

double RateWindow::busy_seconds() const {
  double sum = 0;
  for (const auto& e : entries_) sum += e.busy_seconds;
  return sum;
}

double RateWindow::per_second(TimePoint now) const {
  if (entries_.empty()) return 0;
  const double seconds =
      std::max(1.0, std::chrono::duration<double>(now - entries_.front().since).count());
  return amount() / seconds;
}

double RateWindow::per_busy_second() const {
  const double busy = busy_seconds();
  return busy > 0 ? amount() / busy : 0;
}

}  // namespace rookery::node
