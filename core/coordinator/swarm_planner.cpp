#include "coordinator/swarm_planner.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "cluster/coverage_steering.hpp"
#include "coordinator/plan_view.hpp"
#include "coordinator/verdicts.hpp"
#include "model/cost.hpp"
#include "net/identity.hpp"

namespace rookery::coordinator {

std::pair<int, int> Assignment::find(const std::string& key) const {
  for (std::size_t p = 0; p < pipelines.size(); ++p) {
    for (std::size_t s = 0; s < pipelines[p].size(); ++s) {
      if (pipelines[p][s].key == key) return {static_cast<int>(p), static_cast<int>(s)};
    }
  }
  return {-1, -1};
}

std::vector<cluster::BlockProfile> block_profiles(const job::JobSpec& job) {
  std::vector<cluster::BlockProfile> out;
  for (const auto& c : model::block_costs(job.model)) {
    cluster::BlockProfile b;
    b.params = c.params;
    b.flops_per_sample = c.forward_flops_per_sample + c.backward_flops_per_sample;
    b.activation_bytes_per_sample = c.activation_bytes_per_sample;
    b.stash_bytes_per_sample = c.stash_bytes_per_sample;
    out.push_back(b);
  }
  return out;
}

cluster::TrainingSettings training_settings(const job::JobSpec& job) {
  cluster::TrainingSettings s;
  s.micro_batch = job.micro_batch_size;
  s.staleness = job.staleness;
  s.optimizer_bytes_per_param = job.optimizer.kind == job::OptimizerKind::adamw ? 8 : 4;
  return s;
}

namespace {

// A plan's seats as core/cluster's planners describe them (matched to nodes by id).
cluster::ClusterPlan as_cluster_plan(const Assignment& a) {
  cluster::ClusterPlan plan;
  for (const auto& seats : a.pipelines) {
    auto& p = plan.pipelines.emplace_back();
    for (const auto& s : seats) {
      auto& stage = p.stages.emplace_back();
      stage.node_id = s.key;
      stage.first_block = static_cast<int>(s.first_block);
      stage.last_block = static_cast<int>(s.last_block);
    }
  }
  return plan;
}

// A pipeline's volunteers, order and cuts as one string ("key[0,3)key[3,6)").
std::string seat_signature(const std::string& key, std::int64_t first, std::int64_t last) {
  return key + "[" + std::to_string(first) + "," + std::to_string(last) + ")";
}

// Which of `plan`'s pipelines `previous` holds as they are (the same volunteers, order and cuts).
std::vector<bool> kept_pipelines(const cluster::ClusterPlan& plan, const Assignment& previous) {
  std::set<std::string> before;
  for (const auto& seats : previous.pipelines) {
    std::string sig;
    for (const auto& s : seats) sig += seat_signature(s.key, s.first_block, s.last_block);
    before.insert(sig);
  }
  std::vector<bool> kept;
  for (const auto& p : plan.pipelines) {
    std::string sig;
    for (const auto& s : p.stages) sig += seat_signature(s.node_id, s.first_block, s.last_block);
    kept.push_back(before.count(sig) > 0);
  }
  return kept;
}

}  // namespace

Planner parse_planner(const std::string& name) {
  if (name == "ours") return Planner::ours;
  if (name == "ravnest") return Planner::ravnest;
  if (name == "uniform") return Planner::uniform;
  throw std::invalid_argument("planner '" + name + "': expected 'ours', 'uniform' or 'ravnest'");
}

Assignment plan_swarm(std::vector<Member> members, const job::JobSpec& job, Planner planner,
                      const Assignment* previous) {
  // The same crowd always gets the same plan, whatever order it joined in.
  std::sort(members.begin(), members.end(),
            [](const Member& a, const Member& b) { return a.key < b.key; });
  std::vector<cluster::NodeProfile> nodes;
  for (const auto& m : members) {
    auto p = m.profile;
    p.id = m.key;
    nodes.push_back(p);
  }
  Assignment out;
  if (nodes.empty()) {
    out.infeasible = verdict::make(wire::pb::Verdict::NO_VOLUNTEERS);
    return out;
  }
  const auto blocks = block_profiles(job);
  const bool large = nodes.size() > kExactPlanningMaxVolunteers;
  const bool update = large && planner == Planner::ours && previous && !previous->empty();
  auto plan = planner == Planner::ravnest
                  ? cluster::ravnest_plan(nodes, blocks, training_settings(job))
              : update ? cluster::update_pipelines(as_cluster_plan(*previous), nodes, blocks,
                                                   training_settings(job))
              : large  ? cluster::pack_pipelines(nodes, blocks, training_settings(job))
                       : cluster::form_pipelines(nodes, blocks, training_settings(job));
  if (planner == Planner::ours && plan.pipelines.size() > 1) {
    // Pipelines of one length share cuts where that costs little throughput, so that their
    // seats have exact replicas (coverage_steering.hpp). An update keeps its kept pipelines'
    // cuts: moving them would move the shards the update exists to leave in place.
    cluster::SteeringOptions steering;
    if (update) steering.frozen = kept_pipelines(plan, *previous);
    plan = cluster::steer_for_coverage(plan, nodes, blocks, training_settings(job), steering);
  }
  for (const auto& p : plan.pipelines) {
    std::vector<Seat> seats;
    for (const auto& s : p.stages) seats.push_back({s.node_id, s.first_block, s.last_block});
    out.pipelines.push_back(std::move(seats));
  }
  if (planner == Planner::uniform) {
    // Pipelines of the same length share the cuts that minimise the worst one's bottleneck
    // (kept per pipeline when no shared cut fits everyone's memory).
    std::map<std::size_t, std::vector<std::size_t>> by_length;
    for (std::size_t p = 0; p < plan.pipelines.size(); ++p)
      by_length[plan.pipelines[p].stages.size()].push_back(p);
    for (const auto& [length, group] : by_length) {
      if (group.size() < 2) continue;
      std::vector<std::vector<cluster::NodeProfile>> profiles;
      for (const auto p : group) {
        std::vector<cluster::NodeProfile> chain;
        for (const auto& s : plan.pipelines[p].stages)
          chain.push_back(nodes[static_cast<std::size_t>(s.node_index)]);
        profiles.push_back(std::move(chain));
      }
      const auto shared = cluster::partition_uniform(profiles, blocks, training_settings(job));
      if (!shared.ok()) continue;
      for (std::size_t i = 0; i < group.size(); ++i) {
        const auto p = group[i];
        for (std::size_t s = 0; s < length; ++s) {
          out.pipelines[p][s].first_block = shared.boundaries[s];
          out.pipelines[p][s].last_block = shared.boundaries[s + 1];
        }
        plan.pipelines[p].samples_per_s = shared.pipelines[i].samples_per_s;  // as cut now
      }
    }
    plan.samples_per_s = 0;
    for (const auto& p : plan.pipelines) plan.samples_per_s += p.samples_per_s;
  }
  // Pipelines in a stable order: by their first stage's key.
  std::sort(out.pipelines.begin(), out.pipelines.end(),
            [](const auto& a, const auto& b) { return a.front().key < b.front().key; });
  out.unassigned = plan.unassigned;
  out.predicted_samples_per_s = plan.samples_per_s;
  out.coverage = check_coverage_of(out, job.averaging_max_group);
  if (out.pipelines.empty()) {
    out.infeasible = plan.unassigned.empty()
                         ? verdict::make(wire::pb::Verdict::NO_PIPELINE_HOLDS_MODEL,
                                         "the planner formed no pipeline")
                         : verdict::unseated(plan.unassigned.front());
  }
  return out;
}

std::shared_ptr<const cluster::CoverageReport> check_coverage_of(const Assignment& plan,
                                                                 std::int64_t averaging_max_group) {
  if (plan.coverage) return plan.coverage;
  std::vector<std::vector<cluster::HeldRange>> seats;
  for (const auto& p : plan.pipelines) {
    auto& held = seats.emplace_back();
    for (const auto& s : p) held.push_back({s.key, s.first_block, s.last_block});
  }
  std::vector<std::vector<std::size_t>> views;
  if (const PlanViews v(plan.pipelines.size(), averaging_max_group); !v.whole()) {
    for (std::size_t p = 0; p < plan.pipelines.size(); ++p) views.push_back(v.of(p));
  }
  return std::make_shared<const cluster::CoverageReport>(cluster::check_coverage(seats, 0, views));
}

std::string describe_coverage(const cluster::CoverageReport& coverage, bool per_seat) {
  constexpr int kListedUnchecked = 8;
  std::string out = cluster::summary(coverage);
  int listed = 0, pipeline = -1;
  for (const auto& c : coverage.stages) {
    const bool unchecked = c.kind == cluster::CheckKind::None;
    if (!per_seat && (!unchecked || listed == kListedUnchecked)) continue;
    out += pipeline < 0 ? ": " : c.pipeline != pipeline ? " | " : ", ";
    pipeline = c.pipeline;
    out += net::short_key(c.key) + "[" + std::to_string(c.first) + "," + std::to_string(c.last) +
           ") " + cluster::check_kind_name(c.kind);
    if (unchecked) {
      out += " (" + c.why + ")";
      ++listed;
    } else {
      out += " x" + std::to_string(c.chains);
    }
  }
  return out;
}

double predicted_rate(const Assignment& plan, const std::map<std::string, Member>& members,
                      const job::JobSpec& job) {
  const auto blocks = block_profiles(job);
  const auto settings = training_settings(job);
  double total = 0;
  for (const auto& p : plan.pipelines) {
    std::vector<cluster::NodeProfile> nodes;
    std::vector<int> order, bounds{0};
    bool complete = true;
    for (const auto& seat : p) {
      const auto it = members.find(seat.key);
      if (it == members.end()) {
        complete = false;
        break;
      }
      order.push_back(static_cast<int>(nodes.size()));
      nodes.push_back(it->second.profile);
      bounds.push_back(static_cast<int>(seat.last_block));
    }
    if (!complete || nodes.empty()) continue;
    try {
      const auto r = cluster::evaluate_plan(nodes, order, bounds, blocks, settings);
      if (r.ok()) total += r.plan->samples_per_s;
    } catch (const std::exception&) {
      // a seat that no longer matches the model: counts 0
    }
  }
  return total;
}

bool worth_replanning(double current_rate, double new_rate, double margin) {
  return new_rate > current_rate * (1.0 + margin);
}

double planned_flops(double offered, double slowdown) {
  if (!(offered > 0) || !(slowdown > 0)) return offered;
  return slowdown < kSlowEfficiency ? offered * slowdown : offered;
}

double SpeedHistory::observe(std::int64_t first, std::int64_t last, double efficiency) {
  if (!(efficiency > 0) || !std::isfinite(efficiency)) return slowdown;
  if (seat != std::make_pair(first, last)) {
    seat = {first, last};
    first_reading = best = efficiency;
    at_arrival = slowdown;
  }
  best = std::max(best, efficiency);
  if (at_arrival < 1) {
    // It came slow: measured against its first reading here, it is as slow as it came until it
    // speeds up (by 1 / at_arrival it is back to its old self, and judged by its best again).
    slowdown = std::min(1.0, at_arrival * efficiency / first_reading);
    if (slowdown >= 1) {
      at_arrival = 1;
      best = efficiency;
    }
  } else {
    slowdown = efficiency / best;
  }
  return slowdown;
}

wire::pb::Plan plan_message(const Assignment& plan, const std::map<std::string, Member>& members,
                            std::int64_t averaging_interval_ms) {
  wire::pb::Plan out;
  for (const auto& p : plan.pipelines) {
    auto* pipeline = out.add_pipelines();
    for (const auto& s : p) {
      const auto it = members.find(s.key);
      if (it == members.end())
        throw std::invalid_argument("seated key " + s.key + " is not a member");
      auto* stage = pipeline->add_stages();
      stage->set_first_block(s.first_block);
      stage->set_last_block(s.last_block);
      stage->set_key(s.key);
      stage->set_endpoint(it->second.stage_endpoint);
      stage->set_reduce_endpoint(it->second.reduce_endpoint);
      stage->set_reversed(it->second.reversed);
      if (it->second.reversal_control_port != 0) {
        stage->mutable_reversal()->set_control_port(it->second.reversal_control_port);
        stage->mutable_reversal()->set_data_port(it->second.reversal_data_port);
      }
    }
  }
  if (plan.pipelines.size() > 1) out.set_averaging_interval_ms(averaging_interval_ms);
  return out;
}

}  // namespace rookery::coordinator
