#include "coordinator/coordinator_service.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <algorithm>
#include <map>
#include <set>
#include <iterator>
#include <random>
#include <optional>

#include <spdlog/spdlog.h>

#include "coordinator/admission.hpp"
#include "coordinator/ban_vote.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/dataset_server.hpp"
#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"
#include "coordinator/verdicts.hpp"
#include "data/dataset.hpp"
#include "data/dataset_delivery.hpp"
#include "net/identity.hpp"
#include "net/link_probe.hpp"
#include "net/paths.hpp"
#include "net/rpc.hpp"
#include "rookery/envelope.pb.h"
#include "clock/clock.hpp"

namespace rookery::coordinator {

namespace pb = wire::pb;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::int64_t kMaxProbeBytes = 16 << 20;
constexpr std::size_t kDefaultLossPoints = 300;
constexpr std::size_t kMaxReceiptsPerHeartbeat = 256;  // a node consumes from a few neighbours
constexpr std::size_t kProbeTargets = 3;  // peers a joining volunteer measures its links to

using clock::unix_ms;

// A volunteer while it is alive.
struct Live {
  Member member;
  Clock::time_point last_seen;
  std::uint64_t plan_version = 0;  // what it reported running
  double samples_per_s = 0;
  double loss = -1;
  bool contributing = true;
  Contribution totals;
  std::set<std::string> accuses;  // ring partners this node's aggregator excludes now
  std::set<std::string>
      caught;  // senders whose activations or gradients this node's spot-checks caught wrong
  Clock::time_point paused_since{};       // while !contributing
  cluster::NodeProfile measured_at_join;  // its link to the coordinator, as the join measured it
  std::uint32_t peers_measured = 0;       // peers whose links it reported measuring
  double offered_flops = 0;  // what its owner allows (benchmark x duty cycle; 0: not reported yet)
  SpeedHistory speed;       // training FLOP per second of compute / benchmark, against its own past
  bool has_data = false;    // holds the job's dataset, verified (planned only then)
  double data_fetched = 0;  // while fetching: the fraction it holds
};

// Pauses longer than this take a volunteer out of the plan (its pipeline would wait for it).
constexpr auto kPlanAroundPausedAfter = std::chrono::seconds(10);
// How often the planning loop asks whether today's profiles deserve a better plan.
constexpr auto kReconsiderEvery = std::chrono::seconds(10);

// Everything the request handler and the planning loop share.
class Swarm {
 public:
  Swarm(const CoordinatorConfig& config, CoordinatorState& state, job::JobSpec job,
        std::string job_json, PublishedDataset dataset)
      : config_(config),
        state_(state),
        job_(std::move(job)),
        job_json_(std::move(job_json)),
        admission_(job_.id, config.invite_tokens, state),
        dataset_(std::move(dataset), config.data_bytes_per_s) {
    auto [current, previous] = state_.latest_plans();
    current_ = std::move(current);
    previous_ = std::move(previous);
    replans_ = static_cast<std::uint32_t>(state_.plan_count());
    // After a restart the volunteers of the current plan are presumed alive for one grace
    // period: they keep training on it and re-register within a heartbeat.
    const auto now = Clock::now();
    for (auto& m : state_.members()) {
      if (current_.find(m.key).first < 0) continue;
      Live l;
      l.member = m;
      l.last_seen = now;
      l.plan_version = current_.version;
      l.has_data = true;  // it was seated, so it held the data
      live_[m.key] = std::move(l);
    }
    banned_ = state_.banned();
    for (const auto& m : state_.members()) {
      if (banned_.find(m.key) == banned_.end()) members_.insert(m.key);
    }
    members_changed_locked();
    const auto totals = state_.contributions();
    for (auto& [k, l] : live_) {
      if (const auto it = totals.find(k); it != totals.end()) l.totals = it->second;
    }
    if (current_.version > 0) {
      spdlog::info("resumed plan {}: {} pipeline(s), {} volunteer(s) expected back",
                   current_.version, current_.pipelines.size(), live_.size());
    }
  }

  std::optional<net::Reply> handle(const net::RequestContext& req, wire::Message& msg,
                                   const net::CurveKeyPair& identity) {
    net::Reply reply;
    const auto& h = msg.header;
    if (h.has_ping()) {
      net::answer_ping(h.ping(), "coordinator", identity, reply);
    } else if (h.has_join()) {
      join(req.peer_key, h.join(), *reply.header.mutable_join_reply());
      if (reply.header.join_reply().accepted()) reply.tensors.push_back(dataset_.manifest_tensor());
    } else if (h.has_data_chunk_request()) {
      serve_data_chunk(req.peer_key, h.data_chunk_request(), reply);
    } else if (h.has_heartbeat()) {
      heartbeat(req.peer_key, h.heartbeat(), *reply.header.mutable_heartbeat_reply());
    } else if (h.has_run_status_request()) {
      run_status(h.run_status_request(), *reply.header.mutable_run_status());
    } else if (h.has_leave()) {
      leave(req.peer_key, h.leave(), *reply.header.mutable_leave_reply());
    } else if (h.has_bandwidth_probe()) {
      net::answer_bandwidth_probe(msg, kMaxProbeBytes, reply);
    } else {
      reply.header.mutable_error()->set_message("request not supported by this coordinator");
    }
    return reply;
  }

  // The planning loop's tick: expire the silent, re-plan when membership has settled, and
  // sample the run's loss.
  void tick() {
    std::lock_guard lock(mutex_);
    const auto now = Clock::now();
    for (auto it = live_.begin(); it != live_.end();) {
      if (now - it->second.last_seen > config_.dead_after) {
        spdlog::warn("volunteer {} went silent for {} ms: planning around it",
                     net::short_key(it->first), config_.dead_after.count());
        it = live_.erase(it);
        changed_at_ = now;
        dirty_ = true;
      } else {
        ++it;
      }
    }
    if (dirty_ && now - changed_at_ >= config_.settle) replan_locked();
    if (now - last_reconsider_ >= kReconsiderEvery) {
      last_reconsider_ = now;
      try {
        reconsider_locked();
      } catch (const std::exception& e) {
        spdlog::error("re-planning check failed: {}", e.what());
      }
    }
    if (now - last_loss_sample_ >= std::chrono::seconds(2)) {
      last_loss_sample_ = now;
      double sum = 0;
      int n = 0;
      for (const auto& [k, l] : live_) {
        if (l.loss >= 0) {
          sum += l.loss;
          ++n;
        }
      }
      if (n > 0) {
        try {
          state_.add_loss(unix_ms(), sum / n);
        } catch (const std::exception& e) {
          spdlog::error("cannot record the loss: {}", e.what());
        }
      }
    }
  }

 private:
  void join(const std::string& key, const pb::JoinRequest& r, pb::JoinReply& out) {
    auto refuse = [&](const std::string& why) {
      out.set_accepted(false);
      out.set_reason(why);
      spdlog::info("refused volunteer {}: {}", net::short_key(key), why);
    };
    std::optional<Ban> ban;
    {
      std::lock_guard lock(mutex_);
      if (const auto b = banned_.find(key); b != banned_.end()) ban = b->second;
    }
    if (const auto why = admission_.refusal(r, ban ? &*ban : nullptr); !why.empty())
      return refuse(why);
    const auto& p = r.profile();
    const auto m = Admission::member_of(key, r);
    std::lock_guard lock(mutex_);
    try {
      state_.save_member(m, unix_ms());
    } catch (const std::exception& e) {
      return refuse(std::string("the coordinator cannot record the volunteer: ") + e.what());
    }
    if (members_.insert(key).second) members_changed_locked();
    auto& l = live_[key];
    const bool same_seat = l.member.key == key && l.member.stage_endpoint == m.stage_endpoint &&
                           l.member.reduce_endpoint == m.reduce_endpoint &&
                           l.member.shard_endpoint == m.shard_endpoint;
    // A volunteer that comes back running the current plan at the same addresses (after the
    // coordinator restarted, or a short network cut) changes nothing; anyone else does.
    const bool rejoined =
        same_seat && r.plan_version() == current_.version && current_.find(key).first >= 0;
    l.member = m;
    l.measured_at_join = m.profile;
    l.peers_measured = 0;
    l.last_seen = Clock::now();
    l.plan_version = r.plan_version();
    l.has_data = r.dataset_digest() == dataset_.digest();
    if (!rejoined) {
      dirty_ = true;
      changed_at_ = Clock::now();
    }
    // A few members to measure its links to: training traffic goes peer to peer, and the
    // coordinator's own link says little of that.
    std::vector<const Live*> others;
    for (const auto& [k, o] : live_) {
      if (k != key && !o.member.shard_endpoint.empty()) others.push_back(&o);
    }
    std::vector<const Live*> picked;
    std::sample(others.begin(), others.end(), std::back_inserter(picked), kProbeTargets, random_);
    for (const auto* o : picked) {
      auto* t = out.add_probe_targets();
      t->set_key(o->member.key);
      t->set_endpoint(o->member.shard_endpoint);
    }
    out.set_accepted(true);
    out.set_job_spec_json(job_json_);
    out.set_dataset_digest(dataset_.digest());
    out.set_heartbeat_interval_ms(static_cast<std::uint32_t>(config_.heartbeat_interval.count()));
    out.set_dead_after_ms(static_cast<std::uint32_t>(config_.dead_after.count()));
    spdlog::info(
        "volunteer {} {}: {:.1f} GFLOP/s, {} MiB, {:.0f}/{:.0f} MB/s up/down, rtt {:.2f} ms",
        net::short_key(key),
        rejoined ? "is back on plan " + std::to_string(current_.version) : "joined",
        p.flops_per_s() / 1e9, p.free_memory_bytes() >> 20, p.upload_bytes_per_s() / 1e6,
        p.download_bytes_per_s() / 1e6, p.rtt_s() * 1e3);
  }

  // A volunteer whose owner chose to leave the job: planned around at once (its totals and its
  // record stay; it may join again).
  void leave(const std::string& key, const pb::LeaveRequest& r, pb::LeaveReply& out) {
    std::lock_guard lock(mutex_);
    const auto it = live_.find(key);
    if (r.job_id() != job_.id || it == live_.end()) return;
    live_.erase(it);
    remove_member_locked(key);
    dirty_ = true;
    changed_at_ = Clock::now();
    out.set_left(true);
    spdlog::info("volunteer {} left the job: planning around it", net::short_key(key));
  }

  // The node's receipts credit the volunteers whose work it consumed (members only; a banned
  // key earns nothing). What a volunteer claims for itself is kept beside, never credited
  // beyond what its consumers confirm.
  void record_receipts_locked(const std::string& consumer, const pb::Heartbeat& h) {
    std::vector<ReceiptReport> receipts;
    for (const auto& r : h.receipts()) {
      if (receipts.size() >= kMaxReceiptsPerHeartbeat) break;
      if (r.key() == consumer || live_.find(r.key()) == live_.end()) continue;
      receipts.push_back({r.key(), r.forward_samples(), r.backward_samples()});
    }
    if (receipts.empty()) return;
    try {
      for (auto& [producer, totals] : state_.record_receipts(consumer, receipts, unix_ms())) {
        if (const auto it = live_.find(producer); it != live_.end()) it->second.totals = totals;
      }
    } catch (const std::exception& e) {
      spdlog::error("cannot record {}'s receipts: {}", net::short_key(consumer), e.what());
    }
  }

  // The links a volunteer measured to the peers its join named: its profile's bandwidth and
  // round trip become the worse of its link to the coordinator and the peers' median (what a
  // node reports of its peers cannot make it look better than the coordinator measured it).
  void record_peer_links_locked(const std::string& key, Live& l, const pb::Heartbeat& h) {
    std::vector<double> up, down, rtt;
    for (const auto& link : h.peer_links()) {
      if (up.size() >= 2 * kProbeTargets) break;
      const bool plausible =
          link.key() != key && members_.count(link.key()) && link.upload_bytes_per_s() > 0 &&
          link.upload_bytes_per_s() < 1e12 && link.download_bytes_per_s() > 0 &&
          link.download_bytes_per_s() < 1e12 && link.rtt_s() >= 0 && link.rtt_s() < 60;
      if (!plausible) continue;
      up.push_back(link.upload_bytes_per_s());
      down.push_back(link.download_bytes_per_s());
      rtt.push_back(link.rtt_s());
    }
    if (up.empty()) return;
    const auto median = [](std::vector<double> v) {
      std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
      return v[v.size() / 2];
    };
    auto& p = l.member.profile;
    const auto& joined = l.measured_at_join;
    const double peer_up = median(up), peer_down = median(down), peer_rtt = median(rtt);
    const double new_up = std::min(joined.upload_bytes_per_s, peer_up);
    const double new_down = std::min(joined.download_bytes_per_s, peer_down);
    const double new_rtt = std::max(joined.rtt_s, peer_rtt);
    spdlog::info(
        "volunteer {} measured its links to {} peer(s): median {:.0f}/{:.0f} MB/s up/down, rtt "
        "{:.2f} ms "
        "(to the coordinator {:.0f}/{:.0f} MB/s, {:.2f} ms)",
        net::short_key(key), up.size(), peer_up / 1e6, peer_down / 1e6, peer_rtt * 1e3,
        joined.upload_bytes_per_s / 1e6, joined.download_bytes_per_s / 1e6, joined.rtt_s * 1e3);
    l.peers_measured = static_cast<std::uint32_t>(up.size());
    const auto moved = [](double a, double b) { return std::abs(a - b) > 0.25 * std::max(a, b); };
    const bool changed = moved(new_up, p.upload_bytes_per_s) ||
                         moved(new_down, p.download_bytes_per_s) || moved(new_rtt, p.rtt_s);
    p.upload_bytes_per_s = new_up;
    p.download_bytes_per_s = new_down;
    p.rtt_s = new_rtt;
    if (!changed) return;
    try {
      state_.save_member(l.member, unix_ms());
    } catch (const std::exception& e) {
      spdlog::error("cannot record {}'s profile: {}", net::short_key(key), e.what());
    }
  }

  void heartbeat(const std::string& key, const pb::Heartbeat& h, pb::HeartbeatReply& out) {
    std::lock_guard lock(mutex_);
    const auto it = live_.find(key);
    if (it == live_.end()) {
      out.set_known(false);
      out.set_status("not registered: join again");
      return;
    }
    auto& l = it->second;
    l.last_seen = Clock::now();
    l.plan_version = h.plan_version();
    l.samples_per_s = h.samples_per_s();
    l.loss = h.loss();
    if (l.contributing != h.contributing()) {
      // A paused volunteer keeps its seat: its pipeline waits for it, as after a short pause
      // it would be costlier to move its shard than to wait. Reported, not re-planned.
      spdlog::info("volunteer {} {}", net::short_key(key),
                   h.contributing() ? "contributes again" : "paused");
    }
    if (l.contributing && !h.contributing()) l.paused_since = Clock::now();
    l.contributing = h.contributing();
    // Planned once it holds the whole dataset, verified.
    const bool has_data = h.dataset_digest() == dataset_.digest();
    if (has_data != l.has_data) {
      spdlog::info("volunteer {} {} the job's dataset", net::short_key(key),
                   has_data ? "holds" : "no longer holds");
      l.has_data = has_data;
      dirty_ = true;
      changed_at_ = Clock::now();
    }
    l.data_fetched = std::clamp(h.dataset_fetched(), 0.0, 1.0);
    // The capacity its owner allows now (the governor's duty cycle changes it), and the speed
    // it shows while computing: a change of more than a quarter in what the planner would use
    // updates the profile the next plans use (see planned_flops).
    if (h.flops_per_s() > 0 && h.flops_per_s() < 1e18) l.offered_flops = h.flops_per_s();
    // How much slower than itself it computes now, on the blocks its reading is from (a node
    // reports it on the plan it runs).
    const auto [p, s] = current_.find(key);
    if (p >= 0 && h.plan_version() == current_.version && h.flops_per_busy_s() > 0 &&
        h.benchmark_flops_per_s() > 0 && h.benchmark_flops_per_s() < 1e18) {
      const auto& seat =
          current_.pipelines[static_cast<std::size_t>(p)][static_cast<std::size_t>(s)];
      l.speed.observe(seat.first_block, seat.last_block,
                      h.flops_per_busy_s() / h.benchmark_flops_per_s());
    }
    if (l.offered_flops > 0) {
      const double planned = planned_flops(l.offered_flops, l.speed.slowdown);
      if (std::abs(planned - l.member.profile.flops_per_s) > 0.25 * l.member.profile.flops_per_s) {
        if (planned < l.offered_flops) {
          spdlog::info(
              "volunteer {} computes at {:.0f}% of the speed it showed on these blocks: planned "
              "with {:.1f} "
              "GFLOP/s (was {:.1f})",
              net::short_key(key), 100.0 * l.speed.slowdown, planned / 1e9,
              l.member.profile.flops_per_s / 1e9);
        } else {
          spdlog::info("volunteer {} now offers {:.1f} GFLOP/s (was {:.1f})", net::short_key(key),
                       planned / 1e9, l.member.profile.flops_per_s / 1e9);
        }
        l.member.profile.flops_per_s = planned;
      }
    }
    l.accuses.clear();
    for (const auto& k : h.excluded_peers()) {
      if (k != key && l.accuses.size() < 64) l.accuses.insert(k);
    }
    l.caught.clear();
    for (const auto& k : h.failed_spot_checks()) {
      if (k != key && l.caught.size() < 64) l.caught.insert(k);
    }
    const std::set<std::string> named = [&] {
      auto all = l.accuses;
      all.insert(l.caught.begin(), l.caught.end());
      return all;
    }();
    for (const auto& accused : named) consider_ban_locked(accused);
    if (live_.find(key) ==
        live_.end()) {  // it was the one banned (cannot be: a node never accuses itself)
      out.set_known(false);
      return;
    }
    if (h.samples() < 0 || h.micro_batches() < 0 || !(h.flops() >= 0)) {
      out.set_known(true);
      out.set_status("ignored: negative counters");
      return;
    }
    try {
      l.totals = state_.record_progress(key, h.samples(), h.micro_batches(), h.flops(), unix_ms());
    } catch (const std::exception& e) {
      spdlog::error("cannot record {}'s progress: {}", net::short_key(key), e.what());
    }
    record_receipts_locked(key, h);
    if (h.peer_links_size() > 0) record_peer_links_locked(key, l, h);
    out.set_known(true);
    out.set_members_digest(members_digest_);
    if (h.members_digest() != members_digest_) {
      for (const auto& k : members_) out.add_members(k);
    }
    out.set_plan_version(current_.version);
    const auto seat = current_.find(key);
    out.set_status(!l.has_data ? dataset_.fetching_status(l.data_fetched)
                   : current_.empty()
                       ? (current_.infeasible.empty() ? "waiting for a plan" : current_.infeasible)
                   : seat.first < 0 ? "not in the plan: " + unassigned_reason(key)
                                    : "pipeline " + std::to_string(seat.first + 1) + " stage " +
                                          std::to_string(seat.second + 1));
    if (seat.first >= 0) {
      bool ready = true;
      for (const auto& other : current_.pipelines[static_cast<std::size_t>(seat.first)]) {
        const auto o = live_.find(other.key);
        ready = ready && o != live_.end() && o->second.plan_version == current_.version;
      }
      out.set_pipeline_ready(ready);
    }
    if (h.plan_version() == current_.version) return;
    std::map<std::string, Member> members;
    for (const auto& [k, v] : live_) members[k] = v.member;
    try {
      out.set_plan_json(
          plan_json(current_, members, job_.id + ".json", config_.averaging_interval_ms));
    } catch (const std::exception& e) {
      // A seated member has gone since the plan was made: the next plan will not seat it.
      out.set_plan_version(h.plan_version());
      out.set_status(std::string("re-planning: ") + e.what());
      return;
    }
    for (const auto& source : shard_sources(previous_, current_, key, members)) {
      auto* o = out.add_sources();
      o->set_key(source.key);
      o->set_endpoint(source.endpoint);
      o->set_first_block(source.first_block);
      o->set_last_block(source.last_block);
    }
  }

  // Banned when the peers that see its work verify that it lies (ban_vote).
  void consider_ban_locked(const std::string& accused) {
    if (banned_.count(accused) || !live_.count(accused)) return;
    const auto witnesses = ban_witnesses(current_, accused);
    if (!witnesses) return;
    BanReports reports;
    for (const auto& [k, l] : live_) {
      if (l.accuses.count(accused)) reports.excluded_by.insert(k);
      if (l.caught.count(accused)) reports.caught_by.insert(k);
    }
    const auto vote = ban_vote(*witnesses, reports);
    if (!vote.ban) return;
    const auto& reason = vote.reason;
    spdlog::warn("banning volunteer {}: {}", net::short_key(accused), reason);
    try {
      state_.ban(accused, reason, unix_ms());
    } catch (const std::exception& e) {
      spdlog::error("cannot record the ban: {}", e.what());
    }
    banned_[accused] = {reason, unix_ms()};
    live_.erase(accused);
    remove_member_locked(accused);
    dirty_ = true;
    changed_at_ = Clock::now() - config_.settle;  // re-plan now: it must stop receiving traffic
  }

  // The member list every node's peer-facing sockets admit: the volunteers admitted (alive or
  // silent for a while: they may come back) that have not left and are not banned. Nodes get
  // it in heartbeat replies whenever their digest of it differs.
  void members_changed_locked() {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the sorted keys
    for (const auto& k : members_) {
      for (const unsigned char c : k) h = (h ^ c) * 1099511628211ull;
      h = (h ^ 0xffu) * 1099511628211ull;
    }
    members_digest_ = h == 0 ? 1 : h;  // 0 means "no list" on the wire
  }

  void remove_member_locked(const std::string& key) {
    if (members_.erase(key) == 0) return;
    members_changed_locked();
    try {
      state_.remove_member(key);
    } catch (const std::exception& e) {
      spdlog::error("cannot remove {} from the members: {}", net::short_key(key), e.what());
    }
  }

  std::string unassigned_reason(const std::string& key) const {
    for (const auto& u : current_.unassigned) {
      if (u.node_id == key) return u.reason;
    }
    return verdict::kJoinedAfterThePlan;
  }

  void run_status(const pb::RunStatusRequest& r, pb::RunStatus& out) {
    std::lock_guard lock(mutex_);
    out.set_job_id(job_.id);
    out.set_plan_version(current_.version);
    out.set_pipelines(static_cast<std::uint32_t>(current_.pipelines.size()));
    out.set_replans(replans_);
    double rate = 0;
    for (const auto& [k, l] : live_) {
      auto* n = out.add_nodes();
      n->set_key(k);
      n->set_alive(true);
      const auto [p, s] = current_.find(k);
      n->set_pipeline(p);
      n->set_stage(s);
      if (p >= 0) {
        const auto& seat =
            current_.pipelines[static_cast<std::size_t>(p)][static_cast<std::size_t>(s)];
        n->set_first_block(seat.first_block);
        n->set_last_block(seat.last_block);
        if (s == 0) rate += l.samples_per_s;  // a pipeline's throughput is its first stage's
      }
      n->set_samples_per_s(l.samples_per_s);
      n->set_plan_version(l.plan_version);
      n->set_samples(l.totals.samples);
      n->set_flops(l.totals.flops);
      n->set_confirmed_samples(l.totals.confirmed_samples());
      n->set_confirmed_flops(l.totals.confirmed_flops());
      auto* pr = n->mutable_profile();
      pr->set_flops_per_s(l.member.profile.flops_per_s);
      pr->set_free_memory_bytes(l.member.profile.free_memory_bytes);
      pr->set_upload_bytes_per_s(l.member.profile.upload_bytes_per_s);
      pr->set_download_bytes_per_s(l.member.profile.download_bytes_per_s);
      pr->set_rtt_s(l.member.profile.rtt_s);
      pr->set_peers_measured(l.peers_measured);
    }
    out.set_samples_per_s(rate);
    for (const auto& [k, b] : banned_) {
      auto* n = out.add_banned();
      n->set_key(k);
      n->set_reason(b.reason);
      n->set_unix_ms(b.unix_ms);
    }
    try {
      std::int64_t all = 0;
      for (const auto& [k, c] : state_.contributions()) all += c.samples;
      out.set_samples(all);
      for (const auto& p :
           state_.loss_curve(r.loss_points() ? r.loss_points() : kDefaultLossPoints)) {
        auto* lp = out.add_loss();
        lp->set_unix_ms(p.unix_ms);
        lp->set_loss(p.loss);
      }
    } catch (const std::exception& e) {
      spdlog::error("cannot read the run's history: {}", e.what());
    }
  }

  static bool plannable(const Live& l) {
    return l.has_data && (l.contributing || Clock::now() - l.paused_since < kPlanAroundPausedAfter);
  }

  // One chunk of the dataset, for a member (a volunteer that joined and is not banned).
  void serve_data_chunk(const std::string& key, const pb::DataChunkRequest& q, net::Reply& reply) {
    {
      std::lock_guard lock(mutex_);
      if (live_.find(key) == live_.end()) {
        reply.header.mutable_error()->set_message(
            "the dataset is served to the job's volunteers only: join first");
        return;
      }
    }
    dataset_.serve(q, reply);
  }

  // Every few seconds: a volunteer paused for long is planned around (and back in when it
  // resumes), and a plan that today's measured profiles would make markedly faster replaces
  // the current one.
  void reconsider_locked() {
    std::map<std::string, Member> eligible;
    bool membership_changed = false;
    for (const auto& [k, l] : live_) {
      const bool seated = current_.find(k).first >= 0;
      if (plannable(l)) eligible[k] = l.member;
      if (seated != plannable(l)) membership_changed = true;
    }
    if (eligible.empty()) return;
    if (membership_changed) {
      spdlog::debug(
          "re-planning check: a volunteer paused for over {} s, came back, or waits unseated",
          kPlanAroundPausedAfter.count());
      replan_locked();
      return;
    }
    std::vector<Member> members;
    for (const auto& [k, m] : eligible) members.push_back(m);
    const auto fresh = plan_swarm(members, job_, parse_planner(config_.planner));
    if (fresh.same_layout(current_)) return;
    const double now_rate = predicted_rate(current_, eligible, job_);
    if (worth_replanning(now_rate, fresh.predicted_samples_per_s)) {
      spdlog::info(
          "re-planning: today's profiles predict {:.1f} samples/s against {:.1f} for the current "
          "seats",
          fresh.predicted_samples_per_s, now_rate);
      replan_locked();
    }
  }

  void replan_locked() {
    dirty_ = false;
    std::vector<Member> members;
    for (const auto& [k, l] : live_) {
      if (plannable(l)) members.push_back(l.member);
    }
    Assignment next;
    try {
      next = plan_swarm(members, job_, parse_planner(config_.planner));
    } catch (const std::exception& e) {
      spdlog::error("planning failed: {}", e.what());
      return;
    }
    if (next.same_layout(current_)) {
      current_.unassigned = next.unassigned;
      return;
    }
    next.version = current_.version + 1;
    try {
      state_.save_plan(next, unix_ms());
    } catch (const std::exception& e) {
      spdlog::error("cannot save plan {}: {} (keeping plan {})", next.version, e.what(),
                    current_.version);
      dirty_ = true;
      return;
    }
    ++replans_;
    previous_ = std::move(current_);
    current_ = std::move(next);
    std::string layout;
    for (const auto& p : current_.pipelines) {
      layout += layout.empty() ? "" : " | ";
      for (const auto& s : p) {
        layout += net::short_key(s.key) + "[" + std::to_string(s.first_block) + "," +
                  std::to_string(s.last_block) + ") ";
      }
    }
    if (current_.empty()) {
      spdlog::warn("plan {}: no pipeline ({})", current_.version, current_.infeasible);
    } else {
      spdlog::info(
          "plan {}: {} volunteer(s) in {} pipeline(s), {} unassigned, predicted {:.1f} samples/s: "
          "{}",
          current_.version, members.size(), current_.pipelines.size(), current_.unassigned.size(),
          current_.predicted_samples_per_s, layout);
    }
  }

  const CoordinatorConfig& config_;
  CoordinatorState& state_;
  job::JobSpec job_;
  std::string job_json_;
  const Admission admission_;
  DatasetServer dataset_;  // thread-safe on its own: chunks are served outside the lock
  std::mutex mutex_;
  std::map<std::string, Live> live_;
  std::map<std::string, Ban> banned_;
  std::set<std::string> members_;  // who peers admit (see members_changed_locked)
  std::uint64_t members_digest_ = 0;
  std::mt19937_64 random_{std::random_device{}()};  // probe targets
  Assignment current_, previous_;
  bool dirty_ = false;
  Clock::time_point changed_at_ = Clock::now();
  Clock::time_point last_loss_sample_ = Clock::now();
  Clock::time_point last_reconsider_ = Clock::now();
  std::uint32_t replans_ = 0;
};

}  // namespace

CoordinatorService::CoordinatorService(CoordinatorConfig config) : config_(std::move(config)) {
  if (config_.data_dir.empty()) config_.data_dir = net::default_data_dir() / "coordinator";
}

void CoordinatorService::request_stop() {
  std::lock_guard lock(mutex_);
  stop_ = true;
  cv_.notify_all();
}

int CoordinatorService::run() {
  net::CurveKeyPair identity;
  std::unique_ptr<CoordinatorState> state;
  job::JobSpec job;
  std::string job_json;
  PublishedDataset dataset;
  try {
    net::ensure_private_dir(config_.data_dir);
    identity = net::CurveKeyPair::load_or_create(config_.data_dir / "keys", "coordinator");
    state = std::make_unique<CoordinatorState>(config_.data_dir / "coordinator.db");
  } catch (const std::exception& e) {
    spdlog::error("cannot prepare the coordinator's folder: {}", e.what());
    return 2;
  }
  if (!config_.job_path.empty()) {
    try {
      job = job::load_job_spec(config_.job_path);
      job_json = job::to_json(job);
      // Volunteers hold no copy of the data: publish it, each chunk hashed.
      dataset = PublishedDataset::publish(job.dataset);
    } catch (const std::exception& e) {
      spdlog::error("{}", e.what());
      return 2;
    }
  }
  if (const auto k = Admission::first_invalid_key(config_.allowed_keys); !k.empty()) {
    spdlog::error("--allow-key '{}' is not a 40-character Z85 CURVE key", k);
    return 2;
  }
  std::unique_ptr<Swarm> swarm;
  if (!config_.job_path.empty())
    swarm = std::make_unique<Swarm>(config_, *state, job, job_json, std::move(dataset));
  net::SecureContext ctx(1);
  Admission::apply_allow_list(ctx.auth(), config_.allowed_keys);
  net::RpcServer::Config rc;
  rc.endpoint = config_.bind;
  rc.domain = net::kCoordinatorDomain;
  std::unique_ptr<net::RpcServer> server;
  try {
    server = std::make_unique<net::RpcServer>(
        ctx, &identity, rc,
        [&](const net::RequestContext& req, wire::Message& msg) -> std::optional<net::Reply> {
          if (swarm) return swarm->handle(req, msg, identity);
          net::Reply reply;
          if (msg.header.has_ping()) {
            net::answer_ping(msg.header.ping(), "coordinator", identity, reply);
          } else if (msg.header.has_join()) {
            reply.header.mutable_join_reply()->set_accepted(false);
            reply.header.mutable_join_reply()->set_reason(verdict::kNoJob);
          } else {
            reply.header.mutable_error()->set_message("request not supported by this coordinator");
          }
          return reply;
        });
  } catch (const std::exception& e) {
    spdlog::error("cannot listen on {}: {}", config_.bind, e.what());
    return 2;
  }
  spdlog::info("rookery-coordinator {} listening on {} (key {}), {}{}", ROOKERY_VERSION,
               server->endpoint(), identity.public_key,
               config_.allowed_keys.empty()
                   ? std::string("open enrolment")
                   : std::to_string(config_.allowed_keys.size()) + " allowed key(s)",
               config_.job_path.empty() ? ", no job" : ", job " + job.id);
  if (!config_.ready_file.empty()) {
    const auto tmp = config_.ready_file.string() + ".tmp";
    { std::ofstream(tmp) << server->endpoint() << ' ' << identity.public_key << '\n'; }
    std::filesystem::rename(tmp, config_.ready_file);
  }
  std::printf("READY %s %s\n", server->endpoint().c_str(), identity.public_key.c_str());
  std::fflush(stdout);

  std::unique_lock lock(mutex_);
  while (!stop_) {
    cv_.wait_for(lock, std::chrono::milliseconds(100));
    if (swarm) {
      lock.unlock();
      swarm->tick();
      lock.lock();
    }
  }
  server.reset();
  spdlog::info("coordinator stopped");
  return 0;
}

}  // namespace rookery::coordinator
