#pragma once
// Verifier chains: who can redo a stage's work for a spot-check (core/pipeline/spot_check.hpp).
// A stage X holding blocks [a, b) is checked by recomputing its blocks from the input it
// declares. Any holder of exactly [a, b) can do that alone (an exact replica). Where none
// exists, the work can still be redone by a chain of holders whose ranges together cover
// [a, b): the first holds block a, each next one holds the block where the previous one's
// part ends, and each runs only its part, [s_i, e_i) with s_0 = a, e_i = min(its last, b) and
// s_{i+1} = e_i. So with two pipelines cut differently, one holding [0, 3) and [3, 8), the
// other [0, 5) and [5, 8), the stage [3, 8) is checked by [0, 5) running blocks 3-4 and then
// [5, 8) running 5-7.
//
// Choice (deterministic for a given random generator): exact holders first, at random; then
// chains of the fewest links, at random among them (a holder whose range strictly contains
// [a, b) is a chain of one link). Chains are independent: no holder is in two of them, so
// two chains judge like two verifiers (a lying link spoils one chain only). When the first
// chain drawn leaves no second one, other draws are tried, then two holder-disjoint chains
// are sought as a unit-capacity max-flow (of any length), before settling for one chain.
//
// Pure: no torch, no network. The planner uses the same choice to report coverage
// (check_coverage.hpp), the stage runtime to run checks.
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace rookery::cluster {

struct HeldRange {
  std::string key;         // the holder's identity
  std::int64_t first = 0;  // its blocks [first, last)
  std::int64_t last = 0;
};

// One link of a chain: `key` runs blocks [first, last) of its own shard.
struct ChainLink {
  std::string key;
  std::int64_t first = 0;
  std::int64_t last = 0;
  friend bool operator==(const ChainLink&, const ChainLink&) = default;
};
using VerifierChain = std::vector<ChainLink>;

// Whether `chain` is an exact replica: one link, which holds exactly [first, last).
bool is_exact(const VerifierChain& chain, const std::vector<HeldRange>& holders);

// Up to `wanted` independent chains that recompute blocks [first, last), from `holders`
// leaving out the keys in `excluded` (the checked stage, the checker). Exact holders come
// first, then chains of the fewest links. Empty when the other holders leave some block of
// [first, last) uncovered. Throws std::invalid_argument for an empty range.
std::vector<VerifierChain> find_verifier_chains(const std::vector<HeldRange>& holders,
                                                std::int64_t first, std::int64_t last,
                                                const std::set<std::string>& excluded,
                                                std::mt19937_64& rng, std::size_t wanted = 2);

// The same as text, for logs: "[3,5)@abc12 -> [5,8)@def34".
std::string describe(const VerifierChain& chain);

}  // namespace rookery::cluster
