// The ring's verified attempt (RingOptions::verify; the design and why it is sound:
// aggregate_verification.hpp). Messages other than the all-gather's data ride as Gather-phase
// segments whose step names their kind, so they need no wire change:
//   input commitment -> every member; raw slices of chunk c -> c's owner and validators;
//   result commitment of chunk c -> every member; all-gather bytes -> next, with a signed
//   receipt; verdict -> every member, before the vote.
#include <cstring>
#include <limits>
#include <set>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "reduce/aggregation_proof.hpp"
#include "reduce/ring_proof.hpp"
#include "reduce/ring_attempt.hpp"

namespace rookery::reduce {

namespace {
enum Kind : std::uint32_t { kInput = 1, kData = 2, kResult = 3, kReceipt = 4, kVerdict = 5 };
constexpr std::uint32_t step_of(Kind kind, std::uint32_t x = 0) { return (kind << 24) | x; }

// x -1000 + 1: far outside any tolerance, and not 0 where the honest value is.
void poison(std::span<float> values) {
  for (auto& v : values) v = -1000.f * v + 1.f;
}

// A slice as it travels (its codec applied), with the digest of exactly those bytes.
wire::Payload encoded(const RingOptions& o, std::span<const float> values,
                      const std::shared_ptr<const void>& owner, Digest& digest) {
  if (o.codec == wire::Codec::None) {
    digest = digest_of(values);
    return {values.data(), values.size_bytes(), owner};
  }
  std::vector<std::byte> bytes(wire::encoded_bytes(o.codec, values.size(), o.int8_block));
  wire::encode_f32(o.codec, values, bytes, o.int8_block);
  digest = digest_of(std::span<const std::byte>(bytes));
  return wire::Payload::own(std::move(bytes));
}

// A proof that the forwarder of `e` altered what it forwarded, where its receipt names the very
// commitment its bytes contradict (its own signatures convict it), from the input commitments
// this member holds; null where they do not bind to identities or the receipt names another.
std::optional<ForwardingProof> forwarding_proof(const VerifiedAttempt& v,
                                                const std::vector<std::string>& view,
                                                const ForwardEvidence& e) {
  const auto n = view.size();
  if (!v.held.bound || e.forwarder >= n || e.owner >= n || e.forwarder == e.owner ||
      !v.held.inputs[e.forwarder] || !v.held.inputs[e.owner] ||
      e.receipt.result != e.commitment.id(v.ctx))
    return std::nullopt;
  return ForwardingProof{v.ctx,
                         e.forwarder,
                         e.owner,
                         view,
                         v.held.inputs[e.forwarder]->encode(),
                         v.held.inputs[e.owner]->encode(),
                         e.commitment.encode(),
                         e.receipt.encode()};
}

std::vector<std::byte> encoded_bytes(const RingOptions& o, std::span<const float> values) {
  Digest unused;
  const auto payload = encoded(o, values, {}, unused);
  const auto* p = static_cast<const std::byte*>(payload.data);
  return {p, p + payload.size};
}

// Thrown where an input's origin or a forwarder sent bytes this member cannot accept and cannot
// prove wrong to anyone else.
struct Dispute : std::runtime_error {
  Dispute(std::size_t who, const std::string& what) : std::runtime_error(what), member(who) {}
  std::size_t member;
};
}  // namespace

void RingAllReduce::send_blob(Attempt& a, const std::string& to, SegmentTag tag,
                              std::span<const std::byte> bytes) {
  // Length first, padded to whole f32 values (a segment's bytes are counted in values).
  std::vector<std::byte> framed(4 + (bytes.size() + 3) / 4 * 4);
  const auto n = static_cast<std::uint32_t>(bytes.size());
  std::memcpy(framed.data(), &n, 4);
  std::copy(bytes.begin(), bytes.end(), framed.begin() + 4);
  OutgoingSegment out;
  out.tag = tag;
  out.weight = a.weight;
  out.count = framed.size() / 4;
  out.bytes = wire::Payload::own(std::move(framed));
  transport_.send(to, std::move(out));
}

std::optional<std::vector<std::byte>> RingAllReduce::take_blob(Attempt& a, const std::string& from,
                                                               SegmentTag tag,
                                                               Clock::time_point deadline,
                                                               bool abortable) {
  (void)a;
  auto got = transport_.mailbox().take(from, tag, deadline, abortable);
  if (got.status != Mailbox::TakeStatus::Ok) return std::nullopt;
  const auto bytes = got.segment->bytes;
  std::uint32_t n = 0;
  if (got.segment->codec != wire::Codec::None || bytes.size() < 4) return std::vector<std::byte>{};
  std::memcpy(&n, bytes.data(), 4);
  if (n > bytes.size() - 4) return std::vector<std::byte>{};
  return std::vector<std::byte>(bytes.begin() + 4, bytes.begin() + 4 + n);
}

void RingAllReduce::begin_verified(Attempt& a) {
  if (!signing_key_) signing_key_ = std::make_unique<SigningKey>();
  auto v = std::make_unique<VerifiedAttempt>();
  v->ctx = {a.ring->key, a.round, a.view_id, a.number};
  v->held.inputs.resize(a.n);
  v->held.members = a.view;
  v->held.bound = transport_.identity() != nullptr;
  v->held.keys.resize(a.n);
  v->held.results.resize(a.n);
  v->claimed.resize(a.n);
  v->claimed_bytes.resize(a.n);
  v->verdict.chunks.assign(a.n, ChunkVerdict::none);
  v->first_segment.assign(a.n + 1, 0);
  for (std::uint32_t c = 0; c < a.n; ++c) {
    v->validators.push_back(validators_of(v->ctx, c, a.n, a.owner_of(c), options_.validators));
    v->first_segment[c + 1] = v->first_segment[c] + a.segments(c).size();
  }
  a.verified = std::move(v);
}

bool RingAllReduce::run_verified_attempt(Attempt& a) {
  begin_verified(a);
  auto& v = *a.verified;
  try {
    if (!verified_gather(a) || !verified_all_gather(a)) return false;
    validate(a);
    return true;
  } catch (const Dispute& d) {
    spdlog::warn("ring {:016x} round {} attempt {}: {}", a.ring->key, a.round, a.number, d.what());
    v.verdict.disputes.push_back(static_cast<std::uint32_t>(d.member));
  } catch (const std::exception& e) {
    spdlog::warn("ring {:016x} round {} attempt {}: {}", a.ring->key, a.round, a.number, e.what());
  }
  return false;
}

// Commit, then send every chunk's raw slices to its owner and validators, then (as owner)
// aggregate our chunk from the committed inputs, commit to the result and start its all-gather.
bool RingAllReduce::verified_gather(Attempt& a) {
  auto& v = *a.verified;
  const std::size_t n = a.n, r = a.r;
  const auto timeout = options_.timeout;
  InputCommitment mine{signing_key_->public_key(), a.weight, {}, {}};
  std::vector<std::vector<wire::Payload>> slices(n);
  for (std::size_t c = 0; c < n; ++c) {
    for (const auto& s : a.segments(c)) {
      Digest d;
      slices[c].push_back(encoded(options_, a.sendable.values.subspan(s.first, s.last - s.first),
                                  a.sendable.owner, d));
      mine.digests.push_back(d);
    }
  }
  const auto* identity = transport_.identity();
  mine.sign(v.ctx, *signing_key_, identity ? &identity->secret_key : nullptr);
  const auto commitment = mine.encode();
  for (const auto& m : a.view) {
    if (m != transport_.self())
      send_blob(a, m, a.tag(Phase::Gather, step_of(kInput), 0), commitment);
  }
  v.held.inputs[r] = std::move(mine);
  v.held.keys[r] = v.held.inputs[r]->key;
  for (std::uint32_t c = 0; c < n; ++c) {
    std::vector<std::size_t> to = v.validators[c];
    to.push_back(a.owner_of(c));
    for (const auto m : to) {
      if (m == r) continue;
      for (std::uint32_t i = 0; i < slices[c].size(); ++i) {
        OutgoingSegment out;
        out.tag = a.tag(Phase::Gather, step_of(kData, c), i);
        out.weight = a.weight;
        out.codec = options_.codec;
        out.block_size = options_.int8_block;
        out.count = a.segments(c)[i].last - a.segments(c)[i].first;
        out.bytes = slices[c][i];
        transport_.send(a.view[m], std::move(out));
      }
    }
  }
  for (std::size_t m = 0; m < n; ++m) {
    if (m == r) continue;
    auto blob = take_blob(a, a.view[m], a.tag(Phase::Gather, step_of(kInput), 0),
                          Clock::now() + timeout, true);
    if (!blob) return false;
    auto c = InputCommitment::decode(*blob);
    if (!c || c->digests.size() != v.first_segment[n] ||
        !(c->weight > 0 && c->weight <= std::numeric_limits<float>::max()))
      throw Dispute(m, "input commitment from " + a.view[m] + " is malformed");
    // Came on its author's own connection: its key is the author's for us; bound, its
    // signature must also be the author's identity's, for everyone else.
    if (!c->valid(v.ctx, v.held.bound, a.view[m], c->key))
      throw Dispute(m, "input commitment from " + a.view[m] + " is not signed by " +
                           (v.held.bound ? "its identity" : "its key"));
    v.held.keys[m] = c->key;
    v.held.inputs[m] = std::move(*c);
  }

  // Our chunk, from every member's committed slice.
  const std::uint32_t owned = static_cast<std::uint32_t>((r + 1) % n);
  const auto segs = a.segments(owned);
  ResultCommitment result;
  result.chunk = owned;
  // The partners this node's exclusion list names are left out, fixed for the whole chunk and
  // signed in the result, so its validators rerun the same arithmetic on the same inputs
  // (their own lists may differ). Never half the members or more: an owner cannot make a
  // chunk its own value.
  result.left_out.assign(n, 0);
  {
    std::vector<Contribution> names(n);
    for (std::size_t j = 0; j < n; ++j) names[j].member = a.view[j];
    const auto leave = options_.aggregator->left_out(names);
    std::size_t left = 0;
    for (std::size_t j = 0; j < leave.size() && j < n; ++j) {
      if (leave[j] && j != r) {
        result.left_out[j] = 1;
        ++left;
      }
    }
    if (2 * left >= n) result.left_out.assign(n, 0);
  }
  // The input commitments it aggregates, signed for in the result.
  for (std::size_t j = 0; j < n; ++j) result.inputs.push_back(v.held.inputs[j]->id(v.ctx));
  if (options_.fault == RingOptions::Fault::lying_owner_commitments) {
    const std::size_t t = (r + 1) % n;
    auto fake = *v.held.inputs[t];
    fake.weight *= 2;  // its signature no longer holds: nobody can back the claim
    result.inputs[t] = fake.id(v.ctx);
    v.fabricated.emplace(t, std::move(fake));
  }
  std::vector<wire::Payload> results;
  std::vector<std::vector<float>> theirs(n);
  for (std::uint32_t i = 0; i < segs.size(); ++i) {
    const std::size_t len = segs[i].last - segs[i].first;
    std::vector<Contribution> contributions(n);
    for (std::size_t j = 0; j < n; ++j) {
      if (j == r) {
        contributions[j] = {a.view[j], a.weight, a.values.subspan(segs[i].first, len), true};
        continue;
      }
      auto got = transport_.mailbox().take(
          a.view[j], a.tag(Phase::Gather, step_of(kData, owned), i), Clock::now() + timeout);
      if (got.status != Mailbox::TakeStatus::Ok) return false;
      if (digest_of(got.segment->bytes) != v.held.inputs[j]->digests[v.first_segment[owned] + i])
        throw Dispute(j, "slice from " + a.view[j] + " is not the one it committed to");
      theirs[j].resize(len);
      got.segment->decode_into(theirs[j]);
      contributions[j] = {a.view[j], v.held.inputs[j]->weight, theirs[j], false};
    }
    // Every committed input but the ones the result says are left out. A partner left out
    // still counts its strikes here and is reported to the ban vote.
    std::vector<Contribution> kept;
    for (std::size_t j = 0; j < n; ++j) {
      if (!result.left_out[j]) kept.push_back(contributions[j]);
    }
    auto seg = a.slice(segs[i]);
    options_.aggregator->without_exclusions().aggregate(kept, seg);
    if (options_.fault == RingOptions::Fault::lying_owner ||
        options_.fault == RingOptions::Fault::lying_owner_commitments)
      poison(seg);
    Digest d;
    results.push_back(encoded(options_, seg, a.work, d));
    if (options_.codec != wire::Codec::None) {
      wire::decode_f32(options_.codec,
                       {static_cast<const std::byte*>(results.back().data), results.back().size},
                       seg, options_.int8_block);
    }
    result.digests.push_back(d);
    if (!a.in_place) std::copy(seg.begin(), seg.end(), a.output.begin() + long(segs[i].first));
  }
  result.sign(v.ctx, *signing_key_);
  const auto signed_result = result.encode();
  for (const auto& m : a.view) {
    if (m != transport_.self())
      send_blob(a, m, a.tag(Phase::Gather, step_of(kResult, owned), 0), signed_result);
  }
  for (std::uint32_t i = 0; i < results.size(); ++i) {
    ForwardReceipt receipt{owned, i, result.digests[i], result.id(v.ctx), {}};
    receipt.sign(v.ctx, *signing_key_);
    send_blob(a, a.next, a.tag(Phase::Gather, step_of(kReceipt, 0), i), receipt.encode());
    OutgoingSegment out;
    out.tag = a.tag(Phase::AllGather, 0, i);
    out.weight = a.weight;
    out.codec = options_.codec;
    out.block_size = options_.int8_block;
    out.count = segs[i].last - segs[i].first;
    out.bytes = results[i];
    transport_.send(a.next, std::move(out));
  }
  v.held.results[owned] = std::move(result);
  return true;
}

// The all-gather, every hop checked against the owner's signed commitment before it is kept or
// forwarded; a mismatch the forwarder signed for becomes evidence.
bool RingAllReduce::verified_all_gather(Attempt& a) {
  auto& v = *a.verified;
  const std::size_t n = a.n, r = a.r;
  const std::size_t prev = (r + n - 1) % n;
  const auto deadline = [&] { return Clock::now() + options_.timeout; };
  for (std::uint32_t k = 0; k + 1 < n; ++k) {
    const auto c = static_cast<std::uint32_t>((r + n - k) % n);
    const std::size_t owner = a.owner_of(c);
    const auto segs = a.segments(c);
    auto& held = v.held.results[c];
    if (!held) {
      auto blob = take_blob(a, a.view[owner], a.tag(Phase::Gather, step_of(kResult, c), 0),
                            deadline(), true);
      if (!blob) return false;
      auto result = ResultCommitment::decode(*blob);
      if (!result || result->chunk != c || result->digests.size() != segs.size() ||
          result->left_out.size() != n || result->inputs.size() != n ||
          !result->valid(v.ctx, *v.held.keys[owner]))
        throw Dispute(owner, "result commitment from " + a.view[owner] + " is malformed");
      held = std::move(*result);
    }
    const bool validating =
        std::find(v.validators[c].begin(), v.validators[c].end(), r) != v.validators[c].end();
    if (validating) {
      v.claimed[c].resize(a.bounds[c + 1] - a.bounds[c]);
      v.claimed_bytes[c].resize(segs.size());
    }
    for (std::uint32_t i = 0; i < segs.size(); ++i) {
      auto got = transport_.mailbox().take(a.prev, a.tag(Phase::AllGather, k, i), deadline());
      auto receipt_blob =
          take_blob(a, a.prev, a.tag(Phase::Gather, step_of(kReceipt, k), i), deadline(), true);
      if (got.status != Mailbox::TakeStatus::Ok || !receipt_blob) return false;
      const std::size_t len = segs[i].last - segs[i].first;
      got.segment->check_size(len);
      const Digest d = digest_of(got.segment->bytes);
      if (d != held->digests[i]) {
        auto receipt = ForwardReceipt::decode(*receipt_blob);
        if (receipt && receipt->chunk == c && receipt->segment == i && receipt->digest == d &&
            receipt->valid(v.ctx, *v.held.keys[prev])) {
          v.verdict.evidence.push_back({static_cast<std::uint32_t>(prev),
                                        static_cast<std::uint32_t>(owner), *receipt, *held});
          spdlog::warn(
              "ring {:016x} round {} attempt {}: {} forwarded chunk {} segment {} "
              "altered; its signed receipt is evidence",
              a.ring->key, a.round, a.number, a.prev, c, i);
          return false;
        }
        throw Dispute(prev, "segment from " + a.prev +
                                " matches neither the owner's commitment "
                                "nor a valid receipt of its own");
      }
      if (k + 2 < n) {
        // Forward the owner's bytes as they came, with our signed receipt of their digest.
        ForwardReceipt receipt{c, i, d, held->id(v.ctx), {}};
        auto out = OutgoingSegment::forwarding(*got.segment, a.tag(Phase::AllGather, k + 1, i));
        if (options_.fault == RingOptions::Fault::altering_forwarder) {
          std::vector<float> altered(len);
          got.segment->decode_into(altered);
          poison(altered);
          auto held_altered = std::make_shared<std::vector<float>>(std::move(altered));
          RingOptions as_sent;
          as_sent.codec = out.codec;
          as_sent.int8_block = out.block_size;
          out.bytes = encoded(as_sent, *held_altered, held_altered, receipt.digest);
        }
        receipt.sign(v.ctx, *signing_key_);
        send_blob(a, a.next, a.tag(Phase::Gather, step_of(kReceipt, k + 1), i), receipt.encode());
        transport_.send(a.next, std::move(out));
      }
      if (validating) {
        got.segment->decode_into(
            std::span<float>(v.claimed[c]).subspan(segs[i].first - a.bounds[c], len));
        v.claimed_bytes[c][i] = *got.segment;
      }
      if (a.in_place) {
        a.gathered.emplace_back(segs[i].first, std::move(*got.segment));
      } else {
        got.segment->decode_into(a.output.subspan(segs[i].first, len));
      }
    }
  }
  return true;
}

// Every chunk we validate, recomputed from the committed inputs with the owner's committed
// exclusions, against the result it sent.
void RingAllReduce::validate(Attempt& a) {
  auto& v = *a.verified;
  const std::size_t n = a.n, r = a.r;
  for (std::uint32_t c = 0; c < n; ++c) {
    const auto& vs = v.validators[c];
    if (std::find(vs.begin(), vs.end(), r) == vs.end()) continue;
    const std::size_t owner = a.owner_of(c);
    const auto& result = *v.held.results[c];
    // An owner may leave out a minority of the others (its exclusion list), never itself, and
    // must have aggregated the input commitments we hold (if not, the verdicts show who lied).
    const bool fair = exclusions_fair(result.left_out, owner);
    bool ok = fair;
    for (std::size_t j = 0; j < n && ok; ++j) ok = result.inputs[j] == v.held.inputs[j]->id(v.ctx);
    const bool claims_ours = ok;  // else the verdicts show who lied: no proof of ours
    const auto segs = a.segments(c);
    std::vector<std::vector<float>> theirs(n);
    std::vector<IncomingSegment> sent(n);  // the segment as each came (no copy), for a proof
    std::vector<float> recomputed;
    std::vector<double> weights(n);
    for (std::size_t j = 0; j < n; ++j) weights[j] = v.held.inputs[j]->weight;
    std::vector<std::span<const float>> values(n);
    std::uint32_t wrong = 0;  // the segment found wrong
    for (std::uint32_t i = 0; i < segs.size() && ok; ++i) {
      const std::size_t len = segs[i].last - segs[i].first;
      for (std::size_t j = 0; j < n; ++j) {
        if (j == r) {
          values[j] = a.values.subspan(segs[i].first, len);
        } else {
          auto got =
              transport_.mailbox().take(a.view[j], a.tag(Phase::Gather, step_of(kData, c), i),
                                        Clock::now() + options_.timeout, /*abortable=*/false);
          if (got.status != Mailbox::TakeStatus::Ok) {
            throw std::runtime_error("no slice of chunk " + std::to_string(c) + " from " +
                                     a.view[j] + " to validate it");
          }
          if (digest_of(got.segment->bytes) != v.held.inputs[j]->digests[v.first_segment[c] + i])
            throw Dispute(j, "slice from " + a.view[j] + " is not the one it committed to");
          theirs[j].resize(len);
          got.segment->decode_into(theirs[j]);
          values[j] = theirs[j];
          sent[j] = *got.segment;
        }
      }
      try {
        ok = segment_matches(
            options_.aggregator->verifiable(), a.view, weights, values, result.left_out, owner,
            std::span<const float>(v.claimed[c]).subspan(segs[i].first - a.bounds[c], len),
            options_.codec, recomputed);
      } catch (const std::exception&) {
        ok = false;  // nothing to aggregate: the owner cannot have had a result either
        break;
      }
      if (!ok) wrong = i;
    }
    v.verdict.chunks[c] = ok ? ChunkVerdict::accepted : ChunkVerdict::rejected;
    if (!ok) {
      spdlog::warn(
          "ring {:016x} round {} attempt {}: the aggregate of chunk {} from {} does not "
          "match its committed inputs",
          a.ring->key, a.round, a.number, c, a.view[owner]);
      if (!fair) prove(a, c, 0, nullptr);  // the result commitment alone proves it
      if (claims_ours) prove(a, c, wrong, &sent);
    }
  }
}

// A proof that chunk `c`'s owner lied, from what this validator holds (aggregation_proof.hpp):
// `sent`, segment `i` as each other member sent it, or null where the owner's result commitment
// alone proves it. Only with identities, which the proof's checker needs, and only where every
// slice came in the ring's codec (a proof carries one).
void RingAllReduce::prove(Attempt& a, std::uint32_t c, std::uint32_t i,
                          const std::vector<IncomingSegment>* sent) {
  auto& v = *a.verified;
  if (!v.held.bound) return;
  AggregationProof p;
  p.ctx = v.ctx;
  p.owner = static_cast<std::uint32_t>(a.owner_of(c));
  p.segment = i;
  p.input_digest = static_cast<std::uint32_t>(v.first_segment[c] + i);
  const auto segs = a.segments(c);
  p.values = static_cast<std::uint32_t>(segs[i].last - segs[i].first);
  p.codec = options_.codec;
  p.int8_block = options_.int8_block;
  p.view = a.view;
  for (std::size_t j = 0; j < a.n; ++j) p.inputs.push_back(v.held.inputs[j]->encode());
  p.result = v.held.results[c]->encode();
  p.slices.resize(a.n);
  if (sent) {
    const auto as_ours = [&](const IncomingSegment& s) {
      // (the wire carries a block size with int8 only)
      return s.codec == options_.codec &&
             (s.codec != wire::Codec::Int8Block || s.block_size == options_.int8_block) &&
             s.bytes.size() == wire::encoded_bytes(p.codec, p.values, p.int8_block);
    };
    for (std::size_t j = 0; j < a.n; ++j) {
      if (j == a.r) {
        p.slices[j] = encoded_bytes(options_, a.values.subspan(segs[i].first, p.values));
        continue;
      }
      if (!as_ours((*sent)[j])) return;
      p.slices[j].assign((*sent)[j].bytes.begin(), (*sent)[j].bytes.end());
    }
    const auto& claimed = v.claimed_bytes[c][i];
    if (!as_ours(claimed)) return;
    p.claimed.assign(claimed.bytes.begin(), claimed.bytes.end());
  }
  v.proofs.push_back({a.view[p.owner], tag_proof(ProofKind::aggregate, p.encode())});
}

void RingAllReduce::send_verdict(Attempt& a) {
  auto& v = *a.verified;
  // The table: every commitment this member holds, so members can tell whether they judged
  // the same inputs and results.
  std::vector<std::byte> table;
  bool complete = true;
  v.verdict.inputs.assign(a.n, {});
  for (std::size_t j = 0; j < a.n; ++j) {
    const auto& in =
        v.fabricated && v.fabricated->first == j ? v.fabricated->second : v.held.inputs[j];
    if (!in) complete = false;
    if (!in) break;
    v.verdict.inputs[j] = in->encode();
    table.insert(table.end(), v.verdict.inputs[j].begin(), v.verdict.inputs[j].end());
  }
  for (const auto& res : v.held.results) {
    if (!res) complete = false;
    if (!res) break;
    const auto b = res->encode();
    table.insert(table.end(), b.begin(), b.end());
  }
  v.verdict.table = complete ? digest_of(std::span<const std::byte>(table)) : Digest{};
  v.verdict.results.assign(a.n, Digest{});
  for (std::size_t c = 0; c < a.n; ++c) {
    if (v.held.results[c])
      v.verdict.results[c] = digest_of(std::span<const std::byte>(v.held.results[c]->encode()));
  }
  const auto message = v.verdict.encode();
  for (const auto& m : a.view) {
    if (m != transport_.self())
      send_blob(a, m, a.tag(Phase::Gather, step_of(kVerdict), 0), message);
  }
}

AttemptJudgement RingAllReduce::judge_verified(Attempt& a, const std::vector<std::string>& heard,
                                               Clock::time_point deadline, RingOutcome& outcome) {
  auto& v = *a.verified;
  std::vector<std::optional<VerdictMessage>> verdicts(a.n);
  verdicts[a.r] = v.verdict;
  for (std::size_t m = 0; m < a.n; ++m) {
    // A member's verdict goes out before its vote: one whose vote never came is not waited for.
    if (m == a.r || std::find(heard.begin(), heard.end(), a.view[m]) == heard.end()) continue;
    auto blob = take_blob(a, a.view[m], a.tag(Phase::Gather, step_of(kVerdict), 0), deadline,
                          /*abortable=*/false);
    if (blob) verdicts[m] = VerdictMessage::decode(*blob);
  }
  auto judgement = judge_attempt(v.ctx, verdicts, v.validators, v.held);
  // A forwarder caught on evidence: every member that judged it so holds the evidence (from the
  // verdict that carried it) and makes the proof, so each of them reports it to the coordinator
  // before its heartbeat names the forwarder excluded, and the ban rests on the proof.
  std::set<std::uint32_t> proved;
  for (const auto& verdict : verdicts) {
    for (std::size_t i = 0; verdict && i < verdict->evidence.size(); ++i) {
      const auto& e = verdict->evidence[i];
      if (e.forwarder == a.r || !judgement.blamed.count(e.forwarder) || proved.count(e.forwarder))
        continue;
      if (const auto p = forwarding_proof(v, a.view, e)) {
        v.proofs.push_back({a.view[e.forwarder], tag_proof(ProofKind::forwarding, p->encode())});
        proved.insert(e.forwarder);
      }
    }
  }
  for (auto& proof : v.proofs) outcome.proofs.push_back(std::move(proof));
  v.proofs.clear();
  for (const auto& [b, why] : judgement.blamed) {
    spdlog::warn("ring {:016x} round {} attempt {}: {} caught: {}", a.ring->key, a.round, a.number,
                 a.view[b], why);
    if (std::find(outcome.caught.begin(), outcome.caught.end(), a.view[b]) ==
        outcome.caught.end()) {
      outcome.caught.push_back(a.view[b]);
      outcome.evidence.push_back(why);
    }
  }
  return judgement;
}

}  // namespace rookery::reduce
