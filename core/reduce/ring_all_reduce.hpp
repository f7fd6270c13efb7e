#pragma once
// Ring all-reduce of one flat f32 range among the members of one ring (Gloo's layering:
// the algorithm is written against `Transport`).
//
// Reduce-scatter then all-gather. The range is cut into one chunk per member and every
// chunk into segments (at least two), and each segment is forwarded as soon as it is
// reduced, so several are in flight and the reduction overlaps the transfer. A member's
// values enter the ring unweighted, with its weight in the segment's header, and are weighted
// by their first receiver in the pass that adds its own (so out of place they are sent
// straight from the input, with no pass of their own). The owner of a chunk finishes it
// (divides by the total weight, encodes it once) and the all-gather forwards those exact
// bytes, so every member ends with bit-identical values.
//
// Failures: every wait has a deadline (`timeout`). An attempt that cannot finish is
// abandoned by everyone (a failing member's "failed" vote aborts the others' waits), and
// the round is retried among the members that every survivor still hears from; see
// RingAllReduce::run for the agreement step.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "reduce/aggregate_verification.hpp"
#include "reduce/aggregator.hpp"
#include "reduce/transport.hpp"
#include "wire/codec.hpp"

namespace rookery::reduce {

struct RingOptions {
  wire::Codec codec = wire::Codec::None;  // compression of reduction traffic (f32 accumulation)
  std::uint32_t int8_block = wire::kDefaultInt8Block;
  std::size_t segment_values = 256 * 1024;   // at most 1 MiB of f32 per segment
  std::chrono::milliseconds timeout{10000};  // every wait: a segment, a vote
  std::uint32_t max_attempts = 6;
  std::shared_ptr<const Aggregator> aggregator;  // null: WeightedMean
  // Verified aggregation (aggregate_verification.hpp): inputs committed and sent raw to each
  // chunk's owner and `validators` recomputing members, forwarded bytes signed hop by hop, and
  // liars caught with evidence left out of the round. The same on every member of a ring.
  bool verify = false;
  std::uint32_t validators = 2;  // per chunk (all other members when fewer)
  // A member caught with evidence starts none of this ring's next `caught_rounds` rounds (0:
  // every round starts with the whole ring), while the others still make a quorum.
  std::uint32_t caught_rounds = 40;
  // An attack, for the tests and rookery-node --fault: lie as a chunk's owner (its aggregate
  // x -1000 + 1), or alter the bytes it forwards in the all-gather (the same, signed as sent),
  // or lie as an owner about its aggregate and about the input commitments it holds (its
  // result claims, and its verdict shows, a commitment of the next member's with another
  // weight, which that member never signed).
  enum class Fault { none, lying_owner, altering_forwarder, lying_owner_commitments };
  Fault fault = Fault::none;
};

struct RingSpec {
  std::uint64_t key = 0;             // same on every member: ring_key(buffer, range)
  std::vector<std::string> members;  // ring order, the same on every member; includes self
};

// A partner a member proved a liar, and the proof (reduce/ring_proof.hpp: of a false aggregate
// or of altered forwarded bytes, tagged with its kind).
struct PartnerProof {
  std::string member;            // the liar's member name (public key)
  std::vector<std::byte> proof;  // tag_proof(kind, the proof encoded)
};

struct RingOutcome {
  std::vector<std::string> contributors;  // whose values are in the result, in ring order
  double total_weight = 0;
  std::uint32_t attempts = 0;  // 1 when nobody failed
  double seconds = 0;
  // Verified aggregation: members caught lying (with evidence every member checked) and why,
  // in the same order; they are out of the round. The coordinator's ban vote counts them.
  std::vector<std::string> caught;
  std::vector<std::string> evidence;
  // Partners this member proved liars (as a validator, an owner's aggregate; as a receiver, a
  // forwarder's bytes), each to anyone who knows the members' keys. The coordinator bans on one.
  std::vector<PartnerProof> proofs;
  bool averaged() const { return contributors.size() > 1; }
};

// A stable 64-bit key for a ring (FNV-1a of the buffer name and the range's bounds).
std::uint64_t ring_key(std::string_view buffer, std::uint64_t first, std::uint64_t last);
// Hash of a member list, carried in every data segment so members on different views never mix.
std::uint64_t view_hash(std::span<const std::string> members);

// A round's input that it may send without a copy: `owner` keeps `values` alive and unchanged
// for as long as anyone holds it. A frame of them can outlive the round (ZeroMQ's queue to a
// peer that died), and it holds the owner until it goes.
struct SharedValues {
  std::span<const float> values;
  std::shared_ptr<const void> owner;
};

class RingAllReduce {
 public:
  RingAllReduce(Transport& transport, RingOptions options);

  // Replaces `values` with the aggregate (by default the weighted mean, `weight` = samples)
  // over the members that delivered in `round`, and says who they were. Every member of the
  // ring calls it with the same `ring` and `round` and equally long `values`. Never hangs:
  // returns within about (max_attempts + 1) x timeout in the worst case, and when no other
  // member can be reached, leaves `values` as they were (contributors = {self}). With a robust
  // aggregator (not the mean) a view must hold a majority of the ring and at least three
  // members (two in a ring of two), or `values` are left as they were too.
  //
  // In place, the chunk sent first goes from a copy (the caller may write `values` once run
  // returns, while a frame of them still waits in a dead peer's queue), and `values` are
  // written only at the commit, once every member has voted: our own chunk is copied from
  // the working buffer and the others' decoded from the frames they came in, a pass over the
  // whole range after the network has gone quiet.
  RingOutcome run(const RingSpec& ring, std::uint64_t round, std::span<float> values,
                  double weight);

  // The same round out of place: reads `input` and leaves the aggregate in `output`, which is
  // as long and does not overlap it. Two passes fewer than in place:
  // - `input` is sent as it is, without a copy (its owner keeps it alive);
  // - `output` is written while the round runs, each result as it is finished or arrives, so
  //   nothing is left to copy after the last vote.
  // Until run returns the output's contents are unspecified; then they are the aggregate, or
  // the input when no other member could be reached. The Averager, which keeps the round's
  // input as its snapshot anyway, runs this. Throws std::invalid_argument for a null owner,
  // unequal sizes or overlapping buffers.
  RingOutcome run(const RingSpec& ring, std::uint64_t round, SharedValues input,
                  std::span<float> output, double weight);

  const RingOptions& options() const { return options_; }

 private:
  struct Attempt;
  RingOutcome run_round(const RingSpec& ring, std::uint64_t round, SharedValues input,
                        std::span<float> output, bool in_place, double weight);
  bool run_attempt(Attempt& a);
  bool reduce_scatter_ring(Attempt& a);
  bool reduce_scatter_gather(Attempt& a);
  bool all_gather(Attempt& a);
  void finish_segment(Attempt& a, std::span<float> seg, double total_weight, std::uint32_t index,
                      bool placed = false);
  void send_values(Attempt& a, const std::string& to, SegmentTag tag, double weight,
                   std::span<const float> values, const std::shared_ptr<const void>& owner);
  void send_vote(Attempt& a, bool ok);
  // The view a round's first attempt starts from: the ring, less the members caught lying in
  // an earlier round that are still left out (verified aggregation).
  std::vector<std::string> starting_view(const RingSpec& ring, std::uint64_t round,
                                         std::size_t quorum);
  void leave_out_caught(const std::string& member, std::uint64_t round);

  // Verified aggregation (verified_ring.cpp).
  void begin_verified(Attempt& a);
  bool run_verified_attempt(Attempt& a);
  void send_verdict(Attempt& a);
  // Collects the verdicts of `heard` and judges the attempt; appends the caught to `outcome`.
  AttemptJudgement judge_verified(Attempt& a, const std::vector<std::string>& heard,
                                  Clock::time_point deadline, RingOutcome& outcome);
  void send_blob(Attempt& a, const std::string& to, SegmentTag tag,
                 std::span<const std::byte> bytes);
  std::optional<std::vector<std::byte>> take_blob(Attempt& a, const std::string& from,
                                                  SegmentTag tag, Clock::time_point deadline,
                                                  bool abortable);
  bool verified_gather(Attempt& a);
  bool verified_all_gather(Attempt& a);
  void validate(Attempt& a);
  void prove(Attempt& a, std::uint32_t chunk, std::uint32_t segment,
             const std::vector<IncomingSegment>* sent);

  // The round's buffers (the working one, the copy the gathering aggregators send from) come
  // from here, `size` values long with whatever they held, so a round does not fault in fresh
  // pages (at 64 MB that was a seventh of the CPU time on loopback). A buffer is handed out
  // again only once nothing else holds it (a segment still in flight keeps its owner alive).
  // Shared by the rings one Averager runs at once.
  std::shared_ptr<std::vector<float>> take_buffer(std::size_t size);

  Transport& transport_;
  RingOptions options_;
  std::unique_ptr<SigningKey> signing_key_;  // with verify
  std::mutex pool_mutex_;
  std::vector<std::shared_ptr<std::vector<float>>> pool_;
  std::mutex caught_mutex_;
  std::map<std::string, std::uint64_t> caught_until_;  // member -> first round it starts again
};

}  // namespace rookery::reduce
