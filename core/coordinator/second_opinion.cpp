#include "coordinator/second_opinion.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace rookery::coordinator {

namespace {

// A seat by its place in a plan.
struct SeatAt {
  std::size_t p = 0, s = 0;  // pipeline, stage
  bool operator==(const SeatAt&) const = default;
};

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
  const SeatAt home{static_cast<std::size_t>(pa), static_cast<std::size_t>(sa)};
  const auto key_at = [&plan](SeatAt x) -> const std::string& {
    return plan.pipelines[x.p][x.s].key;
  };
  const auto seat_at = [&plan](SeatAt x) -> const Seat& { return plan.pipelines[x.p][x.s]; };
  // Seats by where their blocks start and end, and each pipeline's rate as it is: a candidate
  // then costs the evaluation of the two pipelines it changes, not a scan and a timing of the
  // whole plan (this runs under the coordinator's lock).
  std::multimap<std::int64_t, SeatAt> by_first, by_last;
  std::vector<double> rates;
  double total = 0;
  for (std::size_t p = 0; p < plan.pipelines.size(); ++p) {
    for (std::size_t s = 0; s < plan.pipelines[p].size(); ++s) {
      by_first.emplace(plan.pipelines[p][s].first_block, SeatAt{p, s});
      by_last.emplace(plan.pipelines[p][s].last_block, SeatAt{p, s});
    }
    rates.push_back(pipeline_rate(plan.pipelines[p], members, job));
    total += rates.back();
  }
  // The seats that see the work on `side` of a member at `seat`.
  const auto witnesses_of = [&](const Seat& seat) {
    return side == WitnessSide::activations ? by_first.equal_range(seat.last_block)
                                            : by_last.equal_range(seat.first_block);
  };
  // Whether swapping the members at `u` and `v` gives the accused witnesses on `side`, none of
  // them one of `avoid`, and, on a move for its gradients, no catcher after it: a stage refuses
  // all work of a sender it caught, so its micro-batches would end there and no gradient of it
  // would ever reach the fresh witness before it (seen in a real swarm: a last stage moved into
  // its catcher's seat was never judged again).
  const auto opens_a_second_opinion = [&](SeatAt u, SeatAt v) {
    const auto member_at = [&](SeatAt x) -> const std::string& {
      return x == u ? key_at(v) : x == v ? key_at(u) : key_at(x);
    };
    const Seat& seat = seat_at(u == home ? v : v == home ? u : home);
    const auto [lo, hi] = witnesses_of(seat);
    if (lo == hi) return false;  // that end of the model: nobody sees that work of it
    for (auto it = lo; it != hi; ++it) {
      if (avoid.contains(member_at(it->second))) return false;  // a catcher again
    }
    if (side == WitnessSide::gradients) {
      const auto [after_lo, after_hi] = by_first.equal_range(seat.last_block);
      for (auto it = after_lo; it != after_hi; ++it) {
        if (avoid.contains(member_at(it->second))) return false;
      }
    }
    return true;
  };
  // Two kinds of swap, both weighed: the accused into another member's seat, or a catcher that
  // witnesses it now out of its seat, for a member that is none of `avoid` (the only kind a
  // pipeline's last stage may have, whose only other candidate is its catcher's seat).
  std::vector<std::pair<SeatAt, SeatAt>> swaps;
  const auto all_seats = [&](SeatAt u, auto&& wanted) {
    for (std::size_t p = 0; p < plan.pipelines.size(); ++p) {
      for (std::size_t s = 0; s < plan.pipelines[p].size(); ++s) {
        if (swaps.size() >= static_cast<std::size_t>(kMaxSecondOpinionCandidates)) return;
        const SeatAt v{p, s};
        if (!(v == u) && wanted(v) && opens_a_second_opinion(u, v)) swaps.emplace_back(u, v);
      }
    }
  };
  all_seats(home, [](SeatAt) { return true; });
  const auto [wlo, whi] = witnesses_of(seat_at(home));
  for (auto it = wlo; it != whi; ++it) {
    if (!avoid.contains(key_at(it->second))) continue;
    all_seats(it->second, [&](SeatAt v) { return !(v == home) && !avoid.contains(key_at(v)); });
  }
  std::optional<std::pair<SeatAt, SeatAt>> best;
  double best_rate = 0;
  for (const auto& [u, v] : swaps) {
    auto first = plan.pipelines[u.p];
    double rate = total - rates[u.p];
    if (u.p == v.p) {
      std::swap(first[u.s].key, first[v.s].key);
      const double r = pipeline_rate(first, members, job);
      if (!(r > 0)) continue;  // a member short of memory for the blocks it would take
      rate += r;
    } else {
      auto second = plan.pipelines[v.p];
      std::swap(first[u.s].key, second[v.s].key);
      const double r = pipeline_rate(first, members, job);
      const double q = pipeline_rate(second, members, job);
      if (!(r > 0) || !(q > 0)) continue;
      rate += r - rates[v.p] + q;
    }
    if (!best || rate > best_rate) {
      best = {u, v};
      best_rate = rate;
    }
  }
  if (!best) return std::nullopt;
  Assignment out = plan;
  const auto [u, v] = *best;
  std::swap(out.pipelines[u.p][u.s].key, out.pipelines[v.p][v.s].key);
  out.predicted_samples_per_s = best_rate;
  out.coverage.reset();  // its seats name other keys now: the old plan's would name the old ones
  out.coverage = check_coverage_of(out, job.averaging_max_group);
  return out;
}

}  // namespace rookery::coordinator
