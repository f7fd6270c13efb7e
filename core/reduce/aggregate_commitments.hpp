#pragma once
// Commitments for verified aggregation (BTARD): what a ring member binds itself to before
// anyone aggregates, and what it signs when it hands bytes on.
//
// Digests are BLAKE2b-128 (libsodium's crypto_generichash): collision resistance is what makes a
// commitment binding, which XXH3 does not give. Signatures are Ed25519 with a key pair each
// ring member makes for itself and announces in its input commitment, straight to every other
// member over CURVE: CURVE authenticates each hop but proves nothing to a third member, so a
// signature is what turns "the forwarder sent me other bytes" into evidence anyone can check.
// Every signed statement names its ring, round, attempt and view, so it cannot be replayed
// into another attempt.
//
// Whose is a fresh key? Arriving on its author's CURVE connection binds it for the member that
// received it, and for nobody else: an author could announce one key to some members and
// another to the rest, and a member could show a third party a key it made up and "its"
// statements under it. So the input commitment, key included, is signed by the author's CURVE
// identity (identity_signature.hpp; its public key is the member's name in the ring), and every
// later signature under the fresh key is attributable to the member by anyone, the coordinator
// included: two input commitments under its identity for one attempt prove it equivocated, and
// an owner's signed claim to an input commitment nobody can show under the origin's identity,
// beside one the origin did sign, proves the owner lied (aggregate_verification.hpp). Where a
// transport has no identity (in-process tests), the commitment is signed by the fresh key and
// binds it for the members that got it directly only ("unbound"): the judgement then never
// blames on a claim about somebody else's commitment.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "reduce/identity_signature.hpp"

namespace rookery::reduce {

using Digest = std::array<std::byte, 16>;
using PublicSigningKey = std::array<std::byte, 32>;
using Signature = std::array<std::byte, 64>;

Digest digest_of(std::span<const std::byte> bytes);
inline Digest digest_of(std::span<const float> values) { return digest_of(std::as_bytes(values)); }

// What every signed statement of one attempt starts with.
struct AttemptContext {
  std::uint64_t ring = 0, round = 0, view = 0;
  std::uint32_t attempt = 0;
};

// An ephemeral Ed25519 key pair, made once per ring runner.
class SigningKey {
 public:
  SigningKey();
  const PublicSigningKey& public_key() const { return public_; }
  Signature sign(std::span<const std::byte> message) const;

 private:
  PublicSigningKey public_{};
  std::array<std::byte, 64> secret_{};
};
bool signature_valid(const PublicSigningKey& key, std::span<const std::byte> message,
                     const Signature& signature);

// A member's commitment to its raw input: one digest per segment of every chunk, in chunk then
// segment order, and the key its later signatures verify with; signed by its author.
struct InputCommitment {
  PublicSigningKey key{};
  double weight = 0;  // the weight its slices carry: owner and validators use this one
  std::vector<Digest> digests;
  // By the author's CURVE identity; unbound (no identity): by `key`, with `edwards` zero.
  IdentitySignature signature;
  std::vector<std::byte> signed_part(const AttemptContext& ctx) const;
  // What a claim names it by: the digest of its signed part (a fresh signature of the same
  // statement is the same commitment).
  Digest id(const AttemptContext& ctx) const;
  // `curve_secret`: the author's identity (Z85), or null (unbound).
  void sign(const AttemptContext& ctx, const SigningKey& key, const std::string* curve_secret);
  // Bound: signed by the identity whose public key (Z85) is `member`. Unbound: signed by its own
  // key, which must be `held_key`, the one the checker got from the author itself.
  bool valid(const AttemptContext& ctx, bool bound, const std::string& member,
             const PublicSigningKey& held_key) const;
  std::vector<std::byte> encode() const;
  static std::optional<InputCommitment> decode(std::span<const std::byte> bytes);
};

// A chunk owner's signed commitment to its result: the digests of the bytes it sends for each
// segment (after its codec), the members its aggregator left out (its exclusion list, a
// minority), and the input commitments it aggregated (their ids, one per view member), so
// what it claims to hold is bound too.
struct ResultCommitment {
  std::uint32_t chunk = 0;
  std::vector<std::uint8_t> left_out;  // one per view member, 1: left out
  std::vector<Digest> digests;
  std::vector<Digest> inputs;  // InputCommitment::id of each view member's, in view order
  Signature signature{};
  std::vector<std::byte> signed_part(const AttemptContext& ctx) const;
  Digest id(const AttemptContext& ctx) const;  // the digest of its signed part
  void sign(const AttemptContext& ctx, const SigningKey& key);
  bool valid(const AttemptContext& ctx, const PublicSigningKey& key) const;
  std::vector<std::byte> encode() const;
  static std::optional<ResultCommitment> decode(std::span<const std::byte> bytes);
  friend bool operator==(const ResultCommitment&, const ResultCommitment&) = default;
};

// A forwarder's signed word that it sent `digest` for (chunk, segment), having checked it
// against the owner's result commitment `result` (its id): the receiver checks it against the
// owner's commitment and, when they differ, holds both as evidence. When `result` is the very
// commitment the digest contradicts, the forwarder's own signature convicts it
// (forwarding_proof.hpp): an honest forwarder never sends bytes its commitment does not name.
struct ForwardReceipt {
  std::uint32_t chunk = 0, segment = 0;
  Digest digest{};
  Digest result{};  // ResultCommitment::id of the owner's commitment the forwarder held
  Signature signature{};
  std::vector<std::byte> signed_part(const AttemptContext& ctx) const;
  void sign(const AttemptContext& ctx, const SigningKey& key);
  bool valid(const AttemptContext& ctx, const PublicSigningKey& key) const;
  std::vector<std::byte> encode() const;
  static std::optional<ForwardReceipt> decode(std::span<const std::byte> bytes);
};

// Evidence that `forwarder` altered a segment: its receipt for bytes whose digest is not the
// one the owner signed. Checkable by any member that holds both keys.
struct ForwardEvidence {
  std::uint32_t forwarder = 0, owner = 0;  // view indices
  ForwardReceipt receipt;
  ResultCommitment commitment;
  std::vector<std::byte> encode() const;
  static std::optional<ForwardEvidence> decode(std::span<const std::byte> bytes);
  // Both signatures hold and the digests differ (or the commitment is another than `held`, the
  // one the checker got from the owner: then the owner signed two results).
  enum class Proves { nothing, forwarder_altered, owner_equivocated };
  Proves check(const AttemptContext& ctx, const PublicSigningKey& forwarder_key,
               const PublicSigningKey& owner_key, const ResultCommitment* held) const;
};

}  // namespace rookery::reduce
