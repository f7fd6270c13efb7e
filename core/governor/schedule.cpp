#include "governor/schedule.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace rookery::governor {

namespace {
const std::array<const char*, 7> kDays = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(trim(cur));
  return out;
}

int day_index(const std::string& d) {
  for (int i = 0; i < 7; ++i) {
    if (d == kDays[static_cast<std::size_t>(i)]) return i;
  }
  throw std::invalid_argument("unknown day \"" + d + "\" (use mon, tue, wed, thu, fri, sat, sun)");
}

std::bitset<7> parse_days(const std::string& text) {
  std::bitset<7> days;
  if (text == "daily") return days.set();
  if (text == "weekdays") return std::bitset<7>(0b0011111);
  if (text == "weekends") return std::bitset<7>(0b1100000);
  for (const auto& part : split(text, ',')) {
    const auto dash = part.find('-');
    if (dash == std::string::npos) {
      days.set(static_cast<std::size_t>(day_index(part)));
      continue;
    }
    const int from = day_index(trim(part.substr(0, dash)));
    const int to = day_index(trim(part.substr(dash + 1)));
    for (int d = from;; d = (d + 1) % 7) {
      days.set(static_cast<std::size_t>(d));
      if (d == to) break;
    }
  }
  return days;
}

int parse_clock(const std::string& t) {
  const auto colon = t.find(':');
  if (colon == std::string::npos || colon == 0 || t.size() - colon != 3 ||
      !std::all_of(t.begin(), t.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == ':';
      })) {
    throw std::invalid_argument("cannot read the time \"" + t + "\" (use HH:MM)");
  }
  const int h = std::stoi(t.substr(0, colon));
  const int m = std::stoi(t.substr(colon + 1));
  if (h > 24 || m > 59 || (h == 24 && m != 0))
    throw std::invalid_argument("no such time of day: " + t);
  return h * 60 + m;
}
}  // namespace

WeeklySchedule WeeklySchedule::parse(const std::string& raw) {
  WeeklySchedule s;
  std::string text;
  for (char c : raw) text += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (trim(text).empty()) return s;
  for (const auto& entry : split(text, ';')) {
    if (entry.empty()) continue;
    const auto space = entry.find_last_of(' ');
    if (space == std::string::npos) {
      throw std::invalid_argument("schedule entry \"" + entry +
                                  "\" needs days and a time window, e.g. mon-fri 18:00-08:00");
    }
    const auto window = trim(entry.substr(space + 1));
    const auto dash = window.find('-');
    if (dash == std::string::npos)
      throw std::invalid_argument("cannot read the window \"" + window + "\" (use HH:MM-HH:MM)");
    Window w;
    w.days = parse_days(trim(entry.substr(0, space)));
    w.start = parse_clock(window.substr(0, dash));
    w.end = parse_clock(window.substr(dash + 1));
    if (w.start == w.end) throw std::invalid_argument("the window \"" + window + "\" is empty");
    s.windows_.push_back(w);
  }
  return s;
}

bool WeeklySchedule::allows(LocalTime t) const {
  if (windows_.empty()) return true;
  const auto today = static_cast<std::size_t>(t.weekday);
  const auto yesterday = static_cast<std::size_t>((t.weekday + 6) % 7);
  for (const auto& w : windows_) {
    if (w.start < w.end) {
      if (w.days[today] && t.minute_of_day >= w.start && t.minute_of_day < w.end) return true;
    } else {  // past midnight: the evening part today, the morning part belongs to yesterday's window
      if (w.days[today] && t.minute_of_day >= w.start) return true;
      if (w.days[yesterday] && t.minute_of_day < w.end) return true;
    }
  }
  return false;
}

}  // namespace rookery::governor
