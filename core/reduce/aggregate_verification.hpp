#pragma once
// Verified aggregation (BTARD's check of the aggregators), the part that judges: who validates
// which chunk, whether a recomputed aggregate matches the owner's, and what an attempt's
// verdicts prove. The ring (verified_ring.cpp) moves the bytes.
//
// Why it is sound, with commitments (aggregate_commitments.hpp) reaching every member before any
// result is judged:
// - Inputs. Every member's raw slice reaches a chunk's owner and its validators straight from
//   its origin (CURVE authenticates the hop) and is checked against the origin's input
//   commitment, which everyone echoes (table digests): owner and validators aggregate the same
//   committed inputs, or the attempt is not committed.
// - Owners. A result is committed only if every validator of its chunk recomputed it from those
//   inputs and found it within the codec's rounding. An owner is blamed only when all its
//   validators (at least two) reject it and hold the commitments it says it holds, so one
//   lying validator cannot get an honest owner blamed, nor can an origin that committed to two
//   inputs; otherwise the owner and its rejecting validators sit out the next attempt and
//   nobody is blamed (with one liar among them the round then completes without it). The
//   residue: an owner that lies about its result and about the commitments it holds sits out
//   unblamed (telling it from one that was lied to would need signed input commitments).
//   Validators are drawn per (ring, round, attempt, chunk) from a seeded shuffle: the load is
//   spread over the ring, and no fixed pair can be arranged to cover for an owner.
// - Forwarders. The all-gather forwards the owner's bytes hop by hop; each hop comes with the
//   forwarder's signed receipt of their digest, and the owner signs its result commitment. A
//   receiver whose bytes differ from the owner's commitment holds two signatures that
//   contradict: transferable evidence that names the forwarder (or, when the forwarder holds a
//   commitment other than ours, signed by the owner, the owner for signing two results). An
//   honest forwarder checks before it forwards, so it never signs a wrong digest. The forwarder
//   is blamed only when its own verdict says it held the commitment the evidence shows (an
//   owner that signed two results could otherwise make an honest forwarder look guilty to
//   members holding the other one); if not, the forwarder and the owner sit out unblamed. A
//   receipt that does not verify proves nothing: the two sit out, nobody is blamed.
// - Commit needs every vote ok, every verdict in, equal table digests and nothing rejected: a
//   poisoned chunk is never committed, whoever notices it.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "reduce/aggregate_commitments.hpp"
#include "wire/codec.hpp"

namespace rookery::reduce {

// The validators of `chunk`: `count` members other than its owner (all of them when fewer),
// from a shuffle seeded by the attempt and the chunk. Sorted.
std::vector<std::size_t> validators_of(const AttemptContext& ctx, std::uint32_t chunk,
                                       std::size_t members, std::size_t owner, std::size_t count);

// Whether the owner's decoded result matches the validator's recomputation: within the codec's
// rounding (int8: half a step of the block's scale, with room for a neighbouring step) plus
// a relative 1e-4 of the slice's largest value, which absorbs float reordering between CPUs.
bool result_matches(std::span<const float> claimed, std::span<const float> recomputed,
                    wire::Codec codec);

enum class ChunkVerdict : std::uint8_t { none = 0, accepted = 1, rejected = 2 };

// What each member says after an attempt, to every other member.
struct VerdictMessage {
  Digest table{};                       // digest of every commitment it holds (zero: incomplete)
  std::vector<ChunkVerdict> chunks;     // per chunk: its validation, if it validated it
  std::vector<Digest> results;          // per chunk: the result commitment it holds (zero: none)
  std::vector<std::uint32_t> disputes;  // members whose bytes it could not accept, unprovably
  std::vector<ForwardEvidence> evidence;
  std::vector<std::byte> encode() const;
  static std::optional<VerdictMessage> decode(std::span<const std::byte> bytes);
};

struct AttemptJudgement {
  bool commit = false;
  std::map<std::size_t, std::string> blamed;  // caught with evidence, and why: out of the
                                              // round and reported
  std::set<std::size_t> sit_out;  // in an unprovable dispute: out of the rest of the round
};

// The keys and result commitments a member holds, by view index (absent: never received).
struct HeldCommitments {
  std::vector<std::optional<PublicSigningKey>> keys;
  std::vector<std::optional<ResultCommitment>> results;  // by chunk
};

// Judges an attempt from the verdicts of every member (absent: none arrived), `validators` per
// chunk, owner_of(chunk) = (chunk + n - 1) % n. Deterministic: members holding the same
// verdicts reach the same judgement.
AttemptJudgement judge_attempt(const AttemptContext& ctx,
                               std::span<const std::optional<VerdictMessage>> verdicts,
                               std::span<const std::vector<std::size_t>> validators,
                               const HeldCommitments& held);

}  // namespace rookery::reduce
