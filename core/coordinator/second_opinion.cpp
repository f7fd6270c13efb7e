#include "coordinator/second_opinion.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace rookery::coordinator {

namespace {

const std::set<std::string>& side_of(const BanWitnesses& w, WitnessSide side) {
  return side == WitnessSide::activations ? w.sends_to : w.returns_gradients_to;
}

std::set<std::string> among(const std::set<std::string>& witnesses,
                            const std::set<std::string>& caught_by) {
  std::set<std::string> out;
  for (const auto& k : witnesses) {
    if (caught_by.contains(k)) out.insert(k);
  }
  return out;
}

// The pipeline's rate alone (0 when a seat overruns its member's memory or a member is gone).
double pipeline_rate(const std::vector<Seat>& pipeline,
                     const std::map<std::string, Member>& members, const job::JobSpec& job) {
  Assignment one;
  one.pipelines.push_back(pipeline);
  return predicted_rate(one, members, job);
}

}  // namespace

SecondOpinions::Outcome SecondOpinions::consider(const std::string& accused,
                                                 const BanWitnesses& witnesses,
                                                 const std::set<std::string>& caught_by) {
  constexpr WitnessSide kSides[] = {WitnessSide::activations, WitnessSide::gradients};
  const auto lone_catch = [&](WitnessSide side) {
    const auto& seen = side_of(witnesses, side);
    return seen.size() == 1 && caught_by.contains(*seen.begin());
  };
  auto it = records_.find(accused);
  if (it == records_.end()) {
    if (!lone_catch(WitnessSide::activations) && !lone_catch(WitnessSide::gradients)) return {};
    it = records_.emplace(accused, Record{}).first;
  }
  Record& r = it->second;
  Outcome out;
  for (const auto side : kSides) {
    Side& s = side == WitnessSide::activations ? r.activations : r.gradients;
    const Side& other = side == WitnessSide::activations ? r.gradients : r.activations;
    const auto& seen = side_of(witnesses, side);
    s.witnesses.insert(seen.begin(), seen.end());
    // A report names whom a node caught, not which way: a catcher of the other side, now a
    // witness of this one (the accused moved past it), is still saying the same thing.
    for (const auto& k : among(seen, caught_by)) {
      if (!other.catchers.contains(k)) s.catchers.insert(k);
    }
    if (!out.move && r.moves < kMaxSecondOpinionMoves && lone_catch(side) &&
        s.catchers.contains(*seen.begin()) && !s.moved_for.contains(*seen.begin())) {
      out.move = side;
    }
  }
  if (out.move) {
    out.avoid = r.activations.catchers;
    out.avoid.insert(r.gradients.catchers.begin(), r.gradients.catchers.end());
  }
  WitnessCounts c;
  c.sends_to = r.activations.witnesses.size();
  c.activation_catchers = r.activations.catchers.size();
  c.returns_gradients_to = r.gradients.witnesses.size();
  c.gradient_catchers = r.gradients.catchers.size();
  out.vote = ban_vote(c);
  if (out.vote.ban) out.move.reset();
  return out;
}

void SecondOpinions::moved(const std::string& accused, WitnessSide side) {
  const auto it = records_.find(accused);
  if (it == records_.end()) return;
  Side& s = side == WitnessSide::activations ? it->second.activations : it->second.gradients;
  s.moved_for.insert(s.catchers.begin(), s.catchers.end());
  ++it->second.moves;
}

std::vector<SecondOpinions::Redo> SecondOpinions::undone_by(
    const Assignment& plan, std::int64_t averaging_max_group) const {
  std::vector<Redo> out;
  for (const auto& [accused, r] : records_) {
    if (r.moves == 0) continue;
    const auto seen = ban_witnesses(plan, accused, averaging_max_group);
    if (!seen) continue;  // not seated: nothing to judge it by there
    std::set<std::string> catchers = r.activations.catchers;
    catchers.insert(r.gradients.catchers.begin(), r.gradients.catchers.end());
    for (const auto side : {WitnessSide::activations, WitnessSide::gradients}) {
      const Side& s = side == WitnessSide::activations ? r.activations : r.gradients;
      if (s.moved_for.empty()) continue;
      const auto& facing = side_of(*seen, side);
      const bool fresh = std::any_of(facing.begin(), facing.end(),
                                     [&](const std::string& k) { return !catchers.contains(k); });
      if (!fresh) {
        out.push_back({accused, side, catchers});
        break;
      }
    }
  }
  return out;
}

std::optional<Assignment> reseat_for_second_opinion(const Assignment& plan,
                                                    const std::map<std::string, Member>& members,
                                                    const job::JobSpec& job,
                                                    const std::string& accused, WitnessSide side,
                                                    const std::set<std::string>& avoid) {
  const auto [pa, sa] = plan.find(accused);
  if (pa < 0) return std::nullopt;
  const auto a = static_cast<std::size_t>(pa);
  const auto from = static_cast<std::size_t>(sa);
  // Seats by where their blocks start and end, and each pipeline's rate as it is: a candidate
  // then costs the evaluation of the two pipelines it changes, not a scan and a timing of the
  // whole plan (this runs under the coordinator's lock).
  std::multimap<std::int64_t, std::string> by_first, by_last;
  std::vector<double> rates;
  double total = 0;
  for (const auto& pipeline : plan.pipelines) {
    for (const auto& seat : pipeline) {
      by_first.emplace(seat.first_block, seat.key);
      by_last.emplace(seat.last_block, seat.key);
    }
    rates.push_back(pipeline_rate(pipeline, members, job));
    total += rates.back();
  }
  std::optional<std::pair<std::size_t, std::size_t>> best;
  double best_rate = 0;
  int tried = 0;
  for (std::size_t p = 0; p < plan.pipelines.size() && tried < kMaxSecondOpinionCandidates; ++p) {
    for (std::size_t s = 0; s < plan.pipelines[p].size(); ++s) {
      const Seat& at = plan.pipelines[p][s];
      if (at.key == accused) continue;
      // The accused's witnesses on `side` once it sits at `at`, its partner in its old seat.
      const auto [lo, hi] = side == WitnessSide::activations ? by_first.equal_range(at.last_block)
                                                             : by_last.equal_range(at.first_block);
      bool seen = false, fresh = true;  // no catcher so far sees that work of it there
      for (auto it = lo; it != hi; ++it) {
        seen = true;
        fresh = fresh && !avoid.contains(it->second == accused ? at.key : it->second);
      }
      if (!seen || !fresh) continue;  // that end of the model, or a catcher again
      // Nor a catcher after it, on a move for its gradients: a stage refuses all work of a
      // sender it caught, so its micro-batches would end there and no gradient of it would
      // ever reach the fresh witness before it (seen in a real swarm: a last stage moved into
      // its catcher's seat was never judged again).
      if (side == WitnessSide::gradients) {
        const auto [after_lo, after_hi] = by_first.equal_range(at.last_block);
        bool catcher_after = false;
        for (auto it = after_lo; it != after_hi; ++it)
          catcher_after =
              catcher_after || avoid.contains(it->second == accused ? at.key : it->second);
        if (catcher_after) continue;
      }
      if (++tried > kMaxSecondOpinionCandidates) break;
      auto mine = plan.pipelines[a];
      auto theirs = plan.pipelines[p];
      double rate = total - rates[a];
      if (p == a) {
        std::swap(mine[from].key, mine[s].key);
        const double r = pipeline_rate(mine, members, job);
        if (!(r > 0)) continue;  // a member short of memory for the blocks it would take
        rate += r;
      } else {
        std::swap(mine[from].key, theirs[s].key);
        const double r = pipeline_rate(mine, members, job), q = pipeline_rate(theirs, members, job);
        if (!(r > 0) || !(q > 0)) continue;
        rate += r - rates[p] + q;
      }
      if (!best || rate > best_rate) {
        best = {p, s};
        best_rate = rate;
      }
    }
  }
  if (!best) return std::nullopt;
  Assignment out = plan;
  std::swap(out.pipelines[a][from].key, out.pipelines[best->first][best->second].key);
  out.predicted_samples_per_s = best_rate;
  out.coverage.reset();  // its seats name other keys now: the old plan's would name the old ones
  out.coverage = check_coverage_of(out, job.averaging_max_group);
  return out;
}

}  // namespace rookery::coordinator
