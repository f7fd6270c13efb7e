#pragma once
// Signatures by a node's CURVE identity, so that what a ring member says can be proved to a
// third party (another member, the coordinator) who knows only its public key, which is its
// name in the swarm.
//
// A CURVE key pair is an X25519 one, made for Diffie-Hellman, not for signing. XEdDSA (Signal's
// construction, https://signal.org/docs/specifications/xeddsa/) signs with it anyway: the
// clamped secret scalar k gives the Edwards point A = kB; when A's sign bit is set, k is
// negated (mod the group order) so that A's sign bit is 0, and the signature is an ordinary
// Ed25519 one (R, s) under that A, with a nonce hashed from k, the message and 64 random bytes.
// The verifier gets A with the signature and checks that A has sign bit 0 and maps to the
// X25519 public key (crypto_sign_ed25519_pk_to_curve25519, the birational map; with sign bit 0
// exactly one A maps to a given key), then verifies (R, s) under A as Ed25519. Forging one
// means forging Ed25519 under a key whose secret only the node holds. The same scalar serves
// both DH and signatures, as in Signal; the hash domains differ (XEdDSA's hash_1 prefix).
#include <array>
#include <cstddef>
#include <span>
#include <string>

namespace rookery::reduce {

struct IdentitySignature {
  std::array<std::byte, 32> edwards{};    // A, sign bit 0
  std::array<std::byte, 64> signature{};  // (R, s)
  friend bool operator==(const IdentitySignature&, const IdentitySignature&) = default;
};

// Signs `message` with a CURVE secret key (Z85, 40 characters); throws std::invalid_argument
// for a malformed key.
IdentitySignature identity_sign(const std::string& curve_secret_z85,
                                std::span<const std::byte> message);

// Whether `signature` is one by the holder of `curve_public_z85` (Z85) over `message`. False for
// a malformed key.
bool identity_signature_valid(const std::string& curve_public_z85,
                              std::span<const std::byte> message,
                              const IdentitySignature& signature);

}  // namespace rookery::reduce
