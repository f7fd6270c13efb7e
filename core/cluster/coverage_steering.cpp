#include "cluster/coverage_steering.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <stdexcept>
#include <string>

namespace rookery::cluster {

namespace {

// Pipelines that share (or will share) one set of cuts.
struct AlignedSet {
  std::vector<std::size_t> pipelines;            // indices into the plan
  std::vector<int> boundaries;                   // shared cuts; empty while the set is one pipeline
  double samples_per_s = 0;                      // its pipelines' total under those cuts
  double unaligned_samples_per_s = 0;            // ... under their own cuts
  std::size_t stages = 0;                        // the length of each of its pipelines
  int version = 0;                               // bumped when it grows
  bool alive = true;                             // false once merged into another
  bool ranked = false;                           // in a large group: candidates are its neighbours
  bool grown = false;                            // took another set in
  bool fixed = false;                            // holds a frozen pipeline: the set takes its cuts
  std::size_t prev = SIZE_MAX, next = SIZE_MAX;  // neighbours in rate order (large groups)
};

struct Candidate {
  double per_seat = 0;  // samples/s lost per seat that gets an exact replica
  double cost = 0;
  std::size_t a = 0, b = 0;
  int version_a = 0, version_b = 0;
  std::vector<int> boundaries;
  double samples_per_s = 0;  // the merged set's
};

struct Costlier {
  bool operator()(const Candidate& x, const Candidate& y) const {
    if (x.per_seat != y.per_seat) return x.per_seat > y.per_seat;
    if (x.a != y.a) return x.a > y.a;
    return x.b > y.b;
  }
};

class Steering {
 public:
  Steering(const ClusterPlan& plan, const std::vector<NodeProfile>& nodes,
           const std::vector<BlockProfile>& blocks, const TrainingSettings& settings,
           const SteeringOptions& options, SteeringReport& report)
      : plan_(plan),
        nodes_(nodes),
        blocks_(blocks),
        settings_(settings),
        options_(options),
        report_(report) {}

  ClusterPlan run() {
    double unsteered = 0;
    for (const auto& p : plan_.pipelines) unsteered += p.samples_per_s;
    report_.unsteered_samples_per_s = unsteered;
    form_groups();
    const double allowed = options_.margin * unsteered;
    double lost = 0;
    while (!heap_.empty()) {
      auto c = heap_.top();
      heap_.pop();
      auto& a = sets_[c.a];
      auto& b = sets_[c.b];
      if (!a.alive || !b.alive || a.version != c.version_a || b.version != c.version_b) continue;
      if (lost + c.cost > allowed) {
        ++report_.rejected;
        continue;
      }
      lost += c.cost;
      merge(c);
    }
    align_whole_groups(lost, allowed);
    return steered_plan();
  }

 private:
  // One set per pipeline; pipelines of one length (two stages or more, not frozen) are a group,
  // and the first candidates are drawn within each group.
  void form_groups() {
    std::map<std::size_t, std::vector<std::size_t>> by_length;
    std::map<std::vector<int>, std::size_t> by_cuts;
    for (std::size_t p = 0; p < plan_.pipelines.size(); ++p) {
      const auto& pipeline = plan_.pipelines[p];
      for (const auto& s : pipeline.stages) {
        if (s.node_index < 0 || static_cast<std::size_t>(s.node_index) >= nodes_.size())
          throw std::invalid_argument("coverage steering: stage of node '" + s.node_id +
                                      "' has no profile");
      }
      AlignedSet set;
      set.pipelines = {p};
      set.samples_per_s = set.unaligned_samples_per_s = pipeline.samples_per_s;
      set.stages = pipeline.stages.size();
      sets_.push_back(std::move(set));
      owner_.push_back(p);
      const bool frozen = !options_.frozen.empty() && options_.frozen[p];
      if (pipeline.stages.size() < 2) continue;
      if (frozen) {
        sets_[p].fixed = true;
        sets_[p].boundaries = pipeline.boundaries();
      } else {
        lengths_[pipeline.stages.size()].push_back(p);
      }
      // Pipelines already cut alike are one set from the start: joining them gains nothing.
      const auto [alike, fresh] = by_cuts.try_emplace(pipeline.boundaries(), p);
      if (fresh) {
        by_length[pipeline.stages.size()].push_back(p);
        continue;
      }
      auto& into = sets_[alike->second];
      into.pipelines.push_back(p);
      into.boundaries = alike->first;
      into.samples_per_s += pipeline.samples_per_s;
      into.unaligned_samples_per_s += pipeline.samples_per_s;
      into.fixed = into.fixed || frozen;
      sets_[p].alive = false;
      owner_[p] = alike->second;
    }
    for (auto& [length, group] : by_length) {
      if (group.size() < 2) continue;
      if (group.size() <= kAllPairsMaxPipelines) {
        for (std::size_t i = 0; i < group.size(); ++i)
          for (std::size_t j = i + 1; j < group.size(); ++j) consider(group[i], group[j]);
        groups_.push_back(group);
        continue;
      }
      std::stable_sort(group.begin(), group.end(), [&](std::size_t x, std::size_t y) {
        return pace(sets_[x]) < pace(sets_[y]);
      });
      for (const auto p : group) sets_[p].ranked = true;
      for (std::size_t i = 0; i + 1 < group.size(); ++i) {
        sets_[group[i]].next = group[i + 1];
        sets_[group[i + 1]].prev = group[i];
        consider(group[i], group[i + 1]);
      }
    }
  }

  // A set's samples/s per pipeline.
  static double pace(const AlignedSet& set) {
    return set.samples_per_s / static_cast<double>(set.pipelines.size());
  }

  // Queue the shared cuts of sets a and b when they give some seat an exact replica and fit.
  void consider(std::size_t a, std::size_t b) {
    if (a == SIZE_MAX || b == SIZE_MAX) return;
    const auto& x = sets_[a];
    const auto& y = sets_[b];
    if (!x.alive || !y.alive || x.stages != y.stages) return;
    if (x.pipelines.size() + y.pipelines.size() > options_.max_aligned) return;
    const std::size_t gain =
        (x.pipelines.size() == 1 ? x.stages : 0) + (y.pipelines.size() == 1 ? y.stages : 0);
    if (gain == 0 || (x.fixed && y.fixed)) return;
    Candidate c;
    if (x.fixed || y.fixed) {
      // A frozen pipeline's cuts stay: the other set takes them, or nothing.
      const auto& kept = x.fixed ? x : y;
      const auto& moved = x.fixed ? y : x;
      c.boundaries = kept.boundaries;
      c.samples_per_s = kept.samples_per_s;
      ++report_.evaluated;
      for (const auto p : moved.pipelines) {
        std::vector<int> order;
        for (const auto& s : plan_.pipelines[p].stages) order.push_back(s.node_index);
        const auto timed = evaluate_plan(nodes_, order, c.boundaries, blocks_, settings_);
        if (!timed.ok()) return;  // over some node's memory
        c.samples_per_s += timed.plan->samples_per_s;
      }
    } else {
      std::vector<std::vector<NodeProfile>> chains;
      for (const auto* set : {&x, &y}) {
        for (const auto p : set->pipelines) {
          auto& chain = chains.emplace_back();
          for (const auto& s : plan_.pipelines[p].stages)
            chain.push_back(nodes_[static_cast<std::size_t>(s.node_index)]);
        }
      }
      ++report_.evaluated;
      const auto shared = partition_uniform(chains, blocks_, settings_);
      if (!shared.ok()) return;  // no shared cut fits everyone's memory
      for (const auto& p : shared.pipelines) c.samples_per_s += p.samples_per_s;
      c.boundaries = shared.boundaries;
    }
    if (c.samples_per_s <
        (1 - options_.set_margin) * (x.unaligned_samples_per_s + y.unaligned_samples_per_s)) {
      ++report_.rejected;  // these pipelines would lose more than the margin of their own pace
      return;
    }
    c.cost = std::max(0.0, x.samples_per_s + y.samples_per_s - c.samples_per_s);
    c.per_seat = c.cost / static_cast<double>(gain);
    c.a = std::min(a, b);
    c.b = std::max(a, b);
    c.version_a = sets_[c.a].version;
    c.version_b = sets_[c.b].version;
    heap_.push(std::move(c));
  }

  void merge(const Candidate& c) {
    auto& into = sets_[c.a];
    auto& gone = sets_[c.b];
    into.pipelines.insert(into.pipelines.end(), gone.pipelines.begin(), gone.pipelines.end());
    std::sort(into.pipelines.begin(), into.pipelines.end());
    into.boundaries = c.boundaries;
    into.samples_per_s = c.samples_per_s;
    into.unaligned_samples_per_s += gone.unaligned_samples_per_s;
    ++into.version;
    into.grown = true;
    into.fixed = into.fixed || gone.fixed;
    gone.alive = false;
    for (const auto p : gone.pipelines) owner_[p] = c.a;
    const bool full = into.pipelines.size() >= options_.max_aligned;
    if (into.ranked) {
      // Neighbours in rate order: `gone` leaves the list; a full set leaves it too, and its
      // neighbours become each other's.
      unlink(c.b);
      if (full) {
        const auto prev = into.prev, next = into.next;
        unlink(c.a);
        consider(prev, next);
      } else {
        consider(into.prev, c.a);
        consider(c.a, into.next);
      }
      return;
    }
    if (full) return;
    for (const auto& group : groups_) {
      if (std::find(group.begin(), group.end(), c.a) == group.end()) continue;
      for (const auto other : group)
        if (other != c.a) consider(c.a, other);
    }
  }

  void unlink(std::size_t s) {
    auto& set = sets_[s];
    if (set.prev != SIZE_MAX) sets_[set.prev].next = set.next;
    if (set.next != SIZE_MAX) sets_[set.next].prev = set.prev;
    set.prev = set.next = SIZE_MAX;
  }

  // Each length group cut as one, as the uniform planner cuts it, instead of the sets the greedy
  // formed, when that predicts no less, or when it gives seats exact replicas the sets left
  // without and stays within both margins. (Sets of neighbours can cost more than the whole
  // group's one cut, which minimises the slowest pipeline's bottleneck.)
  void align_whole_groups(double lost, double allowed) {
    for (const auto& [length, group] : lengths_) {
      std::set<std::size_t> owners;
      bool fixed = false;
      for (const auto p : group) {
        owners.insert(owner_[p]);
        fixed = fixed || sets_[owner_[p]].fixed;
      }
      if (owners.size() < 2 || fixed) continue;  // a frozen pipeline's cuts stay
      double greedy = 0, unaligned = 0;
      bool alone = false;  // some pipeline still without an exact replica
      for (const auto o : owners) {
        greedy += sets_[o].samples_per_s;
        unaligned += sets_[o].unaligned_samples_per_s;
        alone = alone || sets_[o].pipelines.size() == 1;
      }
      std::vector<std::vector<NodeProfile>> chains;
      for (const auto p : group) {
        auto& chain = chains.emplace_back();
        for (const auto& st : plan_.pipelines[p].stages)
          chain.push_back(nodes_[static_cast<std::size_t>(st.node_index)]);
      }
      ++report_.evaluated;
      const auto shared = partition_uniform(chains, blocks_, settings_);
      if (!shared.ok()) continue;
      double whole = 0;
      for (const auto& pp : shared.pipelines) whole += pp.samples_per_s;
      const bool affordable = alone && whole >= (1 - options_.set_margin) * unaligned &&
                              lost + (greedy - whole) <= allowed;
      if (whole < greedy && !affordable) {
        ++report_.rejected;
        continue;
      }
      lost += greedy - whole;
      const auto into = *owners.begin();
      for (const auto o : owners) sets_[o].alive = false;
      auto& set = sets_[into];
      set.alive = set.grown = true;
      set.pipelines = group;
      set.boundaries = shared.boundaries;
      set.samples_per_s = whole;
      set.unaligned_samples_per_s = unaligned;
      for (const auto p : group) owner_[p] = into;
    }
  }

  // Seats whose range another seat holds exactly.
  static long exact_seats(const ClusterPlan& plan) {
    std::map<std::pair<int, int>, long> holders;
    for (const auto& p : plan.pipelines)
      for (const auto& s : p.stages) ++holders[{s.first_block, s.last_block}];
    long exact = 0;
    for (const auto& p : plan.pipelines)
      for (const auto& s : p.stages) exact += holders[{s.first_block, s.last_block}] >= 2 ? 1 : 0;
    return exact;
  }

  // The plan with each aligned set's cuts, every pipeline re-timed with the time model; the plan
  // as it was if the new cuts lost more exact replicas (of pipelines whose cuts matched by
  // chance) than they made.
  ClusterPlan steered_plan() {
    ClusterPlan out = plan_;
    for (const auto& set : sets_) {
      if (!set.alive || !set.grown) continue;
      ++report_.aligned_sets;
      report_.aligned_pipelines += static_cast<int>(set.pipelines.size());
      for (const auto p : set.pipelines) {
        std::vector<int> order;
        for (const auto& s : plan_.pipelines[p].stages) order.push_back(s.node_index);
        auto timed = evaluate_plan(nodes_, order, set.boundaries, blocks_, settings_);
        if (!timed.ok())  // partition_uniform checked every node's memory
          throw std::logic_error("coverage steering: shared cuts overrun memory: " +
                                 timed.infeasible.reason);
        out.pipelines[p] = std::move(*timed.plan);
      }
    }
    out.samples_per_s = 0;
    for (const auto& p : out.pipelines) out.samples_per_s += p.samples_per_s;
    if (exact_seats(out) < exact_seats(plan_)) {
      report_.aligned_sets = report_.aligned_pipelines = 0;
      report_.steered_samples_per_s = report_.unsteered_samples_per_s;
      return plan_;
    }
    report_.steered_samples_per_s = out.samples_per_s;
    return out;
  }

  const ClusterPlan& plan_;
  const std::vector<NodeProfile>& nodes_;
  const std::vector<BlockProfile>& blocks_;
  const TrainingSettings& settings_;
  const SteeringOptions& options_;
  SteeringReport& report_;
  std::map<std::size_t, std::vector<std::size_t>> lengths_;  // steerable pipelines by length
  std::vector<std::size_t> owner_;                           // each pipeline's set
  std::vector<AlignedSet> sets_;                             // one per pipeline at first, by index
  std::vector<std::vector<std::size_t>> groups_;             // small groups' sets (all pairs)
  std::priority_queue<Candidate, std::vector<Candidate>, Costlier> heap_;
};

}  // namespace

ClusterPlan steer_for_coverage(const ClusterPlan& plan, const std::vector<NodeProfile>& nodes,
                               const std::vector<BlockProfile>& blocks,
                               const TrainingSettings& settings, const SteeringOptions& options,
                               SteeringReport* report) {
  for (const double m : {options.margin, options.set_margin}) {
    if (!(m >= 0 && m < 1))
      throw std::invalid_argument("coverage steering: margin " + std::to_string(m) +
                                  " is not in [0, 1)");
  }
  if (!options.frozen.empty() && options.frozen.size() != plan.pipelines.size())
    throw std::invalid_argument("coverage steering: " + std::to_string(options.frozen.size()) +
                                " frozen flags for " + std::to_string(plan.pipelines.size()) +
                                " pipelines");
  if (options.max_aligned < 2)
    throw std::invalid_argument("coverage steering: an aligned set needs two pipelines or more");
  SteeringReport local;
  auto& r = report ? *report : local;
  r = {};
  return Steering(plan, nodes, blocks, settings, options, r).run();
}

}  // namespace rookery::cluster
