#include "model/cuda_backend.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

#include <spdlog/spdlog.h>

#include "model/cuda_backend_abi.h"

namespace rookery::model {

namespace {

namespace fs = std::filesystem;

constexpr const char* kModuleName = "librookery_cuda.so";

struct Module {
  void* handle = nullptr;
  int (*device_count)(char*, size_t) = nullptr;
  int (*device_info)(int, rookery_cuda_device*, char*, size_t) = nullptr;
  int (*set_memory_fraction)(int, double, char*, size_t) = nullptr;
};

Module& module() {
  static Module m;
  return m;
}

fs::path program_dir() {
  std::error_code ec;
  const auto exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path{} : exe.parent_path();
}

std::vector<fs::path> candidates() {
  std::vector<fs::path> out;
  if (const char* env = std::getenv("ROOKERY_CUDA_BACKEND"); env && *env) {
    out.emplace_back(env);
    return out;  // an explicit choice is the only one tried
  }
  if (const auto dir = program_dir(); !dir.empty()) {
    out.push_back(dir / kModuleName);
    out.push_back(dir / ".." / "lib" / "rookery" / kModuleName);
  }
#if defined(ROOKERY_CUDA_BACKEND_BUILD_PATH) && defined(ROOKERY_BUILD_TREE)
  // A program run from its build tree (the tests, a developer's build) uses that build's
  // module. An installed one never looks there: its GPU part is the one installed beside it.
  std::error_code ec;
  const auto tree = fs::weakly_canonical(ROOKERY_BUILD_TREE, ec);
  const auto dir = program_dir();
  if (!ec && !dir.empty() &&
      std::mismatch(tree.begin(), tree.end(), dir.begin(), dir.end()).first == tree.end()) {
    out.emplace_back(ROOKERY_CUDA_BACKEND_BUILD_PATH);
  }
#endif
  return out;
}

CudaBackend load() {
  CudaBackend b;
  // No driver, no GPU to train on: nothing of CUDA is loaded at all.
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!driver) {
    b.why = "no NVIDIA driver (libcuda.so.1)";
    return b;
  }
  dlclose(driver);
  fs::path found;
  for (const auto& c : candidates()) {
    std::error_code ec;
    if (fs::exists(c, ec)) {
      found = fs::weakly_canonical(c, ec);
      break;
    }
  }
  if (found.empty()) {
    // An installed Rookery: the GPU part is the rookery-cuda package (installer/linux).
    b.why = std::string("Rookery's GPU part is not installed (") + kModuleName +
            ", package rookery-cuda)";
    return b;
  }
  b.module = found.string();
  // RTLD_GLOBAL: LibTorch's CUDA part registers itself into the CPU part already loaded.
  void* handle = dlopen(found.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    const char* err = dlerror();
    b.why = std::string("cannot load ") + b.module + ": " + (err ? err : "unknown error");
    return b;
  }
  auto* abi = reinterpret_cast<int (*)()>(dlsym(handle, "rookery_cuda_abi_version"));
  auto& m = module();
  m.device_count = reinterpret_cast<int (*)(char*, size_t)>(dlsym(handle, "rookery_cuda_device_count"));
  m.device_info = reinterpret_cast<int (*)(int, rookery_cuda_device*, char*, size_t)>(
      dlsym(handle, "rookery_cuda_device_info"));
  m.set_memory_fraction = reinterpret_cast<int (*)(int, double, char*, size_t)>(
      dlsym(handle, "rookery_cuda_set_memory_fraction"));
  if (!abi || abi() != ROOKERY_CUDA_ABI_VERSION || !m.device_count || !m.device_info ||
      !m.set_memory_fraction) {
    b.why = b.module + " is from another version of Rookery";
    m = Module{};
    return b;  // left mapped: its registrations cannot be undone
  }
  m.handle = handle;
  std::array<char, 512> why{};
  b.devices = m.device_count(why.data(), why.size());
  b.loaded = true;
  if (b.devices == 0) b.why = why.data();
  return b;
}

}  // namespace

const CudaBackend& load_cuda_backend() {
  static std::once_flag once;
  static CudaBackend backend;
  std::call_once(once, [] {
    backend = load();
    if (backend.loaded) {
      spdlog::info("CUDA backend {}: {} GPU(s){}", backend.module, backend.devices,
                   backend.why.empty() ? "" : " (" + backend.why + ")");
    } else {
      spdlog::info("no CUDA: {}", backend.why);
    }
  });
  return backend;
}

std::optional<CudaDeviceInfo> cuda_device_info(int device) {
  const auto& m = module();
  if (!m.handle || !m.device_info) return std::nullopt;
  rookery_cuda_device d{};
  std::array<char, 512> why{};
  if (m.device_info(device, &d, why.data(), why.size()) != 0) {
    spdlog::warn("cuda:{}: {}", device, why.data());
    return std::nullopt;
  }
  CudaDeviceInfo info;
  info.name = d.name;
  info.major = d.major;
  info.minor = d.minor;
  info.total_bytes = d.total_bytes;
  info.free_bytes = d.free_bytes;
  info.bf16 = d.bf16 != 0;
  return info;
}

bool set_cuda_memory_fraction(int device, double fraction) {
  const auto& m = module();
  if (!m.handle || !m.set_memory_fraction) return false;
  std::array<char, 512> why{};
  if (m.set_memory_fraction(device, fraction, why.data(), why.size()) != 0) {
    spdlog::warn("cuda:{}: cannot cap its memory at {:.0f}%: {}", device, fraction * 100, why.data());
    return false;
  }
  return true;
}

}  // namespace rookery::model
