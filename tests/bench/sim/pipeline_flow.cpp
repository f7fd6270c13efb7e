#include "pipeline_flow.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rookery::sim {

namespace {

// The coordinator's archive serves blocks no volunteer holds (assumed: the owner's 1 Gbit/s).
constexpr double kArchiveBytesPerS = 125e6;

}  // namespace

PipelineFlow::PipelineFlow(std::vector<cluster::BlockProfile> blocks,
                           cluster::TrainingSettings settings)
    : blocks_(std::move(blocks)), settings_(settings) {
  for (const auto& b : blocks_) flops_per_sample_ += b.flops_per_sample;
}

double PipelineFlow::fetch_s(int v, int first, int last, const std::vector<SimVolunteer>& people,
                             const std::vector<std::vector<int>>& holders, int* restored) {
  const auto [had_first, had_last] = held_.count(v) ? held_[v] : std::pair{0, 0};
  const double down = people[std::size_t(v)].profile.download_bytes_per_s;
  // Blocks come in parallel from their holders: the taker's download bounds the whole, each
  // source's upload what it sends.
  std::map<int, double> from;  // source (-1: the archive) -> bytes
  double total = 0;
  for (int b = first; b < last; ++b) {
    if (b >= had_first && b < had_last) continue;
    const double bytes = double(blocks_[std::size_t(b)].params) *
                         double(settings_.param_bytes + settings_.optimizer_bytes_per_param);
    const auto& h = holders[std::size_t(b)];
    const int source = h.empty() ? -1 : h[next_holder_++ % h.size()];
    if (source < 0) ++*restored;
    from[source] += bytes;
    total += bytes;
  }
  double t = total / down;
  for (const auto& [source, bytes] : from) {
    const double up =
        source < 0 ? kArchiveBytesPerS : people[std::size_t(source)].profile.upload_bytes_per_s;
    t = std::max(t, bytes / up);
  }
  return t;
}

PipelineFlow::Installed PipelineFlow::install(const coordinator::Assignment& plan,
                                              const std::vector<SimVolunteer>& people,
                                              const std::unordered_map<std::string, int>& index,
                                              const std::vector<char>& online,
                                              std::int64_t now_ms) {
  Installed out;
  // Who holds each block now: online volunteers, by what they trained last.
  std::vector<std::vector<int>> holders(blocks_.size());
  for (const auto& [v, range] : held_) {
    if (!online[std::size_t(v)]) continue;
    for (int b = range.first; b < range.second; ++b) holders[std::size_t(b)].push_back(v);
  }
  pipelines_.clear();
  classes_.clear();
  seat_of_.clear();
  class_of_.clear();
  std::map<std::vector<int>, int> class_by_cuts;
  std::unordered_map<int, std::pair<int, int>> now_holds;
  for (const auto& seats : plan.pipelines) {
    std::vector<cluster::NodeProfile> nodes;
    std::vector<int> order, bounds{0}, cuts;
    for (const auto& s : seats) {
      const int v = index.at(s.key);
      order.push_back(int(nodes.size()));
      nodes.push_back(people[std::size_t(v)].profile);
      bounds.push_back(int(s.last_block));
      cuts.push_back(int(s.first_block));
      const auto need =
          cluster::shard_memory_bytes(blocks_, int(s.first_block), int(s.last_block), settings_);
      if (need > people[std::size_t(v)].profile.free_memory_bytes) ++out.memory_overruns;
    }
    const auto evaluated = cluster::evaluate_plan(nodes, order, bounds, blocks_, settings_);
    std::vector<FlowSeat> flow;
    for (std::size_t k = 0; k < seats.size(); ++k) {
      FlowSeat f;
      f.volunteer = index.at(seats[k].key);
      f.first = int(seats[k].first_block);
      f.last = int(seats[k].last_block);
      if (evaluated.ok()) {
        const auto& st = evaluated.plan->stages;
        f.stage_s = std::max(st[k].compute_s, st[k].link_in_s);
        if (k + 1 < st.size()) f.stage_s = std::max(f.stage_s, st[k + 1].link_in_s);
      } else {
        f.stage_s = std::numeric_limits<double>::infinity();  // would not run
      }
      flow.push_back(f);
    }
    for (std::size_t k = flow.size(); k-- > 0;)
      flow[k].rest_s = flow[k].stage_s + (k + 1 < flow.size() ? flow[k + 1].rest_s : 0.0);
    const int p = int(pipelines_.size());
    const auto [it, fresh] = class_by_cuts.emplace(cuts, int(classes_.size()));
    if (fresh) classes_.emplace_back();
    classes_[std::size_t(it->second)].push_back(p);
    class_of_.push_back(it->second);
    for (std::size_t k = 0; k < flow.size(); ++k) {
      const int v = flow[k].volunteer;
      seat_of_[v] = {p, int(k)};
      const auto had = held_.count(v) ? held_[v] : std::pair{-1, -1};
      if (had != std::pair{flow[k].first, flow[k].last}) {
        ++out.fetching;
        const double s =
            fetch_s(v, flow[k].first, flow[k].last, people, holders, &out.restored_blocks);
        ready_at_ms_[v] = now_ms + std::int64_t(std::ceil(s * 1e3));
      } else if (!ready_at_ms_.count(v)) {
        ready_at_ms_[v] = now_ms;
      }
      now_holds[v] = {flow[k].first, flow[k].last};
    }
    pipelines_.push_back(std::move(flow));
  }
  // A volunteer keeps on disk the blocks it trained last, seated or not (its checkpoint).
  for (const auto& [v, range] : now_holds) held_[v] = range;
  return out;
}

double PipelineFlow::class_rate(const std::vector<int>& members, const std::vector<char>& online,
                                std::int64_t now_ms, std::vector<double>* busy_flops) const {
  const std::size_t stages = pipelines_[std::size_t(members.front())].size();
  double micro_batches = std::numeric_limits<double>::infinity();
  std::vector<double> capacity(stages, 0.0);
  for (const int p : members) {
    for (std::size_t k = 0; k < stages; ++k) {
      const auto& s = pipelines_[std::size_t(p)][k];
      const auto ready = ready_at_ms_.find(s.volunteer);
      if (online[std::size_t(s.volunteer)] && ready != ready_at_ms_.end() &&
          ready->second <= now_ms && std::isfinite(s.stage_s))
        capacity[k] += 1.0 / s.stage_s;
    }
  }
  for (const double c : capacity) micro_batches = std::min(micro_batches, c);
  if (!(micro_batches > 0)) return 0;
  if (busy_flops) {
    // Each stage's micro-batches split among its seats by their capacity (the router's weights).
    for (const int p : members) {
      for (std::size_t k = 0; k < stages; ++k) {
        const auto& s = pipelines_[std::size_t(p)][k];
        const auto ready = ready_at_ms_.find(s.volunteer);
        if (!online[std::size_t(s.volunteer)] || ready == ready_at_ms_.end() ||
            ready->second > now_ms || !std::isfinite(s.stage_s))
          continue;
        double flops = 0;
        for (int b = s.first; b < s.last; ++b) flops += blocks_[std::size_t(b)].flops_per_sample;
        (*busy_flops)[std::size_t(s.volunteer)] +=
            micro_batches * (1.0 / s.stage_s) / capacity[k] * double(settings_.micro_batch) * flops;
      }
    }
  }
  return micro_batches * double(settings_.micro_batch);
}

FlowRates PipelineFlow::rates(const std::vector<char>& online, std::int64_t now_ms,
                              std::vector<double>* busy_flops) const {
  FlowRates r;
  const std::vector<char> everyone(online.size(), 1);
  for (const auto& members : classes_) {
    r.samples_per_s += class_rate(members, online, now_ms, busy_flops);
    r.without_refill +=
        class_rate(members, online, std::numeric_limits<std::int64_t>::max(), nullptr);
    r.ideal += class_rate(members, everyone, std::numeric_limits<std::int64_t>::max(), nullptr);
  }
  return r;
}

std::vector<const FlowSeat*> PipelineFlow::stage_group(int volunteer, std::size_t* self) const {
  std::vector<const FlowSeat*> out;
  const auto it = seat_of_.find(volunteer);
  if (it == seat_of_.end()) return out;
  const auto [p, k] = it->second;
  for (const int q : classes_[std::size_t(class_of_[std::size_t(p)])]) {
    if (q == p && self) *self = out.size();
    out.push_back(&pipelines_[std::size_t(q)][std::size_t(k)]);
  }
  return out;
}

double PipelineFlow::class_rate(int volunteer, const std::vector<char>& online,
                                std::int64_t now_ms) const {
  const auto it = seat_of_.find(volunteer);
  if (it == seat_of_.end()) return 0;
  return class_rate(classes_[std::size_t(class_of_[std::size_t(it->second.first)])], online, now_ms,
                    nullptr);
}

}  // namespace rookery::sim
