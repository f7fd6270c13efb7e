#include "reduce/aggregation_proof.hpp"

#include <algorithm>
#include <exception>

#include "reduce/aggregate_verification.hpp"
#include "reduce/byte_fields.hpp"

namespace rookery::reduce {

namespace {
constexpr std::uint32_t kMaxMembers = 1024;
constexpr std::uint32_t kMaxValues = 1u << 24;

ProofCheck nothing(std::string why) { return {false, {}, std::move(why)}; }
}  // namespace

std::vector<std::byte> AggregationProof::encode() const {
  Writer w;
  w.put(ctx.ring);
  w.put(ctx.round);
  w.put(ctx.view);
  w.put(ctx.attempt);
  w.put(owner);
  w.put(segment);
  w.put(input_digest);
  w.put(values);
  w.put(static_cast<std::uint8_t>(codec));
  w.put(int8_block);
  w.put(static_cast<std::uint32_t>(view.size()));
  for (std::size_t j = 0; j < view.size(); ++j) {
    w.put_bytes(std::as_bytes(std::span(view[j])));
    w.put_bytes(j < inputs.size() ? inputs[j] : std::vector<std::byte>{});
    w.put_bytes(j < slices.size() ? slices[j] : std::vector<std::byte>{});
  }
  w.put_bytes(result);
  w.put_bytes(claimed);
  return std::move(w.out);
}

std::optional<AggregationProof> AggregationProof::decode(std::span<const std::byte> bytes) {
  Reader r(bytes);
  AggregationProof p;
  std::uint8_t codec = 0;
  std::uint32_t n = 0;
  if (!r.get(p.ctx.ring) || !r.get(p.ctx.round) || !r.get(p.ctx.view) || !r.get(p.ctx.attempt) ||
      !r.get(p.owner) || !r.get(p.segment) || !r.get(p.input_digest) || !r.get(p.values) ||
      !r.get(codec) || !r.get(p.int8_block) || !r.get(n) || n > kMaxMembers)
    return std::nullopt;
  if (codec > static_cast<std::uint8_t>(wire::Codec::Int8Block) || p.int8_block == 0 ||
      p.int8_block > kMaxValues)
    return std::nullopt;
  p.codec = static_cast<wire::Codec>(codec);
  p.view.resize(n);
  p.inputs.resize(n);
  p.slices.resize(n);
  for (std::uint32_t j = 0; j < n; ++j) {
    std::vector<std::byte> key;
    if (!r.get_bytes(key) || !r.get_bytes(p.inputs[j]) || !r.get_bytes(p.slices[j]))
      return std::nullopt;
    p.view[j].assign(reinterpret_cast<const char*>(key.data()), key.size());
  }
  if (!r.get_bytes(p.result) || !r.get_bytes(p.claimed) || !r.done()) return std::nullopt;
  return p;
}

ProofCheck check_aggregation_proof(const AggregationProof& p, const Aggregator& aggregator) {
  const std::size_t n = p.view.size();
  if (n < 2 || p.owner >= n || p.inputs.size() != n || p.slices.size() != n)
    return nothing("the proof names no owner among two members or more");
  const auto& owner = p.view[p.owner];
  // Every input commitment, as its author's identity signed it.
  std::vector<InputCommitment> inputs;
  for (std::size_t j = 0; j < n; ++j) {
    auto c = InputCommitment::decode(p.inputs[j]);
    if (!c || !c->valid(p.ctx, /*bound=*/true, p.view[j], c->key))
      return nothing("the input commitment of member " + std::to_string(j) +
                     " is not signed by its identity");
    if (!(c->weight > 0) || p.input_digest >= c->digests.size())
      return nothing("the input commitment of member " + std::to_string(j) + " is malformed");
    inputs.push_back(std::move(*c));
  }
  // The owner's result, under the key its identity signed for.
  const auto result = ResultCommitment::decode(p.result);
  if (!result || !result->valid(p.ctx, inputs[p.owner].key))
    return nothing("the result commitment is not signed by the owner's key");
  if (result->left_out.size() != n || result->inputs.size() != n ||
      p.segment >= result->digests.size())
    return nothing("the result commitment is malformed");
  if (!exclusions_fair(result->left_out, p.owner)) {
    const auto left = std::count_if(result->left_out.begin(), result->left_out.end(),
                                    [](auto b) { return b != 0; });
    return {true, owner,
            "it signed a result that leaves out " + std::to_string(left) + " of " +
                std::to_string(n) + " members" +
                (result->left_out[p.owner] ? ", itself among them" : "")};
  }
  for (std::size_t j = 0; j < n; ++j) {
    if (result->inputs[j] != inputs[j].id(p.ctx))
      return nothing("the owner signed for another input commitment of member " +
                     std::to_string(j) + " than the proof shows");
  }
  // The bytes, bound by the digests.
  if (p.values == 0 || p.values > kMaxValues) return nothing("the segment's length is implausible");
  const std::size_t size = wire::encoded_bytes(p.codec, p.values, p.int8_block);
  if (p.claimed.size() != size ||
      digest_of(std::span<const std::byte>(p.claimed)) != result->digests[p.segment])
    return nothing("the result bytes are not those the owner signed");
  for (std::size_t j = 0; j < n; ++j) {
    if (p.slices[j].size() != size ||
        digest_of(std::span<const std::byte>(p.slices[j])) != inputs[j].digests[p.input_digest])
      return nothing("the bytes of member " + std::to_string(j) + " are not those it committed to");
  }
  // Only now, with every byte shown, the values (no larger than the proof times 4).
  std::vector<std::vector<float>> values(n, std::vector<float>(p.values));
  std::vector<std::span<const float>> spans(n);
  std::vector<double> weights(n);
  std::size_t kept = 0;
  try {
    for (std::size_t j = 0; j < n; ++j) {
      wire::decode_f32(p.codec, p.slices[j], values[j], p.int8_block);
      spans[j] = values[j];
      weights[j] = inputs[j].weight;
      kept += result->left_out[j] == 0;
    }
    std::vector<float> claimed(p.values), recomputed;
    wire::decode_f32(p.codec, p.claimed, claimed, p.int8_block);
    if (segment_matches(aggregator, p.view, weights, spans, result->left_out, p.owner, claimed,
                        p.codec, recomputed))
      return nothing("the owner's result is the aggregate of its committed inputs");
  } catch (const std::exception& e) {
    return nothing(std::string("the segment cannot be recomputed: ") + e.what());
  }
  return {true, owner,
          "its signed aggregate of segment " + std::to_string(p.segment) + " of chunk " +
              std::to_string(result->chunk) + " is not the aggregate of the " +
              std::to_string(kept) + " inputs it signed for"};
}

}  // namespace rookery::reduce
