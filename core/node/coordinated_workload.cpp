#include "node/coordinated_workload.hpp"

#include <algorithm>
#include <fstream>
#include <random>
#include <stdexcept>

#include <spdlog/spdlog.h>
#include <zmq.hpp>

#include "job/job_spec.hpp"

#include "reach/candidates.hpp"
#include "reach/relay_server.hpp"

#include "node/connection_reversal.hpp"
#include "node/coordinator_client.hpp"
#include "node/job_dataset.hpp"
#include "node/link_prober.hpp"
#include "node/node_reach.hpp"
#include "node/plan_follower.hpp"
#include "node/shard_handover.hpp"
#include "node/shard_server.hpp"
#include "node/work_report.hpp"

namespace rookery::node {

namespace {

// A free TCP port on `host` for a socket the node binds later (the stage's, when a plan
// arrives). Not from the kernel's ephemeral range (net.ipv4.ip_local_port_range): there any
// process's outgoing connection may take it before the bind ("Address already in use" when a
// plan arrived, seen in test_coordinator_swarm). Above that range when there is room, else
// below it; checked free by binding it.
std::uint16_t free_port(const std::string& host) {
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
      s.set(zmq::sockopt::ipv6, true);
      s.bind(reach::tcp_endpoint(host, static_cast<std::uint16_t>(port)));
      return static_cast<std::uint16_t>(port);
    } catch (const zmq::error_t&) {
      // taken: try another
    }
  }
  zmq::socket_t s(ctx, zmq::socket_type::router);  // every pick taken: let the kernel choose
  s.set(zmq::sockopt::linger, 0);
  s.set(zmq::sockopt::ipv6, true);
  s.bind(reach::tcp_endpoint(host, 0));
  return reach::port_of(s.get(zmq::sockopt::last_endpoint));
}

// The shard server's part of rookery-node's --fault, if any (the stage takes the rest).
ShardServer::Fault shard_fault(const std::string& fault) {
  if (fault == "corrupt-data") return ShardServer::Fault::corrupt_data;
  if (fault == "corrupt-shards") {
    spdlog::warn(
        "fault injection: this node's shard server hands its blocks to peers and the "
        "coordinator's archive sign-flipped x100 (a lying holder); it trains honestly");
    return ShardServer::Fault::corrupt_shards;
  }
  return ShardServer::Fault::none;
}

const CoordinatedOptions& checked(const CoordinatedOptions& o) {
  if (!net::is_z85_key(o.coordinator_key))
    throw std::runtime_error("--coordinator-key is not a 40-character Z85 key");
  if (o.coordinator_endpoint.rfind("tcp://", 0) != 0)
    throw std::runtime_error("--coordinator must be tcp://host:port");
  if (o.job_id.empty()) throw std::runtime_error("--job: which job to join");
  return o;
}

// One part per mechanism, wired here: the worker's thread runs the plan follower's units, the
// coordinator client's thread reports on and hands the coordinator's word to the other parts.
// Parts are destroyed in reverse: the client first (it reaches all of them), the dataset
// last (the shard server serves from it).
class CoordinatedWorkload final : public Workload {
 public:
  CoordinatedWorkload(const CoordinatedOptions& o, const net::CurveKeyPair& identity)
      : options_(checked(o)),
        identity_(identity),
        reach_({o.host, o.coordinator_endpoint, {}}),
        ctx_(1),
        jobs_dir_(o.data_dir / "jobs"),
        dataset_(ctx_, identity_, o.data_dir / "datasets", o.coordinator_key,
                 o.coordinator_endpoint),
        // Admits the job's members only, as the coordinator lists them in its heartbeat
        // replies; until the first reply, no one.
        shards_(
            ctx_, identity_, reach_.bind_host(), [this] { return dataset_.store(); },
            shard_fault(o.stage.fault)),
        handover_(ctx_, identity_, shards_),
        // Fault injection (tests): a volunteer that claims ten times the work it did. The
        // coordinator credits what its consumers' receipts confirm, so the claim buys nothing.
        work_([this] { return plans_.counters(); }, o.stage.fault == "inflate-work" ? 10 : 1),
        stage_port_(free_port(reach_.bind_host())),
        reduce_port_(free_port(reach_.bind_host())),
        plans_(stage_options(o.stage, reach_, stage_port_, reduce_port_), identity_, shards_,
               handover_, work_),
        prober_(ctx_, identity_),
        reversal_(ctx_, identity_,
                  {reach_.bind_host(), !reach::is_loopback(reach_.bind_host()), o.reversal,
                   ShardServer::kMembersDomain}) {
    const std::uint16_t stage = stage_port_, reduce = reduce_port_,
                        shard = reach::port_of(shards_.endpoint());
    reversal_.set_ports({stage, reduce, shard});
    std::vector<std::uint16_t> mapped{stage, reduce, shard};
    if (const auto service = reversal_.service()) {
      mapped.push_back(static_cast<std::uint16_t>(service->control_port()));
      mapped.push_back(static_cast<std::uint16_t>(service->data_port()));
    }
    reach_.map_ports(std::move(mapped));
    const std::string host = reach_.announced_host();
    CoordinatorClient::Endpoints endpoints{reach::tcp_endpoint(host, stage),
                                           reach::tcp_endpoint(host, reduce),
                                           reach::tcp_endpoint(host, shard)};
    std::filesystem::create_directories(jobs_dir_);
    if (o.offer_relay) {
      reach::RelayServerOptions relay;
      relay.host = reach_.bind_host();
      relay.domain = ShardServer::kMembersDomain;  // the job's members only
      relay.bytes_per_second = o.relay_bytes_per_s;
      relay_ = std::make_unique<reach::RelayServer>(ctx_, identity_, std::move(relay));
    }
    client_ = std::make_unique<CoordinatorClient>(
        options_, ctx_, identity_, std::move(endpoints), jobs_dir_,
        CoordinatorClient::Parts{dataset_, prober_, shards_, plans_, work_, reach_, reversal_,
                                 relay_.get()});
  }

  std::string description() const override {
    if (auto d = plans_.description()) return *d;
    return "volunteer of job " + options_.job_id + ": " + client_->status();
  }
  WorkUnitResult run_unit() override {
    if (options_.speed && options_.speed->wants_job()) measure_job_blocks();
    return plans_.run_unit();
  }
  WorkCounters counters() const override { return plans_.counters(); }
  void finish() override { plans_.finish(); }
  void describe(pb::NodeSnapshot& snapshot) const override {
    if (options_.speed) {
      snapshot.mutable_device()->set_measured_gflops(options_.speed->benchmark_flops_per_s() / 1e9);
    }
    plans_.describe(snapshot);
    client_->describe(snapshot);
    reach_.describe(snapshot);
    reversal_.describe(*snapshot.mutable_reach());
    if (relay_) {
      const auto stats = relay_->stats();
      snapshot.mutable_reach()->set_relays_for(stats.nodes);
      snapshot.mutable_reach()->set_relayed_bytes(stats.bytes);
    }
  }
  void set_draining(bool draining) override { plans_.set_draining(draining); }
  bool drained() const override { return plans_.drained(); }

 private:
  // A first-time joiner benchmarked a matmul: once the join has brought the job (the client
  // keeps it as <job id>.json), its own blocks are measured, before the first stage starts.
  void measure_job_blocks() {
    const auto path = jobs_dir_ / (options_.job_id + ".json");
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return;  // not joined yet
    job::JobSpec job;
    try {
      job = job::load_job_spec(path);
    } catch (const std::exception& e) {
      spdlog::warn("cannot read the kept job {} ({}): its blocks are not measured", path.string(),
                   e.what());
      options_.speed->give_up();
      return;
    }
    options_.speed->measure_job(job);
  }

  // The stage binds where the node listens; peers dial what the plan names.
  static StageWorkloadOptions stage_options(StageWorkloadOptions o, const NodeReach& reach,
                                            std::uint16_t stage_port, std::uint16_t reduce_port) {
    o.bind_host = reach.bind_host();
    o.stage_port = stage_port;
    o.reduce_port = reduce_port;
    return o;
  }

  CoordinatedOptions options_;
  const net::CurveKeyPair& identity_;
  NodeReach reach_;
  net::SecureContext ctx_;
  std::filesystem::path jobs_dir_;
  JobDataset dataset_;
  ShardServer shards_;
  ShardHandover handover_;
  WorkReport work_;
  const std::uint16_t stage_port_, reduce_port_;  // where its stage and ring listen
  PlanFollower plans_;
  LinkProber prober_;
  ConnectionReversal reversal_;
  std::unique_ptr<reach::RelayServer> relay_;  // --offer-relay
  std::unique_ptr<CoordinatorClient> client_;
};

}  // namespace

std::unique_ptr<Workload> make_coordinated_workload(const CoordinatedOptions& options,
                                                    const net::CurveKeyPair& identity) {
  return std::make_unique<CoordinatedWorkload>(options, identity);
}

}  // namespace rookery::node
