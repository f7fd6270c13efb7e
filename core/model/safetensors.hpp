#pragma once
// The safetensors format (Hugging Face's; github.com/huggingface/safetensors), which PyTorch,
// JAX and NumPy load without running code from the file: an 8-byte little-endian header
// length, a JSON header naming each tensor's dtype, shape and byte range, then the raw bytes.
// Rookery writes its exported models in it (f32, little-endian), and reads them back to check
// an export or to start a run from one.
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/block_chain.hpp"

namespace rookery::model {

class SafetensorsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Safetensors {
  std::vector<NamedTensor> tensors;            // in file order, on the CPU, f32
  std::map<std::string, std::string> metadata;  // the header's "__metadata__" (strings only)
};

/// Writes `tensors` (any dtype that converts to f32; contiguous copies are made) with
/// `metadata`, atomically: a temporary file, fsync, rename. Throws SafetensorsError (a full
/// disk, a name used twice); the previous file at `path` stays intact then.
void write_safetensors(const std::filesystem::path& path, const std::vector<NamedTensor>& tensors,
                       const std::map<std::string, std::string>& metadata = {});

/// Reads a file. F32, F16 and BF16 tensors come back as f32. Throws SafetensorsError naming
/// what is wrong: a truncated file, a header that is not JSON or lies about its length, byte
/// ranges that overlap, leave gaps or do not match the shape, an unknown dtype.
Safetensors read_safetensors(const std::filesystem::path& path);

}  // namespace rookery::model
