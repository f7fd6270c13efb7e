#pragma once
// What a ring member proves to the coordinator about a partner, as it travels (StageStats,
// the node's report, the coordinator's check): one byte for the kind, then the proof, of a
// false aggregate (aggregation_proof.hpp) or of altered forwarded bytes (forwarding_proof.hpp).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "reduce/aggregation_proof.hpp"
#include "reduce/forwarding_proof.hpp"

namespace rookery::reduce {

enum class ProofKind : std::uint8_t { aggregate = 1, forwarding = 2 };

std::vector<std::byte> tag_proof(ProofKind kind, std::span<const std::byte> proof);

struct RingProof {
  std::variant<AggregationProof, ForwardingProof> proof;
  const std::vector<std::string>& view() const;  // the ring's members (Z85 identities)
};

// Null for an unknown kind or a proof that does not decode.
std::optional<RingProof> decode_ring_proof(std::span<const std::byte> tagged);

// `aggregator`: the verifiable form of the job's (Aggregator::verifiable), which a false
// aggregate is recomputed with. Never throws on malformed input.
ProofCheck check_ring_proof(const RingProof& proof, const Aggregator& aggregator);

}  // namespace rookery::reduce
