#include "swarm_model.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "churn.hpp"
#include "clock/clock.hpp"
#include "coordinator/ban_vote.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/membership.hpp"
#include "coordinator/plan_delivery.hpp"
#include "coordinator/replanner.hpp"
#include "coordinator/swarm_planner.hpp"
#include "coordinator/sybil_limits.hpp"
#include "event_queue.hpp"
#include "pipeline_flow.hpp"
#include "reduce/averaging_groups.hpp"
#include "reduce/multi_ring_plan.hpp"
#include "reroute.hpp"
#include "rookery/coordinator.pb.h"

namespace rookery::sim {

job::JobSpec sim_job() {
  job::JobSpec job;
  job.id = "sim";
  job::GptSpec gpt;
  gpt.vocab = 50304;
  gpt.context = 512;
  gpt.width = 1024;
  gpt.depth = 24;
  gpt.heads = 16;
  job.model.arch = gpt;
  job.micro_batch_size = 8;
  job.staleness = 4;
  // Thousands of pipelines average in groups (one ring across them would never meet), so each
  // node is sent its view of the plan and the ban vote counts the witnesses in it.
  job.averaging_max_group = 16;
  return job;
}

namespace {

constexpr const char* kDigest = "sim-dataset";
// A liar names this many of its ring partners as excluded from averaging: false accusations
// that a majority of honest partners must outweigh.
constexpr std::size_t kFalseAccusations = 3;
// An accused volunteer is judged at most this often. The service judges it at every heartbeat
// that names it, each an O(seats + volunteers) scan; at 10,000 volunteers that is the cost the
// simulation cannot pay every second, and the verdict is the same a few seconds later.
constexpr std::int64_t kJudgeEveryMs = 5000;
// The group bound the simulation measures averaging in groups with when the job sets none
// (hivemind's Moshpit groups are of this order).
constexpr std::size_t kAveragingGroup = 16;

class SwarmSim {
 public:
  SwarmSim(const std::vector<SimVolunteer>& people, const job::JobSpec& job,
           const SimOptions& options)
      : people_(people),
        options_(options),
        queue_(clock_),
        state_(options.state_dir / ("coordinator-" + options.planner + ".sqlite")),
        membership_(state_, options.dead_after, clock_, std::chrono::milliseconds(500)),
        replanner_(state_, job, options.planner, options.settle,
                   coordinator::PlanThread::Mode::inline_plans, clock_),
        flow_(coordinator::block_profiles(job), coordinator::training_settings(job)),
        online_(people.size(), 0),
        refused_(people.size(), 0),
        caught_(people.size()),
        busy_(people.size(), 0.0),
        job_(job) {
    for (std::size_t i = 0; i < people.size(); ++i) {
      index_[people[i].key] = int(i);
      const auto origin = coordinator::origin_of(people[i].address);
      by_subnet_[origin ? origin->subnet : ""].push_back(int(i));
      report_.liars += people[i].liar;
    }
    for (const auto& b : coordinator::block_profiles(job)) block_params_.push_back(b.params);
    report_.planner = options.planner;
    report_.flops_per_sample = flow_.flops_per_sample();
    report_.volunteers = int(people.size());
  }

  SimReport run() {
    const auto wall = std::chrono::steady_clock::now();
    std::uniform_real_distribution<double> unit(0, 1);
    for (std::size_t i = 0; i < people_.size(); ++i) {
      // Each volunteer's own stream: the same trace whatever the planner does.
      std::seed_seq seq{options_.seed, std::uint64_t(i)};
      rngs_.emplace_back(seq);
      auto& rng = rngs_.back();
      const bool on = unit(rng) < Churn::availability(people_[i].availability);
      const double first = on ? unit(rng) * 300 : Churn::absence_s(people_[i].availability, rng);
      queue_.after(std::int64_t(first * 1e3), [this, i] { come_online(i); });
    }
    queue_.after(options_.tick_ms, [this] { tick(); });
    end_ms_ = std::int64_t((options_.warm_up_s + options_.hours * 3600) * 1e3);
    report_.events = queue_.run_until(end_ms_);
    // The end: churn stops, and the coordinator settles on a plan for who is online.
    frozen_ = true;
    report_.events += queue_.run_until(end_ms_ + 10 * options_.settle.count() + 10000);
    final_check();
    report_.simulated_s = options_.hours * 3600;
    report_.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
    return report_;
  }

 private:
  bool measuring() const { return queue_.now_ms() >= warm_up_ms() && queue_.now_ms() <= end_ms_; }
  std::int64_t warm_up_ms() const { return std::int64_t(options_.warm_up_s * 1e3); }
  const std::string& key(std::size_t i) const { return people_[i].key; }

  void come_online(std::size_t i) {
    if (frozen_) return;
    online_[i] = 1;
    join(i);
    const double stay = Churn::session_s(people_[i].availability, rngs_[i]);
    queue_.after(std::int64_t(stay * 1e3), [this, i] { go_offline(i); });
  }

  void go_offline(std::size_t i) {
    if (frozen_) return;
    if (measuring()) ++report_.departures;
    std::size_t self = 0;
    const auto group = flow_.stage_group(int(i), &self);
    if (!group.empty() && measuring()) {
      ++report_.seated_departures;
      const auto micro_batch = double(flow_.settings().micro_batch);
      const double rate = flow_.class_rate(int(i), online_, queue_.now_ms()) / micro_batch;
      const auto r = measure_reroute(group, self, rate, int(flow_.settings().staleness));
      report_.dropped_samples += r.lost_micro_batches * micro_batch;
      if (r.rerouted) {
        ++report_.rerouted;
        report_.reroute_s_total += r.suspected_after_s;
      }
      if (const auto it = round_size_.find(int(i)); it != round_size_.end())
        report_.blast_radius_total += it->second;
      if (const auto it = group_round_size_.find(int(i)); it != group_round_size_.end())
        report_.group_blast_radius_total += it->second;
    }
    online_[i] = 0;  // it goes silent: Membership finds out when its deadline passes
    const double away = Churn::absence_s(people_[i].availability, rngs_[i]);
    queue_.after(std::int64_t(away * 1e3), [this, i] { come_online(i); });
  }

  // The service's join, past the invite and proof of work: the Sybil caps over the live
  // volunteers of its subnet (only they can count against either cap), then admission.
  void join(std::size_t i) {
    if (membership_.ban_of(key(i))) return;
    const auto& me = people_[i];
    std::vector<std::string> others;
    const auto origin = coordinator::origin_of(me.address);
    for (const int j : by_subnet_[origin ? origin->subnet : ""]) {
      const auto* v = membership_.find(key(std::size_t(j)));
      if (std::size_t(j) != i && v) others.push_back(v->address);
    }
    const auto refusal = coordinator::sybil_refusal(coordinator::SybilCaps{}, me.address, others);
    if (refusal.code() != wire::pb::Verdict::NONE) {
      refused_[i] = 1;
      ++report_.sybil_refusals;
      return;
    }
    refused_[i] = 0;
    coordinator::Member m;
    m.key = me.key;
    m.profile = me.profile;
    m.stage_endpoint = "sim://" + std::to_string(i) + "/stage";
    m.reduce_endpoint = "sim://" + std::to_string(i) + "/reduce";
    m.shard_endpoint = "sim://" + std::to_string(i) + "/shard";
    const bool same = membership_.admit(m, replanner_.current().version, true);
    if (auto* v = membership_.find(me.key)) {
      v->address = me.address;
      v->device = me.device;
    }
    if (!same || replanner_.seat_of(me.key).first < 0) replanner_.changed();
    if (measuring()) ++report_.joins;
  }

  void heartbeats() {
    wire::pb::Heartbeat h;
    h.set_contributing(true);
    h.set_dataset_digest(kDigest);
    h.set_dataset_fetched(1);
    std::vector<std::string> named;
    for (std::size_t i = 0; i < people_.size(); ++i) {
      if (!online_[i]) continue;
      auto* v = membership_.find(key(i));
      if (!v) continue;
      h.set_plan_version(replanner_.current().version);
      h.clear_failed_spot_checks();
      h.clear_excluded_peers();
      for (const auto& k : caught_[i]) h.add_failed_spot_checks(k);
      if (people_[i].liar) {
        for (const auto& k : accusations_[i]) h.add_excluded_peers(k);
      }
      const auto heard = membership_.hear(key(i), *v, h, kDigest);
      named.insert(named.end(), heard.named.begin(), heard.named.end());
    }
    for (const auto& accused : named) judge(accused);
  }

  // The service's consider_ban: the accused's witnesses in the plan in force, what the live
  // volunteers report of it, the vote.
  void judge(const std::string& accused) {
    auto& last = judged_at_[accused];
    if (last > 0 && queue_.now_ms() - last < kJudgeEveryMs) return;
    last = queue_.now_ms();
    if (membership_.ban_of(accused) || !membership_.find(accused)) return;
    const auto witnesses =
        coordinator::ban_witnesses(replanner_.current(), accused, job_.averaging_max_group);
    if (!witnesses) return;
    const auto vote = coordinator::ban_vote(*witnesses, membership_.reports_on(accused));
    if (!vote.ban) return;
    membership_.ban(accused, vote.why);
    replanner_.changed_urgently();
    const std::size_t i = std::size_t(index_.at(accused));
    if (people_[i].liar) {
      ++report_.liars_banned;
      if (const auto it = seated_since_.find(i); it != seated_since_.end())
        report_.ban_delay_s_total += double(queue_.now_ms() - it->second) / 1e3;
    } else {
      ++report_.honest_banned;
    }
    for (auto& c : caught_) c.erase(accused);
  }

  // Every spot-check period each liar's witnesses check it; honest ones that catch it say so
  // in their heartbeats from then on. Each liar accuses a few honest ring partners.
  void spot_checks() {
    std::uniform_real_distribution<double> unit(0, 1);
    const auto& plan = replanner_.current();
    for (std::size_t i = 0; i < people_.size(); ++i) {
      if (!people_[i].liar || !online_[i] || plan.find(key(i)).first < 0) continue;
      seated_since_.emplace(i, queue_.now_ms());
      const auto w = coordinator::ban_witnesses(plan, key(i), job_.averaging_max_group);
      if (!w) continue;
      for (const auto* side : {&w->sends_to, &w->returns_gradients_to}) {
        for (const auto& k : *side) {
          const std::size_t j = std::size_t(index_.at(k));
          if (!people_[j].liar && online_[j] && unit(checks_rng_) < options_.catch_probability)
            caught_[j].insert(key(i));
        }
      }
      auto& accused = accusations_[i];
      accused.clear();
      for (const auto& k : w->ring_partners) {
        if (accused.size() >= kFalseAccusations) break;
        if (!people_[std::size_t(index_.at(k))].liar) accused.push_back(k);
      }
    }
  }

  void tick() {
    heartbeats();
    const auto dead = membership_.expire_silent();
    if (!dead.empty()) replanner_.changed();
    membership_.publish_due();
    replanner_.tick(membership_.live());
    const auto& plan = replanner_.current();
    if (plan.version != seen_version_) {
      seen_version_ = plan.version;
      const double took = replanner_.last_planning_time().count();
      if (measuring()) {
        ++report_.plans_measured;
        report_.planning_s_total += took;
        report_.planning_s_max = std::max(report_.planning_s_max, took);
      }
      report_.largest_planned =
          std::max(report_.largest_planned, replanner_.last_planned_volunteers());
      // The plan reaches the volunteers once the plan thread is done with it.
      queue_.after(std::int64_t(took * 1e3), [this, p = plan] { install(p); });
    }
    if (queue_.now_ms() % std::int64_t(options_.spot_check_every_s * 1e3) < options_.tick_ms)
      spot_checks();
    account();
    queue_.after(options_.tick_ms, [this] { tick(); });
  }

  void install(const coordinator::Assignment& plan) {
    if (plan.version < installed_version_) return;  // a later plan was installed first
    installed_version_ = plan.version;
    // One seat per volunteer: a volunteer in two pipelines cannot run either.
    std::unordered_set<std::string> seen;
    int repeated = 0;
    for (const auto& p : plan.pipelines)
      for (const auto& s : p) repeated += !seen.insert(s.key).second;
    report_.repeated_seats += repeated;
    const auto r = flow_.install(plan, people_, index_, online_, queue_.now_ms());
    report_.memory_overruns += r.memory_overruns;
    if (measuring()) {
      ++report_.plans_installed;
      report_.shard_fetches += r.fetching;
      report_.restored_blocks += r.restored_blocks;
    }
    report_.pipelines_last = flow_.pipelines();
    report_.classes_last = flow_.classes();
    const auto coverage = coordinator::check_coverage_of(plan, job_.averaging_max_group);
    report_.exact_last = coverage->exact;
    report_.composed_last = coverage->composed;
    report_.unchecked_last = coverage->unchecked;
    if (repeated == 0) averaging_rounds(plan);  // MultiRingPlan refuses a node seated twice
    plan_messages(plan);
  }

  // One ring per parameter range across every pipeline holding it (MultiRingPlan): a departure
  // spoils the rounds of every member of the rings its shard is in.
  void averaging_rounds(const coordinator::Assignment& plan) {
    round_size_.clear();
    group_round_size_.clear();
    if (plan.pipelines.size() < 2) return;
    std::vector<reduce::PipelinePartition> parts;
    for (const auto& p : plan.pipelines) {
      reduce::PipelinePartition part{{0}, {}};
      for (const auto& s : p) {
        part.boundaries.push_back(s.last_block);
        part.nodes.push_back(s.key);
      }
      parts.push_back(std::move(part));
    }
    const reduce::MultiRingPlan rings(block_params_, std::move(parts));
    for (const auto& r : rings.rings()) {
      const int size = int(r.members.size());
      report_.largest_round = std::max(report_.largest_round, size);
      for (const auto& k : r.members) {
        auto& s = round_size_[index_.at(k)];
        s = std::max(s, size);
      }
    }
    // The same plan averaging in Moshpit groups of pipelines (averaging_groups.hpp).
    for (const auto& r : rings.rings(plan.version, group_bound())) {
      const int size = int(r.members.size());
      report_.largest_group_round = std::max(report_.largest_group_round, size);
      for (const auto& k : r.members) {
        auto& s = group_round_size_[index_.at(k)];
        s = std::max(s, size);
      }
    }
    report_.group_rounds_to_mix =
        std::max(report_.group_rounds_to_mix,
                 int(reduce::averaging_grid(plan.pipelines.size(), group_bound()).dimensions));
  }

  std::size_t group_bound() const {
    return job_.averaging_max_group > 0 ? std::size_t(job_.averaging_max_group) : kAveragingGroup;
  }

  // What every seated node is sent when the plan is installed: the whole message (a job
  // averaging in one ring), or its view of the plan in groups (plan_view.hpp), built by the
  // coordinator's PlanDelivery from the live members.
  void plan_messages(const coordinator::Assignment& plan) {
    if (plan.pipelines.empty()) return;
    coordinator::PlanDelivery whole, views;
    whole.refresh(plan, membership_, 0, 0);
    views.refresh(plan, membership_, 0, std::int64_t(group_bound()));
    if (!whole.message() || !views.message()) return;  // a seated volunteer left meanwhile
    double seats = 0, viewed = 0;
    for (std::size_t p = 0; p < plan.pipelines.size(); ++p) {
      const double n = double(plan.pipelines[p].size());
      seats += n;
      viewed += n * double(views.view(int(p)).bytes);
    }
    ++report_.plan_messages;
    report_.plan_bytes_max = std::max(report_.plan_bytes_max, double(whole.bytes()));
    report_.view_bytes_max = std::max(report_.view_bytes_max, double(views.largest_view_bytes()));
    report_.whole_plans_sent_bytes += seats * double(whole.bytes());
    report_.views_sent_bytes += viewed;
  }

  void account() {
    if (!measuring()) return;
    const double dt = double(options_.tick_ms) / 1e3;
    std::fill(busy_.begin(), busy_.end(), 0.0);
    const auto r = flow_.rates(online_, queue_.now_ms(), &busy_);
    report_.samples += r.samples_per_s * dt;
    report_.ideal_samples += r.ideal * dt;
    report_.stalled_samples += (r.ideal - r.without_refill) * dt;
    report_.refill_samples += (r.without_refill - r.samples_per_s) * dt;
    for (std::size_t i = 0; i < people_.size(); ++i) {
      if (!online_[i]) continue;
      const double flops = people_[i].profile.flops_per_s;
      report_.online_flop += flops * dt;
      report_.online_volunteer_s += dt;
      report_.busy_flop += busy_[i] * dt;
      if (busy_[i] > 0) report_.seated_volunteer_s += dt;
      report_.max_volunteer_busy = std::max(report_.max_volunteer_busy, busy_[i] / flops);
    }
  }

  // Every online volunteer is seated or has a stated reason: unseated by the plan, banned, or
  // refused by the Sybil caps.
  void final_check() {
    std::unordered_set<std::string> unassigned;
    for (const auto& u : replanner_.current().unassigned) unassigned.insert(u.node_id);
    for (std::size_t i = 0; i < people_.size(); ++i) {
      if (!online_[i]) continue;
      ++report_.online_at_end;
      if (replanner_.seat_of(key(i)).first >= 0) {
        ++report_.seated_at_end;
      } else if (!unassigned.count(key(i)) && !membership_.ban_of(key(i)) && !refused_[i]) {
        ++report_.without_reason;
      }
    }
  }

  const std::vector<SimVolunteer>& people_;
  SimOptions options_;
  clock::ManualClock clock_;
  EventQueue queue_;
  coordinator::CoordinatorState state_;
  coordinator::Membership membership_;
  coordinator::RePlanner replanner_;
  PipelineFlow flow_;
  std::unordered_map<std::string, int> index_;
  std::map<std::string, std::vector<int>> by_subnet_;
  std::vector<std::int64_t> block_params_;
  std::vector<std::mt19937_64> rngs_;
  std::mt19937_64 checks_rng_{7};
  std::vector<char> online_, refused_;
  std::vector<std::set<std::string>> caught_;  // by witness: liars its spot-checks caught
  std::map<std::size_t, std::vector<std::string>> accusations_;
  std::map<std::size_t, std::int64_t> seated_since_;
  std::unordered_map<std::string, std::int64_t> judged_at_;
  std::unordered_map<int, int> round_size_, group_round_size_;
  std::vector<double> busy_;
  std::uint64_t seen_version_ = 0, installed_version_ = 0;
  std::int64_t end_ms_ = 0;
  bool frozen_ = false;
  SimReport report_;
  const job::JobSpec job_;
};

}  // namespace

SimReport run_swarm(const std::vector<SimVolunteer>& people, const job::JobSpec& job,
                    const SimOptions& options) {
  SwarmSim sim(people, job, options);
  return sim.run();
}

}  // namespace rookery::sim
