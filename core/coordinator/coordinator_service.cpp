#include "coordinator/coordinator_service.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <optional>

#include <spdlog/spdlog.h>

#include "coordinator/admission.hpp"
#include "coordinator/ban_vote.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/dataset_server.hpp"
#include "coordinator/membership.hpp"
#include "coordinator/replanner.hpp"
#include "coordinator/run_status.hpp"
#include "coordinator/swarm_planner.hpp"
#include "coordinator/verdicts.hpp"
#include "job/job_spec.hpp"
#include "net/identity.hpp"
#include "net/link_probe.hpp"
#include "net/paths.hpp"
#include "net/rpc.hpp"
#include "reach/reachability.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::coordinator {

namespace pb = wire::pb;

namespace {

constexpr std::int64_t kMaxProbeBytes = 16 << 20;
// How long a join waits for its candidates to answer the dial-back.
constexpr auto kDialBackTimeout = std::chrono::milliseconds(1500);

// The job this coordinator runs: its requests, answered by the mechanisms it is composed of
// under one lock, and the periodic tick that expires the silent, re-plans and samples the loss.
class JobCoordinator {
 public:
  JobCoordinator(const CoordinatorConfig& config, CoordinatorState& state, job::JobSpec job,
                 std::string job_json, PublishedDataset dataset, const clock::Clock& clock)
      : config_(config),
        job_(job),
        job_json_(std::move(job_json)),
        admission_(job.id, config.invite_tokens, state, clock),
        membership_(state, config.dead_after, clock),
        replanner_(state, std::move(job), config.planner, config.settle, clock),
        run_status_(state, clock),
        dataset_(std::move(dataset), config.data_bytes_per_s) {
    const auto& plan = replanner_.current();
    membership_.resume(plan);
    if (plan.version > 0) {
      spdlog::info("resumed plan {}: {} pipeline(s), {} volunteer(s) expected back", plan.version,
                   plan.pipelines.size(), membership_.live().size());
    }
  }

  std::optional<net::Reply> handle(const net::RequestContext& req, wire::Message& msg,
                                   net::SecureContext& ctx, const net::CurveKeyPair& identity) {
    net::Reply reply;
    const auto& h = msg.header;
    if (h.has_ping()) {
      net::answer_ping(h.ping(), "coordinator", identity, reply);
    } else if (h.has_join()) {
      join(req, h.join(), *reply.header.mutable_join_reply(), ctx, identity);
      if (reply.header.join_reply().accepted()) reply.tensors.push_back(dataset_.manifest_tensor());
    } else if (h.has_data_chunk_request()) {
      serve_data_chunk(req.peer_key, h.data_chunk_request(), reply);
    } else if (h.has_heartbeat()) {
      heartbeat(req.peer_key, h.heartbeat(), *reply.header.mutable_heartbeat_reply());
    } else if (h.has_run_status_request()) {
      std::lock_guard lock(mutex_);
      run_status_.answer(h.run_status_request(), job_.id, replanner_.current(),
                         replanner_.replans(), membership_, *reply.header.mutable_run_status());
    } else if (h.has_leave()) {
      leave(req.peer_key, h.leave(), *reply.header.mutable_leave_reply());
    } else if (h.has_bandwidth_probe()) {
      net::answer_bandwidth_probe(msg, kMaxProbeBytes, reply);
    } else {
      reply.header.mutable_error()->set_message("request not supported by this coordinator");
    }
    return reply;
  }

  void tick() {
    std::lock_guard lock(mutex_);
    if (!membership_.expire_silent().empty()) replanner_.changed();
    replanner_.tick(membership_.live());
    run_status_.sample_loss(membership_.live());
  }

 private:
  void join(const net::RequestContext& req, const pb::JoinRequest& r, pb::JoinReply& out,
            net::SecureContext& ctx, const net::CurveKeyPair& identity) {
    const std::string& key = req.peer_key;
    auto refuse = [&](const std::string& why) {
      out.set_accepted(false);
      out.set_reason(why);
      spdlog::info("refused volunteer {}: {}", net::short_key(key), why);
    };
    std::optional<Ban> ban;
    {
      std::lock_guard lock(mutex_);
      if (const auto* b = membership_.ban_of(key)) ban = *b;
    }
    if (const auto why = admission_.refusal(r, ban ? &*ban : nullptr); !why.empty())
      return refuse(why);
    // Where peers will dial it: measured by dialling it back, outside the lock.
    pb::JoinRequest placed = r;
    if (r.has_reach()) place_reachable(req, identity, ctx, placed, out);
    const auto m = Admission::member_of(key, placed);
    std::lock_guard lock(mutex_);
    const auto& plan = replanner_.current();
    bool same_seat = false;
    try {
      same_seat = membership_.admit(m, r.plan_version(), r.dataset_digest() == dataset_.digest());
    } catch (const std::exception& e) {
      return refuse(std::string("the coordinator cannot record the volunteer: ") + e.what());
    }
    // A volunteer that comes back running the current plan at the same addresses (after the
    // coordinator restarted, or a short network cut) changes nothing; anyone else does.
    const bool rejoined =
        same_seat && r.plan_version() == plan.version && plan.find(key).first >= 0;
    if (!rejoined) replanner_.changed();
    for (const auto* o : membership_.probe_targets(key)) {
      auto* t = out.add_probe_targets();
      t->set_key(o->key);
      t->set_endpoint(o->shard_endpoint);
    }
    out.set_accepted(true);
    out.set_job_spec_json(job_json_);
    out.set_dataset_digest(dataset_.digest());
    out.set_heartbeat_interval_ms(static_cast<std::uint32_t>(config_.heartbeat_interval.count()));
    out.set_dead_after_ms(static_cast<std::uint32_t>(config_.dead_after.count()));
    const auto& p = m.profile;
    spdlog::info(
        "volunteer {} {}: {:.1f} GFLOP/s, {} MiB, {:.0f}/{:.0f} MB/s up/down, rtt {:.2f} ms",
        net::short_key(key),
        rejoined ? "is back on plan " + std::to_string(plan.version) : "joined",
        p.flops_per_s / 1e9, p.free_memory_bytes >> 20, p.upload_bytes_per_s / 1e6,
        p.download_bytes_per_s / 1e6, p.rtt_s * 1e3);
  }

  // A node that reported where it may be reached: its candidates, with the address this
  // coordinator sees it connect from, are dialled back, and the endpoints that answer with its
  // key replace the ones it named. One that nobody can dial keeps its own, and is told so.
  static void place_reachable(const net::RequestContext& req, const net::CurveKeyPair& identity,
                              net::SecureContext& ctx, pb::JoinRequest& placed,
                              pb::JoinReply& out) {
    const reach::NodePorts ports{reach::port_of(placed.stage_endpoint()),
                                 reach::port_of(placed.reduce_endpoint()),
                                 reach::port_of(placed.shard_endpoint())};
    if (ports.stage == 0 || ports.reduce == 0 || ports.shard == 0) return;
    const auto d = reach::find_reach(ctx, identity, req.peer_key, placed.reach(), req.peer_address,
                                     ports, kDialBackTimeout);
    *out.mutable_reach() = d.verdict;
    if (d.verdict.way() == pb::REACH_UNREACHABLE) {
      spdlog::warn("volunteer {} answers at none of {} candidate address(es) (seen from {})",
                   net::short_key(req.peer_key), d.verdict.candidates_tried(), req.peer_address);
      return;
    }
    spdlog::info("volunteer {} is reached at {} ({})", net::short_key(req.peer_key), d.stage,
                 pb::ReachWay_Name(d.verdict.way()));
    auto set_endpoints = [&d](auto& message) {
      message.set_stage_endpoint(d.stage);
      message.set_reduce_endpoint(d.reduce);
      message.set_shard_endpoint(d.shard);
    };
    set_endpoints(placed);  // what the plan names
    set_endpoints(out);     // what the node learns
  }

  // A volunteer whose owner chose to leave the job: planned around at once (its totals and its
  // record stay; it may join again).
  void leave(const std::string& key, const pb::LeaveRequest& r, pb::LeaveReply& out) {
    std::lock_guard lock(mutex_);
    if (r.job_id() != job_.id || !membership_.leave(key)) return;
    replanner_.changed();
    out.set_left(true);
    spdlog::info("volunteer {} left the job: planning around it", net::short_key(key));
  }

  void heartbeat(const std::string& key, const pb::Heartbeat& h, pb::HeartbeatReply& out) {
    std::lock_guard lock(mutex_);
    auto* v = membership_.find(key);
    if (!v) {
      out.set_known(false);
      out.set_status("not registered: join again");
      return;
    }
    const auto heard = membership_.hear(key, *v, h, dataset_.digest());
    if (heard.data_changed) replanner_.changed();
    replanner_.observe_capacity(key, *v, h);
    for (const auto& accused : heard.named) consider_ban_locked(accused);
    if (!membership_.find(key)) {  // it was the one banned (cannot be: a node never accuses itself)
      out.set_known(false);
      return;
    }
    if (h.samples() < 0 || h.micro_batches() < 0 || !(h.flops() >= 0)) {
      out.set_known(true);
      out.set_status("ignored: negative counters");
      return;
    }
    membership_.record_work(key, *v, h);
    out.set_known(true);
    out.set_members_digest(membership_.digest());
    if (h.members_digest() != membership_.digest()) {
      for (const auto& k : membership_.members()) out.add_members(k);
    }
    send_plan_locked(key, *v, h.plan_version(), out);
  }

  // The node's seat, or why it has none, and the plan when it runs another, with where to
  // fetch the blocks of its new shard.
  void send_plan_locked(const std::string& key, const Volunteer& v, std::uint64_t running,
                        pb::HeartbeatReply& out) {
    const auto& plan = replanner_.current();
    const auto& live = membership_.live();
    out.set_plan_version(plan.version);
    const auto seat = plan.find(key);
    out.set_status(!v.has_data ? dataset_.fetching_status(v.data_fetched)
                   : plan.empty()
                       ? (plan.infeasible.empty() ? "waiting for a plan" : plan.infeasible)
                   : seat.first < 0 ? "not in the plan: " + replanner_.unassigned_reason(key)
                                    : "pipeline " + std::to_string(seat.first + 1) + " stage " +
                                          std::to_string(seat.second + 1));
    if (seat.first >= 0) {
      bool ready = true;
      for (const auto& other : plan.pipelines[static_cast<std::size_t>(seat.first)]) {
        const auto o = live.find(other.key);
        ready = ready && o != live.end() && o->second.plan_version == plan.version;
      }
      out.set_pipeline_ready(ready);
    }
    if (running == plan.version) return;
    std::map<std::string, Member> members;
    for (const auto& [k, o] : live) members[k] = o.member;
    try {
      out.set_plan_json(plan_json(plan, members, job_.id + ".json", config_.averaging_interval_ms));
    } catch (const std::exception& e) {
      // A seated member has gone since the plan was made: the next plan will not seat it.
      out.set_plan_version(running);
      out.set_status(std::string("re-planning: ") + e.what());
      return;
    }
    for (const auto& source : shard_sources(replanner_.previous(), plan, key, members)) {
      auto* o = out.add_sources();
      o->set_key(source.key);
      o->set_endpoint(source.endpoint);
      o->set_first_block(source.first_block);
      o->set_last_block(source.last_block);
    }
  }

  // Banned when the peers that see its work verify that it lies (ban_vote); then re-planned
  // at once, as it must stop receiving traffic.
  void consider_ban_locked(const std::string& accused) {
    if (membership_.ban_of(accused) || !membership_.find(accused)) return;
    const auto witnesses = ban_witnesses(replanner_.current(), accused);
    if (!witnesses) return;
    const auto vote = ban_vote(*witnesses, membership_.reports_on(accused));
    if (!vote.ban) return;
    spdlog::warn("banning volunteer {}: {}", net::short_key(accused), vote.reason);
    membership_.ban(accused, vote.reason);
    replanner_.changed_urgently();
  }

  // One chunk of the dataset, for a member (a volunteer that joined and is not banned).
  void serve_data_chunk(const std::string& key, const pb::DataChunkRequest& q, net::Reply& reply) {
    {
      std::lock_guard lock(mutex_);
      if (!membership_.find(key)) {
        reply.header.mutable_error()->set_message(
            "the dataset is served to the job's volunteers only: join first");
        return;
      }
    }
    dataset_.serve(q, reply);
  }

  const CoordinatorConfig& config_;
  const job::JobSpec job_;
  const std::string job_json_;
  const Admission admission_;
  std::mutex mutex_;  // over all below, for the request thread and the tick
  Membership membership_;
  RePlanner replanner_;
  RunStatus run_status_;
  DatasetServer dataset_;  // thread-safe on its own: chunks are served outside the lock
};

}  // namespace

CoordinatorService::CoordinatorService(CoordinatorConfig config, const clock::Clock& clock)
    : config_(std::move(config)), clock_(clock) {
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
  std::unique_ptr<JobCoordinator> swarm;
  if (!config_.job_path.empty()) {
    swarm = std::make_unique<JobCoordinator>(config_, *state, job, job_json, std::move(dataset),
                                             clock_);
  }
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
          if (swarm) return swarm->handle(req, msg, ctx, identity);
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
