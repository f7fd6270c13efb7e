// libFuzzer target: the wire decoder (core/wire/message.hpp decode) on arbitrary frames.
// Input: frames as [u16 little-endian length][bytes]...; the bytes left after the last whole
// frame form one more frame. Every decoded tensor is also decoded to f32 where that applies.
// Each input is decoded with and without checksums (Limits::checksums).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <vector>

#include "wire/message.hpp"

namespace {

void decode_all(const std::uint8_t* data, std::size_t size, bool checksums) {
  using namespace rookery::wire;
  std::vector<zmq::message_t> frames;
  std::size_t at = 0;
  while (at + 2 <= size && frames.size() < 80) {
    const std::size_t len = std::size_t(data[at]) | (std::size_t(data[at + 1]) << 8);
    at += 2;
    const std::size_t take = std::min(len, size - at);
    frames.emplace_back(data + at, take);
    at += take;
  }
  if (at < size) frames.emplace_back(data + at, size - at);
  Limits limits;
  limits.max_tensor_bytes = 1 << 20;
  limits.max_total_bytes = 1 << 21;
  limits.checksums = checksums;
  auto result = decode(std::move(frames), limits);
  if (!result) {
    (void)decode_error_name(result.error().kind);
    return;
  }
  for (const auto& t : result.message().tensors) {
    try {
      (void)t.to_f32();
    } catch (const std::exception&) {  // not an f32 tensor: a clear refusal is fine
    }
  }
}

}  // namespace

// Twice: as a plaintext channel decodes (checksums verified), and as a CURVE channel does
// (no checksums: the MAC authenticated the frames, but an admitted peer may still send any
// bytes, so a mutated payload reaches the codecs here).
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  decode_all(data, size, /*checksums=*/true);
  decode_all(data, size, /*checksums=*/false);
  return 0;
}
