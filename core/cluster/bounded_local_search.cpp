// The packing planner's polish: moves and swaps of single nodes between pipelines of one tier,
// within a fixed budget of pipeline cuts (see planning.hpp, "Packing against a target
// bottleneck", step 5).
#include "cluster/planning.hpp"
#include "cluster/planning_detail.hpp"

#include <algorithm>
#include <map>

namespace rookery::cluster {
using namespace detail;

namespace {

/// Samples/s of a group cut by the DP (0 when it holds no plan), each group cut once.
class Rates {
 public:
  Rates(const std::vector<NodeProfile>& nodes, const Chain& chain, const PartitionOptions& options,
        long budget)
      : nodes_(nodes), chain_(chain), options_(options), budget_(budget) {}

  bool spent() const { return budget_ <= 0; }

  double rate(std::vector<int> group) {
    std::sort(group.begin(), group.end());
    const auto found = cache_.find(group);
    if (found != cache_.end()) return found->second;
    --budget_;
    const auto plan = cut_group(group, nodes_, chain_, options_);
    const double r = plan ? plan->samples_per_s : 0.0;
    cache_.emplace(std::move(group), r);
    return r;
  }

 private:
  const std::vector<NodeProfile>& nodes_;
  const Chain& chain_;
  const PartitionOptions& options_;
  long budget_;
  std::map<std::vector<int>, double> cache_;
};

}  // namespace

void detail::polish_pipelines(ClusterPlan& plan, size_t first,
                              const std::vector<NodeProfile>& nodes, const Chain& chain,
                              const PackingOptions& options) {
  // Moves are judged with the seed orders alone (no exact order search): a tenth of the cost
  // for groups of a few nodes, so the budget reaches ten times the pairs; the changed groups
  // get the full cut at the end.
  PartitionOptions quick = options.partition;
  quick.exact_order_max_nodes = 1;
  quick.local_search_rounds = 0;
  Rates rates(nodes, chain, quick, options.local_search_cuts);
  int tiers = 0;
  for (size_t p = first; p < plan.pipelines.size(); ++p) tiers = std::max(tiers, plan.tier[p] + 1);
  for (int t = 0; t < tiers && !rates.spent(); ++t) {
    std::vector<std::vector<int>> groups;
    std::vector<double> rate;
    std::vector<size_t> slot;  // where each group sits in the plan
    for (size_t p = first; p < plan.pipelines.size(); ++p)
      if (plan.tier[p] == t) {
        groups.push_back(members(plan.pipelines[p]));
        rate.push_back(plan.pipelines[p].samples_per_s);
        slot.push_back(p);
      }
    std::vector<bool> changed(groups.size(), false);
    auto gain = [](double after, double before) { return after > before * (1 + 1e-9); };
    // Pairs of pipelines close in speed first: with a budget that does not reach every pair
    // (a large swarm), the pairs most alike are the likeliest to trade a node usefully, as in
    // form_pipelines the greedy groups' neighbours are.
    for (int pass = 0; pass < options.local_search_passes && !rates.spent(); ++pass) {
      std::vector<size_t> by_rate(groups.size());
      for (size_t k = 0; k < by_rate.size(); ++k) by_rate[k] = k;
      std::stable_sort(by_rate.begin(), by_rate.end(),
                       [&](size_t a, size_t b) { return rate[a] < rate[b]; });
      bool improved = false;
      for (size_t d = 1; d < by_rate.size() && !rates.spent(); ++d)
        for (size_t k = 0; k + d < by_rate.size() && !rates.spent(); ++k) {
          const size_t g = by_rate[k], h = by_rate[k + d];
          // Move one node either way, then swap one for one.
          for (const auto& [from, to] : {std::pair{g, h}, std::pair{h, g}})
            for (size_t i = 0; i < groups[from].size() && groups[from].size() > 1; ++i) {
              if (int(groups[to].size()) >= chain.blocks) break;
              std::vector<int> a = groups[from], b = groups[to];
              b.push_back(a[i]);
              a.erase(a.begin() + long(i));
              const double ra = rates.rate(a), rb = rates.rate(b);
              if (ra > 0 && rb > 0 && gain(ra + rb, rate[from] + rate[to])) {
                groups[from] = std::move(a);
                groups[to] = std::move(b);
                rate[from] = ra;
                rate[to] = rb;
                changed[from] = changed[to] = improved = true;
                --i;  // the next node now sits at i
              }
            }
          for (size_t i = 0; i < groups[g].size(); ++i)
            for (size_t j = 0; j < groups[h].size(); ++j) {
              std::vector<int> a = groups[g], b = groups[h];
              std::swap(a[i], b[j]);
              const double ra = rates.rate(a), rb = rates.rate(b);
              if (ra > 0 && rb > 0 && gain(ra + rb, rate[g] + rate[h])) {
                groups[g] = std::move(a);
                groups[h] = std::move(b);
                rate[g] = ra;
                rate[h] = rb;
                changed[g] = changed[h] = improved = true;
              }
            }
        }
      if (!improved) break;
    }
    for (size_t k = 0; k < groups.size(); ++k) {
      if (!changed[k]) continue;
      auto cut = cut_group(groups[k], nodes, chain, options.partition);
      if (!cut) {
        // The order search depends on the order it is given, and can miss the order that
        // priced the group: use that cut (Rates' own), never keep the old pipeline, which
        // would seat the moved node twice.
        std::vector<int> sorted = groups[k];
        std::sort(sorted.begin(), sorted.end());
        cut = cut_group(sorted, nodes, chain, quick);
      }
      if (!cut) continue;  // cannot happen: Rates priced the group with this very cut
      PipelinePlan& old = plan.pipelines[slot[k]];
      plan.samples_per_s += cut->samples_per_s - old.samples_per_s;
      old = std::move(*cut);
    }
  }
}

}  // namespace rookery::cluster
