#include "reduce/forwarding_proof.hpp"

#include "reduce/byte_fields.hpp"

namespace rookery::reduce {

namespace {
constexpr std::uint32_t kMaxMembers = 1024;

ProofCheck nothing(std::string why) { return {false, {}, std::move(why)}; }
}  // namespace

std::vector<std::byte> ForwardingProof::encode() const {
  Writer w;
  w.put(ctx.ring);
  w.put(ctx.round);
  w.put(ctx.view);
  w.put(ctx.attempt);
  w.put(forwarder);
  w.put(owner);
  w.put(static_cast<std::uint32_t>(view.size()));
  for (const auto& member : view) w.put_bytes(std::as_bytes(std::span(member)));
  w.put_bytes(forwarder_input);
  w.put_bytes(owner_input);
  w.put_bytes(result);
  w.put_bytes(receipt);
  return std::move(w.out);
}

std::optional<ForwardingProof> ForwardingProof::decode(std::span<const std::byte> bytes) {
  Reader r(bytes);
  ForwardingProof p;
  std::uint32_t n = 0;
  if (!r.get(p.ctx.ring) || !r.get(p.ctx.round) || !r.get(p.ctx.view) || !r.get(p.ctx.attempt) ||
      !r.get(p.forwarder) || !r.get(p.owner) || !r.get(n) || n > kMaxMembers)
    return std::nullopt;
  p.view.resize(n);
  for (auto& member : p.view) {
    std::vector<std::byte> key;
    if (!r.get_bytes(key)) return std::nullopt;
    member.assign(reinterpret_cast<const char*>(key.data()), key.size());
  }
  if (!r.get_bytes(p.forwarder_input) || !r.get_bytes(p.owner_input) || !r.get_bytes(p.result) ||
      !r.get_bytes(p.receipt) || !r.done())
    return std::nullopt;
  return p;
}

ProofCheck check_forwarding_proof(const ForwardingProof& p) {
  const std::size_t n = p.view.size();
  if (n < 3 || p.forwarder >= n || p.owner >= n || p.forwarder == p.owner)
    return nothing("the proof names no forwarder and owner among three members or more");
  // The two fresh keys, as their authors' identities signed for them.
  const auto key_of = [&](std::uint32_t member,
                          std::span<const std::byte> bytes) -> std::optional<PublicSigningKey> {
    auto c = InputCommitment::decode(bytes);
    if (!c || !c->valid(p.ctx, /*bound=*/true, p.view[member], c->key)) return std::nullopt;
    return c->key;
  };
  const auto forwarder_key = key_of(p.forwarder, p.forwarder_input);
  const auto owner_key = key_of(p.owner, p.owner_input);
  if (!forwarder_key || !owner_key)
    return nothing("an input commitment is not signed by its author's identity");
  const auto result = ResultCommitment::decode(p.result);
  if (!result || !result->valid(p.ctx, *owner_key))
    return nothing("the result commitment is not signed by the owner's key");
  const auto receipt = ForwardReceipt::decode(p.receipt);
  if (!receipt || !receipt->valid(p.ctx, *forwarder_key))
    return nothing("the receipt is not signed by the forwarder's key");
  if (receipt->chunk != result->chunk || receipt->segment >= result->digests.size())
    return nothing("the receipt is of another segment than the result commitment names");
  if (receipt->result != result->id(p.ctx))
    return nothing("the forwarder held another result commitment than the proof shows");
  if (receipt->digest == result->digests[receipt->segment])
    return nothing("the forwarder sent on the bytes the owner signed");
  return {true, p.view[p.forwarder],
          "it signed that it checked segment " + std::to_string(receipt->segment) + " of chunk " +
              std::to_string(receipt->chunk) +
              " against the owner's result commitment, yet forwarded other bytes"};
}

}  // namespace rookery::reduce
