#include "coordinator/coordinator_service.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <optional>

#include <spdlog/spdlog.h>

#include "coordinator/admission.hpp"
#include "coordinator/aggregation_proofs.hpp"
#include "coordinator/ban_vote.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/dataset_server.hpp"
#include "coordinator/join_dial_back.hpp"
#include "coordinator/load_report.hpp"
#include "coordinator/membership.hpp"
#include "coordinator/plan_delivery.hpp"
#include "coordinator/own_relay.hpp"
#include "coordinator/owner_dashboard.hpp"
#include "coordinator/plan_thread.hpp"
#include "coordinator/relay_broker.hpp"
#include "coordinator/replanner.hpp"
#include "coordinator/reversal_seating.hpp"
#include "coordinator/run_archive.hpp"
#include "coordinator/run_status.hpp"
#include "coordinator/swarm_planner.hpp"
#include "coordinator/sybil_limits.hpp"
#include "coordinator/verdicts.hpp"
#include "job/job_spec.hpp"
#include "net/identity.hpp"
#include "net/link_probe.hpp"
#include "net/member_list_sync.hpp"
#include "net/paths.hpp"
#include "net/rpc.hpp"
#include "net/token_bucket.hpp"
#include "reach/candidates.hpp"
#include "reach/relay_server.hpp"
#include "rookery/envelope.pb.h"
#include "wire/message.hpp"

namespace rookery::coordinator {

namespace pb = wire::pb;

namespace {

constexpr std::int64_t kMaxProbeBytes = 16 << 20;
// Joins dialled back at once (each waits up to kDialBackTimeout for an answer).
constexpr std::size_t kDialBackThreads = 8;
// A member's key in a HeartbeatReply: 40 Z85 characters, a tag and a length.
constexpr std::size_t kKeyBytesOnWire = 42;
// Keys of the member list a reply carries at most (a page of the list, or changes): 126 KiB,
// half of what a node accepts, beside a view of the plan.
constexpr std::size_t kMembersPerPage = 3000;
// Room left in a reply's header for the envelope around the heartbeat reply.
constexpr std::size_t kReplyHeadroomBytes = 4 << 10;
// The room a plan's reply keeps for its shard sources (a few ranges of a few holders, ~100
// bytes each).
constexpr std::size_t kSourcesBytes = 8 << 10;

// The job this coordinator runs: its requests, answered by the mechanisms it is composed of
// under one lock, and the periodic tick that expires the silent, re-plans and samples the loss.
class JobCoordinator {
 public:
  // `own_relay`: the relay on this host, if it runs one; `relay_auth` admits the members to it.
  JobCoordinator(const CoordinatorConfig& config, CoordinatorState& state, job::JobSpec job,
                 std::string job_json, PublishedDataset dataset, const clock::Clock& clock,
                 std::optional<pb::RelayOffer> own_relay, net::ZapAuthenticator* relay_auth,
                 net::SecureContext& ctx, const net::CurveKeyPair& identity)
      : config_(config),
        own_key_(identity.public_key),
        relay_auth_(relay_auth),
        job_(job),
        job_json_(std::move(job_json)),
        admission_(job.id,
                   {config.invite_tokens, config.open || !config.allowed_keys.empty(),
                    config.join_work_bits},
                   state, clock),
        membership_(state, config.dead_after, clock, config.heartbeat_interval),
        replanner_(state, std::move(job), config.planner, config.settle,
                   PlanThread::Mode::own_thread, clock),
        run_status_(state, clock),
        dataset_(std::move(dataset), config.data_bytes_per_s),
        bulk_replies_(config.bulk_reply_bytes_per_s),
        load_(config.load_report_interval, state.path()),
        proofs_(job_) {
    if (own_relay) relays_.add(*own_relay, config.relay_max_nodes, /*last_resort=*/true);
    run_status_.set_averaging_max_group(job_.averaging_max_group);
    const auto& plan = replanner_.current();
    membership_.resume(plan);
    sync_relay_members_locked();
    if (plan.version > 0) {
      spdlog::info("resumed plan {}: {} pipeline(s), {} volunteer(s) expected back", plan.version,
                   plan.pipelines.size(), membership_.live().size());
    }
    if (config.archive_interval.count() > 0) {
      archive_ = std::make_unique<RunArchive>(
          config.data_dir / "archive", job_, config.archive_interval, state, mutex_, ctx, identity,
          [this] { return archive_round(); }, config.evaluate, clock);
      run_status_.set_archive(archive_.get());
    }
  }

  ~JobCoordinator() {
    dial_backs_.reset();  // its threads complete joins under the lock below
    archive_.reset();     // its archivist's thread takes the lock below
    std::lock_guard lock(mutex_);
    membership_.flush_work();  // the progress heard since the last tick
  }

  std::optional<net::Reply> handle(const net::RequestContext& req, wire::Message& msg,
                                   net::SecureContext& ctx, const net::CurveKeyPair& identity) {
    net::Reply reply;
    const auto& h = msg.header;
    if (h.has_ping()) {
      net::answer_ping(h.ping(), "coordinator", identity, reply);
    } else if (h.has_join()) {
      return join(req, h.join(), ctx, identity);
    } else if (h.has_data_chunk_request()) {
      serve_data_chunk(req.peer_key, h.data_chunk_request(), reply);
    } else if (h.has_heartbeat()) {
      const auto start = std::chrono::steady_clock::now();
      heartbeat(req.peer_key, h.heartbeat(), *reply.header.mutable_heartbeat_reply());
      std::lock_guard lock(mutex_);
      load_.heartbeat(std::chrono::steady_clock::now() - start);
    } else if (h.has_run_status_request()) {
      status(h.run_status_request(), req.peer_key, *reply.header.mutable_run_status());
    } else if (h.has_leave()) {
      leave(req.peer_key, h.leave(), *reply.header.mutable_leave_reply());
    } else if (h.has_bandwidth_probe()) {
      net::answer_bandwidth_probe(msg, kMaxProbeBytes, reply);
    } else if (h.has_proof_report()) {
      ban_on_proof(req.peer_key, msg, reply);
    } else if (h.has_shard_request()) {
      serve_archive(req.peer_key, h.shard_request(), reply);
    } else {
      reply.header.mutable_error()->set_message("request not supported by this coordinator");
    }
    return reply;
  }

  // The run's status, for a volunteer's window or the owner's dashboard.
  void status(const pb::RunStatusRequest& r, const std::string& asker, pb::RunStatus& out) {
    std::lock_guard lock(mutex_);
    run_status_.answer(
        r, asker, job_.id, replanner_.current(), replanner_.replans(), membership_,
        [this](const std::string& key) { return replanner_.seat_of(key); }, out);
  }

  void tick() {
    // The work heard since the last tick goes to the state file outside the lock: its
    // transaction grows with the swarm (tens of ms at thousands), and heartbeats wait for it.
    std::unique_lock lock(mutex_);
    auto work = membership_.take_work();
    lock.unlock();
    const auto flush_start = std::chrono::steady_clock::now();
    const auto totals = membership_.write_work(work);
    const auto flush = std::chrono::steady_clock::now() - flush_start;
    lock.lock();
    const auto start = std::chrono::steady_clock::now();
    membership_.apply_work(totals);
    const auto dead = membership_.expire_silent();
    for (const auto& key : dead) gone_locked(key);
    if (!dead.empty()) replanner_.changed();
    membership_.publish_due();
    replanner_.tick(membership_.live());
    run_status_.sample_loss(membership_.live());
    const auto now = std::chrono::steady_clock::now();
    load_.tick(now - start, flush);
    if (!load_.due(now)) return;
    delivery_.refresh(replanner_.current(), membership_, config_.averaging_interval_ms,
                      job_.averaging_max_group);
    load_.log(now, membership_, replanner_, delivery_.bytes(), delivery_.largest_view_bytes(),
              reply_limit());
  }

 private:
  static std::size_t reply_limit() { return wire::Limits{}.max_header_bytes - kReplyHeadroomBytes; }

  // A join: refused or admitted at once, or, when it reports where it may be reached, answered
  // once its dial-back is done on a DialBacks thread (nullopt: the reply is deferred).
  std::optional<net::Reply> join(const net::RequestContext& req, const pb::JoinRequest& r,
                                 net::SecureContext& ctx, const net::CurveKeyPair& identity) {
    const std::string& key = req.peer_key;
    net::Reply reply;
    auto& out = *reply.header.mutable_join_reply();
    std::optional<Ban> ban;
    {
      std::lock_guard lock(mutex_);
      if (const auto* b = membership_.ban_of(key)) ban = *b;
    }
    if (const auto no = admission_.refusal(key, r, ban ? &*ban : nullptr)) {
      Admission::refuse(key, no, out);
      return reply;
    }
    {
      // Counted with the joins in flight before the dial-back, which a refused join should not
      // cost: joins waiting for theirs cannot exceed the caps together.
      std::lock_guard lock(mutex_);
      auto why =
          sybil_refusal(config_.caps, req.peer_address, key, {&membership_.origins(), &joining_});
      if (why.code() != pb::Verdict::NONE) {
        Admission::refuse(key, {true, false, std::move(why)}, out);
        return reply;
      }
      if (r.has_reach()) joining_.set(key, req.peer_address);
    }
    if (!r.has_reach()) {
      // No report: the node named its endpoints itself (--host, or a swarm on one PC).
      admit(req, r, r, out);
      if (out.accepted()) reply.tensors.push_back(dataset_.manifest_tensor());
      return reply;
    }
    // Where peers will dial it: measured by dialling it back, off this thread.
    dial_backs_->submit([this, req, r, &ctx, &identity, answer = req.defer()]() mutable {
      net::Reply later;
      auto& joined = *later.header.mutable_join_reply();
      pb::JoinRequest placed = r;
      place_reachable(req, identity, ctx, placed, joined);
      admit(req, r, placed, joined);
      if (joined.accepted()) later.tensors.push_back(dataset_.manifest_tensor());
      answer.send(std::move(later));
    });
    return std::nullopt;
  }

  // The rest of a join that passed admission and the caps, at the endpoints `placed` names.
  void admit(const net::RequestContext& req, const pb::JoinRequest& r,
             const pb::JoinRequest& placed, pb::JoinReply& out) {
    const std::string& key = req.peer_key;
    auto m = Admission::member_of(key, placed);
    auto way = r.has_reach() ? out.reach().way() : pb::REACH_UNKNOWN;
    std::lock_guard lock(mutex_);
    joining_.erase(key);
    // No peer can dial it, but it dials its neighbours: planned where every link has a
    // reachable end, unless the last plan found no such seat (then a relay carries it).
    if (way == pb::REACH_UNREACHABLE && r.reach().dials_neighbours() &&
        !replanner_.needs_relay(key)) {
      way = pb::REACH_REVERSED;
      out.mutable_reach()->set_way(way);
    }
    m.reversed = way == pb::REACH_REVERSED;
    set_reversal_service(m, r, way);
    const auto& plan = replanner_.current();
    const std::string relay_key = way == pb::REACH_RELAYED ? r.reach().relay().key() : "";
    if (way == pb::REACH_RELAYED) {
      // What it sends and receives shares its relay's cap: the planner sees that much.
      relays_.carried(key, relay_key);
      if (const double share = relays_.share_bytes_per_s(relay_key); share > 0) {
        m.profile.upload_bytes_per_s = std::min(m.profile.upload_bytes_per_s, share);
        m.profile.download_bytes_per_s = std::min(m.profile.download_bytes_per_s, share);
      }
    }
    bool same_seat = false;
    try {
      same_seat = membership_.admit(m, r.plan_version(), r.dataset_digest() == dataset_.digest());
    } catch (const std::exception& e) {
      const Refusal failed{true, false, verdict::make(pb::Verdict::COORDINATOR_FAILED, e.what())};
      return Admission::refuse(key, failed, out);
    }
    place_relay_locked(key, r, way, relay_key, placed, out);
    membership_.set_address(key, req.peer_address);
    if (auto* v = membership_.find(key)) v->device = r.profile().device();
    // A volunteer that comes back running the current plan at the same addresses (after the
    // coordinator restarted, or a short network cut) changes nothing; anyone else does.
    const bool rejoined =
        same_seat && r.plan_version() == plan.version && replanner_.seat_of(key).first >= 0;
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

  // How a joined volunteer is reached: through the relay it named, or not at all (it is then
  // offered a relay and not planned until it comes back through one), or straight. A
  // reachable volunteer that offers a relay becomes one.
  void place_relay_locked(const std::string& key, const pb::JoinRequest& r, pb::ReachWay way,
                          const std::string& relay_key, const pb::JoinRequest& placed,
                          pb::JoinReply& out) {
    auto* v = membership_.find(key);
    if (!v) return;
    v->reach = way;
    v->relay = relay_key;
    if (way == pb::REACH_UNREACHABLE) {
      if (const auto offer = relays_.assign(key)) {
        *out.mutable_relay() = *offer;
        spdlog::info("volunteer {} is offered the relay {}", net::short_key(key),
                     offer->host().empty() ? std::string("on this host") : offer->host());
      }
    } else if (way != pb::REACH_RELAYED) {
      relays_.release(key);
    }
    if (r.has_offers_relay() && (way == pb::REACH_DIRECT || way == pb::REACH_UNKNOWN)) {
      pb::RelayOffer offer = r.offers_relay();
      offer.set_host(reach::host_of(placed.shard_endpoint()));  // where it answered
      offer.set_key(key);  // a relay is the volunteer whose key it proved
      relays_.add(offer, config_.relay_max_nodes);
      spdlog::info("volunteer {} relays for others at {}:{}", net::short_key(key), offer.host(),
                   offer.control_port());
    }
    sync_relay_members_locked();
  }

  // A volunteer that died, left or was banned: the nodes it relayed for need another relay
  // and are planned around until they have one.
  void gone_locked(const std::string& key) {
    relays_.release(key);
    for (const auto& orphan : relays_.remove(key)) {
      if (auto* v = membership_.find(orphan)) {
        v->reach = pb::REACH_UNREACHABLE;
        v->relay.clear();
      }
      spdlog::warn("volunteer {} lost its relay {}: planned around until another carries it",
                   net::short_key(orphan), net::short_key(key));
      replanner_.changed_urgently();
    }
    sync_relay_members_locked();
  }

  void sync_relay_members_locked() {
    if (!relay_auth_) return;
    const auto& members = membership_.members();
    relay_auth_->replace(kOwnRelayDomain, {members.begin(), members.end()});
  }

  // A volunteer whose owner chose to leave the job: planned around at once (its totals and its
  // record stay; it may join again).
  void leave(const std::string& key, const pb::LeaveRequest& r, pb::LeaveReply& out) {
    std::lock_guard lock(mutex_);
    if (r.job_id() != job_.id || !membership_.leave(key)) return;
    gone_locked(key);
    replanner_.changed();
    out.set_left(true);
    spdlog::info("volunteer {} left the job: planning around it", net::short_key(key));
  }

  void heartbeat(const std::string& key, const pb::Heartbeat& h, pb::HeartbeatReply& out) {
    std::lock_guard lock(mutex_);
    auto* v = membership_.find(key);
    if (!v) {
      out.set_known(false);
      set_seat(out, pb::SeatStatus::NOT_REGISTERED);
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
      set_seat(out, pb::SeatStatus::IGNORED);
      return;
    }
    if (membership_.record_work(key, *v, h)) replanner_.changed();
    out.set_known(true);
    // The member list: the changes since the node's, or the next page of the whole. One the
    // node misses a removal in goes at once; newcomers alone wait for the budget.
    out.set_members_digest(membership_.published_digest());
    if (const auto part = net::member_list_part(membership_.member_log(), h, kMembersPerPage)) {
      if (membership_.misses_removal(h.members_digest()) ||
          bulk_replies_.try_acquire(part->keys() * kKeyBytesOnWire)) {
        net::add_member_list(membership_.member_log(), h, *part, out);
      }
    }
    if (v->reach == pb::REACH_REVERSED && replanner_.needs_relay(key)) {
      // No seating gives every link of it a reachable end: a relay carries it instead.
      spdlog::info("volunteer {} dials its neighbours, but some cannot be dialled: relayed",
                   net::short_key(key));
      v->reach = pb::REACH_UNREACHABLE;
      v->member.reversed = false;
    }
    if (v->reach == pb::REACH_UNREACHABLE) {
      if (const auto offer = relays_.assign(key)) *out.mutable_relay() = *offer;
    }
    send_plan_locked(key, *v, h.plan_version(), out);
  }

  static void set_seat(pb::HeartbeatReply& out, pb::SeatStatus::State state,
                       const std::string& detail = {}) {
    out.clear_seat();
    out.mutable_seat()->set_state(state);
    if (!detail.empty()) out.mutable_seat()->mutable_why()->set_detail(detail);
    out.set_status(verdict::words(out.seat()));
  }

  // The node's seat, or why it has none, and the plan when it runs another, with where to
  // fetch the blocks of its new shard.
  void send_plan_locked(const std::string& key, const Volunteer& v, std::uint64_t running,
                        pb::HeartbeatReply& out) {
    const auto& plan = replanner_.current();
    const auto& live = membership_.live();
    out.set_plan_version(plan.version);
    const auto seat = replanner_.seat_of(key);
    auto& status = *out.mutable_seat();
    if (!v.has_data) {
      status.set_state(pb::SeatStatus::FETCHING_DATASET);
      status.set_fetched(v.data_fetched);
      status.set_dataset_bytes(static_cast<std::int64_t>(dataset_.bytes()));
    } else if (v.reach == pb::REACH_UNREACHABLE) {
      // Until a relay carries it, whatever the plan: seated, it would stall its pipeline.
      status.set_state(pb::SeatStatus::NOT_IN_PLAN);
      *status.mutable_why() = verdict::make(pb::Verdict::UNREACHABLE);
    } else if (plan.empty()) {
      status.set_state(plan.infeasible.code() == pb::Verdict::NONE
                           ? pb::SeatStatus::WAITING_FOR_PLAN
                           : pb::SeatStatus::NO_PLAN);
      *status.mutable_why() = plan.infeasible;
    } else if (seat.first < 0) {
      status.set_state(pb::SeatStatus::NOT_IN_PLAN);
      *status.mutable_why() = replanner_.unassigned_reason(key);
    } else {
      status.set_state(pb::SeatStatus::SEATED);
      status.set_pipeline(static_cast<std::uint32_t>(seat.first + 1));
      status.set_stage(static_cast<std::uint32_t>(seat.second + 1));
    }
    out.set_status(verdict::words(status));
    if (seat.first >= 0) {
      bool ready = true;
      for (const auto& other : plan.pipelines[static_cast<std::size_t>(seat.first)]) {
        const auto o = live.find(other.key);
        ready = ready && o != live.end() && o->second.plan_version == plan.version;
      }
      out.set_pipeline_ready(ready);
    }
    if (running == plan.version) return;
    delivery_.refresh(plan, membership_, config_.averaging_interval_ms, job_.averaging_max_group);
    const auto view = delivery_.view(seat.first);
    if (!view.plan) {
      // A seated member has gone since the plan was made: the next plan will not seat it.
      out.set_plan_version(running);
      set_seat(out, pb::SeatStatus::REPLANNING, delivery_.error());
      return;
    }
    // A node refuses a reply whose header is over its decoder's limit (and takes it for no
    // answer at all): a plan that cannot fit is never sent, one that cannot fit beside this
    // reply's member list goes with a later heartbeat.
    const std::size_t limit = reply_limit();
    if (view.bytes > limit) {
      if (oversized_plan_ != plan.version) {
        oversized_plan_ = plan.version;
        spdlog::error(
            "plan {}, as a node is sent it, is {} KiB, over the {} KiB a node accepts in a "
            "reply: volunteers keep running the plan they have",
            plan.version, view.bytes >> 10, wire::Limits{}.max_header_bytes >> 10);
      }
      return;
    }
    // No room beside this reply's member list, or over the budget: the plan goes with a later
    // heartbeat, and the node runs its own meanwhile. Checked before the shard sources are
    // looked up, which costs a pass over the previous plan.
    const auto list_bytes = static_cast<std::size_t>(out.members_size() + out.members_added_size() +
                                                     out.members_removed_size()) *
                            kKeyBytesOnWire;
    if (list_bytes + view.bytes + kSourcesBytes > limit || !bulk_replies_.try_acquire(view.bytes)) {
      return;
    }
    delivery_.add_sources(replanner_.previous(), plan, key,
                          archive_ && archive_->has_snapshot() ? own_key_ : std::string(), out);
    if (out.ByteSizeLong() + view.bytes > limit) {
      out.clear_sources();  // more ranges than kSourcesBytes allowed for: the next heartbeat
      return;
    }
    *out.mutable_plan() = *view.plan;
  }

  // Banned when the peers that see its work verify that it lies (ban_vote, or a second opinion
  // after a lone witness's catch); then re-planned at once, as it must stop receiving traffic.
  void consider_ban_locked(const std::string& accused) {
    if (membership_.ban_of(accused) || !membership_.find(accused)) return;
    const auto vote = replanner_.vote(accused, membership_.reports_on(accused), membership_.live());
    if (!vote || !vote->ban) return;
    ban_locked(accused, vote->why, "");
  }

  // Out of the swarm at once, and re-planned: it must stop receiving traffic. `on`: whose word.
  void ban_locked(const std::string& key, const pb::Verdict& why, const std::string& on) {
    spdlog::warn("banning volunteer {}{}: {}", net::short_key(key), on, verdict::words(why));
    membership_.ban(key, why);
    gone_locked(key);
    replanner_.changed_urgently();
  }

  // A member's proof that a ring partner lied as an owner or a forwarder, checked outside the lock:
  // one that proves it bans the partner, however many others saw it.
  void ban_on_proof(const std::string& reporter, const wire::Message& m, net::Reply& reply) {
    if (!member_or_refuse(reporter, "checking proofs", reply)) return;
    auto& out = *reply.header.mutable_proof_reply();
    const auto liar = proofs_.answer(reporter, m, out);
    std::lock_guard lock(mutex_);
    if (liar.empty() || membership_.ban_of(liar) || !membership_.find(liar)) return;
    ban_locked(liar, verdict::make(pb::Verdict::AGGREGATE_PROVEN_WRONG, out.why()),
               " on " + net::short_key(reporter) + "'s proof");
  }

  // Blocks from the model archive's latest snapshot, for a member taking over blocks that no
  // peer holds any more.
  void serve_archive(const std::string& key, const pb::ShardRequest& q, net::Reply& reply) {
    if (!member_or_refuse(key, "the model archive", reply)) return;
    if (!archive_) {
      reply.header.mutable_error()->set_message("this coordinator keeps no model archive");
      return;
    }
    archive_->serve(q, reply);
  }

  // The current plan's holders, for the archivist (on its thread).
  ArchiveRound archive_round() {
    std::lock_guard lock(mutex_);
    return holders_of(replanner_.current(), membership_.live());
  }

  // One chunk of the dataset, for a member (a volunteer that joined and is not banned).
  void serve_data_chunk(const std::string& key, const pb::DataChunkRequest& q, net::Reply& reply) {
    if (member_or_refuse(key, "the dataset", reply)) dataset_.serve(q, reply);
  }

  // Whether `key` is a member (a volunteer that joined and is not banned); else `reply` says
  // that `what` is served to the job's volunteers only.
  bool member_or_refuse(const std::string& key, const std::string& what, net::Reply& reply) {
    std::lock_guard lock(mutex_);
    if (membership_.find(key)) return true;
    reply.header.mutable_error()->set_message(
        what + " is served to the job's volunteers only: join first");
    return false;
  }

  const CoordinatorConfig& config_;
  const std::string own_key_;  // this coordinator's: the model archive's, as a shard source
  net::ZapAuthenticator* const relay_auth_;
  const job::JobSpec job_;
  const std::string job_json_;
  const Admission admission_;
  std::mutex mutex_;  // over all below, for the request thread and the tick
  Membership membership_;
  RePlanner replanner_;
  PlanDelivery delivery_;
  RunStatus run_status_;
  DatasetServer dataset_;  // thread-safe on its own: chunks are served outside the lock
  RelayBroker relays_;
  net::TokenBucket bulk_replies_;     // plans and member lists in heartbeat replies
  std::uint64_t oversized_plan_ = 0;  // the last plan too large to send (logged once)
  OriginCounts joining_;              // joins waiting for their dial-back, for the caps
  LoadReport load_;
  AggregationProofs proofs_;             // thread-safe on its own: checked outside the lock
  std::unique_ptr<RunArchive> archive_;  // none with archiving off; its archivist's thread
                                         // reads the members above
  // Last: its threads complete joins with the members above.
  std::unique_ptr<DialBacks> dial_backs_ = std::make_unique<DialBacks>(kDialBackThreads);
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
  net::SecureContext ctx(1);
  Admission::apply_allow_list(ctx.auth(), config_.allowed_keys);
  std::unique_ptr<reach::RelayServer> relay;
  std::optional<pb::RelayOffer> own_relay;
  try {
    if (config_.relay && !config_.job_path.empty())
      relay = start_own_relay(config_, ctx, identity, own_relay);
  } catch (const std::exception& e) {
    spdlog::error("cannot start the relay: {}", e.what());
    return 2;
  }
  std::unique_ptr<JobCoordinator> swarm;
  if (!config_.job_path.empty()) {
    swarm =
        std::make_unique<JobCoordinator>(config_, *state, job, job_json, std::move(dataset), clock_,
                                         own_relay, relay ? &ctx.auth() : nullptr, ctx, identity);
  }
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
            auto* no = reply.header.mutable_join_reply();
            no->set_accepted(false);
            *no->mutable_refusal() = verdict::make(pb::Verdict::NO_JOB);
            no->set_reason(verdict::words(no->refusal()));
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
               server->endpoint(), identity.public_key, enrolment_words(config_),
               config_.job_path.empty() ? ", no job" : ", job " + job.id);
  if (!config_.ready_file.empty()) {
    const auto tmp = config_.ready_file.string() + ".tmp";
    { std::ofstream(tmp) << server->endpoint() << ' ' << identity.public_key << '\n'; }
    std::filesystem::rename(tmp, config_.ready_file);
  }
  std::printf("READY %s %s\n", server->endpoint().c_str(), identity.public_key.c_str());
  std::unique_ptr<dashboard::DashboardServer> web;
  try {
    if (swarm) {
      web = serve_owner_dashboard(
          config_, [&swarm](const auto& r, auto& out) { swarm->status(r, {}, out); },
          identity.secret_key);
    }
  } catch (const std::exception& e) {
    spdlog::error("cannot serve the dashboard on {}:{}: {}", config_.dashboard_bind,
                  config_.dashboard_port, e.what());
    return 2;
  }
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
  web.reset();  // before the job it shows
  server.reset();
  swarm.reset();
  relay.reset();
  spdlog::info("coordinator stopped");
  return 0;
}

}  // namespace rookery::coordinator
