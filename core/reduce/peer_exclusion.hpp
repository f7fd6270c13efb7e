#pragma once
// Peers a node stops listening to. BTARD bans a peer once the swarm has verified that it
// lies; until such a verdict arrives (from the coordinator), each node protects itself: a
// ring partner whose contributions CenteredClip clipped hard or rejected in every slice of
// `strikes` consecutive rounds is excluded from this node's aggregates. It still receives
// the averages, so an honest node that was merely far off (restarted from an old checkpoint)
// is pulled back and stops drawing strikes; exclusion lasts `exclusion_rounds` rounds, then
// the peer is heard again (and excluded again if it goes on lying, each time twice as long,
// up to 64x).
//
// A node may tally apart what it aggregates apart (its parameters, its optimizer state):
// end_round then judges each tally on its own, and a member clipped hard or rejected in every
// slice of either draws the strike, so a liar cannot dilute its lies about the parameters
// with honest moments (or the reverse).
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reduce/aggregator.hpp"
#include "reduce/centered_clip.hpp"

namespace rookery::reduce {

class PeerExclusion {
 public:
  explicit PeerExclusion(std::uint32_t strikes = 3, std::uint32_t exclusion_rounds = 40);

  // After each averaging round, with the tally's counts at that moment: members clipped hard
  // or rejected in every slice of theirs this node aggregated during the round draw a strike;
  // any other verdict clears them. Returns the members newly excluded by this round.
  std::vector<std::string> end_round(const std::map<std::string, AggregationTally::Counts>& counts);
  // The same with several tallies, always passed in the same order: a strike when, in any of
  // them, every slice of the member's this node aggregated during the round went badly; any
  // other verdict in a tally that saw the member clears its strikes.
  using Tally = std::map<std::string, AggregationTally::Counts>;
  std::vector<std::string> end_round(std::span<const Tally> tallies);

  // A member caught lying with evidence (verified aggregation): excluded at once, as long as
  // a repeat offender would be (exclusion_rounds, doubling with each offense).
  void exclude(const std::string& member);

  bool excluded(std::string_view member) const;
  std::vector<std::string> excluded_members() const;

 private:
  struct Member {
    std::vector<AggregationTally::Counts>
        seen_before;  // each tally's counts at the previous round's end
    std::uint32_t strikes = 0;
    std::uint32_t excluded_for = 0;  // rounds of exclusion left
    std::uint32_t offenses = 0;      // exclusions so far
  };
  const std::uint32_t strikes_, exclusion_rounds_;
  mutable std::mutex mutex_;
  std::map<std::string, Member, std::less<>> members_;
};

// Leaves excluded members out, then aggregates the rest with `inner` (which must accept raw
// contributions: CenteredClip). Never leaves out everyone: with nobody left it keeps all.
class ExcludingAggregator final : public Aggregator {
 public:
  ExcludingAggregator(std::shared_ptr<const Aggregator> inner,
                      std::shared_ptr<const PeerExclusion> exclusion);
  std::string_view name() const override { return inner_->name(); }
  void aggregate(std::span<const Contribution> contributions, std::span<float> out) const override;
  std::vector<bool> left_out(std::span<const Contribution> contributions) const override;
  const Aggregator& without_exclusions() const override { return *inner_; }
  const Aggregator& verifiable() const override { return inner_->verifiable(); }

 private:
  std::shared_ptr<const Aggregator> inner_;
  std::shared_ptr<const PeerExclusion> exclusion_;
};

}  // namespace rookery::reduce
