#include "governor/sensors.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>

namespace rookery::governor {

namespace fs = std::filesystem;

namespace {
std::optional<std::string> read_line(const fs::path& p) {
  std::ifstream in(p);
  std::string s;
  if (!in || !std::getline(in, s)) return std::nullopt;
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}
}  // namespace

BatteryReading read_battery(const fs::path& root) {
  BatteryReading r;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    r.detail = root.string() + " is not available";
    return r;
  }
  bool have_battery = false, discharging = false, external_power = false;
  std::string battery_status;
  for (const auto& e : fs::directory_iterator(root, ec)) {
    const auto type = read_line(e.path() / "type");
    if (!type) continue;
    if (*type == "Battery") {
      // Peripherals (mice, headsets) report batteries too; they do not power the PC.
      if (read_line(e.path() / "scope").value_or("") == "Device") continue;
      have_battery = true;
      battery_status = read_line(e.path() / "status").value_or("Unknown");
      if (battery_status == "Discharging") discharging = true;
    } else if (read_line(e.path() / "online").value_or("0") == "1") {
      external_power = true;  // Mains, USB, USB_PD ...
    }
  }
  if (!have_battery) {
    r.detail = "no battery (mains powered)";
    r.on_battery = false;
    return r;
  }
  r.on_battery = discharging && !external_power;
  r.detail = *r.on_battery ? "on battery"
                           : "battery " + battery_status + (external_power ? ", on mains" : "");
  return r;
}

ProgramsReading find_programs(const std::vector<std::string>& names, const fs::path& proc_root) {
  ProgramsReading r;
  std::error_code ec;
  fs::directory_iterator it(proc_root, ec);
  if (ec) {
    r.detail = "cannot list " + proc_root.string() + ": " + ec.message();
    return r;
  }
  std::vector<std::string> found;
  const auto self = std::to_string(::getpid());
  for (const auto& e : it) {
    const auto pid = e.path().filename().string();
    if (!all_digits(pid) || pid == self) continue;
    const auto comm = read_line(e.path() / "comm").value_or("");
    std::string argv0;
    {
      std::ifstream in(e.path() / "cmdline", std::ios::binary);
      std::getline(in, argv0, '\0');
    }
    const auto base = fs::path(argv0).filename().string();
    for (const auto& n : names) {
      const bool match =
          n.front() == '/' ? argv0 == n
                           : (n == base || n == comm ||
                              // comm is cut to 15 characters
                              (comm.size() == 15 && n.size() > 15 && n.compare(0, 15, comm) == 0));
      if (match && std::find(found.begin(), found.end(), n) == found.end()) found.push_back(n);
    }
  }
  r.detail = found.empty()
                 ? (names.empty() ? "no programs listed" : "none of the listed programs runs")
                 : found.front() + " runs";
  r.running = std::move(found);
  return r;
}

IdleReading terminal_idle(const std::vector<fs::path>& dirs) {
  IdleReading r;
  const auto now = std::chrono::system_clock::now();
  std::optional<std::chrono::system_clock::time_point> latest;
  int terminals = 0;
  for (const auto& dir : dirs) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const auto name = e.path().filename().string();
      const bool pts = dir.filename() == "pts" && all_digits(name);
      const bool tty =
          name.size() > 3 && name.compare(0, 3, "tty") == 0 && all_digits(name.substr(3));
      if (!pts && !tty) continue;
      struct stat st {};
      if (::stat(e.path().c_str(), &st) != 0) continue;
      ++terminals;
      const auto atime = std::chrono::system_clock::time_point(
          std::chrono::duration_cast<std::chrono::system_clock::duration>(
              std::chrono::seconds(st.st_atim.tv_sec) +
              std::chrono::nanoseconds(st.st_atim.tv_nsec)));
      if (!latest || atime > *latest) latest = atime;
    }
  }
  if (!latest) {
    r.detail = "no terminals to watch";
    return r;
  }
  r.idle_seconds = std::max(0.0, std::chrono::duration<double>(now - *latest).count());
  r.detail = "terminal input " + std::to_string(static_cast<long>(*r.idle_seconds)) + " s ago (" +
             std::to_string(terminals) + " terminals)";
  return r;
}

std::uint64_t resident_memory_bytes() {
  std::ifstream in("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  if (!(in >> size >> resident)) return 0;
  return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace rookery::governor
