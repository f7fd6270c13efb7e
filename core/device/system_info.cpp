#include "device/system_info.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

namespace rookery::device {

namespace {
std::uint64_t meminfo_kib(const std::string& key) {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + ":", 0) == 0) {
      std::istringstream ss(line.substr(key.size() + 1));
      std::uint64_t v = 0;
      ss >> v;
      return v;
    }
  }
  return 0;
}

// Jiffies of the whole machine (total, idle) from the first line of /proc/stat.
void machine_jiffies(std::uint64_t& total, std::uint64_t& idle) {
  std::ifstream in("/proc/stat");
  std::string cpu;
  std::uint64_t v[10] = {};
  in >> cpu;
  for (auto& x : v) in >> x;
  total = 0;
  for (auto x : v) total += x;
  total -= v[8] + v[9];  // guest time is already counted in user time
  idle = v[3] + v[4];    // idle + iowait
}

// utime + stime of this process in jiffies, from /proc/self/stat.
std::uint64_t self_jiffies() {
  std::ifstream in("/proc/self/stat");
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = s.rfind(')');  // the command name may contain spaces
  if (close == std::string::npos) return 0;
  std::istringstream ss(s.substr(close + 2));
  std::string field;
  std::uint64_t utime = 0, stime = 0;
  for (int i = 3; i <= 15; ++i) {
    ss >> field;
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  return utime + stime;
}
}  // namespace

CpuInfo read_cpu_info() {
  CpuInfo info;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) info.model = line.substr(colon + 2);
      break;
    }
  }
  if (info.model.empty()) info.model = "unknown CPU";
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  info.logical_cores =
      n > 0 ? static_cast<int>(n) : std::max(1u, std::thread::hardware_concurrency());
  info.ram_total_bytes = meminfo_kib("MemTotal") * 1024;
  return info;
}

std::uint64_t ram_available_bytes() { return meminfo_kib("MemAvailable") * 1024; }

CpuLoadSampler::CpuLoadSampler() {
  machine_jiffies(last_total_, last_idle_);
  last_self_ = self_jiffies();
}

CpuLoadSampler::Sample CpuLoadSampler::sample() {
  std::uint64_t total = 0, idle = 0;
  machine_jiffies(total, idle);
  const std::uint64_t self = self_jiffies();
  Sample s;
  const double dt = static_cast<double>(total - last_total_);
  if (dt > 0) {
    const double busy = dt - static_cast<double>(idle - last_idle_);
    s.machine_percent = static_cast<float>(std::clamp(100.0 * busy / dt, 0.0, 100.0));
    s.self_percent = static_cast<float>(
        std::clamp(100.0 * static_cast<double>(self - last_self_) / dt, 0.0, 100.0));
    s.others_percent = std::max(0.f, s.machine_percent - s.self_percent);
  }
  last_total_ = total;
  last_idle_ = idle;
  last_self_ = self;
  return s;
}

}  // namespace rookery::device
