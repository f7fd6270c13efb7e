#pragma once
// GPU telemetry through NVML, loaded at run time: no link-time dependency on NVIDIA's
// driver, so one build runs on machines with and without a GPU.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rookery::device {

struct GpuReading {
  int index = 0;
  std::string name;
  std::uint64_t memory_total_bytes = 0;
  std::uint64_t memory_used_bytes = 0;
  float utilization_percent = -1;  // -1: not reported by this GPU
  float temperature_c = -1;
  float power_w = -1;
  float power_limit_w = -1;
};

// How far NVML got, for the window to word.
enum class NvmlState { NoDriver, TooOld, InitFailed, NoGpus, Available };

class Nvml {
 public:
  // Loads libnvidia-ml and initialises it; never throws. available() says whether it worked,
  // state() and status() why not (status() in English: "no NVIDIA driver (libnvidia-ml.so.1 not
  // found)").
  Nvml();
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  bool available() const { return available_; }
  const std::string& status() const { return status_; }
  NvmlState state() const { return state_; }
  unsigned gpu_count() const { return gpu_count_; }
  std::vector<GpuReading> read() const;

 private:
  struct Api;
  std::unique_ptr<Api> api_;
  bool available_ = false;
  std::string status_;
  NvmlState state_ = NvmlState::NoDriver;
  unsigned gpu_count_ = 0;
};

}  // namespace rookery::device
