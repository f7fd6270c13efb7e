#include "coordinator/ban_vote.hpp"

#include <cstddef>

#include "coordinator/verdicts.hpp"

namespace rookery::coordinator {

std::optional<BanWitnesses> ban_witnesses(const Assignment& plan, const std::string& key) {
  const auto [p, s] = plan.find(key);
  if (p < 0) return std::nullopt;
  const auto& seat = plan.pipelines[static_cast<std::size_t>(p)][static_cast<std::size_t>(s)];
  BanWitnesses w;
  for (std::size_t q = 0; q < plan.pipelines.size(); ++q) {
    for (const auto& other : plan.pipelines[q]) {
      // SWARM's wiring sends its micro-batches to every next stage, in any pipeline.
      if (other.first_block == seat.last_block) w.sends_to.insert(other.key);
      if (other.last_block == seat.first_block) w.returns_gradients_to.insert(other.key);
      if (static_cast<int>(q) == p) continue;
      if (other.first_block < seat.last_block && seat.first_block < other.last_block)
        w.ring_partners.insert(other.key);
    }
  }
  return w;
}

BanVerdict ban_vote(const BanWitnesses& witnesses, const BanReports& reports) {
  const auto count = [](const std::set<std::string>& peers, const std::set<std::string>& said) {
    std::size_t n = 0;
    for (const auto& k : peers) n += said.count(k);
    return n;
  };
  const auto verified = [](std::size_t reporters, std::size_t peers) {
    return reporters >= 2 && 2 * reporters > peers;
  };
  const std::size_t excluders = count(witnesses.ring_partners, reports.excluded_by);
  const std::size_t activation_catchers = count(witnesses.sends_to, reports.caught_by);
  const std::size_t gradient_catchers = count(witnesses.returns_gradients_to, reports.caught_by);
  if (verified(excluders, witnesses.ring_partners.size()))
    return {true, verdict::counted(wire::pb::Verdict::RING_PARTNERS_REJECT, excluders,
                                   witnesses.ring_partners.size())};
  if (verified(activation_catchers, witnesses.sends_to.size()))
    return {true, verdict::counted(wire::pb::Verdict::CAUGHT_IN_SPOT_CHECKS, activation_catchers,
                                   witnesses.sends_to.size())};
  if (verified(gradient_catchers, witnesses.returns_gradients_to.size())) {
    return {true, verdict::counted(wire::pb::Verdict::GRADIENTS_CAUGHT_IN_SPOT_CHECKS,
                                   gradient_catchers, witnesses.returns_gradients_to.size())};
  }
  return {};
}

}  // namespace rookery::coordinator
