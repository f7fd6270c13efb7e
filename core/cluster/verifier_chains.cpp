#include "cluster/verifier_chains.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>

namespace rookery::cluster {

namespace {

constexpr int kUnreachable = std::numeric_limits<int>::max();
// Draws of a first chain tried before settling for one chain where two are wanted.
constexpr int kPairAttempts = 16;
// Holders beyond which the max-flow fallback is not tried (its matrix grows as the square).
constexpr std::size_t kMaxFlowHolders = 400;
// Overlapping holders beyond which chains are drawn from a sample first.
constexpr std::size_t kSampledPool = 64;

// One chain of the fewest links over `pool` (indices into `holders`), drawn at random among
// those, or none when the pool leaves a block of [a, b) uncovered.
std::optional<VerifierChain> fewest_links(const std::vector<HeldRange>& holders,
                                          const std::vector<std::size_t>& pool, std::int64_t a,
                                          std::int64_t b, std::mt19937_64& rng) {
  const auto end_of = [&](std::size_t h) { return std::min(holders[h].last, b); };
  const auto usable_at = [&](std::size_t h, std::int64_t p) {
    return holders[h].first <= p && p < holders[h].last;
  };
  // links[p - a]: the fewest links that take the work from block p to b.
  std::vector<int> links(static_cast<std::size_t>(b - a + 1), kUnreachable);
  links.back() = 0;
  for (std::int64_t p = b - 1; p >= a; --p) {
    int best = kUnreachable;
    for (const auto h : pool) {
      if (!usable_at(h, p)) continue;
      const int rest = links[static_cast<std::size_t>(end_of(h) - a)];
      if (rest != kUnreachable) best = std::min(best, rest + 1);
    }
    links[static_cast<std::size_t>(p - a)] = best;
  }
  if (links.front() == kUnreachable) return std::nullopt;
  VerifierChain chain;
  std::int64_t p = a;
  while (p < b) {
    const int here = links[static_cast<std::size_t>(p - a)];
    std::vector<std::size_t> next;
    for (const auto h : pool) {
      if (usable_at(h, p) && links[static_cast<std::size_t>(end_of(h) - a)] == here - 1)
        next.push_back(h);
    }
    const auto h = next[std::uniform_int_distribution<std::size_t>(0, next.size() - 1)(rng)];
    chain.push_back({holders[h].key, p, end_of(h)});
    p = end_of(h);
  }
  return chain;
}

std::vector<std::size_t> without(const std::vector<HeldRange>& holders,
                                 const std::vector<std::size_t>& pool, const VerifierChain& used) {
  std::vector<std::size_t> rest;
  for (const auto h : pool) {
    const bool taken = std::any_of(used.begin(), used.end(),
                                   [&](const ChainLink& l) { return l.key == holders[h].key; });
    if (!taken) rest.push_back(h);
  }
  return rest;
}

// Two chains without a common holder, found as two vertex-disjoint paths (unit-capacity
// max-flow over holders split in two): the fallback when random draws of a first chain keep
// spoiling the second. Links end where their holder's blocks end, so every path runs forward.
std::optional<std::pair<VerifierChain, VerifierChain>> disjoint_pair(
    const std::vector<HeldRange>& holders, const std::vector<std::size_t>& pool, std::int64_t a,
    std::int64_t b) {
  const std::size_t n = pool.size();
  if (n < 2 || n > kMaxFlowHolders) return std::nullopt;
  const auto end_of = [&](std::size_t i) { return std::min(holders[pool[i]].last, b); };
  const auto usable_at = [&](std::size_t i, std::int64_t p) {
    return holders[pool[i]].first <= p && p < holders[pool[i]].last;
  };
  // Vertices: source 0, sink 1, holder i entering 2 + 2i, leaving 3 + 2i.
  const std::size_t v = 2 + 2 * n;
  std::vector<std::vector<int>> cap(v, std::vector<int>(v, 0));
  for (std::size_t i = 0; i < n; ++i) {
    cap[2 + 2 * i][3 + 2 * i] = 1;
    if (usable_at(i, a)) cap[0][2 + 2 * i] = 1;
    if (end_of(i) == b)
      cap[3 + 2 * i][1] = 1;
    else
      for (std::size_t j = 0; j < n; ++j)
        if (j != i && usable_at(j, end_of(i))) cap[3 + 2 * i][2 + 2 * j] = 1;
  }
  const auto original = cap;
  for (int found = 0; found < 2; ++found) {
    std::vector<int> from(v, -1);
    from[0] = 0;
    std::vector<std::size_t> queue{0};
    for (std::size_t q = 0; q < queue.size() && from[1] < 0; ++q) {
      for (std::size_t w = 0; w < v; ++w) {
        if (cap[queue[q]][w] > 0 && from[w] < 0) {
          from[w] = static_cast<int>(queue[q]);
          queue.push_back(w);
        }
      }
    }
    if (from[1] < 0) return std::nullopt;
    for (std::size_t w = 1; w != 0; w = static_cast<std::size_t>(from[w])) {
      --cap[static_cast<std::size_t>(from[w])][w];
      ++cap[w][static_cast<std::size_t>(from[w])];
    }
  }
  // The flow: an edge of the original graph whose capacity was used.
  const auto used = [&](std::size_t x, std::size_t y) {
    return original[x][y] > 0 && cap[x][y] < original[x][y];
  };
  std::vector<VerifierChain> paths;
  for (std::size_t i = 0; i < n; ++i) {
    if (!used(0, 2 + 2 * i)) continue;
    VerifierChain chain;
    std::int64_t p = a;
    std::size_t h = i;
    while (true) {
      chain.push_back({holders[pool[h]].key, p, end_of(h)});
      p = end_of(h);
      if (p == b) break;
      std::size_t next = n;
      for (std::size_t j = 0; j < n && next == n; ++j)
        if (used(3 + 2 * h, 2 + 2 * j)) next = j;
      if (next == n) return std::nullopt;  // cannot happen with a valid flow
      h = next;
    }
    paths.push_back(std::move(chain));
  }
  if (paths.size() != 2) return std::nullopt;
  return std::make_pair(std::move(paths[0]), std::move(paths[1]));
}

// Up to `wanted` independent chains of the fewest links over `pool`.
std::vector<VerifierChain> compose(const std::vector<HeldRange>& holders,
                                   const std::vector<std::size_t>& pool, std::int64_t first,
                                   std::int64_t last, std::mt19937_64& rng, std::size_t wanted) {
  std::vector<VerifierChain> chains;
  if (wanted == 0) return chains;
  if (wanted == 1) {
    if (auto c = fewest_links(holders, pool, first, last, rng)) chains.push_back(std::move(*c));
    return chains;
  }
  // Two (or more) wanted: a first chain that leaves room for a second, if any draw does.
  std::optional<VerifierChain> lone;
  for (int attempt = 0; attempt < kPairAttempts; ++attempt) {
    auto c1 = fewest_links(holders, pool, first, last, rng);
    if (!c1) break;  // the pool leaves a block uncovered
    if (!lone) lone = c1;
    auto rest = without(holders, pool, *c1);
    if (auto c2 = fewest_links(holders, rest, first, last, rng)) {
      chains.push_back(std::move(*c1));
      chains.push_back(std::move(*c2));
      rest = without(holders, rest, chains.back());
      while (chains.size() < wanted) {
        auto more = fewest_links(holders, rest, first, last, rng);
        if (!more) break;
        rest = without(holders, rest, *more);
        chains.push_back(std::move(*more));
      }
      return chains;
    }
  }
  if (lone) {
    if (auto pair = disjoint_pair(holders, pool, first, last)) {
      chains.push_back(std::move(pair->first));
      chains.push_back(std::move(pair->second));
    } else {
      chains.push_back(std::move(*lone));
    }
  }
  return chains;
}

}  // namespace

bool is_exact(const VerifierChain& chain, const std::vector<HeldRange>& holders) {
  if (chain.size() != 1) return false;
  const auto& l = chain.front();
  return std::any_of(holders.begin(), holders.end(), [&](const HeldRange& h) {
    return h.key == l.key && h.first == l.first && h.last == l.last;
  });
}

std::vector<VerifierChain> find_verifier_chains(const std::vector<HeldRange>& holders,
                                                std::int64_t first, std::int64_t last,
                                                const std::set<std::string>& excluded,
                                                std::mt19937_64& rng, std::size_t wanted) {
  if (first >= last)
    throw std::invalid_argument("verifier chains for an empty block range [" +
                                std::to_string(first) + ", " + std::to_string(last) + ")");
  std::vector<std::size_t> exact, others;
  for (std::size_t h = 0; h < holders.size(); ++h) {
    const auto& r = holders[h];
    if (r.first >= r.last || r.last <= first || r.first >= last || excluded.count(r.key)) continue;
    (r.first == first && r.last == last ? exact : others).push_back(h);
  }
  std::shuffle(exact.begin(), exact.end(), rng);
  std::vector<VerifierChain> chains;
  for (std::size_t i = 0; i < exact.size() && chains.size() < wanted; ++i)
    chains.push_back({{holders[exact[i]].key, first, last}});
  // Exact holders not taken (there were more than wanted) stay out; the rest compose chains.
  if (chains.size() >= wanted) return chains;
  // In a large swarm thousands of holders overlap a range: chains are drawn from a random
  // sample of them first, and from all of them only when the sample gives too few.
  if (others.size() > kSampledPool) {
    std::shuffle(others.begin(), others.end(), rng);
    const std::vector<std::size_t> sample(others.begin(), others.begin() + kSampledPool);
    auto some = compose(holders, sample, first, last, rng, wanted - chains.size());
    if (chains.size() + some.size() >= wanted) {
      for (auto& c : some) chains.push_back(std::move(c));
      return chains;
    }
  }
  for (auto& c : compose(holders, others, first, last, rng, wanted - chains.size()))
    chains.push_back(std::move(c));
  return chains;
}

std::string describe(const VerifierChain& chain) {
  std::string out;
  for (const auto& l : chain) {
    if (!out.empty()) out += " -> ";
    out += "[" + std::to_string(l.first) + "," + std::to_string(l.last) + ")@" +
           l.key.substr(0, std::min<std::size_t>(8, l.key.size()));
  }
  return out;
}

}  // namespace rookery::cluster
