#pragma once
// One attempt of a ring all-reduce round: its view, chunks, segments and buffers. Private to
// the ring's implementation (ring_all_reduce.cpp, verified_ring.cpp).
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reduce/aggregate_verification.hpp"
#include "reduce/ring_all_reduce.hpp"

namespace rookery::reduce {

// What a verified attempt holds: everyone's commitments, its validation and its verdict.
struct VerifiedAttempt {
  AttemptContext ctx;
  std::vector<std::vector<std::size_t>> validators;  // per chunk
  HeldCommitments held;  // every member's input commitment, key and result commitment
  std::vector<std::size_t> first_segment;   // chunk c's segments are digests [first[c], first[c+1])
  std::vector<std::vector<float>> claimed;  // per chunk this member validates: the owner's result
  // ... and its bytes per segment as they came (held without a copy), for a proof
  std::vector<std::vector<IncomingSegment>> claimed_bytes;
  std::vector<PartnerProof> proofs;  // the proofs this member made
  VerdictMessage verdict;
  // Fault::lying_owner_commitments: the input commitment it claims to hold for one member.
  std::optional<std::pair<std::size_t, InputCommitment>> fabricated;
};

struct RingAllReduce::Attempt {
  const RingSpec* ring = nullptr;
  std::uint64_t round = 0;
  std::uint32_t number = 0;
  std::vector<std::string> view;
  std::uint64_t view_id = 0;
  std::size_t n = 0, r = 0;
  std::string next, prev;
  double weight = 0;
  std::span<const float> values;  // the round's input: every attempt starts from it
  // The input as it may be sent without a copy, with its owner: out of place the input
  // itself; in place, for the gathering aggregators, a copy; else empty (no owner).
  SharedValues sendable;
  // Out of place, where results go as they are finished or arrive; in place, `values`
  // themselves, written only at the commit.
  std::span<float> output;
  bool in_place = false;
  std::shared_ptr<std::vector<float>> work;
  std::vector<std::size_t> bounds;  // chunk c is [bounds[c], bounds[c+1])
  // In place, the other owners' results, kept as they arrived (their frames) until the commit
  // decodes them straight into the caller's values: one copy fewer than decoding them into `work`.
  std::vector<std::pair<std::size_t, IncomingSegment>> gathered;  // (first value, segment)
  std::size_t segment_values = 0;
  bool voted = false;
  std::unique_ptr<VerifiedAttempt> verified;  // with RingOptions::verify

  struct Range {
    std::size_t first, last;
  };
  std::vector<Range> segments(std::size_t c) const {
    const std::size_t b = bounds[c], len = bounds[c + 1] - bounds[c];
    if (len == 0) return {};
    const std::size_t count = std::max<std::size_t>((len + segment_values - 1) / segment_values,
                                                    std::min<std::size_t>(2, len));
    std::vector<Range> out(count);
    for (std::size_t i = 0; i < count; ++i)
      out[i] = {b + len * i / count, b + len * (i + 1) / count};
    return out;
  }
  SegmentTag tag(Phase phase, std::uint32_t step, std::uint32_t segment) const {
    return {ring->key, round, number, view_id, phase, step, segment};
  }
  std::span<float> slice(Range s) const {
    return std::span<float>(*work).subspan(s.first, s.last - s.first);
  }
  std::size_t offset(std::span<const float> in_work) const {
    return std::size_t(in_work.data() - work->data());
  }
  std::size_t owner_of(std::size_t chunk) const {
    return (chunk + n - 1) % n;
  }  // member r owns chunk r+1
};

}  // namespace rookery::reduce
