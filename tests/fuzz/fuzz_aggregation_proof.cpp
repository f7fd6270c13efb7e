// libFuzzer target: a proof of a lying aggregator (core/reduce/aggregation_proof.hpp), which the
// coordinator decodes and checks from any member's report. Every input that decodes is checked
// with the mean and with CenteredClip, and must re-encode to the same bytes; a check never
// throws, and a proof that proves names its owner among the members.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "reduce/aggregation_proof.hpp"
#include "reduce/centered_clip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rookery::reduce;
  static const WeightedMean mean;
  static const auto clip = make_aggregator(rookery::job::AggregatorSpec{});
  const auto bytes = std::as_bytes(std::span(data, size));
  const auto proof = AggregationProof::decode(bytes);
  if (!proof) return 0;
  const auto again = proof->encode();
  if (!std::equal(again.begin(), again.end(), bytes.begin(), bytes.end())) std::abort();
  for (const Aggregator* a : {static_cast<const Aggregator*>(&mean), &clip->verifiable()}) {
    const auto check = check_aggregation_proof(*proof, *a);
    if (check.proves &&
        std::find(proof->view.begin(), proof->view.end(), check.owner) == proof->view.end())
      std::abort();
  }
  return 0;
}
