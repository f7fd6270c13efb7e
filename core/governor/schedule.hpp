#pragma once
// A weekly schedule of the times the node may compute, as the owner writes it:
//   ""                                  any time
//   "mon-fri 18:00-08:00; sat,sun 00:00-24:00"
// Entries are separated by ';'. Days: mon..sun, ranges (mon-fri, which may wrap: fri-mon),
// lists (sat,sun), "daily", "weekdays", "weekends". A window whose end is before its start
// runs past midnight into the next day.
#include <array>
#include <bitset>
#include <string>
#include <vector>

namespace rookery::governor {

struct LocalTime {
  int weekday = 0;        // 0 = Monday ... 6 = Sunday
  int minute_of_day = 0;  // 0..1439
  int hour() const { return minute_of_day / 60; }
  int minute() const { return minute_of_day % 60; }
};

class WeeklySchedule {
 public:
  // Throws std::invalid_argument naming the part it cannot read.
  static WeeklySchedule parse(const std::string& text);
  bool always() const { return windows_.empty(); }
  bool allows(LocalTime t) const;

 private:
  struct Window {
    std::bitset<7> days;
    int start = 0, end = 0;  // minutes; end may be <= start (past midnight), 1440 = midnight
  };
  std::vector<Window> windows_;
};

}  // namespace rookery::governor
