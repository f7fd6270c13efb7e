#include "coordinator/witness_index.hpp"

#include <algorithm>

namespace rookery::coordinator {

namespace {

// How many of `sorted` are below `x`, and how many equal it.
std::size_t below(const std::vector<std::int64_t>& sorted, std::int64_t x) {
  return static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), x) -
                                  sorted.begin());
}
std::size_t equal(const std::vector<std::int64_t>& sorted, std::int64_t x) {
  const auto [from, to] = std::equal_range(sorted.begin(), sorted.end(), x);
  return static_cast<std::size_t>(to - from);
}

}  // namespace

void WitnessIndex::build(const Assignment& plan, std::int64_t averaging_max_group) {
  views_ = PlanViews(plan.pipelines.size(), averaging_max_group);
  seats_.clear();
  firsts_.clear();
  lasts_.clear();
  pipelines_.assign(plan.pipelines.size(), {});
  for (std::size_t p = 0; p < plan.pipelines.size(); ++p) {
    for (const auto& s : plan.pipelines[p]) {
      seats_[s.key] = {p, s.first_block, s.last_block};
      firsts_.push_back(s.first_block);
      lasts_.push_back(s.last_block);
      pipelines_[p].emplace_back(s.first_block, s.last_block);
    }
  }
  std::sort(firsts_.begin(), firsts_.end());
  std::sort(lasts_.begin(), lasts_.end());
}

std::optional<WitnessCounts> WitnessIndex::counts(const std::string& key) const {
  return count(key, nullptr);
}

std::optional<BanVerdict> WitnessIndex::vote(const std::string& key,
                                             const BanReports& reports) const {
  const auto c = count(key, &reports);
  if (!c) return std::nullopt;
  return ban_vote(*c);
}

std::optional<WitnessCounts> WitnessIndex::count(const std::string& key,
                                                 const BanReports* reports) const {
  const auto it = seats_.find(key);
  if (it == seats_.end()) return std::nullopt;
  const Place& me = it->second;
  const auto overlaps = [&me](std::int64_t first, std::int64_t last) {
    return first < me.last && me.first < last;
  };
  WitnessCounts c;
  if (views_.whole()) {
    // Seats of other pipelines holding any of its blocks: every seat that starts before its
    // end, less those that end at or before its start, less its own pipeline's.
    std::size_t overlapping =
        below(firsts_, me.last) - (below(lasts_, me.first) + equal(lasts_, me.first));
    for (const auto& [first, last] : pipelines_[me.pipeline]) overlapping -= overlaps(first, last);
    c.ring_partners = overlapping;
    c.sends_to = equal(firsts_, me.last);  // SWARM's wiring: the next stage in any pipeline
    c.returns_gradients_to = equal(lasts_, me.first);
  } else {
    for (const auto q : views_.of(me.pipeline)) {
      for (const auto& [first, last] : pipelines_[q]) {
        c.ring_partners += q != me.pipeline && overlaps(first, last);
        c.sends_to += first == me.last;
        c.returns_gradients_to += last == me.first;
      }
    }
  }
  if (!reports) return c;
  // Reporters count where they are witnesses: seats of the pipelines its view holds.
  const auto place_of = [this, &me](const std::string& k) -> const Place* {
    const auto r = seats_.find(k);
    if (r == seats_.end() || !views_.sees(me.pipeline, r->second.pipeline)) return nullptr;
    return &r->second;
  };
  for (const auto& k : reports->excluded_by) {
    const auto* r = place_of(k);
    c.excluders += r && r->pipeline != me.pipeline && overlaps(r->first, r->last);
  }
  for (const auto& k : reports->caught_by) {
    const auto* r = place_of(k);
    if (!r) continue;
    c.activation_catchers += r->first == me.last;
    c.gradient_catchers += r->last == me.first;
  }
  return c;
}

}  // namespace rookery::coordinator
