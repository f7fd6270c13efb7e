#pragma once
// What the governor knows about the PC and its owner, read from the OS. Each sensor says
// whether it works here; one that does not degrades to "unknown" (std::nullopt), and the
// governor then neither pauses for it nor assumes the PC idle.
//   battery       /sys/class/power_supply (AC online, battery discharging)
//   programs      /proc/<pid>/comm and argv[0], for the owner's list of exclusive programs
//   terminals     input idleness of terminals (/dev/pts, /dev/tty*) where no GUI reports it
//   memory        the node's resident memory (/proc/self/statm)
// The desktop's input idleness and full-screen state come from the GUI over the control API.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rookery::governor {

enum class SensorKind { InputIdleness, FullScreen, Battery, Programs, CpuLoad, Gpu, Memory };

struct SensorStatus {
  SensorKind kind = SensorKind::InputIdleness;
  std::string name;  // "battery", "programs", ... (for logs)
  bool working = false;
  std::string detail;  // the reading, or why it does not work here
};

struct BatteryReading {
  std::optional<bool> on_battery;  // nullopt: no battery (a desktop) or unreadable
  std::string detail;
};
BatteryReading read_battery(
    const std::filesystem::path& power_supply_root = "/sys/class/power_supply");

struct ProgramsReading {
  std::optional<std::vector<std::string>> running;  // the listed ones that run
  std::string detail;
};
// `names`: program names (matched against comm and argv[0]'s file name) or absolute paths.
ProgramsReading find_programs(const std::vector<std::string>& names,
                              const std::filesystem::path& proc_root = "/proc");

struct IdleReading {
  std::optional<double> idle_seconds;
  std::string detail;
  bool from_logind = false;  // logind's idle hint answered (not terminals)
};
// Seconds since the last input on any terminal (the last access time of its device).
IdleReading terminal_idle(const std::vector<std::filesystem::path>& device_dirs = {"/dev/pts",
                                                                                   "/dev"});

std::uint64_t resident_memory_bytes();

}  // namespace rookery::governor
