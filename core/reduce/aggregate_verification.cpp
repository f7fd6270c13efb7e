#include "reduce/aggregate_verification.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <utility>

#include "reduce/byte_fields.hpp"

namespace rookery::reduce {

namespace {
std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
}  // namespace

std::vector<std::size_t> validators_of(const AttemptContext& ctx, std::uint32_t chunk,
                                       std::size_t members, std::size_t owner, std::size_t count) {
  std::vector<std::size_t> others;
  for (std::size_t m = 0; m < members; ++m) {
    if (m != owner) others.push_back(m);
  }
  std::uint64_t s = ctx.ring ^ (ctx.round * 0x100000001b3ull) ^ (std::uint64_t(ctx.attempt) << 32) ^
                    (ctx.view * 31) ^ chunk;
  for (std::size_t i = others.size(); i > 1; --i) std::swap(others[i - 1], others[splitmix(s) % i]);
  others.resize(std::min(count, others.size()));
  std::sort(others.begin(), others.end());
  return others;
}

bool result_matches(std::span<const float> claimed, std::span<const float> recomputed,
                    wire::Codec codec) {
  if (claimed.size() != recomputed.size()) return false;
  float largest = 0;
  for (float v : recomputed) {
    if (!std::isfinite(v)) return false;
    largest = std::max(largest, std::abs(v));
  }
  // int8 rounds to 1/127 of a block's largest value; the halves (fp16, bf16) to under 1/128
  // relative. Two steps cover a value that rounds to the neighbouring one on the owner's CPU.
  const double step = codec == wire::Codec::None ? 0.0 : 2.0 / 127.0;
  const double tolerance = double(largest) * (step + 1e-4) + 1e-30;
  for (std::size_t i = 0; i < claimed.size(); ++i) {
    if (!(std::abs(double(claimed[i]) - double(recomputed[i])) <= tolerance)) return false;
  }
  return true;
}

bool exclusions_fair(std::span<const std::uint8_t> left_out, std::size_t owner) {
  const auto left = std::count_if(left_out.begin(), left_out.end(), [](auto b) { return b != 0; });
  return owner < left_out.size() && !left_out[owner] && 2 * std::size_t(left) < left_out.size();
}

bool segment_matches(const Aggregator& aggregator, std::span<const std::string> view,
                     std::span<const double> weights,
                     std::span<const std::span<const float>> values,
                     std::span<const std::uint8_t> left_out, std::size_t owner,
                     std::span<const float> claimed, wire::Codec codec,
                     std::vector<float>& recomputed) {
  std::vector<Contribution> kept;
  for (std::size_t j = 0; j < view.size(); ++j) {
    if (!left_out[j]) kept.push_back({view[j], weights[j], values[j], j == owner});
  }
  recomputed.resize(claimed.size());
  aggregator.aggregate(kept, recomputed);
  return result_matches(claimed, recomputed, codec);
}

std::vector<std::byte> VerdictMessage::encode() const {
  Writer w;
  w.put(table);
  w.put(static_cast<std::uint32_t>(chunks.size()));
  for (auto c : chunks) w.put(c);
  w.put(static_cast<std::uint32_t>(results.size()));
  for (const auto& d : results) w.put(d);
  w.put(static_cast<std::uint32_t>(disputes.size()));
  for (auto d : disputes) w.put(d);
  w.put(static_cast<std::uint32_t>(evidence.size()));
  for (const auto& e : evidence) w.put_bytes(e.encode());
  w.put(static_cast<std::uint32_t>(inputs.size()));
  for (const auto& i : inputs) w.put_bytes(i);
  return std::move(w.out);
}

std::optional<VerdictMessage> VerdictMessage::decode(std::span<const std::byte> bytes) {
  constexpr std::uint32_t kMaxEvidence = 64, kMaxMembers = 4096;
  Reader r(bytes);
  VerdictMessage v;
  std::uint32_t count = 0;
  if (!r.get(v.table) || !r.get_vector(v.chunks) || !r.get_vector(v.results) ||
      !r.get_vector(v.disputes) || !r.get(count) || count > kMaxEvidence)
    return std::nullopt;
  for (std::uint32_t i = 0; i < count; ++i) {
    std::vector<std::byte> b;
    if (!r.get_bytes(b)) return std::nullopt;
    auto e = ForwardEvidence::decode(b);
    if (!e) return std::nullopt;
    v.evidence.push_back(std::move(*e));
  }
  if (!r.get(count) || count > kMaxMembers) return std::nullopt;
  v.inputs.resize(count);
  for (auto& i : v.inputs) {
    if (!r.get_bytes(i)) return std::nullopt;
  }
  if (!r.done()) return std::nullopt;
  return v;
}

namespace {

// The input commitments every verdict shows (and the judge's own), checked against their
// authors: by author, the ids of those that are valid; and by showing member, the id of what it
// shows for each author (zero: nothing valid).
struct ShownInputs {
  std::vector<std::set<Digest>> signed_by;
  std::vector<std::vector<Digest>> shown;
};

ShownInputs shown_inputs(const AttemptContext& ctx,
                         std::span<const std::optional<VerdictMessage>> verdicts,
                         const HeldCommitments& held) {
  const std::size_t n = verdicts.size();
  ShownInputs s{std::vector<std::set<Digest>>(n), std::vector<std::vector<Digest>>(n)};
  std::map<std::pair<std::size_t, Digest>, std::optional<Digest>> checked;  // (author, bytes)
  const auto check = [&](std::size_t author, std::span<const std::byte> bytes) -> Digest {
    // Unbound, only a key the judge got from the author itself verifies its commitments.
    if (bytes.empty() || author >= held.members.size() || author >= held.keys.size() ||
        (!held.bound && !held.keys[author]))
      return {};
    auto& known = checked[{author, digest_of(bytes)}];
    if (!known) {
      known = Digest{};
      auto c = InputCommitment::decode(bytes);
      if (c && c->valid(ctx, held.bound, held.members[author],
                        held.keys[author].value_or(PublicSigningKey{})))
        known = c->id(ctx);
    }
    return *known;
  };
  for (std::size_t j = 0; j < n && j < held.inputs.size(); ++j) {
    if (held.inputs[j]) s.signed_by[j].insert(check(j, held.inputs[j]->encode()));
  }
  for (std::size_t m = 0; m < n; ++m) {
    s.shown[m].assign(n, Digest{});
    if (!verdicts[m]) continue;
    for (std::size_t j = 0; j < n && j < verdicts[m]->inputs.size(); ++j) {
      s.shown[m][j] = check(j, verdicts[m]->inputs[j]);
      s.signed_by[j].insert(s.shown[m][j]);
    }
  }
  for (auto& ids : s.signed_by) ids.erase(Digest{});
  return s;
}

}  // namespace

AttemptJudgement judge_attempt(const AttemptContext& ctx,
                               std::span<const std::optional<VerdictMessage>> verdicts,
                               std::span<const std::vector<std::size_t>> validators,
                               const HeldCommitments& held) {
  const std::size_t n = verdicts.size();
  AttemptJudgement j;
  bool clean = true;
  std::optional<Digest> table;
  for (const auto& v : verdicts) {
    if (!v || v->table == Digest{} || (table && *table != v->table)) {
      clean = false;
    } else {
      table = v->table;
    }
  }
  const auto blame = [&](std::size_t who, std::string why) {
    j.blamed.emplace(who, std::move(why));
  };
  const auto name = [&](std::size_t m) {
    return m < held.members.size() ? held.members[m] : "member " + std::to_string(m);
  };
  // Authors: two valid input commitments for one attempt are its signatures on both.
  const auto inputs = shown_inputs(ctx, verdicts, held);
  std::set<std::size_t> equivocated;
  for (std::size_t a = 0; a < n; ++a) {
    if (inputs.signed_by[a].size() < 2) continue;
    clean = false;
    equivocated.insert(a);
    blame(a, "it signed " + std::to_string(inputs.signed_by[a].size()) +
                 " different input commitments for one attempt");
  }
  // Owners' claims: an owner signs, in its result, which input commitment of each member it
  // aggregated. A claim no valid commitment backs, where the author did sign another, is the
  // owner's lie: an origin that signed two would show in `equivocated`, and an honest owner
  // shows in its verdict what it holds. Blamed only with identities (unbound, the author may
  // have given the owner another key) and with the owner's verdict in (else it could not show);
  // otherwise the owner sits out, alone: its validators rejected what it claimed, rightly.
  std::set<std::size_t> contradicted;  // chunks whose owner's claims a signed commitment belies
  const auto result_of = [&](std::size_t c) -> const ResultCommitment* {
    return c < held.results.size() && held.results[c] && held.results[c]->inputs.size() == n
               ? &*held.results[c]
               : nullptr;
  };
  for (std::size_t c = 0; c < validators.size() && c < n; ++c) {
    const std::size_t owner = (c + n - 1) % n;
    const auto* result = result_of(c);
    if (!result) continue;
    for (std::size_t a = 0; a < n; ++a) {
      const auto& ids = inputs.signed_by[a];
      if (ids.empty() || ids.count(result->inputs[a])) continue;
      clean = false;
      contradicted.insert(c);
      if (held.bound && verdicts[owner]) {
        blame(owner, "its signed result for chunk " + std::to_string(c) +
                         " claims an input commitment of " + name(a) + " that " + name(a) +
                         " never signed (its signed commitment contradicts the claim)");
      } else {
        j.sit_out.insert(owner);
      }
      break;
    }
  }
  // Owners' results: blamed on the word of all their validators, at least two, who show the
  // very input commitments the owner signed for. Otherwise, unless a blamed liar explains the
  // disagreement, the owner and its rejecting validators sit out, unblamed.
  for (std::size_t c = 0; c < validators.size() && c < n; ++c) {
    const std::size_t owner = (c + n - 1) % n;
    const auto* result = result_of(c);
    std::vector<std::size_t> rejecting;
    bool same_inputs = result != nullptr;
    for (const auto v : validators[c]) {
      const auto& said = verdicts[v];
      if (said && c < said->chunks.size() && said->chunks[c] == ChunkVerdict::rejected)
        rejecting.push_back(v);
      same_inputs = same_inputs && inputs.shown[v] == result->inputs;
    }
    if (rejecting.empty()) continue;
    clean = false;
    if (j.blamed.count(owner) || contradicted.count(c)) continue;
    if (rejecting.size() == validators[c].size() && rejecting.size() >= 2 && same_inputs) {
      blame(owner, "its aggregate of chunk " + std::to_string(c) + " was rejected by all " +
                       std::to_string(rejecting.size()) + " validators that recomputed it");
      continue;
    }
    if (!equivocated.empty()) continue;  // an origin's two commitments explain it: retried
    j.sit_out.insert(owner);
    j.sit_out.insert(rejecting.begin(), rejecting.end());
  }
  // Forwarders (and owners that signed two results): on signed evidence only.
  for (std::size_t m = 0; m < n; ++m) {
    if (!verdicts[m]) continue;
    for (const auto d : verdicts[m]->disputes) {
      clean = false;
      if (d < n && d != m) {
        j.sit_out.insert(d);
        j.sit_out.insert(m);
      }
    }
    for (const auto& e : verdicts[m]->evidence) {
      clean = false;
      const auto chunk = e.commitment.chunk;
      if (e.forwarder >= n || chunk >= n || e.owner != (chunk + n - 1) % n) continue;
      const auto& fk = held.keys[e.forwarder];
      const auto& ok = held.keys[e.owner];
      if (!fk || !ok) continue;
      const auto* commitment =
          chunk < held.results.size() && held.results[chunk] ? &*held.results[chunk] : nullptr;
      switch (e.check(ctx, *fk, *ok, commitment)) {
        case ForwardEvidence::Proves::forwarder_altered: {
          const auto& said = verdicts[e.forwarder];
          if (said && chunk < said->results.size() &&
              said->results[chunk] ==
                  digest_of(std::span<const std::byte>(e.commitment.encode()))) {
            blame(e.forwarder, "it forwarded segment " + std::to_string(e.receipt.segment) +
                                   " of chunk " + std::to_string(chunk) +
                                   " altered (its signed receipt contradicts the owner's "
                                   "commitment)");
          } else {
            j.sit_out.insert(e.forwarder);
            j.sit_out.insert(e.owner);
          }
          break;
        }
        case ForwardEvidence::Proves::owner_equivocated:
          blame(e.owner, "it signed two different results for chunk " + std::to_string(chunk));
          break;
        case ForwardEvidence::Proves::nothing:
          break;
      }
    }
  }
  for (const auto& [b, why] : j.blamed) j.sit_out.erase(b);
  j.commit = clean && j.blamed.empty() && j.sit_out.empty();
  return j;
}

}  // namespace rookery::reduce
