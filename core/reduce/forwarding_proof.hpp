#pragma once
// A proof, checkable by anyone who knows the ring members' public keys (the coordinator
// included), that a member forwarded a segment of a chunk's result other than the one the
// chunk's owner signed, knowing it. Every member that judged the forwarder caught on the
// evidence in the verdicts (verified_ring.cpp) makes one from what it holds:
// - the forwarder's and the owner's input commitments, signed by their CURVE identities: each
//   names the fresh key its author signs the rest with;
// - the owner's result commitment, signed by the owner's fresh key;
// - the forwarder's receipt, signed by the forwarder's fresh key: the digest of the bytes it
//   sent on, and the id of the result commitment it held while it checked them.
// When the receipt names the very commitment whose digest it contradicts, the forwarder's own
// signature convicts it: an honest forwarder checks the bytes against the commitment it holds
// and never sends on bytes it does not name. An owner that signed two results cannot make an
// honest forwarder look guilty: the forwarder's receipt names the one it was given, which its
// bytes match. No bytes of the segment are needed; the proof is a few hundred bytes.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "reduce/aggregate_commitments.hpp"
#include "reduce/aggregation_proof.hpp"

namespace rookery::reduce {

struct ForwardingProof {
  AttemptContext ctx;
  std::uint32_t forwarder = 0, owner = 0;  // view indices
  std::vector<std::string> view;           // the members' identities (Z85), ring order
  std::vector<std::byte> forwarder_input;  // its signed input commitment
  std::vector<std::byte> owner_input;      // the owner's signed input commitment
  std::vector<std::byte> result;           // the owner's signed result commitment
  std::vector<std::byte> receipt;          // the forwarder's signed receipt

  std::vector<std::byte> encode() const;
  static std::optional<ForwardingProof> decode(std::span<const std::byte> bytes);
};

// Checks `proof`; when it proves, ProofCheck::owner is the forwarder's identity. Never throws
// on malformed input: it proves nothing, and says why.
ProofCheck check_forwarding_proof(const ForwardingProof& proof);

}  // namespace rookery::reduce
