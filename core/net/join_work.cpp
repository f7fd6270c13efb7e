#include "net/join_work.hpp"

#include <sodium.h>

#include <array>
#include <bit>
#include <stdexcept>

namespace rookery::net {

namespace {

using Hash = std::array<unsigned char, 32>;

// The hash state after the job id and key: only the nonce changes from try to try.
crypto_generichash_state prefix_state(const std::string& job_id, const std::string& public_key) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium cannot start");
  crypto_generichash_state s;
  crypto_generichash_init(&s, nullptr, 0, Hash{}.size());
  crypto_generichash_update(&s, reinterpret_cast<const unsigned char*>(job_id.data()),
                            job_id.size());
  const unsigned char separator = 0;  // a job id never holds a NUL: "ab"+"c..." != "a"+"bc..."
  crypto_generichash_update(&s, &separator, 1);
  crypto_generichash_update(&s, reinterpret_cast<const unsigned char*>(public_key.data()),
                            public_key.size());
  return s;
}

unsigned zero_bits(const crypto_generichash_state& prefix, std::uint64_t nonce) {
  crypto_generichash_state s = prefix;
  unsigned char le[8];
  for (int i = 0; i < 8; ++i) le[i] = static_cast<unsigned char>(nonce >> (8 * i));
  crypto_generichash_update(&s, le, sizeof le);
  Hash h;
  crypto_generichash_final(&s, h.data(), h.size());
  unsigned bits = 0;
  for (const unsigned char b : h) {
    const auto z = static_cast<unsigned>(std::countl_zero(b));
    bits += z;
    if (z < 8) break;
  }
  return bits;
}

}  // namespace

unsigned join_work_bits(const std::string& job_id, const std::string& public_key,
                        std::uint64_t nonce) {
  return zero_bits(prefix_state(job_id, public_key), nonce);
}

std::optional<std::uint64_t> find_join_work(const std::string& job_id,
                                            const std::string& public_key, unsigned bits,
                                            const std::atomic<bool>* stop) {
  if (bits > kMaxJoinWorkBits) {
    throw std::invalid_argument("a join's work of " + std::to_string(bits) + " bits is more than " +
                                std::to_string(kMaxJoinWorkBits));
  }
  const auto prefix = prefix_state(job_id, public_key);
  for (std::uint64_t nonce = 0;; ++nonce) {
    if (zero_bits(prefix, nonce) >= bits) return nonce;
    if ((nonce & 0xfff) == 0xfff && stop && stop->load(std::memory_order_relaxed)) {
      return std::nullopt;
    }
  }
}

}  // namespace rookery::net
