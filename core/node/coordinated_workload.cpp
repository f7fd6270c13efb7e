#include "node/coordinated_workload.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <fstream>
#include <random>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <zmq.hpp>

#include <spdlog/spdlog.h>

#include "data/dataset.hpp"
#include "data/dataset_delivery.hpp"
#include "device/system_info.hpp"
#include "model/cost.hpp"
#include "net/link_probe.hpp"
#include "net/rpc.hpp"
#include "net/secure_context.hpp"
#include "node/dataset_fetcher.hpp"
#include "node/shard_state.hpp"
#include "node/stage_workload.hpp"
#include "pipeline/stage_plan.hpp"
#include "pipeline/stage_runtime.hpp"
#include "reduce/shard_buffers.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::node {

namespace {

using Clock = std::chrono::steady_clock;
namespace pb = wire::pb;

constexpr const char* kShardDomain = "rookery.shard";
constexpr std::int64_t kSampleIdsPerPlan =
    1'000'000'000;                                    // each plan's pipelines read fresh sample ids
constexpr std::int64_t kProbeBytes = 4 << 20;         // each way, against the coordinator
constexpr int kProbeTransfers = 2;                    // each way; the faster counts
constexpr std::int64_t kPeerProbeBytes = 512 << 10;   // each way, against a peer: short
constexpr std::int64_t kMaxPeerProbeBytes = 1 << 20;  // what our shard server answers
constexpr auto kPeerProbeTimeout = std::chrono::seconds(2);
constexpr int kPeerProbeTransfers = 2;  // each way; the faster counts
constexpr auto kSnapshotEvery = std::chrono::seconds(2);
constexpr auto kBusyWindow =
    std::chrono::seconds(30);  // the speed shown while computing, measured over this
constexpr double kBusyEnough =
    3.0;  // seconds of compute before it is reported    // how stale the served parameters may be
constexpr auto kRequestTimeout = std::chrono::seconds(3);
constexpr auto kReadyWait = std::chrono::seconds(10);
constexpr auto kRunStatusEvery = std::chrono::seconds(
    3);  // the run's dashboard data, for the window          // feed anyway after this (coordinator gone)

// A free TCP port on `host` for a socket the node binds later (the stage's, when a plan
// arrives). Not from the kernel's ephemeral range (net.ipv4.ip_local_port_range): there any
// process's outgoing connection may take it before the bind ("Address already in use" when a
// plan arrived, seen in test_coordinator_swarm). Above that range when there is room, else
// below it; checked free by binding it.
int free_port(const std::string& host) {
  int low = 32768, high = 60999;
  if (std::ifstream range("/proc/sys/net/ipv4/ip_local_port_range"); range) range >> low >> high;
  const bool above = 65535 - high >= 1000;
  std::uniform_int_distribution<int> pick(above ? high + 1 : std::min(10000, low - 1000),
                                          above ? 65535 : low - 1);
  std::mt19937 rng{std::random_device{}()};
  zmq::context_t ctx(1);
  for (int attempt = 0; attempt < 200; ++attempt) {
    const int port = pick(rng);
    try {
      zmq::socket_t s(ctx, zmq::socket_type::router);
      s.set(zmq::sockopt::linger, 0);
      s.bind("tcp://" + host + ":" + std::to_string(port));
      return port;
    } catch (const zmq::error_t&) {
      // taken: try another
    }
  }
  zmq::socket_t s(ctx, zmq::socket_type::router);  // every pick taken: let the kernel choose
  s.set(zmq::sockopt::linger, 0);
  s.bind("tcp://" + host + ":0");
  const auto ep = s.get(zmq::sockopt::last_endpoint);
  return std::stoi(ep.substr(ep.rfind(':') + 1));
}

// Parameters of blocks [first, last) as this node had them, and its optimizer's state for
// them (the moments travel with the weights: issue 5).
struct ShardSnapshot {
  std::int64_t first_block = 0, last_block = 0;
  std::int64_t optimizer_steps = 0;
  std::uint64_t plan_version = 0;
  std::vector<float> values;
  pipeline::OptimizerState state;  // each buffer laid out like `values`
};

// What a peer handed over for some blocks, verified.
struct FetchedBlocks {
  std::vector<float> values;
  std::int64_t optimizer_steps = 0;
  std::optional<pipeline::OptimizerState> state;  // none: fresh moments (why is in state_error)
  std::string state_error;
};

// Buffers [offset, offset + size) of a snapshot's optimizer state.
pipeline::OptimizerState slice_state(const pipeline::OptimizerState& s, std::int64_t offset,
                                     std::int64_t size) {
  pipeline::OptimizerState out;
  out.moment_step = s.moment_step;
  for (const auto& [name, v] : s.buffers) {
    if (offset + size > static_cast<std::int64_t>(v.size()))
      continue;  // cannot happen: laid out like the values
    out.buffers.emplace_back(name,
                             std::vector<float>(v.begin() + offset, v.begin() + offset + size));
  }
  return out;
}

// The plan the coordinator sent, waiting for the worker to switch to it.
struct PendingPlan {
  std::uint64_t version = 0;
  std::string json;
  std::vector<pb::ShardSource> sources;
};

class CoordinatedWorkload final : public Workload {
 public:
  CoordinatedWorkload(const CoordinatedOptions& o, const net::CurveKeyPair& identity)
      : options_(o), identity_(identity), ctx_(1), block_counts_() {
    if (!net::is_z85_key(o.coordinator_key))
      throw std::runtime_error("--coordinator-key is not a 40-character Z85 key");
    if (o.coordinator_endpoint.rfind("tcp://", 0) != 0)
      throw std::runtime_error("--coordinator must be tcp://host:port");
    if (o.job_id.empty()) throw std::runtime_error("--job: which job to join");
    stage_endpoint_ = "tcp://" + o.host + ":" + std::to_string(free_port(o.host));
    reduce_endpoint_ = "tcp://" + o.host + ":" + std::to_string(free_port(o.host));
    // The shard server admits the job's members only, as the coordinator lists them in its
    // heartbeat replies (see apply_members); until the first reply, no one.
    ctx_.auth().replace(kShardDomain, {});
    net::RpcServer::Config rc;
    rc.endpoint = "tcp://" + o.host + ":0";
    rc.domain = kShardDomain;
    shard_server_ = std::make_unique<net::RpcServer>(
        ctx_, &identity_, rc,
        [this](const net::RequestContext& r, wire::Message& m) { return serve_shard(r, m); });
    jobs_dir_ = o.data_dir / "jobs";
    std::filesystem::create_directories(jobs_dir_);
    client_thread_ = std::thread([this] { client_loop(); });
    probe_thread_ = std::thread([this] { probe_loop(); });
  }

  ~CoordinatedWorkload() override {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    probe_cv_.notify_all();
    if (client_thread_.joinable()) client_thread_.join();
    if (probe_thread_.joinable()) probe_thread_.join();
    fetch_stop_ = true;
    if (fetch_thread_.joinable()) fetch_thread_.join();
    shard_server_.reset();
  }

  std::string description() const override {
    std::lock_guard lock(stage_mutex_);
    if (stage_) return stage_->description();
    std::lock_guard l2(mutex_);
    return "volunteer of job " + options_.job_id + ": " + status_;
  }

  WorkUnitResult run_unit() override {
    std::optional<PendingPlan> pending;
    {
      std::lock_guard lock(mutex_);
      if (pending_) pending = std::exchange(pending_, std::nullopt);
    }
    if (pending) switch_to(*pending);
    if (!stage_) {
      std::unique_lock lock(mutex_);
      cv_.wait_for(lock, std::chrono::milliseconds(200),
                   [&] { return stop_ || pending_.has_value(); });
      WorkUnitResult idle;
      idle.did_work = false;
      return idle;
    }
    // A first stage feeds a new pipeline only once every stage of it runs the new plan.
    const bool hold = draining_ || !(pipeline_ready_ || Clock::now() > ready_deadline_);
    if (hold != holding_) {
      holding_ = hold;
      stage_->set_draining(hold);
      if (!hold && !draining_)
        spdlog::info("plan {}: every stage of the pipeline is ready", plan_version_.load());
    }
    auto r = stage_->run_unit();
    const auto now = Clock::now();
    if (now - last_snapshot_ > kSnapshotEvery) {
      last_snapshot_ = now;
      remember(snapshot_of(*stage_), /*live=*/true);
      auto stats = stage_->runtime().stats();
      std::lock_guard lock(mutex_);
      excluded_ = std::move(stats.excluded_peers);
      caught_ = std::move(stats.caught_peers);
      live_receipts_ = std::move(stats.receipts);
    }
    std::lock_guard lock(mutex_);
    if (r.did_work) {
      samples_ += r.samples;
      flops_ += r.flops;
      if (r.samples > 0) ++micro_batches_;
      if (r.loss >= 0) loss_ = r.loss;
      recent_.emplace_back(now, r.samples);
      busy_.push_back({now, r.seconds, r.flops});
    }
    while (!recent_.empty() && now - recent_.front().first > std::chrono::seconds(5))
      recent_.pop_front();
    while (!busy_.empty() && now - busy_.front().at > kBusyWindow) busy_.pop_front();
    return r;
  }

  void finish() override {
    if (stage_) stage_->finish();
  }

  void describe(pb::NodeSnapshot& snapshot) const override {
    {
      std::lock_guard lock(stage_mutex_);
      if (stage_) stage_->describe(snapshot);
    }
    std::lock_guard lock(mutex_);
    if (run_status_) *snapshot.mutable_run() = *run_status_;
    // What the job's coordinator says of this node (joined, its seat, refused or banned) is
    // what the window shows and the tray notifies about.
    if (!status_.empty()) snapshot.mutable_coordinator()->set_status(status_);
  }

  void set_draining(bool draining) override {
    draining_ = draining;
    holding_ = draining || !(pipeline_ready_ || Clock::now() > ready_deadline_);
    if (stage_) stage_->set_draining(holding_);
  }
  bool drained() const override { return !stage_ || stage_->drained(); }

 private:
  // ---- the coordinator (client thread) ----
  void client_loop() {
    std::unique_ptr<net::RpcClient> client;
    bool joined = false;
    bool reachable = true;
    auto heartbeat_every = std::chrono::milliseconds(500);
    while (true) {
      {
        std::unique_lock lock(mutex_);
        if (cv_.wait_for(lock, joined ? heartbeat_every : std::chrono::milliseconds(0),
                         [&] { return stop_; }))
          return;
      }
      if (!client) {
        client = std::make_unique<net::RpcClient>(ctx_, options_.coordinator_endpoint, &identity_,
                                                  options_.coordinator_key);
      }
      std::string error;
      if (!joined) {
        const auto reply = join(*client, error);
        if (reply && reply->accepted()) {
          joined = true;
          heartbeat_every = std::chrono::milliseconds(
              std::clamp<std::uint32_t>(reply->heartbeat_interval_ms(), 50, 60000));
          // The peers to measure our links to, once their member lists hold us.
          queue_probes({reply->probe_targets().begin(), reply->probe_targets().end()},
                       Clock::now() + 3 * heartbeat_every);
          set_status("joined job " + options_.job_id);
        } else {
          if (reply) error = "the coordinator refused: " + reply->reason();
          set_status(error);
          spdlog::warn("cannot join job {}: {}", options_.job_id, error);
          client.reset();  // a fresh connection next time
          std::unique_lock lock(mutex_);
          if (cv_.wait_for(lock, std::chrono::seconds(reply ? 5 : 2), [&] { return stop_; }))
            return;
          continue;
        }
      }
      std::uint64_t links_reported = 0;
      const auto r = heartbeat(*client, error, links_reported);
      if (!r) {
        if (reachable) {
          spdlog::warn("coordinator unreachable ({}); training on with plan {}", error,
                       plan_version_.load());
          set_status("coordinator unreachable: training on with the last plan");
        }
        reachable = false;
        client.reset();
        continue;
      }
      if (!reachable) spdlog::info("coordinator reachable again");
      reachable = true;
      if (!r->known()) {
        spdlog::info(
            "the coordinator does not know this node (it restarted without its state?): joining "
            "again");
        joined = false;
        continue;
      }
      set_status(r->status());
      apply_members(*r);
      if (links_reported != 0) {
        std::lock_guard lock(mutex_);
        if (links_reported == probe_generation_) links_ready_ = false;  // the coordinator has them
      }
      if (r->plan_version() == plan_version_.load() && r->pipeline_ready()) pipeline_ready_ = true;
      if (Clock::now() - last_run_status_ > kRunStatusEvery) {
        last_run_status_ = Clock::now();
        pb::Envelope e;
        e.mutable_run_status_request()->set_loss_points(120);
        const auto rs = client->request(e, kRequestTimeout);
        if (rs.ok() && rs.message->header.has_run_status()) {
          std::lock_guard lock(mutex_);
          run_status_ = rs.message->header.run_status();
        }
      }
      if (!r->plan_json().empty() && r->plan_version() != plan_version_.load()) {
        PendingPlan p;
        p.version = r->plan_version();
        p.json = r->plan_json();
        p.sources.assign(r->sources().begin(), r->sources().end());
        std::lock_guard lock(mutex_);
        if (p.version != queued_version_) {  // the worker may still be switching to it
          queued_version_ = p.version;
          pending_ = std::move(p);
          cv_.notify_all();
        }
      }
    }
  }

  // The job's members, as the coordinator lists them: the only keys this node's shard server
  // and its stage's sockets admit from now on. A volunteer removed from the job (it left or
  // was banned) is cut off here within one heartbeat, open connections too (every request is
  // checked against the list). A coordinator that keeps no list (digest 0, an older one)
  // leaves the shard server open to any CURVE peer, as before.
  void apply_members(const pb::HeartbeatReply& r) {
    if (r.members_digest() == 0) {
      if (members_digest_ != 0 || !shard_open_) {
        ctx_.auth().set_open(kShardDomain, true);
        shard_open_ = true;
        members_digest_ = 0;
      }
      return;
    }
    if (r.members_digest() == members_digest_ || r.members().empty()) return;
    std::vector<std::string> members(r.members().begin(), r.members().end());
    ctx_.auth().set_open(kShardDomain, false);
    shard_open_ = false;
    ctx_.auth().replace(kShardDomain, members);
    members_digest_ = r.members_digest();
    {
      std::lock_guard lock(mutex_);
      members_ = members;
    }
    std::lock_guard lock(stage_mutex_);
    if (stage_) stage_->runtime().restrict_peers(members);
  }

  // ---- link probes (their own thread) ----
  // A measurement takes a few round trips and two transfers of kPeerProbeBytes each way, and
  // a peer that is busy starting may take its timeouts: on the client thread that held up
  // heartbeats long enough to have this node planned out. The prober measures every target
  // of the last join from `after` on; the next heartbeat reports the links.
  void queue_probes(std::vector<pb::ProbeTarget> targets, Clock::time_point after) {
    {
      std::lock_guard lock(mutex_);
      ++probe_generation_;
      probe_job_ = ProbeJob{std::move(targets), after};
      peer_links_.clear();
      links_ready_ = false;
    }
    probe_cv_.notify_all();
  }

  void probe_loop() {
    std::unique_lock lock(mutex_);
    while (!stop_) {
      if (!probe_job_) {
        probe_cv_.wait(lock, [&] { return stop_ || probe_job_.has_value(); });
        continue;
      }
      if (Clock::now() < probe_job_->after) {
        probe_cv_.wait_until(lock, probe_job_->after, [&] { return stop_; });
        continue;
      }
      auto job = std::move(*probe_job_);
      probe_job_.reset();
      const auto generation = probe_generation_;
      lock.unlock();
      std::vector<pb::PeerLink> links;
      for (const auto& target : job.targets) {
        {
          std::lock_guard l(mutex_);
          if (stop_ || generation != probe_generation_) break;  // stopping, or a new join's targets
        }
        if (auto link = measure_peer(target)) links.push_back(std::move(*link));
      }
      lock.lock();
      if (generation == probe_generation_) {
        peer_links_ = std::move(links);
        links_ready_ = !peer_links_.empty();
      }
    }
  }

  std::optional<pb::PeerLink> measure_peer(const pb::ProbeTarget& target) {
    if (!net::is_z85_key(target.key()) || target.endpoint().rfind("tcp://", 0) != 0)
      return std::nullopt;
    net::RpcClient client(ctx_, target.endpoint(), &identity_, target.key());
    net::LinkProbeError why;
    const auto link = net::measure_link(client, kPeerProbeBytes, kPeerProbeTimeout,
                                        kPeerProbeTimeout, why, kPeerProbeTransfers);
    if (!link) {
      spdlog::info("could not measure the link to peer {}: {}", net::short_key(target.key()),
                   why.message);
      return std::nullopt;
    }
    pb::PeerLink out;
    out.set_key(target.key());
    out.set_rtt_s(link->rtt_s);
    out.set_upload_bytes_per_s(link->upload_bytes_per_s);
    out.set_download_bytes_per_s(link->download_bytes_per_s);
    spdlog::info("link to peer {}: {:.0f}/{:.0f} MB/s up/down, rtt {:.2f} ms",
                 net::short_key(target.key()), link->upload_bytes_per_s / 1e6,
                 link->download_bytes_per_s / 1e6, link->rtt_s * 1e3);
    return out;
  }

  std::optional<pb::JoinReply> join(net::RpcClient& client, std::string& error) {
    // Measured profile: round trip, then a bounded transfer each way.
    net::LinkProbeError why;
    const auto link = net::measure_link(client, kProbeBytes, kRequestTimeout,
                                        std::chrono::seconds(20), why, kProbeTransfers);
    if (!link) {
      error = why.unreachable ? "coordinator unreachable: " + why.message : why.message;
      return std::nullopt;
    }
    std::int64_t memory = static_cast<std::int64_t>(device::ram_available_bytes());
    if (options_.memory_limit_bytes > 0) memory = std::min(memory, options_.memory_limit_bytes);
    pb::Envelope e;
    auto* j = e.mutable_join();
    j->set_job_id(options_.job_id);
    j->set_invite_token(options_.invite_token);
    j->set_stage_endpoint(stage_endpoint_);
    j->set_reduce_endpoint(reduce_endpoint_);
    j->set_shard_endpoint(shard_server_->endpoint());
    j->set_plan_version(plan_version_.load());
    if (const auto d = dataset(); d && d->complete())
      j->set_dataset_digest(std::string(data::as_bytes(d->digest())));
    auto* p = j->mutable_profile();
    p->set_flops_per_s(options_.flops_per_s);
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
      // The job as its owner wrote it, reading this node's copy of the data; the plan names it
      // as <job id>.json next to it.
      job::JobSpec job;
      try {
        job = job::parse_job_spec(reply.job_spec_json());
      } catch (const std::exception& bad) {
        error = std::string("the coordinator's job does not parse: ") + bad.what();
        return std::nullopt;
      }
      if (!prepare_dataset(reply, *r.message, job, error)) return std::nullopt;
      const auto path = jobs_dir_ / (options_.job_id + ".json");
      const auto tmp = path.string() + ".tmp";
      {
        std::ofstream f(tmp, std::ios::trunc);
        f << job::to_json(job);
        if (!f) {
          error = "cannot write " + tmp;
          return std::nullopt;
        }
      }
      std::filesystem::rename(tmp, path);
      spdlog::info(
          "joined job {} at {} (rtt {:.2f} ms, {:.0f}/{:.0f} MB/s up/down measured); stage {}, "
          "ring {}, shards {}",
          options_.job_id, options_.coordinator_endpoint, link->rtt_s * 1e3,
          link->upload_bytes_per_s / 1e6, link->download_bytes_per_s / 1e6, stage_endpoint_,
          reduce_endpoint_, shard_server_->endpoint());
    }
    return reply;
  }

  std::shared_ptr<data::DatasetStore> dataset() const {
    std::lock_guard lock(dataset_mutex_);
    return dataset_;
  }

  // Dataset delivery: this node's copy of the data the join reply's manifest describes (see
  // data/dataset_delivery.hpp), opened or created under the node's folder, and `job` pointed
  // at it. What is missing is fetched in the background, from the coordinator and the peers
  // the reply named, while the node heartbeats; the coordinator plans it once the heartbeat
  // says the copy is whole. False, with why, when the manifest is wrong or the disk refuses.
  bool prepare_dataset(const pb::JoinReply& reply, const wire::Message& m, job::JobSpec& job,
                       std::string& error) {
    if (reply.dataset_digest().empty()) return true;  // a coordinator that publishes no data
    const auto* t = m.tensor("dataset_manifest");
    if (!t || t->dtype() != wire::DType::U8) {
      error = "the coordinator sent no dataset manifest";
      return false;
    }
    std::string bytes(reinterpret_cast<const char*>(t->bytes().data()), t->bytes().size());
    if (data::as_bytes(data::sha256(bytes)) != reply.dataset_digest()) {
      error = "the dataset manifest does not match its digest";
      return false;
    }
    auto store = dataset();
    if (!store || data::as_bytes(store->digest()) != reply.dataset_digest()) {
      try {
        store =
            std::make_shared<data::DatasetStore>(options_.data_dir / "datasets", std::move(bytes));
      } catch (const data::DatasetError& e) {
        error = std::string("cannot keep the job's dataset: ") + e.what();
        return false;
      }
    }
    job.dataset = store->localized(job.dataset);
    {
      std::lock_guard lock(dataset_mutex_);
      dataset_ = store;
    }
    if (store->complete()) return true;
    if (fetching_ && fetching_store_ == store) return true;  // already under way
    if (fetch_thread_.joinable()) {  // an earlier fetch: finished, or for another dataset
      fetch_stop_ = true;
      fetch_thread_.join();
      fetch_stop_ = false;
    }
    fetching_store_ = store;
    std::vector<DataSource> sources{
        {options_.coordinator_key, options_.coordinator_endpoint, true}};
    // The peers the coordinator named admit us once its member list reaches them, at their
    // next heartbeat: ask them from two heartbeat periods on.
    const auto peers_admit = Clock::now() + 2 * std::chrono::milliseconds(std::clamp<std::uint32_t>(
                                                    reply.heartbeat_interval_ms(), 50, 60000));
    for (const auto& p : reply.probe_targets()) {
      if (net::is_z85_key(p.key()) && p.endpoint().rfind("tcp://", 0) == 0) {
        sources.push_back({p.key(), p.endpoint(), false, peers_admit});
      }
    }
    fetching_ = true;
    spdlog::info(
        "fetching the job's dataset ({:.1f} of {:.1f} MB held) from the coordinator and {} peer(s)",
        double(store->bytes_held()) / 1e6, double(store->total_bytes()) / 1e6, sources.size() - 1);
    fetch_thread_ = std::thread([this, store, sources] {
      const auto started = Clock::now();
      DatasetFetcher fetcher(ctx_, identity_, *store);
      const auto report = fetcher.run(sources, [this] { return fetch_stop_.load(); });
      if (report.complete) {
        std::string from;
        for (const auto& [source, chunks] : report.chunks_from) {
          if (chunks > 0) from += fmt::format("{}{}: {}", from.empty() ? "" : ", ", source, chunks);
        }
        spdlog::info("the job's dataset is complete: {:.1f} MB in {:.1f} s; chunks from {}{}",
                     double(store->total_bytes()) / 1e6,
                     std::chrono::duration<double>(Clock::now() - started).count(),
                     from.empty() ? "none" : from,
                     report.caught.empty()
                         ? ""
                         : fmt::format("; {} peer(s) served corrupt chunks", report.caught.size()));
      }
      fetching_ = false;
    });
    return true;
  }

  // `links_reported`: the probe generation whose links this heartbeat carried (0: none).
  std::optional<pb::HeartbeatReply> heartbeat(net::RpcClient& client, std::string& error,
                                              std::uint64_t& links_reported) {
    pb::Envelope e;
    auto* h = e.mutable_heartbeat();
    h->set_plan_version(plan_version_.load());
    h->set_members_digest(members_digest_);
    // The governor's current share of the CPU (the callback reads an atomic, never a lock).
    h->set_flops_per_s(options_.current_flops_per_s ? options_.current_flops_per_s()
                                                    : options_.flops_per_s);
    if (const auto d = dataset()) {
      if (d->complete()) {
        h->set_dataset_digest(std::string(data::as_bytes(d->digest())));
      } else if (d->total_bytes() > 0) {
        h->set_dataset_fetched(double(d->bytes_held()) / double(d->total_bytes()));
      }
    }
    {
      std::lock_guard lock(mutex_);
      // Fault injection (tests): a volunteer that claims ten times the work it did. The
      // coordinator credits what its consumers' receipts confirm, so the claim buys nothing.
      const std::int64_t claim = options_.stage.fault == "inflate-work" ? 10 : 1;
      h->set_samples(claim * samples_);
      h->set_micro_batches(claim * micro_batches_);
      h->set_flops(static_cast<double>(claim) * flops_);
      std::int64_t recent = 0;
      for (const auto& [t, n] : recent_) recent += n;
      const double window =
          recent_.empty()
              ? 1.0
              : std::max(
                    1.0,
                    std::chrono::duration<double>(Clock::now() - recent_.front().first).count());
      h->set_samples_per_s(static_cast<double>(recent) / window);
      // The speed it shows while computing (the coordinator plans a markedly slow one with it).
      double busy = 0, done = 0;
      for (const auto& b : busy_) {
        busy += b.seconds;
        done += b.flops;
      }
      if (busy >= kBusyEnough) h->set_flops_per_busy_s(done / busy);
      h->set_benchmark_flops_per_s(options_.benchmark_flops_per_s);
      h->set_loss(loss_);
      h->set_contributing(!draining_.load());
      if (links_ready_) {
        for (const auto& link : peer_links_) *h->add_peer_links() = link;
        links_reported = probe_generation_;
      }
      for (const auto& k : excluded_) h->add_excluded_peers(k);
      for (const auto& k : caught_) h->add_failed_spot_checks(k);
      auto receipts = retired_receipts_;
      add_receipts(receipts, live_receipts_);
      for (const auto& [key, r] : receipts) {
        auto* out = h->add_receipts();
        out->set_key(key);
        out->set_forward_samples(r.forward_samples);
        out->set_backward_samples(r.backward_samples);
      }
    }
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

  void set_status(const std::string& s) {
    std::lock_guard lock(mutex_);
    status_ = s;
  }

  // ---- the shard server (its own thread) ----
  std::optional<net::Reply> serve_shard(const net::RequestContext& req, wire::Message& m) {
    net::Reply reply;
    if (m.header.has_ping()) {  // members measuring their links to this node
      net::answer_ping(m.header.ping(), "node", identity_, reply);
      return reply;
    }
    if (m.header.has_bandwidth_probe()) {
      net::answer_bandwidth_probe(m, kMaxPeerProbeBytes, reply);
      return reply;
    }
    if (m.header.has_data_chunk_request()) {
      serve_data_chunk(m.header.data_chunk_request(), reply);
      return reply;
    }
    if (!m.header.has_shard_request()) {
      reply.header.mutable_error()->set_message(
          "this is a shard server: it answers shard requests only");
      return reply;
    }
    const auto first = m.header.shard_request().first_block(),
               last = m.header.shard_request().last_block();
    std::lock_guard lock(held_mutex_);
    for (const auto* s : {&live_, &retired_}) {
      if (!*s || (*s)->first_block > first || (*s)->last_block < last || first >= last) continue;
      const auto& snap = **s;
      std::int64_t offset = 0, size = 0;
      for (auto b = snap.first_block; b < last; ++b) (b < first ? offset : size) += block_count(b);
      auto* out = reply.header.mutable_shard_reply();
      out->set_first_block(first);
      out->set_last_block(last);
      out->set_optimizer_steps(snap.optimizer_steps);
      out->set_plan_version(snap.plan_version);
      reply.tensors.push_back(wire::OutgoingTensor::encode(
          "parameters", {size},
          std::span<const float>(snap.values)
              .subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(size))));
      // The optimizer's moments for the same values, one checksummed frame per buffer.
      add_shard_state(snap.state, offset, size, *out, reply.tensors);
      spdlog::info("handed blocks [{}, {}) ({} parameters, {} optimizer state buffer(s)) to {}",
                   first, last, size, snap.state.buffers.size(), net::short_key(req.peer_key));
      return reply;
    }
    reply.header.mutable_error()->set_message("this node does not hold blocks [" +
                                              std::to_string(first) + ", " + std::to_string(last) +
                                              ")");
    return reply;
  }

  // A chunk of the job's dataset, for a member fetching it (verified here when it was fetched;
  // the member checks it again against its manifest).
  void serve_data_chunk(const pb::DataChunkRequest& q, net::Reply& reply) {
    const auto d = dataset();
    std::optional<std::vector<std::byte>> bytes;
    if (d && q.dataset_digest() == data::as_bytes(d->digest()))
      bytes = d->read({q.file(), q.chunk()});
    if (!bytes) {
      reply.header.mutable_error()->set_message(
          "this node does not hold that chunk of the dataset");
      return;
    }
    // Fault injection (tests): a peer that serves corrupt data. The taker's hash check drops it.
    if (options_.stage.fault == "corrupt-data" && !bytes->empty()) (*bytes)[0] ^= std::byte{0x5a};
    const auto size = static_cast<std::int64_t>(bytes->size());
    reply.header.mutable_data_chunk_reply()->set_file(q.file());
    reply.header.mutable_data_chunk_reply()->set_chunk(q.chunk());
    reply.tensors.push_back(wire::OutgoingTensor::raw("chunk", wire::DType::U8, {size},
                                                      wire::Payload::own(std::move(*bytes))));
  }

  std::int64_t block_count(std::int64_t b) const {
    return b >= 0 && static_cast<std::size_t>(b) < block_counts_.size()
               ? block_counts_[static_cast<std::size_t>(b)]
               : 0;
  }

  ShardSnapshot snapshot_of(StageWorkload& w) {
    ShardSnapshot s;
    const auto& me = w.plan().stages[w.stage_index()];
    s.first_block = me.first_block;
    s.last_block = me.last_block;
    s.optimizer_steps = w.runtime().optimizer_steps();
    s.plan_version = plan_version_.load();
    s.values = w.runtime().parameters();
    s.state = w.runtime().optimizer_state();
    return s;
  }

  void remember(ShardSnapshot s, bool live) {
    std::lock_guard lock(held_mutex_);
    (live ? live_ : retired_) = std::move(s);
    if (!live) live_.reset();
  }

  // ---- switching plans (worker thread, between units) ----
  void switch_to(const PendingPlan& p) {
    pipeline::StagePlan plan;
    try {
      plan = pipeline::parse_stage_plan(p.json, jobs_dir_);
      if (block_counts_.empty()) block_counts_ = reduce::block_parameter_counts(plan.job.model);
    } catch (const std::exception& e) {
      spdlog::error("plan {} from the coordinator is not usable: {} (keeping plan {})", p.version,
                    e.what(), plan_version_.load());
      return;
    }
    const auto place = plan.find(identity_.public_key);
    // Retire the current stage: its parameters stay available to peers that take its blocks.
    if (stage_) {
      auto snap = snapshot_of(*stage_);
      remember(std::move(snap), /*live=*/false);
      {  // its receipts stay in the totals the heartbeats report
        const auto receipts = stage_->runtime().stats().receipts;
        std::lock_guard lock(mutex_);
        add_receipts(retired_receipts_, receipts);
        live_receipts_.clear();
      }
      // Out of the lock, then destroyed: closing a stage may wait out a send to a peer that
      // stopped reading (PeerSenderTiming::send_timeout), and describe() and the heartbeat's
      // path to it must not wait with it (a heartbeat held 2 s gets a volunteer planned out).
      std::unique_ptr<StageWorkload> retiring;
      {
        std::lock_guard lock(stage_mutex_);
        retiring = std::move(stage_);
      }
      retiring.reset();
    }
    pipeline_ready_ = false;
    ready_deadline_ = Clock::now() + kReadyWait;
    if (!place) {
      plan_version_ = p.version;
      spdlog::info("plan {}: this node has no seat (waiting for the next plan)", p.version);
      return;
    }
    auto selected = plan.select(place->first);
    const auto& seat = selected.stages[place->second];
    std::unique_ptr<StageWorkload> next;
    try {
      auto o = options_.stage;
      o.checkpoint_dir.clear();  // the swarm holds the state; a stale local checkpoint must not win
      next = std::make_unique<StageWorkload>(
          std::make_pair(std::move(selected), place->second), o, identity_,
          static_cast<std::int64_t>(p.version) * kSampleIdsPerPlan);
    } catch (const std::exception& e) {
      spdlog::error("plan {}: cannot start stage {} of pipeline {}: {}", p.version,
                    place->second + 1, place->first + 1, e.what());
      return;
    }
    {  // a plan names members only, but one removed since it was made is refused already
      std::lock_guard lock(mutex_);
      if (!members_.empty()) next->runtime().restrict_peers(members_);
    }
    const auto fetched = load_shard(*next, seat.first_block, seat.last_block, p);
    spdlog::info("plan {}: pipeline {} of {}, stage {} of {}, blocks [{}, {}); {}", p.version,
                 place->first + 1, plan.pipelines.size(), place->second + 1,
                 plan.pipelines[place->first].size(), seat.first_block, seat.last_block, fetched);
    holding_ = true;  // until the pipeline is ready
    next->set_draining(true);
    {
      std::lock_guard lock(stage_mutex_);
      stage_ = std::move(next);
    }
    {
      std::lock_guard lock(mutex_);
      busy_.clear();  // the speed it shows is measured on the new blocks only
    }
    plan_version_ = p.version;                       // reported from now on: this stage listens
    last_snapshot_ = Clock::now() - kSnapshotEvery;  // serve the new shard at once
  }

  // Fills blocks [first, last) of the new stage: from this node's own snapshot where it has
  // them, else from the plan's sources. Returns a line for the log.
  std::string load_shard(StageWorkload& w, std::int64_t first, std::int64_t last,
                         const PendingPlan& p) {
    std::vector<bool> done(static_cast<std::size_t>(last - first), false);
    std::int64_t own = 0, fetched = 0;
    std::int64_t steps = 0;
    std::int64_t fresh_moments = 0;  // blocks whose parameters came without usable optimizer state
    auto load = [&](std::int64_t a, std::int64_t b, std::span<const float> values,
                    std::int64_t optimizer_steps, const pipeline::OptimizerState* state) {
      try {
        w.runtime().load_blocks(a, b, values, optimizer_steps, state);
      } catch (const std::exception& e) {
        spdlog::warn("blocks [{}, {}) not loaded: {}", a, b, e.what());
        return false;
      }
      if (!state) fresh_moments += b - a;
      steps = std::max(steps, optimizer_steps);
      for (auto i = a; i < b; ++i) done[static_cast<std::size_t>(i - first)] = true;
      return true;
    };
    {
      std::lock_guard lock(held_mutex_);
      for (const auto* s : {&live_, &retired_}) {
        if (!*s) continue;
        const auto a = std::max(first, (*s)->first_block), b = std::min(last, (*s)->last_block);
        if (a >= b) continue;
        std::int64_t offset = 0, size = 0;
        for (auto i = (*s)->first_block; i < b; ++i) (i < a ? offset : size) += block_count(i);
        const auto state = slice_state((*s)->state, offset, size);
        const auto values =
            std::span<const float>((*s)->values)
                .subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(size));
        // Its own moments fit unless the job's optimizer changed kind (a new job spec).
        if (load(a, b, values, (*s)->optimizer_steps, &state) ||
            load(a, b, values, (*s)->optimizer_steps, nullptr)) {
          own += b - a;
        }
        break;
      }
    }
    for (const auto& src : p.sources) {
      // The part of this source's range still missing, as contiguous runs.
      for (auto a = std::max(first, src.first_block()); a < std::min(last, src.last_block());) {
        if (done[static_cast<std::size_t>(a - first)]) {
          ++a;
          continue;
        }
        auto b = a;
        while (b < std::min(last, src.last_block()) && !done[static_cast<std::size_t>(b - first)])
          ++b;
        std::string error;
        if (auto got = fetch(w, src, a, b, error)) {
          if (!got->state) {
            spdlog::warn(
                "blocks [{}, {}) from {}: parameters verified, optimizer state not usable ({}): "
                "those blocks "
                "start from fresh moments",
                a, b, net::short_key(src.key()), got->state_error);
          }
          if (load(a, b, got->values, got->optimizer_steps, got->state ? &*got->state : nullptr))
            fetched += b - a;
        } else {
          spdlog::warn("could not fetch blocks [{}, {}) from {}: {}", a, b,
                       net::short_key(src.key()), error);
        }
        a = b;
      }
    }
    const auto missing = std::count(done.begin(), done.end(), false);
    if (missing > 0) {
      spdlog::warn(
          "{} block(s) of [{}, {}) had no reachable holder: they start from the job's initial "
          "weights",
          missing, first, last);
    }
    return std::to_string(own) + " block(s) kept, " + std::to_string(fetched) +
           " fetched from peers, " + std::to_string(missing) + " fresh; optimizer step " +
           std::to_string(steps) + "; " + std::to_string(last - first - missing - fresh_moments) +
           " block(s) with their optimizer state, " + std::to_string(fresh_moments + missing) +
           " with fresh moments";
  }

  std::optional<FetchedBlocks> fetch(StageWorkload& w, const pb::ShardSource& src,
                                     std::int64_t first, std::int64_t last, std::string& error) {
    if (!net::is_z85_key(src.key()) || src.endpoint().rfind("tcp://", 0) != 0) {
      error = "the coordinator named an invalid source";
      return std::nullopt;
    }
    std::int64_t expected = 0;
    for (auto b = first; b < last; ++b) expected += block_count(b);
    // The holder may not have the new plan yet, or be mid-switch: a few tries.
    for (int attempt = 0; attempt < 3; ++attempt) {
      net::RpcClient client(ctx_, src.endpoint(), &identity_, src.key());
      pb::Envelope e;
      e.mutable_shard_request()->set_first_block(first);
      e.mutable_shard_request()->set_last_block(last);
      const auto r = client.request(e, kRequestTimeout);
      if (!r.ok()) {
        error = r.error;
        continue;
      }
      const auto& h = r.message->header;
      if (!h.has_shard_reply()) {
        error = h.has_error() ? h.error().message() : "unexpected reply";
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        continue;
      }
      const auto* t = r.message->tensor("parameters");
      if (!t || t->dtype() != wire::DType::F32 || t->numel() != expected ||
          h.shard_reply().first_block() != first || h.shard_reply().last_block() != last) {
        error = "the reply does not hold " + std::to_string(expected) +
                " f32 parameters of those blocks";
        return std::nullopt;  // a holder that answers wrongly is not asked again
      }
      auto values = t->to_f32();
      if (!std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); })) {
        error = "the parameters are not all finite";
        return std::nullopt;
      }
      FetchedBlocks got;
      got.values = std::move(values);
      got.optimizer_steps = h.shard_reply().optimizer_steps();
      got.state = verify_shard_state(w.runtime().optimizer_state_names(), *r.message, expected,
                                     got.state_error);
      spdlog::info("fetched blocks [{}, {}) from {} (trained under plan {}, optimizer step {}, {})",
                   first, last, net::short_key(src.key()), h.shard_reply().plan_version(),
                   h.shard_reply().optimizer_steps(),
                   got.state ? "with its optimizer state" : "without usable optimizer state");
      return got;
    }
    return std::nullopt;
  }

  CoordinatedOptions options_;
  const net::CurveKeyPair& identity_;
  net::SecureContext ctx_;
  std::vector<std::int64_t> block_counts_;
  std::filesystem::path jobs_dir_;
  std::string stage_endpoint_, reduce_endpoint_;
  std::unique_ptr<net::RpcServer> shard_server_;
  // dataset delivery: the copy (read by the shard server, filled by the fetch thread)
  mutable std::mutex dataset_mutex_;
  std::shared_ptr<data::DatasetStore> dataset_;
  std::thread fetch_thread_;
  std::shared_ptr<data::DatasetStore> fetching_store_;  // client thread: what fetch_thread_ fills
  std::atomic<bool> fetching_{false};
  std::atomic<bool> fetch_stop_{false};
  // client thread: the member list in force (see apply_members)
  std::uint64_t members_digest_ = 0;
  bool shard_open_ = false;

  // worker thread
  std::unique_ptr<StageWorkload> stage_;
  mutable std::mutex stage_mutex_;  // guards stage_ against describe() from other threads
  Clock::time_point last_snapshot_ = Clock::now();
  std::atomic<bool> draining_{false};
  bool holding_ = false;                     // the stage is told to start no micro-batch
  std::atomic<bool> pipeline_ready_{false};  // every stage of the pipeline runs our plan
  Clock::time_point ready_deadline_ = Clock::now();

  // shared with the client thread
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::optional<PendingPlan> pending_;
  std::uint64_t queued_version_ = 0;
  std::optional<pb::RunStatus> run_status_;
  std::vector<std::string> excluded_;  // ring partners our aggregator leaves out (reported)
  std::vector<std::string> caught_;    // senders our spot-checks caught (reported)
  std::vector<std::string> members_;   // the job's members, as the coordinator last listed them
  // The prober's: what to measure, and what it measured for the coordinator.
  struct ProbeJob {
    std::vector<pb::ProbeTarget> targets;
    Clock::time_point after;
  };
  std::condition_variable probe_cv_;
  std::optional<ProbeJob> probe_job_;
  std::uint64_t probe_generation_ = 0;  // one per join
  std::vector<pb::PeerLink> peer_links_;
  bool links_ready_ = false;  // measured and not yet taken by the coordinator
  // Receipts for the peers' work we consumed: retired stages' totals plus the current one's
  // (reported in every heartbeat as totals since this node joined).
  using Receipts = std::map<std::string, pipeline::StageStats::Receipt>;
  Receipts retired_receipts_, live_receipts_;
  static void add_receipts(Receipts& into, const Receipts& from) {
    for (const auto& [key, r] : from) {
      into[key].forward_samples += r.forward_samples;
      into[key].backward_samples += r.backward_samples;
    }
  }
  Clock::time_point last_run_status_{};
  std::string status_ = "joining";
  std::atomic<std::uint64_t> plan_version_{0};
  std::int64_t samples_ = 0, micro_batches_ = 0;
  double flops_ = 0, loss_ = -1;
  std::deque<std::pair<Clock::time_point, std::int64_t>> recent_;
  struct Busy {
    Clock::time_point at;
    double seconds = 0, flops = 0;
  };
  std::deque<Busy> busy_;  // each unit of work in the last kBusyWindow: its compute time and FLOP

  // shared with the shard server
  std::mutex held_mutex_;
  std::optional<ShardSnapshot> live_, retired_;

  std::thread client_thread_;
  std::thread probe_thread_;
};

}  // namespace

std::unique_ptr<Workload> make_coordinated_workload(const CoordinatedOptions& options,
                                                    const net::CurveKeyPair& identity) {
  return std::make_unique<CoordinatedWorkload>(options, identity);
}

}  // namespace rookery::node
