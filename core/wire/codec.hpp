#pragma once
// Compression codecs for tensors on the wire (activations, gradients, reductions).
// These are the CPU reference implementations; the pipeline may run the same codecs on
// the GPU, and must produce the same bytes.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace rookery::wire {

enum class Codec : std::uint8_t { None = 0, Fp16 = 1, Bf16 = 2, Int8Block = 3 };

inline constexpr std::uint32_t kDefaultInt8Block = 256;

std::string_view codec_name(Codec c);
// "none", "fp16", "bf16", "int8"; throws std::invalid_argument otherwise.
Codec codec_from_name(std::string_view name);

// Bytes that `count` f32 values take once encoded with `codec`.
std::size_t encoded_bytes(Codec codec, std::size_t count,
                          std::uint32_t block_size = kDefaultInt8Block);

// Encodes `src` into `dst` (exactly encoded_bytes(...) long).
void encode_f32(Codec codec, std::span<const float> src, std::span<std::byte> dst,
                std::uint32_t block_size = kDefaultInt8Block);
// Decodes into `dst` (dst.size() values). `src` must be encoded_bytes(codec, dst.size()) long.
void decode_f32(Codec codec, std::span<const std::byte> src, std::span<float> dst,
                std::uint32_t block_size = kDefaultInt8Block);
// Decodes and adds into `acc`: acc[i] = base[i] * scale + decoded[i] * src_scale, where `base`
// is `acc` itself when null. The reduction path, accumulated in f32; `scale` weights the
// receiver's own values in the same pass, `base` reads them from where they are without a
// copy, and `src_scale` weights values that were sent unweighted.
void decode_add_f32(Codec codec, std::span<const std::byte> src, std::span<float> acc,
                    std::uint32_t block_size = kDefaultInt8Block, float scale = 1.f,
                    const float* base = nullptr, float src_scale = 1.f);

// Scalar conversions (round to nearest even; NaN and infinities preserved).
std::uint16_t f32_to_f16(float f);
float f16_to_f32(std::uint16_t h);
std::uint16_t f32_to_bf16(float f);
float bf16_to_f32(std::uint16_t b);

}  // namespace rookery::wire
