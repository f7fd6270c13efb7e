#include "cluster/check_coverage.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

namespace rookery::cluster {

const char* check_kind_name(CheckKind k) {
  switch (k) {
    case CheckKind::Exact:
      return "exact";
    case CheckKind::Composed:
      return "composed";
    case CheckKind::None:
      break;
  }
  return "none";
}

namespace {

// The first block of [first, last) that no holder but `key` has (last when there is none).
std::int64_t first_uncovered(const std::vector<HeldRange>& all, const std::string& key,
                             std::int64_t first, std::int64_t last) {
  for (std::int64_t b = first; b < last; ++b) {
    bool held = false;
    for (const auto& h : all) held = held || (h.key != key && h.first <= b && b < h.last);
    if (!held) return b;
  }
  return last;
}

}  // namespace

CoverageReport check_coverage(const std::vector<std::vector<HeldRange>>& pipelines,
                              std::uint64_t seed,
                              const std::vector<std::vector<std::size_t>>& views) {
  if (!views.empty() && views.size() != pipelines.size())
    throw std::invalid_argument("check_coverage: " + std::to_string(views.size()) + " views for " +
                                std::to_string(pipelines.size()) + " pipelines");
  std::vector<HeldRange> all;
  for (const auto& p : pipelines) all.insert(all.end(), p.begin(), p.end());
  // Each stage looks only at holders overlapping it (a large swarm's plan has thousands of
  // stages): exact replicas by their range, and, first, a few random holders of each of its
  // blocks; all that overlap it only when those give fewer than two chains.
  std::int64_t model_blocks = 0;
  for (const auto& h : all) model_blocks = std::max(model_blocks, h.last);
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::size_t>> by_range;
  std::vector<std::vector<std::size_t>> by_block(static_cast<std::size_t>(model_blocks));
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].first < 0 || all[i].first >= all[i].last) continue;
    by_range[{all[i].first, all[i].last}].push_back(i);
    for (auto b = all[i].first; b < all[i].last; ++b)
      by_block[static_cast<std::size_t>(b)].push_back(i);
  }
  std::mt19937_64 rng(seed);
  constexpr std::size_t kPerBlock = 8;
  const auto overlapping = [&](std::int64_t a, std::int64_t b, bool sample) {
    std::set<std::size_t> picked;
    const auto& exact = by_range[{a, b}];
    for (std::size_t k = 0; k < exact.size() && (!sample || k < 3); ++k) picked.insert(exact[k]);
    for (auto block = a; block < b; ++block) {
      const auto& holding = by_block[static_cast<std::size_t>(block)];
      if (!sample || holding.size() <= kPerBlock) {
        picked.insert(holding.begin(), holding.end());
        continue;
      }
      std::uniform_int_distribution<std::size_t> any(0, holding.size() - 1);
      for (std::size_t k = 0; k < kPerBlock; ++k) picked.insert(holding[any(rng)]);
    }
    std::vector<HeldRange> near;
    for (const auto i : picked) near.push_back(all[i]);
    return near;
  };
  // The holders of pipeline p's view overlapping [a, b): a few dozen pipelines' seats at most.
  const auto in_view = [&](std::size_t p, std::int64_t a, std::int64_t b) {
    std::vector<HeldRange> near;
    for (const auto q : views[p]) {
      for (const auto& h : pipelines.at(q)) {
        if (h.first < h.last && h.first < b && a < h.last) near.push_back(h);
      }
    }
    return near;
  };
  CoverageReport report;
  for (std::size_t p = 0; p < pipelines.size(); ++p) {
    for (std::size_t s = 0; s < pipelines[p].size(); ++s) {
      const auto& h = pipelines[p][s];
      StageCoverage c;
      c.pipeline = static_cast<int>(p);
      c.stage = static_cast<int>(s);
      c.key = h.key;
      c.first = h.first;
      c.last = h.last;
      if (pipelines[p].size() < 2) {
        c.why = "alone in its pipeline: no stage receives its work";
      } else if (h.first >= h.last) {
        c.why = "holds no blocks";
      } else {
        auto near =
            views.empty() ? overlapping(h.first, h.last, true) : in_view(p, h.first, h.last);
        auto chains = find_verifier_chains(near, h.first, h.last, {h.key}, rng, 2);
        if (chains.size() < 2 && views.empty()) {  // perhaps the sample missed someone
          near = overlapping(h.first, h.last, false);
          chains = find_verifier_chains(near, h.first, h.last, {h.key}, rng, 2);
        }
        c.chains = static_cast<int>(chains.size());
        if (!chains.empty()) {
          c.links = static_cast<int>(chains.front().size());
          c.kind = is_exact(chains.front(), near) ? CheckKind::Exact : CheckKind::Composed;
        } else {
          c.why = "block " + std::to_string(first_uncovered(near, h.key, h.first, h.last)) +
                  " is held by nobody else";
        }
      }
      switch (c.kind) {
        case CheckKind::Exact:
          ++report.exact;
          break;
        case CheckKind::Composed:
          ++report.composed;
          break;
        case CheckKind::None:
          ++report.unchecked;
          break;
      }
      if (c.chains >= 2) ++report.two_chains;
      report.stages.push_back(std::move(c));
    }
  }
  return report;
}

CoverageReport check_coverage(const ClusterPlan& plan, std::uint64_t seed) {
  std::vector<std::vector<HeldRange>> pipelines;
  for (const auto& p : plan.pipelines) {
    auto& held = pipelines.emplace_back();
    for (const auto& s : p.stages) held.push_back({s.node_id, s.first_block, s.last_block});
  }
  return check_coverage(pipelines, seed);
}

std::string summary(const CoverageReport& r) {
  return std::to_string(r.stages.size()) + " stages: " + std::to_string(r.exact) + " exact, " +
         std::to_string(r.composed) + " composed, " + std::to_string(r.unchecked) + " unchecked; " +
         std::to_string(r.two_chains) + " with two chains";
}

}  // namespace rookery::cluster
