#include "reduce/ring_all_reduce.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <span>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "reduce/ring_attempt.hpp"
#include "reduce/simd.hpp"

namespace rookery::reduce {

namespace {
constexpr std::uint64_t kFnvOffset = 1469598103934665603ull;
constexpr std::uint64_t kFnvPrime = 1099511628211ull;

void fnv(std::uint64_t& h, const void* data, std::size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * kFnvPrime;
}
}  // namespace

std::uint64_t ring_key(std::string_view buffer, std::uint64_t first, std::uint64_t last) {
  std::uint64_t h = kFnvOffset;
  fnv(h, buffer.data(), buffer.size());
  fnv(h, &first, sizeof first);
  fnv(h, &last, sizeof last);
  return h;
}

std::uint64_t view_hash(std::span<const std::string> members) {
  std::uint64_t h = kFnvOffset;
  for (const auto& m : members) {
    fnv(h, m.data(), m.size());
    fnv(h, "\0", 1);
  }
  return h | 1;  // never 0, which votes use
}

namespace {

// v = v / d: a product with 1/d in double, rounded once to f32 (within half an f32 ulp and
// a hair, without a division per value: this runs over every reduced value).
ROOKERY_SIMD_CLONES
void divide(std::span<float> values, double d) {
  const double inverse = 1.0 / d;
  for (auto& v : values) v = static_cast<float>(static_cast<double>(v) * inverse);
}

// Values summed, divided and (out of place) written to the output in one piece: 16 KiB, well
// inside L1.
constexpr std::size_t kCachePiece = 4096;

}  // namespace

RingAllReduce::RingAllReduce(Transport& transport, RingOptions options)
    : transport_(transport), options_(std::move(options)) {
  if (!options_.aggregator) options_.aggregator = std::make_shared<WeightedMean>();
  if (options_.segment_values == 0)
    throw std::invalid_argument("ring all-reduce: segment_values must be > 0");
  if (options_.max_attempts == 0) options_.max_attempts = 1;
}

std::shared_ptr<std::vector<float>> RingAllReduce::take_buffer(std::size_t size) {
  constexpr std::size_t kPooled = 16;  // buffers kept for reuse
  std::shared_ptr<std::vector<float>> buffer;
  {
    std::lock_guard lock(pool_mutex_);
    // A free buffer at least as large, the smallest such; else a free one to grow.
    for (auto& b : pool_) {
      if (b.use_count() != 1) continue;
      if (!buffer || (b->capacity() >= size &&
                      (buffer->capacity() < size || b->capacity() < buffer->capacity()))) {
        buffer = b;
      }
    }
    if (!buffer) {
      buffer = std::make_shared<std::vector<float>>();
      if (pool_.size() < kPooled) pool_.push_back(buffer);
    }
  }
  buffer->resize(size);
  return buffer;
}

void RingAllReduce::send_values(Attempt& a, const std::string& to, SegmentTag tag, double weight,
                                std::span<const float> values,
                                const std::shared_ptr<const void>& owner) {
  OutgoingSegment out;
  out.tag = tag;
  out.weight = weight;
  out.codec = options_.codec;
  out.block_size = options_.int8_block;
  out.count = values.size();
  if (options_.codec == wire::Codec::None) {
    out.bytes = {values.data(), values.size_bytes(), owner};  // zero-copy from the working buffer
  } else {
    std::vector<std::byte> encoded(
        wire::encoded_bytes(options_.codec, values.size(), options_.int8_block));
    wire::encode_f32(options_.codec, values, encoded, options_.int8_block);
    out.bytes = wire::Payload::own(std::move(encoded));
  }
  (void)a;
  transport_.send(to, std::move(out));
}

void RingAllReduce::send_vote(Attempt& a, bool ok) {
  if (a.voted) return;
  a.voted = true;
  for (const auto& m : a.view) {
    if (m == transport_.self()) continue;
    OutgoingSegment v;
    v.tag = {a.ring->key, a.round, a.number, 0, Phase::Vote, 0, 0};
    v.ok = ok;
    v.weight = a.weight;
    v.sender_view = a.view_id;
    transport_.send(m, std::move(v));
  }
}

// The chunk's owner turns the reduced sum into the result and sends its first all-gather
// hop. With a codec it keeps the decoded bytes it sends, so it matches everyone else bit for bit.
// Out of place the result also goes to the output now (the segment is still in cache); in
// place it waits in `work` for the commit. `placed`: the caller has done both already.
void RingAllReduce::finish_segment(Attempt& a, std::span<float> seg, double total_weight,
                                   std::uint32_t index, bool placed) {
  if (options_.aggregator->is_weighted_mean() && !placed) divide(seg, total_weight);
  const auto publish = [&] {
    if (!a.in_place && !placed)
      std::copy(seg.begin(), seg.end(), a.output.begin() + long(a.offset(seg)));
  };
  if (a.n < 2) return publish();
  OutgoingSegment out;
  out.tag = a.tag(Phase::AllGather, 0, index);
  out.weight = total_weight;
  out.codec = options_.codec;
  out.block_size = options_.int8_block;
  out.count = seg.size();
  if (options_.codec == wire::Codec::None) {
    out.bytes = {seg.data(), seg.size_bytes(), a.work};
  } else {
    std::vector<std::byte> encoded(
        wire::encoded_bytes(options_.codec, seg.size(), options_.int8_block));
    wire::encode_f32(options_.codec, seg, encoded, options_.int8_block);
    wire::decode_f32(options_.codec, encoded, seg, options_.int8_block);
    out.bytes = wire::Payload::own(std::move(encoded));
  }
  publish();
  transport_.send(a.next, std::move(out));
}

bool RingAllReduce::reduce_scatter_ring(Attempt& a) {
  const std::size_t n = a.n, r = a.r;
  // `work` starts empty: our values enter the sums weighted, read from the input in the pass
  // that adds the received sum to them (decode_add's scale and base). The chunk we send first
  // goes unweighted, with our weight in its header, and its receiver weights it in that same
  // pass: out of place straight from the input, in place from a copy in `work` (the caller
  // may write its values once run returns, while a frame of them waits in a dead peer's queue).
  // With a codec the encoding is the copy.
  const float w = static_cast<float>(a.weight);
  const auto timeout = options_.timeout;
  {
    const auto segs = a.segments(r);
    for (std::uint32_t i = 0; i < segs.size(); ++i) {
      const auto mine = a.values.subspan(segs[i].first, segs[i].last - segs[i].first);
      const auto tag = a.tag(Phase::ReduceScatter, 0, i);
      if (a.sendable.owner || options_.codec != wire::Codec::None) {
        send_values(a, a.next, tag, a.weight, mine, a.sendable.owner);
      } else {
        auto seg = a.slice(segs[i]);
        std::copy(mine.begin(), mine.end(), seg.begin());
        send_values(a, a.next, tag, a.weight, seg, a.work);
      }
    }
  }
  for (std::uint32_t k = 0; k + 1 < n; ++k) {
    const std::size_t c = (r + 2 * n - k - 1) % n;
    const auto segs = a.segments(c);
    for (std::uint32_t i = 0; i < segs.size(); ++i) {
      auto got = transport_.mailbox().take(a.prev, a.tag(Phase::ReduceScatter, k, i),
                                           Clock::now() + timeout);
      if (got.status != Mailbox::TakeStatus::Ok) return false;
      // Weights multiply values (in f32) and divide sums: a peer's must be a positive f32.
      if (!(got.segment->weight > 0 && got.segment->weight <= std::numeric_limits<float>::max())) {
        throw std::invalid_argument("reduce segment from " + got.segment->from +
                                    " carries weight " + std::to_string(got.segment->weight));
      }
      auto seg = a.slice(segs[i]);
      const double sum_weight = got.segment->weight + a.weight;
      const float* mine = a.values.data() + segs[i].first;
      // The first hop's values come unweighted; later hops carry weighted sums.
      const float theirs = k == 0 ? static_cast<float>(got.segment->weight) : 1.f;
      if (k + 2 < n) {
        got.segment->decode_add(seg, w, mine, theirs);
        send_values(a, a.next, a.tag(Phase::ReduceScatter, k + 1, i), sum_weight, seg, a.work);
      } else if (got.segment->codec == wire::Codec::None &&
                 options_.aggregator->is_weighted_mean()) {
        // The chunk's last sum, then its division and its copy to the output, a cache-sized
        // piece at a time: they read what the sum just wrote from L1, not from memory.
        got.segment->check_size(seg.size());
        float* placed = a.in_place ? nullptr : a.output.data() + segs[i].first;
        for (std::size_t p = 0; p < seg.size(); p += kCachePiece) {
          const auto len = std::min(kCachePiece, seg.size() - p);
          wire::decode_add_f32(wire::Codec::None,
                               got.segment->bytes.subspan(p * sizeof(float), len * sizeof(float)),
                               seg.subspan(p, len), 0, w, mine + p, theirs);
          divide(seg.subspan(p, len), sum_weight);
          if (placed) std::copy_n(seg.data() + p, len, placed + p);
        }
        finish_segment(a, seg, sum_weight, i, /*placed=*/true);
      } else {
        got.segment->decode_add(seg, w, mine, theirs);
        finish_segment(a, seg, sum_weight, i);
      }
    }
  }
  return true;
}

// Reduce-scatter for aggregators that need every member's raw slice: each member sends its
// slice of chunk c straight to c's owner, which aggregates them in ring order.
bool RingAllReduce::reduce_scatter_gather(Attempt& a) {
  const std::size_t n = a.n, r = a.r;
  const auto timeout = options_.timeout;
  const std::span<const float> mine = a.sendable.values;
  for (std::size_t c = 0; c < n; ++c) {
    const std::size_t owner = a.owner_of(c);
    if (owner == r) continue;
    const auto segs = a.segments(c);
    for (std::uint32_t i = 0; i < segs.size(); ++i) {
      send_values(a, a.view[owner], a.tag(Phase::Gather, 0, i), a.weight,
                  mine.subspan(segs[i].first, segs[i].last - segs[i].first), a.sendable.owner);
    }
  }
  const std::size_t c = (r + 1) % n;
  const auto segs = a.segments(c);
  std::vector<std::vector<float>> theirs(n);
  std::vector<Contribution> contributions(n);
  for (std::uint32_t i = 0; i < segs.size(); ++i) {
    const std::size_t len = segs[i].last - segs[i].first;
    double total = 0;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == r) {
        contributions[j] = {a.view[j], a.weight, mine.subspan(segs[i].first, len), true};
      } else {
        auto got = transport_.mailbox().take(a.view[j], a.tag(Phase::Gather, 0, i),
                                             Clock::now() + timeout);
        if (got.status != Mailbox::TakeStatus::Ok) return false;
        theirs[j].resize(len);
        got.segment->decode_into(theirs[j]);
        contributions[j] = {a.view[j], got.segment->weight, theirs[j], false};
      }
      total += contributions[j].weight;
    }
    auto seg = a.slice(segs[i]);
    options_.aggregator->aggregate(contributions, seg);
    finish_segment(a, seg, total, i);
  }
  return true;
}

bool RingAllReduce::all_gather(Attempt& a) {
  const std::size_t n = a.n, r = a.r;
  for (std::uint32_t k = 0; k + 1 < n; ++k) {
    const std::size_t c = (r + n - k) % n;
    const auto segs = a.segments(c);
    for (std::uint32_t i = 0; i < segs.size(); ++i) {
      auto got = transport_.mailbox().take(a.prev, a.tag(Phase::AllGather, k, i),
                                           Clock::now() + options_.timeout);
      if (got.status != Mailbox::TakeStatus::Ok) return false;
      got.segment->check_size(segs[i].last - segs[i].first);
      if (k + 2 < n) {
        // Forward the owner's bytes as they came: no copy, no re-encoding, no drift.
        const auto tag = a.tag(Phase::AllGather, k + 1, i);
        transport_.send(a.next, OutgoingSegment::forwarding(*got.segment, tag));
      }
      if (a.in_place) {
        a.gathered.emplace_back(segs[i].first, std::move(*got.segment));  // decoded at the commit
      } else {
        got.segment->decode_into(a.output.subspan(segs[i].first, segs[i].last - segs[i].first));
      }
    }
  }
  return true;
}

bool RingAllReduce::run_attempt(Attempt& a) {
  if (options_.verify) return run_verified_attempt(a);
  try {
    const bool reduced =
        options_.aggregator->is_weighted_mean() ? reduce_scatter_ring(a) : reduce_scatter_gather(a);
    return reduced && all_gather(a);
  } catch (const std::exception& e) {
    // A malformed segment (wrong size or codec) fails the attempt like a missing one.
    spdlog::warn("ring {:016x} round {} attempt {}: {}", a.ring->key, a.round, a.number, e.what());
    return false;
  }
}

// Agreement. After each attempt every member votes to every other member of the attempt's
// view: "ok" if it finished, "failed" as soon as it gave up (which also aborts the others'
// waits, so a dead member costs one timeout, not one per segment). Each member then waits
// up to `timeout` for all votes. It commits only if every member of the view voted ok for
// the same view; otherwise it retries with the members it heard from (plus itself). A
// dead or stalled member sends no vote, so every survivor drops it and the survivors'
// next views are equal; data segments carry the view's hash, so members whose views still
// differ (a vote lost in flight) cannot mix data, fail that attempt, and converge on the
// next. Commit needs all-ok from the whole view, so a committed result always contains
// exactly the view's members: the contributors every committing member reports are the same.
// (The one window left open, as in any protocol without a further round: a member that
// dies between sending its "ok" to some members and to others.)
RingOutcome RingAllReduce::run(const RingSpec& ring, std::uint64_t round, std::span<float> values,
                               double weight) {
  return run_round(ring, round, {values, nullptr}, values, /*in_place=*/true, weight);
}

RingOutcome RingAllReduce::run(const RingSpec& ring, std::uint64_t round, SharedValues input,
                               std::span<float> output, double weight) {
  if (!input.owner)
    throw std::invalid_argument("ring all-reduce: an input shared out of place needs its owner");
  if (input.values.size() != output.size()) {
    throw std::invalid_argument("ring all-reduce: the output has " + std::to_string(output.size()) +
                                " values, the input " + std::to_string(input.values.size()));
  }
  const float* in = input.values.data();
  if (!output.empty() && in < output.data() + output.size() &&
      output.data() < in + input.values.size()) {
    throw std::invalid_argument("ring all-reduce: the output overlaps the input");
  }
  return run_round(ring, round, std::move(input), output, /*in_place=*/false, weight);
}

// Every honest member judged the same verdicts and caught the same liar, so they all start
// the next rounds without it and commit in their first attempt, where a liar left in would cost
// every round an attempt (and, under load, whole rounds: a retry that times out once more
// falls below the quorum). After `caught_rounds` it is heard again, and caught again if it
// still lies. A member that missed the verdicts starts with the liar in its view; its first
// attempt fails on the mismatched views, and it retries among the members it heard.
std::vector<std::string> RingAllReduce::starting_view(const RingSpec& ring, std::uint64_t round,
                                                      std::size_t quorum) {
  std::lock_guard lock(caught_mutex_);
  if (caught_until_.empty()) return ring.members;
  std::vector<std::string> view;
  for (const auto& m : ring.members) {
    const auto c = caught_until_.find(m);
    if (c == caught_until_.end() || c->second <= round || m == transport_.self()) view.push_back(m);
  }
  return view.size() >= quorum ? view : ring.members;
}

void RingAllReduce::leave_out_caught(const std::string& member, std::uint64_t round) {
  if (options_.caught_rounds == 0 || member == transport_.self()) return;
  std::lock_guard lock(caught_mutex_);
  std::erase_if(caught_until_, [&](const auto& c) { return c.second <= round; });
  caught_until_[member] = round + options_.caught_rounds;
}

RingOutcome RingAllReduce::run_round(const RingSpec& ring, std::uint64_t round, SharedValues input,
                                     std::span<float> output, bool in_place, double weight) {
  const std::span<const float> values = input.values;
  const auto start = Clock::now();
  const std::string& self = transport_.self();
  if (std::find(ring.members.begin(), ring.members.end(), self) == ring.members.end()) {
    throw std::invalid_argument("ring all-reduce: " + self + " is not a member of the ring");
  }
  if (!(weight > 0)) throw std::invalid_argument("ring all-reduce: weight must be positive");
  // `values` are not written before the commit (in place) or at all (out of place), so a
  // retry starts again from them. In place, the gathering aggregators send our raw values
  // from a copy, which outlives a failed attempt's segments in flight.
  SharedValues sendable = std::move(input);
  if (!sendable.owner && (!options_.aggregator->is_weighted_mean() || options_.verify)) {
    auto copy = take_buffer(values.size());
    std::copy(values.begin(), values.end(), copy->begin());
    sendable = {*copy, copy};
  }
  // A robust aggregator (CenteredClip) commits only among a majority of the ring and at least
  // three members (two in a ring of two): in a view of two, a liar's input is half of every
  // median it is judged against, and it moved an honest replica's loss to thousands in
  // test_byzantine_averaging when timeouts under load shrank views to the liar and one other.
  // The mean has no such floor: a liar moves it in any view.
  const std::size_t quorum =
      options_.aggregator->is_weighted_mean()
          ? 2
          : std::max(std::min<std::size_t>(3, ring.members.size()), ring.members.size() / 2 + 1);
  std::vector<std::string> view = starting_view(ring, round, quorum);
  RingOutcome outcome;
  outcome.contributors = {self};
  outcome.total_weight = weight;
  bool committed = false;
  for (std::uint32_t number = 0; number < options_.max_attempts && view.size() >= quorum;
       ++number) {
    outcome.attempts = number + 1;
    Attempt a;
    a.ring = &ring;
    a.round = round;
    a.number = number;
    a.view = view;
    a.view_id = view_hash(view);
    a.n = view.size();
    a.r = std::size_t(std::find(view.begin(), view.end(), self) - view.begin());
    a.next = view[(a.r + 1) % a.n];
    a.prev = view[(a.r + a.n - 1) % a.n];
    a.weight = weight;
    a.sendable = sendable;
    a.values = values;
    a.output = output;
    a.in_place = in_place;
    a.work = take_buffer(values.size());
    a.segment_values = options_.segment_values;
    a.bounds.resize(a.n + 1);
    for (std::size_t c = 0; c <= a.n; ++c) a.bounds[c] = values.size() * c / a.n;

    const bool finished = run_attempt(a);
    if (a.verified) send_verdict(a);
    send_vote(a, finished);

    const auto deadline = Clock::now() + options_.timeout;
    std::vector<std::string> heard{};
    bool all_ok = finished;
    double total = 0;
    for (const auto& m : view) {
      if (m == self) {
        heard.push_back(m);
        total += weight;
        continue;
      }
      auto vote = transport_.mailbox().take(m, {ring.key, round, number, 0, Phase::Vote, 0, 0},
                                            deadline, false);
      if (vote.status != Mailbox::TakeStatus::Ok) {
        all_ok = false;
        continue;
      }
      heard.push_back(m);
      total += vote.segment->weight;
      all_ok = all_ok && vote.segment->ok && vote.segment->sender_view == a.view_id;
    }
    // Verified: the verdicts decide too, and whoever they catch or set aside leaves the round.
    std::set<std::string> out_of_round;
    if (a.verified) {
      const auto judgement = judge_verified(a, heard, deadline, outcome);
      all_ok = all_ok && judgement.commit;
      for (const auto& [b, why] : judgement.blamed) {
        out_of_round.insert(view[b]);
        leave_out_caught(view[b], round);
      }
      for (const auto b : judgement.sit_out) out_of_round.insert(view[b]);
    }
    if (all_ok) {
      if (in_place) {
        // Ours: the chunk we own, finished in `work`; the others: decoded from their frames.
        const std::size_t owned = (a.r + 1) % a.n;
        std::copy(a.work->begin() + long(a.bounds[owned]),
                  a.work->begin() + long(a.bounds[owned + 1]),
                  output.begin() + long(a.bounds[owned]));
        for (const auto& [first, segment] : a.gathered)
          segment.decode_into(output.subspan(first, segment.count));
      }
      committed = true;
      outcome.contributors = view;
      outcome.total_weight = total;
      break;
    }
    spdlog::info("ring {:016x} round {} attempt {}: {} of {} members voted; retrying among them",
                 ring.key, round, number, heard.size(), view.size());
    if (out_of_round.count(self)) break;  // the others go on without us
    std::erase_if(heard, [&](const std::string& m) { return out_of_round.count(m) > 0; });
    view = std::move(heard);
  }
  // Out of place, an attempt that did not commit may have written part of the output.
  if (!committed && !in_place) std::copy(values.begin(), values.end(), output.begin());
  transport_.mailbox().finish(ring.key, round);
  outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return outcome;
}

}  // namespace rookery::reduce
