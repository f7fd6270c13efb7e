#pragma once
// The host as /proc describes it: CPU model, cores, memory, and load over time.
#include <cstdint>
#include <string>

namespace rookery::device {

struct CpuInfo {
  std::string model;  // "AMD EPYC 7B13", or "unknown CPU"
  int logical_cores = 1;
  std::uint64_t ram_total_bytes = 0;
};

CpuInfo read_cpu_info();
std::uint64_t ram_available_bytes();

// Samples CPU load between calls: the whole machine's busy share and this process's share,
// both in percent of all cores (0-100).
class CpuLoadSampler {
 public:
  CpuLoadSampler();
  struct Sample {
    float machine_percent = 0;
    float self_percent = 0;
    float others_percent = 0;  // machine minus this process: "other programs' load"
  };
  Sample sample();

 private:
  std::uint64_t last_total_ = 0, last_idle_ = 0, last_self_ = 0;
};

}  // namespace rookery::device
