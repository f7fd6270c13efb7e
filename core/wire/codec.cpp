#include "wire/codec.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace rookery::wire {

std::string_view codec_name(Codec c) {
  switch (c) {
    case Codec::None:
      return "none";
    case Codec::Fp16:
      return "fp16";
    case Codec::Bf16:
      return "bf16";
    case Codec::Int8Block:
      return "int8";
  }
  return "unknown";
}

Codec codec_from_name(std::string_view name) {
  if (name == "none") return Codec::None;
  if (name == "fp16") return Codec::Fp16;
  if (name == "bf16") return Codec::Bf16;
  if (name == "int8") return Codec::Int8Block;
  throw std::invalid_argument("unknown codec '" + std::string(name) +
                              "' (expected none, fp16, bf16 or int8)");
}

std::size_t encoded_bytes(Codec codec, std::size_t count, std::uint32_t block_size) {
  switch (codec) {
    case Codec::None:
      return count * 4;
    case Codec::Fp16:
    case Codec::Bf16:
      return count * 2;
    case Codec::Int8Block: {
      if (block_size == 0) throw std::invalid_argument("int8 codec: block size must be > 0");
      const std::size_t blocks = (count + block_size - 1) / block_size;
      return blocks * sizeof(float) + count;  // scales first, then the int8 values
    }
  }
  throw std::invalid_argument("unknown codec");
}

std::uint16_t f32_to_f16(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) {  // Inf or NaN
    return static_cast<std::uint16_t>(sign | 0x7c00u |
                                      (absx > 0x7f800000u ? 0x200u | ((absx >> 13) & 0x3ffu) : 0u));
  }
  if (absx >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds to Inf
  if (absx < 0x38800000u) {  // subnormal half (or zero)
    if (absx < 0x33000000u)
      return static_cast<std::uint16_t>(sign);  // below half of the smallest subnormal
    const std::uint32_t e = absx >> 23;
    const std::uint32_t m = (absx & 0x7fffffu) | 0x800000u;
    const std::uint32_t shift = 126u - e;  // 113 - e + 13
    std::uint32_t half = m >> shift;
    const std::uint32_t rem = m & ((1u << shift) - 1u);
    const std::uint32_t halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (half & 1u))) ++half;
    return static_cast<std::uint16_t>(sign | half);
  }
  std::uint32_t h = ((absx - 0x38000000u) >> 13);
  const std::uint32_t rem = absx & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return static_cast<std::uint16_t>(sign | h);
}

float f16_to_f32(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t e = (h >> 10) & 0x1fu;
  std::uint32_t m = h & 0x3ffu;
  std::uint32_t bits;
  if (e == 0) {
    if (m == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      int shift = 0;
      while ((m & 0x400u) == 0) {
        m <<= 1;
        ++shift;
      }
      m &= 0x3ffu;
      bits = sign | (static_cast<std::uint32_t>(113 - shift) << 23) | (m << 13);
    }
  } else if (e == 31) {
    bits = sign | 0x7f800000u | (m << 13);
  } else {
    bits = sign | ((e + 112u) << 23) | (m << 13);
  }
  return std::bit_cast<float>(bits);
}

std::uint16_t f32_to_bf16(float f) {
  std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return static_cast<std::uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>(x >> 16);
}

float bf16_to_f32(std::uint16_t b) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16);
}

namespace {

void check_sizes(Codec codec, std::size_t count, std::size_t bytes, std::uint32_t block_size) {
  const std::size_t want = encoded_bytes(codec, count, block_size);
  if (bytes != want) {
    throw std::invalid_argument("codec " + std::string(codec_name(codec)) + ": " +
                                std::to_string(count) + " values need " + std::to_string(want) +
                                " bytes, buffer has " + std::to_string(bytes));
  }
}

template <typename Sink>
void decode_with(Codec codec, std::span<const std::byte> src, std::size_t count,
                 std::uint32_t block_size, Sink&& sink) {
  check_sizes(codec, count, src.size(), block_size);
  const auto* p = reinterpret_cast<const unsigned char*>(src.data());
  switch (codec) {
    case Codec::None:
      for (std::size_t i = 0; i < count; ++i) {
        float v;
        std::memcpy(&v, p + 4 * i, 4);
        sink(i, v);
      }
      return;
    case Codec::Fp16:
    case Codec::Bf16:
      for (std::size_t i = 0; i < count; ++i) {
        std::uint16_t h;
        std::memcpy(&h, p + 2 * i, 2);
        sink(i, codec == Codec::Fp16 ? f16_to_f32(h) : bf16_to_f32(h));
      }
      return;
    case Codec::Int8Block: {
      const std::size_t blocks = (count + block_size - 1) / block_size;
      const unsigned char* q = p + blocks * sizeof(float);
      for (std::size_t b = 0; b < blocks; ++b) {
        float scale;
        std::memcpy(&scale, p + b * sizeof(float), sizeof(float));
        const std::size_t end = std::min(count, (b + 1) * block_size);
        for (std::size_t i = b * block_size; i < end; ++i) {
          sink(i, scale * static_cast<float>(static_cast<std::int8_t>(q[i])));
        }
      }
      return;
    }
  }
}

}  // namespace

void encode_f32(Codec codec, std::span<const float> src, std::span<std::byte> dst,
                std::uint32_t block_size) {
  check_sizes(codec, src.size(), dst.size(), block_size);
  auto* p = reinterpret_cast<unsigned char*>(dst.data());
  switch (codec) {
    case Codec::None:
      if (!src.empty()) std::memcpy(p, src.data(), src.size_bytes());
      return;
    case Codec::Fp16:
    case Codec::Bf16:
      for (std::size_t i = 0; i < src.size(); ++i) {
        const std::uint16_t h = codec == Codec::Fp16 ? f32_to_f16(src[i]) : f32_to_bf16(src[i]);
        std::memcpy(p + 2 * i, &h, 2);
      }
      return;
    case Codec::Int8Block: {
      // One f32 scale per block (absmax / 127), then round-to-nearest int8 values: the error
      // of each value is at most half a step, absmax(block) / 254.
      const std::size_t blocks = (src.size() + block_size - 1) / block_size;
      unsigned char* q = p + blocks * sizeof(float);
      for (std::size_t b = 0; b < blocks; ++b) {
        const std::size_t begin = b * block_size;
        const std::size_t end = std::min(src.size(), begin + block_size);
        float absmax = 0.f;
        bool finite = true;
        for (std::size_t i = begin; i < end; ++i) {
          if (!std::isfinite(src[i])) finite = false;
          absmax = std::max(absmax, std::fabs(src[i]));
        }
        // A non-finite block cannot be quantised; mark it with a NaN scale so the receiver
        // sees NaN (and rejects it) instead of silently getting numbers.
        const float scale = finite ? absmax / 127.f : std::numeric_limits<float>::quiet_NaN();
        const float inv = (finite && absmax > 0.f) ? 127.f / absmax : 0.f;
        std::memcpy(p + b * sizeof(float), &scale, sizeof(float));
        for (std::size_t i = begin; i < end; ++i) {
          const float v = finite ? std::nearbyint(src[i] * inv) : 0.f;
          q[i] = static_cast<unsigned char>(static_cast<std::int8_t>(std::clamp(v, -127.f, 127.f)));
        }
      }
      return;
    }
  }
}

void decode_f32(Codec codec, std::span<const std::byte> src, std::span<float> dst,
                std::uint32_t block_size) {
  decode_with(codec, src, dst.size(), block_size, [&](std::size_t i, float v) { dst[i] = v; });
}

void decode_add_f32(Codec codec, std::span<const std::byte> src, std::span<float> acc,
                    std::uint32_t block_size, float scale, const float* base, float src_scale) {
  float* out = acc.data();
  const float* in = base ? base : out;
  if (src_scale != 1.f) {
    decode_with(codec, src, acc.size(), block_size,
                [&](std::size_t i, float v) { out[i] = in[i] * scale + v * src_scale; });
  } else if (scale == 1.f) {
    decode_with(codec, src, acc.size(), block_size,
                [&](std::size_t i, float v) { out[i] = in[i] + v; });
  } else {
    decode_with(codec, src, acc.size(), block_size,
                [&](std::size_t i, float v) { out[i] = in[i] * scale + v; });
  }
}

}  // namespace rookery::wire
