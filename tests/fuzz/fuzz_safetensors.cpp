// libFuzzer target: the safetensors reader (core/model/safetensors.hpp), which reads exported
// models and any file a user points Rookery at. Whatever the bytes, it reads them or throws
// SafetensorsError; it never crashes, reads out of bounds or allocates what the file only
// claims.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "model/safetensors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("rookery-fuzz-safetensors-" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), std::streamsize(size));
  try {
    (void)rookery::model::read_safetensors(path);
  } catch (const rookery::model::SafetensorsError&) {
    // refused, with a reason: what it should do
  }
  return 0;
}
