#include "coordinator/ban_vote.hpp"

#include <cstddef>

#include "coordinator/plan_view.hpp"
#include "coordinator/verdicts.hpp"

namespace rookery::coordinator {

std::optional<BanWitnesses> ban_witnesses(const Assignment& plan, const std::string& key,
                                          std::int64_t averaging_max_group) {
  const auto [p, s] = plan.find(key);
  if (p < 0) return std::nullopt;
  const auto& seat = plan.pipelines[static_cast<std::size_t>(p)][static_cast<std::size_t>(s)];
  const PlanViews views(plan.pipelines.size(), averaging_max_group);
  BanWitnesses w;
  for (const auto q : views.of(static_cast<std::size_t>(p))) {
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
  WitnessCounts c;
  c.ring_partners = witnesses.ring_partners.size();
  c.excluders = count(witnesses.ring_partners, reports.excluded_by);
  c.sends_to = witnesses.sends_to.size();
  c.activation_catchers = count(witnesses.sends_to, reports.caught_by);
  c.returns_gradients_to = witnesses.returns_gradients_to.size();
  c.gradient_catchers = count(witnesses.returns_gradients_to, reports.caught_by);
  return ban_vote(c);
}

BanVerdict ban_vote(const WitnessCounts& c) {
  const auto verified = [](std::size_t reporters, std::size_t peers) {
    return reporters >= 2 && 2 * reporters > peers;
  };
  if (verified(c.excluders, c.ring_partners))
    return {true, verdict::counted(wire::pb::Verdict::RING_PARTNERS_REJECT, c.excluders,
                                   c.ring_partners)};
  if (verified(c.activation_catchers, c.sends_to))
    return {true, verdict::counted(wire::pb::Verdict::CAUGHT_IN_SPOT_CHECKS, c.activation_catchers,
                                   c.sends_to)};
  if (verified(c.gradient_catchers, c.returns_gradients_to)) {
    return {true, verdict::counted(wire::pb::Verdict::GRADIENTS_CAUGHT_IN_SPOT_CHECKS,
                                   c.gradient_catchers, c.returns_gradients_to)};
  }
  return {};
}

}  // namespace rookery::coordinator
