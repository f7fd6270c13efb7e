#include "device/blas_info.hpp"

#include <dlfcn.h>

#include <filesystem>

namespace rookery::device {

BlasInfo detect_blas() {
  BlasInfo info;
  void* sgemm = ::dlsym(RTLD_DEFAULT, "sgemm_");
  Dl_info where{};
  if (!sgemm || ::dladdr(sgemm, &where) == 0 || !where.dli_fname) {
    info.description = "no BLAS loaded (sgemm_ not found)";
    return info;
  }
  std::error_code ec;
  auto path = std::filesystem::canonical(where.dli_fname, ec);
  info.library_path = ec ? std::string(where.dli_fname) : path.string();
  using config_fn = char* (*)();
  void* handle = ::dlopen(where.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  auto openblas_config =
      handle ? reinterpret_cast<config_fn>(::dlsym(handle, "openblas_get_config")) : nullptr;
  auto mkl = handle ? ::dlsym(handle, "mkl_get_version") : nullptr;
  if (openblas_config) {
    info.description = std::string("OpenBLAS (") + openblas_config() + ")";
    info.optimised = true;
  } else if (mkl) {
    info.description = "Intel MKL";
    info.optimised = true;
  } else if (info.library_path.find("blis") != std::string::npos) {
    info.description = "BLIS";
    info.optimised = true;
  } else if (info.library_path.find("atlas") != std::string::npos) {
    info.description = "ATLAS";
    info.optimised = true;
  } else {
    info.description = "reference BLAS";
  }
  if (handle) ::dlclose(handle);
  info.description += " at " + info.library_path;
  return info;
}

}  // namespace rookery::device
