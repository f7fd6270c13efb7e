#include "reduce/peer_exclusion.hpp"

#include <algorithm>
#include <stdexcept>

namespace rookery::reduce {

PeerExclusion::PeerExclusion(std::uint32_t strikes, std::uint32_t exclusion_rounds)
    : strikes_(strikes), exclusion_rounds_(exclusion_rounds) {
  if (strikes_ == 0) throw std::invalid_argument("peer exclusion: strikes must be at least 1");
}

std::vector<std::string> PeerExclusion::end_round(const std::map<std::string, AggregationTally::Counts>& counts) {
  std::lock_guard lock(mutex_);
  std::vector<std::string> newly;
  for (const auto& [name, now] : counts) {
    auto& m = members_[name];
    const auto seen = now.seen - m.seen_before.seen;
    const auto bad = (now.clipped_hard - m.seen_before.clipped_hard) + (now.rejected - m.seen_before.rejected);
    m.seen_before = now;
    if (m.excluded_for > 0) {
      --m.excluded_for;
      continue;  // not aggregated while excluded: nothing to judge
    }
    if (seen == 0) continue;  // not in this round's slices here: strikes stand
    m.strikes = (bad == seen) ? m.strikes + 1 : 0;
    if (m.strikes >= strikes_) {
      // A repeat offender stays out twice as long each time (up to 64x): heard again after
      // its first exclusion, a liar that goes on lying gets only a few rounds in.
      m.strikes = 0;
      m.excluded_for = exclusion_rounds_ << std::min<std::uint32_t>(m.offenses, 6);
      ++m.offenses;
      newly.push_back(name);
    }
  }
  return newly;
}

bool PeerExclusion::excluded(std::string_view member) const {
  std::lock_guard lock(mutex_);
  const auto it = members_.find(member);
  return it != members_.end() && it->second.excluded_for > 0;
}

std::vector<std::string> PeerExclusion::excluded_members() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [name, m] : members_) {
    if (m.excluded_for > 0) out.push_back(name);
  }
  return out;
}

ExcludingAggregator::ExcludingAggregator(std::shared_ptr<const Aggregator> inner,
                                         std::shared_ptr<const PeerExclusion> exclusion)
    : inner_(std::move(inner)), exclusion_(std::move(exclusion)) {
  if (!inner_ || !exclusion_) throw std::invalid_argument("ExcludingAggregator needs an aggregator and an exclusion list");
}

void ExcludingAggregator::aggregate(std::span<const Contribution> contributions, std::span<float> out) const {
  std::vector<Contribution> kept;
  kept.reserve(contributions.size());
  for (const auto& c : contributions) {
    if (!exclusion_->excluded(c.member)) kept.push_back(c);
  }
  if (kept.empty()) {
    inner_->aggregate(contributions, out);
  } else {
    inner_->aggregate(kept, out);
  }
}

}  // namespace rookery::reduce
