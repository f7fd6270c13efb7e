#include "reduce/aggregate_commitments.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <sodium.h>

#include "reduce/byte_fields.hpp"

namespace rookery::reduce {

namespace {

static_assert(sizeof(PublicSigningKey) == crypto_sign_PUBLICKEYBYTES);
static_assert(sizeof(Signature) == crypto_sign_BYTES);

void init_sodium() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium cannot start");
}

void put_context(Writer& w, const AttemptContext& c, std::uint8_t kind) {
  w.put(kind);
  w.put(c.ring);
  w.put(c.round);
  w.put(c.view);
  w.put(c.attempt);
}

}  // namespace

Digest digest_of(std::span<const std::byte> bytes) {
  Digest d;
  crypto_generichash(reinterpret_cast<unsigned char*>(d.data()), d.size(),
                     reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), nullptr,
                     0);
  return d;
}

SigningKey::SigningKey() {
  init_sodium();
  crypto_sign_keypair(reinterpret_cast<unsigned char*>(public_.data()),
                      reinterpret_cast<unsigned char*>(secret_.data()));
}

Signature SigningKey::sign(std::span<const std::byte> message) const {
  Signature s;
  crypto_sign_detached(reinterpret_cast<unsigned char*>(s.data()), nullptr,
                       reinterpret_cast<const unsigned char*>(message.data()), message.size(),
                       reinterpret_cast<const unsigned char*>(secret_.data()));
  return s;
}

bool signature_valid(const PublicSigningKey& key, std::span<const std::byte> message,
                     const Signature& signature) {
  return crypto_sign_verify_detached(reinterpret_cast<const unsigned char*>(signature.data()),
                                     reinterpret_cast<const unsigned char*>(message.data()),
                                     message.size(),
                                     reinterpret_cast<const unsigned char*>(key.data())) == 0;
}

std::vector<std::byte> InputCommitment::signed_part(const AttemptContext& ctx) const {
  Writer w;
  put_context(w, ctx, 'I');
  w.put(key);
  w.put(weight);
  w.put(static_cast<std::uint32_t>(digests.size()));
  for (const auto& d : digests) w.put(d);
  return std::move(w.out);
}

Digest InputCommitment::id(const AttemptContext& ctx) const {
  return digest_of(std::span<const std::byte>(signed_part(ctx)));
}

void InputCommitment::sign(const AttemptContext& ctx, const SigningKey& fresh,
                           const std::string* curve_secret) {
  const auto part = signed_part(ctx);
  if (curve_secret) {
    signature = identity_sign(*curve_secret, part);
  } else {
    signature.edwards = {};
    signature.signature = fresh.sign(part);
  }
}

bool InputCommitment::valid(const AttemptContext& ctx, bool bound, const std::string& member,
                            const PublicSigningKey& held_key) const {
  const auto part = signed_part(ctx);
  if (bound) return identity_signature_valid(member, part, signature);
  return signature.edwards == std::array<std::byte, 32>{} && key == held_key &&
         signature_valid(key, part, signature.signature);
}

std::vector<std::byte> InputCommitment::encode() const {
  Writer w;
  w.put(key);
  w.put(weight);
  w.put(static_cast<std::uint32_t>(digests.size()));
  for (const auto& d : digests) w.put(d);
  w.put(signature.edwards);
  w.put(signature.signature);
  return std::move(w.out);
}

std::optional<InputCommitment> InputCommitment::decode(std::span<const std::byte> bytes) {
  Reader r(bytes);
  InputCommitment c;
  if (!r.get(c.key) || !r.get(c.weight) || !r.get_vector(c.digests) ||
      !r.get(c.signature.edwards) || !r.get(c.signature.signature) || !r.done())
    return std::nullopt;
  return c;
}

std::vector<std::byte> ResultCommitment::signed_part(const AttemptContext& ctx) const {
  Writer w;
  put_context(w, ctx, 'R');
  w.put(chunk);
  w.put(static_cast<std::uint32_t>(left_out.size()));
  for (auto b : left_out) w.put(b);
  w.put(static_cast<std::uint32_t>(digests.size()));
  for (const auto& d : digests) w.put(d);
  w.put(static_cast<std::uint32_t>(inputs.size()));
  for (const auto& d : inputs) w.put(d);
  return std::move(w.out);
}

Digest ResultCommitment::id(const AttemptContext& ctx) const {
  return digest_of(std::span<const std::byte>(signed_part(ctx)));
}

void ResultCommitment::sign(const AttemptContext& ctx, const SigningKey& key) {
  signature = key.sign(signed_part(ctx));
}

bool ResultCommitment::valid(const AttemptContext& ctx, const PublicSigningKey& key) const {
  return signature_valid(key, signed_part(ctx), signature);
}

std::vector<std::byte> ResultCommitment::encode() const {
  Writer w;
  w.put(chunk);
  w.put(static_cast<std::uint32_t>(left_out.size()));
  for (auto b : left_out) w.put(b);
  w.put(static_cast<std::uint32_t>(digests.size()));
  for (const auto& d : digests) w.put(d);
  w.put(static_cast<std::uint32_t>(inputs.size()));
  for (const auto& d : inputs) w.put(d);
  w.put(signature);
  return std::move(w.out);
}

std::optional<ResultCommitment> ResultCommitment::decode(std::span<const std::byte> bytes) {
  Reader r(bytes);
  ResultCommitment c;
  if (!r.get(c.chunk) || !r.get_vector(c.left_out) || !r.get_vector(c.digests) ||
      !r.get_vector(c.inputs) || !r.get(c.signature) || !r.done())
    return std::nullopt;
  return c;
}

std::vector<std::byte> ForwardReceipt::signed_part(const AttemptContext& ctx) const {
  Writer w;
  put_context(w, ctx, 'F');
  w.put(chunk);
  w.put(segment);
  w.put(digest);
  w.put(result);
  return std::move(w.out);
}

void ForwardReceipt::sign(const AttemptContext& ctx, const SigningKey& key) {
  signature = key.sign(signed_part(ctx));
}

bool ForwardReceipt::valid(const AttemptContext& ctx, const PublicSigningKey& key) const {
  return signature_valid(key, signed_part(ctx), signature);
}

std::vector<std::byte> ForwardReceipt::encode() const {
  Writer w;
  w.put(chunk);
  w.put(segment);
  w.put(digest);
  w.put(result);
  w.put(signature);
  return std::move(w.out);
}

std::optional<ForwardReceipt> ForwardReceipt::decode(std::span<const std::byte> bytes) {
  Reader r(bytes);
  ForwardReceipt f;
  if (!r.get(f.chunk) || !r.get(f.segment) || !r.get(f.digest) || !r.get(f.result) ||
      !r.get(f.signature) || !r.done())
    return std::nullopt;
  return f;
}

std::vector<std::byte> ForwardEvidence::encode() const {
  Writer w;
  w.put(forwarder);
  w.put(owner);
  w.put_bytes(receipt.encode());
  w.put_bytes(commitment.encode());
  return std::move(w.out);
}

std::optional<ForwardEvidence> ForwardEvidence::decode(std::span<const std::byte> bytes) {
  Reader r(bytes);
  ForwardEvidence e;
  std::vector<std::byte> receipt, commitment;
  if (!r.get(e.forwarder) || !r.get(e.owner) || !r.get_bytes(receipt) || !r.get_bytes(commitment) ||
      !r.done())
    return std::nullopt;
  auto f = ForwardReceipt::decode(receipt);
  auto c = ResultCommitment::decode(commitment);
  if (!f || !c) return std::nullopt;
  e.receipt = std::move(*f);
  e.commitment = std::move(*c);
  return e;
}

ForwardEvidence::Proves ForwardEvidence::check(const AttemptContext& ctx,
                                               const PublicSigningKey& forwarder_key,
                                               const PublicSigningKey& owner_key,
                                               const ResultCommitment* held) const {
  if (!commitment.valid(ctx, owner_key)) return Proves::nothing;
  if (held && !(*held == commitment)) return Proves::owner_equivocated;
  if (!receipt.valid(ctx, forwarder_key) || receipt.chunk != commitment.chunk ||
      receipt.segment >= commitment.digests.size())
    return Proves::nothing;
  return receipt.digest == commitment.digests[receipt.segment] ? Proves::nothing
                                                               : Proves::forwarder_altered;
}

}  // namespace rookery::reduce
