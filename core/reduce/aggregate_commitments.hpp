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
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

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
// segment order, and the key its later signatures verify with.
struct InputCommitment {
  PublicSigningKey key{};
  double weight = 0;  // the weight its slices carry: owner and validators use this one
  std::vector<Digest> digests;
  std::vector<std::byte> encode() const;
  static std::optional<InputCommitment> decode(std::span<const std::byte> bytes);
};

// A chunk owner's signed commitment to its result: the digests of the bytes it sends for each
// segment (after its codec) and the members its aggregator left out (none, in the rings as
// they are; the field keeps the format open to exclusions every member agrees on).
struct ResultCommitment {
  std::uint32_t chunk = 0;
  std::vector<std::uint8_t> left_out;  // one per view member, 1: left out
  std::vector<Digest> digests;
  Signature signature{};
  std::vector<std::byte> signed_part(const AttemptContext& ctx) const;
  void sign(const AttemptContext& ctx, const SigningKey& key);
  bool valid(const AttemptContext& ctx, const PublicSigningKey& key) const;
  std::vector<std::byte> encode() const;
  static std::optional<ResultCommitment> decode(std::span<const std::byte> bytes);
  friend bool operator==(const ResultCommitment&, const ResultCommitment&) = default;
};

// A forwarder's signed word that it sent `digest` for (chunk, segment): the receiver checks it
// against the owner's commitment and, when they differ, holds both as evidence.
struct ForwardReceipt {
  std::uint32_t chunk = 0, segment = 0;
  Digest digest{};
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
