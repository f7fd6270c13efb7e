// libFuzzer target: checkpoint reading (core/pipeline/checkpoint.hpp). A checksum guards the
// file, so random bytes would only test that; with the first input byte even, the rest is
// taken as the checkpoint's content and framed (magic, length, XXH3) as save_checkpoint does,
// so the fuzzer reaches the protobuf and the LibTorch archive inside. Odd: the raw file.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <xxhash.h>

#include "pipeline/checkpoint.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("rookery-fuzz-checkpoint-" + std::to_string(::getpid()));
  std::string bytes;
  const char* body = reinterpret_cast<const char*>(data + 1);
  const std::size_t body_size = size - 1;
  if (data[0] % 2 == 0) {
    const char magic[8] = {'R', 'K', 'C', 'K', 'P', 'T', '0', '1'};
    const std::uint64_t len = body_size;
    bytes.append(magic, 8);
    bytes.append(reinterpret_cast<const char*>(&len), 8);
    bytes.append(body, body_size);
    const std::uint64_t sum = XXH3_64bits(bytes.data(), bytes.size());
    bytes.append(reinterpret_cast<const char*>(&sum), 8);
  } else {
    bytes.assign(body, body_size);
  }
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), std::streamsize(bytes.size()));
  try {
    rookery::pipeline::CheckpointCounters counters;
    (void)rookery::pipeline::read_checkpoint_parameters(path, &counters);
  } catch (const rookery::pipeline::CheckpointError&) {}
  return 0;
}
