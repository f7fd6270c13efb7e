#pragma once
// A proof, checkable by anyone who knows the ring members' public keys (the coordinator
// included), that a chunk's owner signed an aggregate that is not the aggregate of the inputs
// it signed for. A validator that finds the owner's result wrong (aggregate_verification.hpp)
// makes one from what it holds for one segment of the chunk:
// - every member's input commitment, signed by that member's CURVE identity: each names its
//   fresh signing key, its weight and the digest of every segment it sent;
// - the owner's result commitment, signed by the owner's fresh key: the digest of the bytes it
//   sent for the segment, the input commitments it aggregated (their ids) and whom it left out;
// - the segment's bytes as each member sent them, and the owner's result bytes.
// Checking needs no trust in the validator: the signatures bind the owner to its result and to
// the inputs, the digests bind the bytes to the signatures, and the checker recomputes the
// aggregate with the job's aggregator (as the validator did, centred on the owner's own input)
// and compares within the codec's rounding (result_matches). A proof cannot be made against an
// honest owner: its signed result is the aggregate of its signed inputs. Where the owner left
// out half the members or more, or itself, its signed result alone proves the lie.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "reduce/aggregate_commitments.hpp"
#include "reduce/aggregator.hpp"
#include "wire/codec.hpp"

namespace rookery::reduce {

struct AggregationProof {
  AttemptContext ctx;
  std::uint32_t owner = 0;         // view index
  std::uint32_t segment = 0;       // within the chunk (the result commitment's digest index)
  std::uint32_t input_digest = 0;  // the same segment's index in every input commitment
  std::uint32_t values = 0;        // the segment's length
  wire::Codec codec = wire::Codec::None;
  std::uint32_t int8_block = wire::kDefaultInt8Block;
  std::vector<std::string> view;               // the members' identities (Z85), ring order
  std::vector<std::vector<std::byte>> inputs;  // each member's signed input commitment
  std::vector<std::byte> result;               // the owner's signed result commitment
  std::vector<std::vector<std::byte>> slices;  // each member's bytes for the segment
  std::vector<std::byte> claimed;              // the owner's result bytes for the segment

  std::vector<std::byte> encode() const;
  static std::optional<AggregationProof> decode(std::span<const std::byte> bytes);
};

struct ProofCheck {
  bool proves = false;
  std::string owner;  // the owner's identity (Z85), when it proves
  std::string why;    // what it proves, or why it proves nothing
};

// Checks `proof` with `aggregator`, the verifiable form of the job's (Aggregator::verifiable).
// Never throws on malformed input: it proves nothing, and says why.
ProofCheck check_aggregation_proof(const AggregationProof& proof, const Aggregator& aggregator);

}  // namespace rookery::reduce
