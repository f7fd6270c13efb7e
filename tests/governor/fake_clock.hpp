#pragma once
// A wall clock the test sets by hand, in a time zone of fixed offset.
#include "governor/governor.hpp"

namespace rookery::testing {

class FakeClock final : public governor::WallClock {
 public:
  std::int64_t now = 0;
  int utc_offset_minutes = 0;

  std::int64_t now_unix_ms() const override { return now; }
  governor::LocalTime local(std::int64_t unix_ms) const override {
    const std::int64_t minutes = unix_ms / 60000 + utc_offset_minutes;
    const std::int64_t days = minutes / 1440;
    // 1970-01-01 was a Thursday (Monday = 0).
    return governor::LocalTime{static_cast<int>((days + 3) % 7), static_cast<int>(minutes % 1440)};
  }
  // Monday 2024-01-01 00:00 local, plus the given day and time.
  void set(int weekday, int hour, int minute) {
    const std::int64_t monday = 19723;  // days since the epoch to 2024-01-01, a Monday
    now = ((monday + weekday) * 1440 + hour * 60 + minute - utc_offset_minutes) * 60000;
  }
  void advance_ms(std::int64_t ms) { now += ms; }
};

}  // namespace rookery::testing
