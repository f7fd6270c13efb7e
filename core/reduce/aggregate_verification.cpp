#include "reduce/aggregate_verification.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

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
  return std::move(w.out);
}

std::optional<VerdictMessage> VerdictMessage::decode(std::span<const std::byte> bytes) {
  constexpr std::uint32_t kMaxEvidence = 64;
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
  if (!r.done()) return std::nullopt;
  return v;
}

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
  // Owners: blamed only on the word of all their validators, at least two, who hold the same
  // commitments as the owner says it does. An owner whose commitments differ from its
  // validators' may have been lied to by an input's origin: it sits out, unblamed.
  const auto table_of = [&](std::size_t m) { return verdicts[m] ? verdicts[m]->table : Digest{}; };
  for (std::size_t c = 0; c < validators.size() && c < n; ++c) {
    const std::size_t owner = (c + n - 1) % n;
    std::vector<std::size_t> rejecting;
    bool same_table = table_of(owner) != Digest{};
    for (const auto v : validators[c]) {
      const auto& said = verdicts[v];
      if (said && c < said->chunks.size() && said->chunks[c] == ChunkVerdict::rejected)
        rejecting.push_back(v);
      same_table = same_table && table_of(v) == table_of(owner);
    }
    if (rejecting.empty()) continue;
    clean = false;
    if (rejecting.size() == validators[c].size() && rejecting.size() >= 2 && same_table) {
      blame(owner, "its aggregate of chunk " + std::to_string(c) + " was rejected by all " +
                       std::to_string(rejecting.size()) + " validators that recomputed it");
      continue;
    }
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
