// libFuzzer target: the proofs of a lying ring partner (core/reduce/ring_proof.hpp), which the
// coordinator decodes and checks from any member's report: tagged with their kind, a false
// aggregate (aggregation_proof.hpp) or altered forwarded bytes (forwarding_proof.hpp). The bytes
// are read as each of the two proofs and as a tagged one. Every proof that decodes must
// re-encode to the same bytes, and is checked (an aggregate with the mean and with
// CenteredClip); a check never throws, and a proof that proves names a member of its ring.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "reduce/centered_clip.hpp"
#include "reduce/ring_proof.hpp"

namespace {
using namespace rookery::reduce;

void check_names_a_member(const ProofCheck& check, const std::vector<std::string>& view) {
  if (check.proves && std::find(view.begin(), view.end(), check.owner) == view.end()) std::abort();
}

template <typename Proof>
void same_again(const Proof& proof, std::span<const std::byte> bytes) {
  const auto again = proof.encode();
  if (!std::equal(again.begin(), again.end(), bytes.begin(), bytes.end())) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const WeightedMean mean;
  static const auto clip = make_aggregator(rookery::job::AggregatorSpec{});
  const auto bytes = std::as_bytes(std::span(data, size));
  if (const auto proof = AggregationProof::decode(bytes)) {
    same_again(*proof, bytes);
    for (const Aggregator* a : {static_cast<const Aggregator*>(&mean), &clip->verifiable()})
      check_names_a_member(check_aggregation_proof(*proof, *a), proof->view);
  }
  if (const auto proof = ForwardingProof::decode(bytes)) {
    same_again(*proof, bytes);
    check_names_a_member(check_forwarding_proof(*proof), proof->view);
  }
  if (const auto proof = decode_ring_proof(bytes))
    check_names_a_member(check_ring_proof(*proof, mean), proof->view());
  return 0;
}
