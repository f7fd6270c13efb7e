#include "device/nvml.hpp"

#include <dlfcn.h>

namespace rookery::device {

namespace {
// The few NVML types and entry points we use, as nvml.h declares them.
using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;
struct nvmlMemory_t {
  unsigned long long total, free, used;
};
struct nvmlUtilization_t {
  unsigned int gpu, memory;
};
constexpr int NVML_SUCCESS = 0;
constexpr int NVML_TEMPERATURE_GPU = 0;
}  // namespace

struct Nvml::Api {
  void* lib = nullptr;
  nvmlReturn_t (*init)() = nullptr;
  nvmlReturn_t (*shutdown)() = nullptr;
  nvmlReturn_t (*count)(unsigned int*) = nullptr;
  nvmlReturn_t (*handle)(unsigned int, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*name)(nvmlDevice_t, char*, unsigned int) = nullptr;
  nvmlReturn_t (*memory)(nvmlDevice_t, nvmlMemory_t*) = nullptr;
  nvmlReturn_t (*utilization)(nvmlDevice_t, nvmlUtilization_t*) = nullptr;
  nvmlReturn_t (*temperature)(nvmlDevice_t, int, unsigned int*) = nullptr;
  nvmlReturn_t (*power)(nvmlDevice_t, unsigned int*) = nullptr;
  nvmlReturn_t (*power_limit)(nvmlDevice_t, unsigned int*) = nullptr;
};

Nvml::Nvml() : api_(std::make_unique<Api>()) {
  api_->lib = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!api_->lib) {
    status_ = "no NVIDIA driver (libnvidia-ml.so.1 not found)";
    return;
  }
  auto sym = [this](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(api_->lib, name));
    return fn != nullptr;
  };
  const bool ok = sym(api_->init, "nvmlInit_v2") && sym(api_->shutdown, "nvmlShutdown") &&
                  sym(api_->count, "nvmlDeviceGetCount_v2") &&
                  sym(api_->handle, "nvmlDeviceGetHandleByIndex_v2") &&
                  sym(api_->name, "nvmlDeviceGetName") &&
                  sym(api_->memory, "nvmlDeviceGetMemoryInfo") &&
                  sym(api_->utilization, "nvmlDeviceGetUtilizationRates") &&
                  sym(api_->temperature, "nvmlDeviceGetTemperature") &&
                  sym(api_->power, "nvmlDeviceGetPowerUsage") &&
                  sym(api_->power_limit, "nvmlDeviceGetEnforcedPowerLimit");
  if (!ok) {
    status_ = "libnvidia-ml.so.1 is too old (missing entry points)";
    state_ = NvmlState::TooOld;
    return;
  }
  if (api_->init() != NVML_SUCCESS) {
    status_ = "NVML failed to initialise (driver not loaded?)";
    state_ = NvmlState::InitFailed;
    return;
  }
  unsigned int n = 0;
  if (api_->count(&n) != NVML_SUCCESS || n == 0) {
    status_ = "NVML reports no GPUs";
    state_ = NvmlState::NoGpus;
    api_->shutdown();
    return;
  }
  available_ = true;
  state_ = NvmlState::Available;
  gpu_count_ = n;
  status_ = std::to_string(n) + " NVIDIA GPU(s) via NVML";
}

Nvml::~Nvml() {
  if (available_) api_->shutdown();
  if (api_->lib) ::dlclose(api_->lib);
}

std::vector<GpuReading> Nvml::read() const {
  std::vector<GpuReading> out;
  if (!available_) return out;
  unsigned int n = 0;
  if (api_->count(&n) != NVML_SUCCESS) return out;
  for (unsigned int i = 0; i < n; ++i) {
    nvmlDevice_t dev{};
    if (api_->handle(i, &dev) != NVML_SUCCESS) continue;
    GpuReading r;
    r.index = static_cast<int>(i);
    char name[96] = {};
    if (api_->name(dev, name, sizeof name) == NVML_SUCCESS) r.name = name;
    nvmlMemory_t mem{};
    if (api_->memory(dev, &mem) == NVML_SUCCESS) {
      r.memory_total_bytes = mem.total;
      r.memory_used_bytes = mem.used;
    }
    nvmlUtilization_t util{};
    if (api_->utilization(dev, &util) == NVML_SUCCESS)
      r.utilization_percent = static_cast<float>(util.gpu);
    unsigned int v = 0;
    if (api_->temperature(dev, NVML_TEMPERATURE_GPU, &v) == NVML_SUCCESS)
      r.temperature_c = static_cast<float>(v);
    if (api_->power(dev, &v) == NVML_SUCCESS) r.power_w = static_cast<float>(v) / 1000.f;
    if (api_->power_limit(dev, &v) == NVML_SUCCESS)
      r.power_limit_w = static_cast<float>(v) / 1000.f;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace rookery::device
