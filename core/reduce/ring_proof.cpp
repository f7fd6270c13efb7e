#include "reduce/ring_proof.hpp"

namespace rookery::reduce {

std::vector<std::byte> tag_proof(ProofKind kind, std::span<const std::byte> proof) {
  std::vector<std::byte> out;
  out.reserve(proof.size() + 1);
  out.push_back(static_cast<std::byte>(kind));
  out.insert(out.end(), proof.begin(), proof.end());
  return out;
}

const std::vector<std::string>& RingProof::view() const {
  return std::visit([](const auto& p) -> const std::vector<std::string>& { return p.view; }, proof);
}

std::optional<RingProof> decode_ring_proof(std::span<const std::byte> tagged) {
  if (tagged.empty()) return std::nullopt;
  const auto body = tagged.subspan(1);
  switch (static_cast<ProofKind>(tagged[0])) {
    case ProofKind::aggregate:
      if (auto p = AggregationProof::decode(body)) return RingProof{std::move(*p)};
      return std::nullopt;
    case ProofKind::forwarding:
      if (auto p = ForwardingProof::decode(body)) return RingProof{std::move(*p)};
      return std::nullopt;
  }
  return std::nullopt;
}

ProofCheck check_ring_proof(const RingProof& proof, const Aggregator& aggregator) {
  if (const auto* a = std::get_if<AggregationProof>(&proof.proof))
    return check_aggregation_proof(*a, aggregator);
  return check_forwarding_proof(std::get<ForwardingProof>(proof.proof));
}

}  // namespace rookery::reduce
