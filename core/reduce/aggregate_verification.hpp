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
//   inputs and found it within the codec's rounding. The owner signs, in its result
//   commitment, which input commitment of every member it aggregated (their ids), and every
//   verdict shows the input commitments its author holds, as their authors signed them (with
//   their CURVE identities: aggregate_commitments.hpp). Then:
//   * an owner whose signed claims match what all its validators (at least two) show, and whom
//     they all reject, is blamed: one lying validator cannot get an honest owner blamed;
//   * an owner that claims a commitment of member a which no valid signature of a's backs,
//     while a did sign another, is blamed: its own signature and a's contradict, and the one
//     way out, showing a second commitment under a's identity (then a signed two, and a is
//     blamed), is open to an honest owner in its verdict. So an owner that lies about its
//     result and about the commitments it holds is caught as surely as one that lies about its
//     result alone (--fault lying-aggregator-commitments, test_aggregate_verification);
//   * an author that signed two input commitments for one attempt is blamed on the two;
//   * otherwise the owner and its rejecting validators sit out the next attempt and nobody is
//     blamed (with one liar among them the round then completes without it).
//   Residue: without identities (in-process tests) a fresh key binds only for the member that
//   got it, so a contradicted owner sits out unblamed; an owner whose verdict never came (it
//   could not show its commitments) sits out unblamed. A validator that finds an owner's result
//   wrong also makes a proof the coordinator checks itself and bans on (aggregation_proof.hpp);
//   an owner that lies about the commitments it holds as well leaves no such proof, and the
//   coordinator counts the ring partners that exclude it (ban_vote).
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
//   receipt that does not verify proves nothing: the two sit out, nobody is blamed. A receipt
//   names the result commitment its forwarder checked the bytes against, so when that is the
//   one they contradict, the receiver makes a proof the coordinator bans on
//   (forwarding_proof.hpp). A member caught with evidence starts none of the ring's next rounds
//   for a while (RingOptions::caught_rounds), so it costs no round an attempt.
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
#include "reduce/aggregator.hpp"
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

// Whether an owner may leave out the members its result does (`left_out`, one flag per view
// member): a minority of the others, never itself.
bool exclusions_fair(std::span<const std::uint8_t> left_out, std::size_t owner);

// The rule a validator and the coordinator's proof check both apply to one segment of an
// owner's result: is `claimed` (decoded) `aggregator`'s aggregate of the members' `values` (one
// per view member) that `left_out` keeps, each with its committed weight, centred on the
// owner's own? `recomputed` receives the aggregate. Throws what the aggregator throws where
// there is nothing to aggregate.
bool segment_matches(const Aggregator& aggregator, std::span<const std::string> view,
                     std::span<const double> weights,
                     std::span<const std::span<const float>> values,
                     std::span<const std::uint8_t> left_out, std::size_t owner,
                     std::span<const float> claimed, wire::Codec codec,
                     std::vector<float>& recomputed);

enum class ChunkVerdict : std::uint8_t { none = 0, accepted = 1, rejected = 2 };

// What each member says after an attempt, to every other member.
struct VerdictMessage {
  Digest table{};                       // digest of every commitment it holds (zero: incomplete)
  std::vector<ChunkVerdict> chunks;     // per chunk: its validation, if it validated it
  std::vector<Digest> results;          // per chunk: the result commitment it holds (zero: none)
  std::vector<std::uint32_t> disputes;  // members whose bytes it could not accept, unprovably
  std::vector<ForwardEvidence> evidence;
  // The input commitments it holds, as their authors signed them (empty: none), by view index:
  // what backs an owner's claims, and shows an author that signed two.
  std::vector<std::vector<std::byte>> inputs;
  std::vector<std::byte> encode() const;
  static std::optional<VerdictMessage> decode(std::span<const std::byte> bytes);
};

struct AttemptJudgement {
  bool commit = false;
  std::map<std::size_t, std::string> blamed;  // caught with evidence, and why: out of the
                                              // round and reported
  std::set<std::size_t> sit_out;  // in an unprovable dispute: out of the rest of the round
};

// What a member holds, by view index (absent: never received).
struct HeldCommitments {
  std::vector<std::optional<PublicSigningKey>> keys;
  std::vector<std::optional<ResultCommitment>> results;  // by chunk
  std::vector<std::optional<InputCommitment>> inputs;
  std::vector<std::string> members;  // the view: with identities, their Z85 public keys
  bool bound = false;                // input commitments signed by the members' identities
};

// Judges an attempt from the verdicts of every member (absent: none arrived), `validators` per
// chunk, owner_of(chunk) = (chunk + n - 1) % n. Deterministic: members holding the same
// verdicts reach the same judgement.
AttemptJudgement judge_attempt(const AttemptContext& ctx,
                               std::span<const std::optional<VerdictMessage>> verdicts,
                               std::span<const std::vector<std::size_t>> validators,
                               const HeldCommitments& held);

}  // namespace rookery::reduce
