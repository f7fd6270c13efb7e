#include "reduce/identity_signature.hpp"

#include <cstring>
#include <stdexcept>
#include <vector>

#include <sodium.h>
#include <zmq.h>

namespace rookery::reduce {

namespace {

using Bytes32 = std::array<unsigned char, 32>;

bool z85_key(const std::string& z85, Bytes32& out) {
  return z85.size() == 40 && zmq_z85_decode(out.data(), z85.c_str()) != nullptr;
}

void sha512_reduce(unsigned char out[32],
                   std::initializer_list<std::span<const unsigned char>> in) {
  crypto_hash_sha512_state state;
  crypto_hash_sha512_init(&state);
  for (const auto& part : in) crypto_hash_sha512_update(&state, part.data(), part.size());
  unsigned char wide[64];
  crypto_hash_sha512_final(&state, wide);
  crypto_core_ed25519_scalar_reduce(out, wide);
  sodium_memzero(wide, sizeof wide);
}

}  // namespace

IdentitySignature identity_sign(const std::string& curve_secret_z85,
                                std::span<const std::byte> message) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium cannot start");
  Bytes32 k;
  if (!z85_key(curve_secret_z85, k))
    throw std::invalid_argument("identity signature: the secret key is not a Z85 CURVE key");
  // X25519's clamping: the scalar every DH with this key uses.
  k[0] &= 248;
  k[31] &= 127;
  k[31] |= 64;
  unsigned char a_point[32], a[32], wide[64] = {};
  // kB, then k mod L (k < 2^255, so the wide reduction is exact).
  if (crypto_scalarmult_ed25519_base_noclamp(a_point, k.data()) != 0)
    throw std::invalid_argument("identity signature: the secret key gives no point");
  std::memcpy(wide, k.data(), 32);
  crypto_core_ed25519_scalar_reduce(a, wide);
  if (a_point[31] & 0x80) {  // -A has the same y and sign bit 0: sign with -k
    crypto_core_ed25519_scalar_negate(a, a);
    a_point[31] &= 0x7f;
  }
  const auto* m = reinterpret_cast<const unsigned char*>(message.data());
  const std::span<const unsigned char> msg(m, message.size());
  // r = hash_1(a || M || Z) mod L, hash_1's prefix 0xFE then 31 x 0xFF (XEdDSA).
  unsigned char prefix[32], z[64], r[32], big_r[32], h[32], s[32];
  std::memset(prefix, 0xff, sizeof prefix);
  prefix[0] = 0xfe;
  randombytes_buf(z, sizeof z);
  sha512_reduce(r, {prefix, {a, 32}, msg, z});
  if (crypto_scalarmult_ed25519_base_noclamp(big_r, r) != 0)
    throw std::runtime_error("identity signature: nonce gives no point");
  // h = H(R || A || M) mod L; s = r + h a mod L: Ed25519's equation under A.
  sha512_reduce(h, {{big_r, 32}, {a_point, 32}, msg});
  crypto_core_ed25519_scalar_mul(s, h, a);
  crypto_core_ed25519_scalar_add(s, r, s);
  IdentitySignature out;
  std::memcpy(out.edwards.data(), a_point, 32);
  std::memcpy(out.signature.data(), big_r, 32);
  std::memcpy(out.signature.data() + 32, s, 32);
  sodium_memzero(k.data(), k.size());
  sodium_memzero(a, sizeof a);
  sodium_memzero(r, sizeof r);
  return out;
}

bool identity_signature_valid(const std::string& curve_public_z85,
                              std::span<const std::byte> message,
                              const IdentitySignature& signature) {
  if (sodium_init() < 0) return false;
  Bytes32 u, mapped;
  if (!z85_key(curve_public_z85, u)) return false;
  const auto* a_point = reinterpret_cast<const unsigned char*>(signature.edwards.data());
  if ((a_point[31] & 0x80) != 0) return false;
  if (crypto_sign_ed25519_pk_to_curve25519(mapped.data(), a_point) != 0 || mapped != u)
    return false;
  const auto* rs = reinterpret_cast<const unsigned char*>(signature.signature.data());
  return crypto_sign_verify_detached(rs, reinterpret_cast<const unsigned char*>(message.data()),
                                     message.size(), a_point) == 0;
}

}  // namespace rookery::reduce
