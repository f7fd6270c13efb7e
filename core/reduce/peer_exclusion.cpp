#include "reduce/peer_exclusion.hpp"

#include <algorithm>
#include <stdexcept>

namespace rookery::reduce {

PeerExclusion::PeerExclusion(std::uint32_t strikes, std::uint32_t exclusion_rounds)
    : strikes_(strikes), exclusion_rounds_(exclusion_rounds) {
  if (strikes_ == 0) throw std::invalid_argument("peer exclusion: strikes must be at least 1");
}

std::vector<std::string> PeerExclusion::end_round(
    const std::map<std::string, AggregationTally::Counts>& counts) {
  return end_round(std::span<const Tally>(&counts, 1));
}

std::vector<std::string> PeerExclusion::end_round(std::span<const Tally> tallies) {
  std::lock_guard lock(mutex_);
  std::vector<std::string> newly;
  std::map<std::string, std::vector<const AggregationTally::Counts*>>
      now;  // member -> its counts in each tally
  for (std::size_t t = 0; t < tallies.size(); ++t) {
    for (const auto& [name, c] : tallies[t]) {
      auto& v = now[name];
      v.resize(tallies.size(), nullptr);
      v[t] = &c;
    }
  }
  for (const auto& [name, counts] : now) {
    auto& m = members_[name];
    m.seen_before.resize(tallies.size());
    bool seen_any = false, all_bad_somewhere = false;
    for (std::size_t t = 0; t < tallies.size(); ++t) {
      if (!counts[t]) continue;
      const auto& c = *counts[t];
      auto& before = m.seen_before[t];
      const auto seen = c.seen - before.seen;
      const auto bad = (c.clipped_hard - before.clipped_hard) + (c.rejected - before.rejected);
      before = c;
      if (seen == 0) continue;
      seen_any = true;
      all_bad_somewhere = all_bad_somewhere || bad == seen;
    }
    if (m.excluded_for > 0) {
      --m.excluded_for;
      continue;  // not aggregated while excluded: nothing to judge
    }
    if (!seen_any) continue;  // not in this round's slices here: strikes stand
    m.strikes = all_bad_somewhere ? m.strikes + 1 : 0;
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

void PeerExclusion::exclude(const std::string& member) {
  std::lock_guard lock(mutex_);
  auto& m = members_[member];
  m.strikes = 0;
  m.excluded_for =
      std::max(m.excluded_for, exclusion_rounds_ << std::min<std::uint32_t>(m.offenses, 6));
  ++m.offenses;
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
  if (!inner_ || !exclusion_)
    throw std::invalid_argument("ExcludingAggregator needs an aggregator and an exclusion list");
}

std::vector<bool> ExcludingAggregator::left_out(std::span<const Contribution> contributions) const {
  std::vector<bool> out(contributions.size());
  bool kept_any = false;
  for (std::size_t i = 0; i < contributions.size(); ++i) {
    out[i] = exclusion_->excluded(contributions[i].member);
    kept_any = kept_any || !out[i];
  }
  if (!kept_any) out.assign(contributions.size(), false);
  return out;
}

void ExcludingAggregator::aggregate(std::span<const Contribution> contributions,
                                    std::span<float> out) const {
  std::vector<Contribution> kept;
  kept.reserve(contributions.size());
  const auto leave = left_out(contributions);
  for (std::size_t i = 0; i < contributions.size(); ++i) {
    if (!leave[i]) kept.push_back(contributions[i]);
  }
  if (kept.empty()) {
    inner_->aggregate(contributions, out);
  } else {
    inner_->aggregate(kept, out);
  }
}

}  // namespace rookery::reduce
