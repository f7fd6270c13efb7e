#include "node/coordinator_client.hpp"

#include <algorithm>
#include <fstream>

#include <spdlog/spdlog.h>

#include "device/system_info.hpp"
#include "job/job_spec.hpp"
#include "net/join_work.hpp"
#include "node/job_dataset.hpp"
#include "node/link_prober.hpp"
#include "node/connection_reversal.hpp"
#include "node/node_reach.hpp"
#include "node/plan_follower.hpp"
#include "node/reasons.hpp"
#include "node/shard_server.hpp"
#include "node/work_report.hpp"
#include "reach/relay_server.hpp"

namespace rookery::node {

namespace {

namespace pb = wire::pb;

constexpr auto kRequestTimeout = std::chrono::seconds(3);
constexpr auto kRunStatusEvery =
    std::chrono::seconds(3);                             // the run's dashboard data, for the window
constexpr auto kRefusedRetry = std::chrono::seconds(5);  // after the coordinator said no
constexpr auto kUnreachableRetry = std::chrono::seconds(2);
constexpr auto kRelayRegistration = std::chrono::seconds(5);
constexpr auto kLinkFresh =
    std::chrono::seconds(60);  // a join reuses a link measured this recently

}  // namespace

std::chrono::milliseconds heartbeat_period(const pb::JoinReply& reply) {
  return std::chrono::milliseconds(
      std::clamp<std::uint32_t>(reply.heartbeat_interval_ms(), 50, 60000));
}

CoordinatorClient::CoordinatorClient(const CoordinatedOptions& options, net::SecureContext& ctx,
                                     const net::CurveKeyPair& identity, Endpoints endpoints,
                                     std::filesystem::path jobs_dir, Parts parts,
                                     const clock::Clock& clock)
    : options_(options),
      ctx_(ctx),
      identity_(identity),
      endpoints_(std::move(endpoints)),
      jobs_dir_(std::move(jobs_dir)),
      parts_(parts),
      clock_(clock),
      thread_([this] { run(); }) {}

CoordinatorClient::~CoordinatorClient() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  stopping_ = true;
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::string CoordinatorClient::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

void CoordinatorClient::describe(pb::NodeSnapshot& snapshot) const {
  std::lock_guard lock(mutex_);
  if (run_status_) *snapshot.mutable_run() = *run_status_;
  // What the job's coordinator says of this node (joined, its seat, refused or banned) is
  // what the window shows and the tray notifies about.
  if (!status_.empty()) {
    snapshot.mutable_coordinator()->set_status(status_);
    *snapshot.mutable_coordinator()->mutable_why() = why_;
  }
}

void CoordinatorClient::set_status(const std::string& s, const pb::Reason& why) {
  std::lock_guard lock(mutex_);
  status_ = s;
  why_ = why;
}

bool CoordinatorClient::stopped_within(std::chrono::milliseconds d) {
  std::unique_lock lock(mutex_);
  return cv_.wait_for(lock, d, [&] { return stop_; });
}

void CoordinatorClient::run() {
  std::unique_ptr<net::RpcClient> client;
  bool joined = false;
  bool reachable = true;
  auto heartbeat_every = std::chrono::milliseconds(500);
  while (true) {
    if (stopped_within(joined ? heartbeat_every : std::chrono::milliseconds(0))) return;
    if (!client) {
      client = std::make_unique<net::RpcClient>(ctx_, options_.coordinator_endpoint, &identity_,
                                                options_.coordinator_key);
    }
    std::string error;
    if (!joined) {
      pb::Reason why;
      const auto reply = join(*client, error, why);
      if (reply && reply->accepted()) {
        joined = true;
        heartbeat_every = heartbeat_period(*reply);
        // The peers to measure our links to, once their member lists hold us.
        parts_.prober.measure_peers({reply->probe_targets().begin(), reply->probe_targets().end()},
                                    clock_.steady_now() + 3 * heartbeat_every);
        set_status("joined job " + options_.job_id,
                   reason(pb::COORDINATOR_JOINED, options_.job_id));
        // No peer can dial it: registered with the relay offered, it joins again naming the
        // relay's ports (the coordinator dials it there).
        if (reply->has_relay() && parts_.reach.use_relay(ctx_, identity_, reply->relay()) &&
            parts_.reach.relay_registered(kRelayRegistration)) {
          joined = false;
          continue;
        }
      } else {
        if (reply && prove_join_work(*reply)) continue;
        if (reply) {
          error = "the coordinator refused: " + reply->reason();
          refusal_reason(*reply, why);
        }
        set_status(error, why);
        spdlog::warn("cannot join job {}: {}", options_.job_id, error);
        client.reset();  // a fresh connection next time
        if (stopped_within(reply ? kRefusedRetry : kUnreachableRetry)) return;
        continue;
      }
    }
    // A proof goes before the heartbeat that names its owner among the excluded: the coordinator
    // bans on it alone, before counting the partners that exclude it.
    report_proof(*client);
    std::uint64_t links_reported = 0;
    const auto r = heartbeat(*client, error, links_reported);
    if (!r) {
      if (reachable) {
        spdlog::warn("coordinator unreachable ({}); training on with plan {}", error,
                     parts_.plans.plan_version());
        set_status("coordinator unreachable: training on with the last plan",
                   reason(pb::COORDINATOR_LOST));
      }
      reachable = false;
      client.reset();
      continue;
    }
    if (!reachable) spdlog::info("coordinator reachable again");
    reachable = true;
    if (parts_.reach.relay_lost()) {  // the coordinator has another for it, or will say why not
      joined = false;
      continue;
    }
    // The plan cannot seat it beside reachable peers only: a relay carries it, and it joins
    // again naming the relay's ports.
    if (r->has_relay() && parts_.reach.use_relay(ctx_, identity_, r->relay()) &&
        parts_.reach.relay_registered(kRelayRegistration)) {
      joined = false;
      continue;
    }
    parts_.reversal.set_reversed(parts_.reach.reversed());
    if (!r->known()) {
      spdlog::info(
          "the coordinator does not know this node (it restarted without its state?): joining "
          "again");
      joined = false;
      continue;
    }
    pb::Reason why;
    to_reason(r->seat(), why);
    set_status(r->status(), why);
    apply_members(*r);
    if (links_reported != 0) parts_.prober.reported(links_reported);  // the coordinator has them
    if (r->pipeline_ready()) parts_.plans.pipeline_ready(r->plan_version());
    refresh_run_status(*client);
    if (r->has_plan() && r->plan_version() != parts_.plans.plan_version()) {
      PendingPlan p;
      p.version = r->plan_version();
      p.plan = r->plan();
      p.job_path = job_path();
      p.sources.assign(r->sources().begin(), r->sources().end());
      // The coordinator's model archive names no endpoint: it is where this node reaches it.
      for (auto& src : p.sources) {
        if (src.key() == options_.coordinator_key && src.endpoint().empty())
          src.set_endpoint(options_.coordinator_endpoint);
      }
      // Registered with its neighbours first, so that they reach it when the stage starts.
      parts_.reversal.follow(p.plan, parts_.reach.reversed());
      parts_.plans.offer(std::move(p));
    }
  }
}

void CoordinatorClient::refresh_run_status(net::RpcClient& client) {
  if (clock_.steady_now() - last_run_status_ <= kRunStatusEvery) return;
  last_run_status_ = clock_.steady_now();
  pb::Envelope e;
  e.mutable_run_status_request()->set_loss_points(120);
  const auto rs = client.request(e, kRequestTimeout);
  if (rs.ok() && rs.message->header.has_run_status()) {
    std::lock_guard lock(mutex_);
    run_status_ = rs.message->header.run_status();
  }
}

// The job's members, as the coordinator lists them: the only keys this node's shard server
// and its stage's sockets admit from now on. A volunteer removed from the job (it left or
// was banned) is cut off here within one heartbeat, open connections too (every request is
// checked against the list). The list comes as changes to the one held, or in pages
// (net/member_list_sync.hpp); the old list stays in force until a new one is complete. A
// coordinator that keeps no list (digest 0, an older one) leaves the shard server open to any
// CURVE peer.
void CoordinatorClient::apply_members(const pb::HeartbeatReply& r) {
  if (r.members_digest() == 0) {
    if (members_.digest() != 0 || !admitting_any_) {
      parts_.shards.admit_any();
      admitting_any_ = true;
      members_.clear();
    }
    return;
  }
  auto members = members_.apply(r);
  if (!members) return;
  admitting_any_ = false;
  // The coordinator too: its archivist collects the blocks this node trains.
  auto shard_peers = *members;
  shard_peers.push_back(options_.coordinator_key);
  parts_.shards.admit_only(shard_peers);
  parts_.plans.restrict_peers(std::move(*members));
}

bool CoordinatorClient::prove_join_work(const pb::JoinReply& refused) {
  const auto& v = refused.refusal();
  if (v.code() != pb::Verdict::JOIN_WORK_MISSING && v.code() != pb::Verdict::JOIN_WORK_WRONG) {
    return false;
  }
  // More than a node would ever compute, or no more than ours already gives (then the
  // coordinator disagrees with our hash, and its refusal says so): none to do.
  if (!(v.limit() >= 1 && v.limit() <= net::kMaxJoinWorkBits)) return false;
  const auto bits = static_cast<unsigned>(v.limit());
  if (join_work_nonce_ && join_work_bits_ >= bits) return false;
  pb::Reason why;
  refusal_reason(refused, why);
  set_status("computing the join's proof of work (" + std::to_string(bits) + " bits)", why);
  const auto started = clock_.steady_now();
  const auto nonce = net::find_join_work(options_.job_id, identity_.public_key, bits, &stopping_);
  if (!nonce) return false;
  join_work_nonce_ = nonce;
  join_work_bits_ = net::join_work_bits(options_.job_id, identity_.public_key, *nonce);
  spdlog::info("the join's proof of work of {} bits took {:.2f} s", bits,
               std::chrono::duration<double>(clock_.steady_now() - started).count());
  return true;
}

std::optional<pb::JoinReply> CoordinatorClient::join(net::RpcClient& client, std::string& error,
                                                     pb::Reason& why) {
  // Measured profile: round trip, then a bounded transfer each way (a join again soon after,
  // for a relay, reuses it).
  if (!link_ || clock_.steady_now() - link_measured_ > kLinkFresh) {
    bool unreachable = false;
    link_ = LinkProber::measure_coordinator(client, error, unreachable);
    if (!link_) {
      why = reason(unreachable ? pb::COORDINATOR_UNREACHABLE : pb::REASON_UNKNOWN, error);
      if (unreachable) error = "coordinator unreachable: " + error;
      return std::nullopt;
    }
    link_measured_ = clock_.steady_now();
  }
  const auto& link = link_;
  why = reason(pb::REASON_UNKNOWN);  // other failures: the English says it
  // What holds the shard, its optimizer state and the activations in flight: the GPU's memory
  // on a GPU, RAM on a CPU.
  std::int64_t memory = options_.device_memory_bytes > 0
                            ? options_.device_memory_bytes
                            : static_cast<std::int64_t>(device::ram_available_bytes());
  if (options_.memory_limit_bytes > 0) memory = std::min(memory, options_.memory_limit_bytes);
  pb::Envelope e;
  auto* j = e.mutable_join();
  j->set_job_id(options_.job_id);
  j->set_invite_token(options_.invite_token);
  j->set_stage_endpoint(endpoints_.stage);
  j->set_reduce_endpoint(endpoints_.reduce);
  j->set_shard_endpoint(endpoints_.shard);
  if (auto reach = parts_.reach.report()) {
    *j->mutable_reach() = std::move(*reach);
    j->mutable_reach()->set_dials_neighbours(parts_.reversal.dials());
  }
  if (auto reversal = parts_.reversal.service()) *j->mutable_reversal() = *reversal;
  if (parts_.relay) {
    auto* offer = j->mutable_offers_relay();
    offer->set_control_port(parts_.relay->control_port());
    offer->set_key(identity_.public_key);
    offer->set_bytes_per_s(options_.relay_bytes_per_s);
  }
  j->set_plan_version(parts_.plans.plan_version());
  if (join_work_nonce_) j->set_join_work_nonce(*join_work_nonce_);
  parts_.dataset.describe(*j);
  auto* p = j->mutable_profile();
  p->set_flops_per_s(options_.speed ? options_.speed->offered_flops_per_s() : 0.0);
  p->set_free_memory_bytes(memory);
  p->set_upload_bytes_per_s(link->upload_bytes_per_s);
  p->set_download_bytes_per_s(link->download_bytes_per_s);
  p->set_rtt_s(link->rtt_s);
  p->set_device(options_.stage.device);
  p->set_version(ROOKERY_VERSION);
  const auto r = client.request(e, kRequestTimeout);
  if (!r.ok()) {
    error = "join: " + r.error;
    return std::nullopt;
  }
  if (!r.message->header.has_join_reply()) {
    error = r.message->header.has_error() ? r.message->header.error().message()
                                          : "join: unexpected reply";
    return std::nullopt;
  }
  const auto reply = r.message->header.join_reply();
  if (reply.accepted()) {
    if (!keep_job(reply, *r.message, error)) return std::nullopt;
    // Where peers will dial this node, as the coordinator found by dialling it back.
    if (reply.has_reach()) parts_.reach.on_verdict(reply.reach());
    // Joins name the node's own ports (the coordinator works out the rest again each time).
    Endpoints dialled = endpoints_;
    if (!reply.stage_endpoint().empty()) dialled.stage = reply.stage_endpoint();
    if (!reply.reduce_endpoint().empty()) dialled.reduce = reply.reduce_endpoint();
    if (!reply.shard_endpoint().empty()) dialled.shard = reply.shard_endpoint();
    spdlog::info(
        "joined job {} at {} (rtt {:.2f} ms, {:.0f}/{:.0f} MB/s up/down measured); stage {}, "
        "ring {}, shards {}",
        options_.job_id, options_.coordinator_endpoint, link->rtt_s * 1e3,
        link->upload_bytes_per_s / 1e6, link->download_bytes_per_s / 1e6, dialled.stage,
        dialled.reduce, dialled.shard);
  }
  return reply;
}

// The job as its owner wrote it, reading this node's copy of the data, kept as <job id>.json.
bool CoordinatorClient::keep_job(const pb::JoinReply& reply, const wire::Message& m,
                                 std::string& error) {
  job::JobSpec job;
  try {
    job = job::parse_job_spec(reply.job_spec_json());
  } catch (const std::exception& bad) {
    error = std::string("the coordinator's job does not parse: ") + bad.what();
    return false;
  }
  if (!parts_.dataset.prepare(reply, m, heartbeat_period(reply), job, error)) return false;
  const auto path = job_path();
  const auto tmp = path.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::trunc);
    f << job::to_json(job);
    if (!f) {
      error = "cannot write " + tmp;
      return false;
    }
  }
  std::filesystem::rename(tmp, path);
  return true;
}

std::optional<pb::HeartbeatReply> CoordinatorClient::heartbeat(net::RpcClient& client,
                                                               std::string& error,
                                                               std::uint64_t& links_reported) {
  pb::Envelope e;
  auto* h = e.mutable_heartbeat();
  h->set_plan_version(parts_.plans.plan_version());
  members_.describe(*h);
  // The governor's current share of the CPU (the callback reads an atomic, never a lock).
  h->set_flops_per_s(options_.speed ? options_.speed->offered_flops_per_s() : 0.0);
  parts_.dataset.describe(*h);
  parts_.work.describe(*h, clock_.steady_now());
  h->set_benchmark_flops_per_s(options_.speed ? options_.speed->benchmark_flops_per_s() : 0.0);
  h->set_contributing(parts_.plans.contributing());
  std::vector<pb::PeerLink> links;
  links_reported = parts_.prober.unreported(links);
  for (auto& link : links) *h->add_peer_links() = std::move(link);
  const auto r = client.request(e, kRequestTimeout);
  if (!r.ok()) {
    error = r.error;
    return std::nullopt;
  }
  if (!r.message->header.has_heartbeat_reply()) {
    error =
        r.message->header.has_error() ? r.message->header.error().message() : "unexpected reply";
    return std::nullopt;
  }
  return r.message->header.heartbeat_reply();
}

void CoordinatorClient::report_proof(net::RpcClient& client) {
  const auto proof = parts_.work.unanswered_proof();
  if (!proof) return;
  pb::Envelope e;
  e.mutable_proof_report();
  auto bytes = std::make_shared<std::vector<std::byte>>(*proof);
  std::vector<wire::OutgoingTensor> tensors;
  tensors.push_back(wire::OutgoingTensor::raw("proof", wire::DType::U8,
                                              {static_cast<std::int64_t>(bytes->size())},
                                              {bytes->data(), bytes->size(), bytes}));
  const auto r = client.request(std::move(e), std::move(tensors), kRequestTimeout);
  if (!r.ok() || !r.message->header.has_proof_reply()) return;  // sent again with the next beat
  const auto& reply = r.message->header.proof_reply();
  if (reply.retry()) return;
  parts_.work.proof_answered(*proof);
  if (reply.proves()) {
    spdlog::info("the coordinator holds this node's proof against a ring partner: {}", reply.why());
  } else {
    spdlog::warn("the coordinator found this node's proof against a ring partner wanting: {}",
                 reply.why());
  }
}

}  // namespace rookery::node
