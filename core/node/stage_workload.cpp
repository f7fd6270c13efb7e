#include "node/stage_workload.hpp"

#include <spdlog/spdlog.h>

#include "model/cost.hpp"
#include "net/secure_context.hpp"
#include "pipeline/stage_plan.hpp"
#include "pipeline/stage_runtime.hpp"
#include "reach/candidates.hpp"

namespace rookery::node {

namespace {
constexpr std::int64_t kSampleIdsPerPipeline = 1'000'000'000'000;

// The plan file's pipeline and stage for this node, validated.
std::pair<pipeline::StagePlan, std::size_t> load_plan(const StageWorkloadOptions& o,
                                                      const net::CurveKeyPair& identity) {
  auto plan = pipeline::load_stage_plan(o.plan_path);
  if (plan.pipelines.size() > 1) {  // several pipelines: this node's key says which one is its
    const auto place = plan.find(identity.public_key);
    if (!place) {
      throw std::runtime_error("the plan does not list this node's key " +
                               identity.public_key.substr(0, 8) +
                               "… (run rookery-node --print-identity with this --data-dir)");
    }
    plan = plan.select(place->first);
  }
  if (o.stage < 0 || static_cast<std::size_t>(o.stage) >= plan.stages.size()) {
    throw std::runtime_error("--stage " + std::to_string(o.stage) + " is not in the plan (it has " +
                             std::to_string(plan.stages.size()) + " stages)");
  }
  return {std::move(plan), static_cast<std::size_t>(o.stage)};
}

WorkCounters counters_of(const pipeline::StageStats& s) {
  WorkCounters c;
  c.samples = s.samples;
  c.micro_batches = s.backwards;
  c.flops = s.forward_flops + s.backward_flops + s.recompute_flops;
  c.busy_seconds = s.busy_seconds;
  c.loss = s.last_loss;
  return c;
}

// Where to listen for a planned endpoint: on `bind_host` at the node's own port (`own`; 0: the
// planned one), or as planned.
std::string listen_at(const std::string& planned, const std::string& bind_host, std::uint16_t own) {
  const std::uint16_t port = own != 0 ? own : reach::port_of(planned);
  return bind_host.empty() || port == 0 ? planned : reach::tcp_endpoint(bind_host, port);
}
}  // namespace

StageWorkload::StageWorkload(const StageWorkloadOptions& o, const net::CurveKeyPair& identity)
    : StageWorkload(load_plan(o, identity), o, identity, 0) {}

StageWorkload::StageWorkload(std::pair<pipeline::StagePlan, std::size_t> placed,
                             const StageWorkloadOptions& o, const net::CurveKeyPair& identity,
                             std::int64_t sample_offset)
    : ctx_(1), plan_(std::move(placed.first)), stage_index_(placed.second) {
  plan_.validate(static_cast<std::int64_t>(model::block_costs(plan_.job.model).size()));
  if (stage_index_ >= plan_.stages.size())
    throw std::runtime_error("the plan has no stage " + std::to_string(stage_index_));
  const auto& me = plan_.stages[stage_index_];
  if (me.key != identity.public_key) {
    throw std::runtime_error("the plan lists key " + me.key.substr(0, 8) + "… for stage " +
                             std::to_string(stage_index_) + " but this node's identity is " +
                             identity.public_key.substr(0, 8) +
                             "… (run rookery-node --print-identity with this --data-dir)");
  }
  pipeline::StageConfig c;
  c.job = plan_.job;
  c.pipeline = plan_.pipeline;
  c.blocks = {me.first_block, me.last_block};
  // Peers dial the endpoint the plan names; the node may listen more widely (NodeReach).
  c.listen = listen_at(me.endpoint, o.bind_host, o.stage_port);
  c.advertise = me.endpoint;
  if (stage_index_ + 1 < plan_.stages.size()) {
    c.next = {plan_.stages[stage_index_ + 1].endpoint, plan_.stages[stage_index_ + 1].key};
  }
  // Every member of the job may send to this stage: its pipeline neighbours and, with
  // several pipelines, its ring partners.
  for (const auto& p : plan_.pipelines) {
    for (const auto& s : p) c.peer_keys.push_back(s.key);
  }
  if (plan_.pipelines.size() > 1) {
    // SWARM's wiring: any stage of any pipeline that starts where this shard ends can take
    // this stage's micro-batches (in the uniform regime every pipeline's does).
    if (stage_index_ + 1 < plan_.stages.size()) {
      c.next_candidates.push_back(c.next);
      for (std::size_t p = 0; p < plan_.pipelines.size(); ++p) {
        if (p == plan_.pipeline) continue;
        for (const auto& s : plan_.pipelines[p]) {
          if (s.first_block == me.last_block) c.next_candidates.push_back({s.endpoint, s.key});
        }
      }
    }
    c.cross_pipeline = true;
    // Spot-checks: a sender's verifiers are other holders of its blocks (exact replicas, or
    // chains of holders whose ranges cover them).
    for (const auto& p : plan_.pipelines) {
      for (const auto& s : p)
        c.holders.push_back({{s.endpoint, s.key}, {s.first_block, s.last_block}});
    }
    for (const auto& p : plan_.pipelines) {
      reduce::PipelinePartition part;  // none for a pipeline outside the view, in its place
      if (p.empty()) {
        c.averaging.pipelines.push_back(std::move(part));
        continue;
      }
      part.boundaries.push_back(0);
      for (const auto& s : p) {
        part.boundaries.push_back(s.last_block);
        part.nodes.push_back(s.key);
        c.averaging.endpoints[s.key] = s.reduce_endpoint;
      }
      c.averaging.pipelines.push_back(std::move(part));
    }
    c.averaging.listen = listen_at(me.reduce_endpoint, o.bind_host, o.reduce_port);
    c.averaging.interval = std::chrono::milliseconds(plan_.averaging_interval_ms);
    // Each pipeline reads its own range of sample ids; SampleOrder makes every range a
    // fresh shuffled pass over the data, so the pipelines' gradients are independent.
    c.first_sample = static_cast<std::int64_t>(plan_.pipeline) * kSampleIdsPerPipeline;
  }
  c.first_sample += sample_offset;
  c.device = o.device;
  if (!o.checkpoint_dir.empty()) {
    c.checkpoint_path = o.checkpoint_dir / (plan_.job.id + "-p" + std::to_string(plan_.pipeline) +
                                            "-b" + std::to_string(me.first_block) + "-" +
                                            std::to_string(me.last_block) + ".ckpt");
  }
  c.checkpoint_interval = std::chrono::seconds(o.checkpoint_interval_s);
  c.max_micro_batches = o.max_micro_batches;
  c.micro_batch_timeout = std::chrono::milliseconds(o.micro_batch_timeout_ms);
  c.flush_every = o.flush_every;
  if (o.fault == "sign-flip-averaging") {
    c.fault = pipeline::Fault::SignFlipAveraging;
    spdlog::warn(
        "fault injection: this stage sends its averaging updates sign-flipped x1000 (a Byzantine "
        "peer)");
  } else if (o.fault == "corrupt-activations") {
    c.fault = pipeline::Fault::CorruptActivations;
    spdlog::warn(
        "fault injection: this stage sends its activations forward sign-flipped x10 (a Byzantine "
        "peer)");
  } else if (o.fault == "corrupt-gradients") {
    c.fault = pipeline::Fault::CorruptGradients;
    spdlog::warn(
        "fault injection: this stage sends its gradients back sign-flipped x10 (a Byzantine peer)");
  } else if (o.fault == "corrupt-work") {
    c.fault = pipeline::Fault::CorruptWork;
    spdlog::warn(
        "fault injection: this stage sends its activations forward and its gradients back "
        "sign-flipped x10 "
        "(a Byzantine peer, whatever its seat)");
  } else if (o.fault == "lying-aggregator") {
    c.fault = pipeline::Fault::LyingAggregator;
    spdlog::warn(
        "fault injection: this stage hands out its ring chunks' aggregates x-1000 (a Byzantine "
        "aggregator)");
  } else if (o.fault == "lying-aggregator-commitments") {
    c.fault = pipeline::Fault::LyingAggregatorCommitments;
    spdlog::warn(
        "fault injection: this stage hands out its ring chunks' aggregates x-1000 and signs for "
        "an input commitment its partner never made (a Byzantine aggregator)");
  } else if (o.fault == "altering-forwarder") {
    c.fault = pipeline::Fault::AlteringForwarder;
    spdlog::warn(
        "fault injection: this stage alters the averaged bytes it forwards around its rings (a "
        "Byzantine forwarder)");
  } else if (o.fault == "false-spot-checks") {
    c.fault = pipeline::Fault::FalseSpotChecks;
    spdlog::warn(
        "fault injection: this stage reports every stage that sends it work as caught in "
        "spot-checks, unchecked (a slanderer)");
  } else if (o.fault == "inflate-work" || o.fault == "corrupt-data" ||
             o.fault == "corrupt-shards") {
    // The stage is honest; the coordinated workload's heartbeats claim ten times its work,
    // or its shard server serves peers corrupt chunks of the dataset, or lies about the
    // blocks it holds.
  } else if (!o.fault.empty()) {
    throw std::runtime_error("unknown fault '" + o.fault + "'");
  }
  c.stages_before = static_cast<std::int64_t>(stage_index_);
  stage_ = std::make_unique<pipeline::StageRuntime>(ctx_, identity, c);
  resumed_ = counters_of(stage_->stats());
  spdlog::info("stage {} of {}: {} listening on {}", stage_index_ + 1, plan_.stages.size(),
               stage_->description(), stage_->endpoint());
}

StageWorkload::~StageWorkload() = default;

std::string StageWorkload::description() const { return stage_->description(); }

WorkUnitResult StageWorkload::run_unit() {
  WorkUnitResult r;
  r.did_work = stage_->run_once(std::chrono::milliseconds(200)).did_work;
  if (stage_->finished() && !reported_finished_) {
    reported_finished_ = true;
    spdlog::info("fed all {} micro-batches and none is in flight",
                 stage_->config().max_micro_batches);
  }
  return r;
}

WorkCounters StageWorkload::counters() const {
  return counters_of(stage_->stats()).since(resumed_);
}

void StageWorkload::finish() {
  try {
    stage_->checkpoint_now();
  } catch (const std::exception& e) {
    spdlog::error("final checkpoint failed: {}", e.what());
  }
}

void StageWorkload::set_draining(bool draining) { stage_->set_draining(draining); }
bool StageWorkload::drained() const { return stage_->idle(); }

void StageWorkload::describe(pb::NodeSnapshot& snapshot) const {
  const auto s = stage_->stats();
  const auto& c = stage_->config();
  auto* out = snapshot.mutable_stage();
  out->set_job_id(c.job.id);
  out->set_job_name(c.job.name.empty() ? c.job.id : c.job.name);
  out->set_pipeline(c.pipeline);
  out->set_stage(static_cast<std::uint32_t>(stage_index_));
  out->set_stage_count(static_cast<std::uint32_t>(plan_.stages.size()));
  out->set_first_block(c.blocks.first);
  out->set_last_block(c.blocks.last);
  out->set_block_count(plan_.stages.back().last_block);
  if (stage_index_ > 0) out->set_prev_endpoint(plan_.stages[stage_index_ - 1].endpoint);
  out->set_next_endpoint(c.next.endpoint);
  out->set_optimizer_steps(s.optimizer_steps);
  out->set_micro_batches(s.backwards);
  out->set_in_flight(s.in_flight);
  out->set_live_versions(s.live_versions);
  out->set_stash_bytes(s.stash_bytes);
  out->set_dropped(s.dropped);
  out->set_rejected(s.rejected);
  out->set_bytes_sent(s.bytes_sent);
  out->set_checkpoints(s.checkpoints);
  out->set_finished(stage_->finished());
  out->set_averaging_rings(s.averaging_rings);
  out->set_averaging_rounds(s.averaging_rounds);
  out->set_averaging_alone(s.averaging_alone);
  out->set_averaging_skipped(s.averaging_skipped);
  for (const auto& k : s.excluded_peers) out->add_excluded_peers(k);
  out->set_spot_checks_passed(s.spot_checks_passed);
  out->set_spot_checks_failed(s.spot_checks_failed);
  out->set_spot_checks_incomparable(s.spot_checks_incomparable);
  for (const auto& k : s.caught_peers) out->add_caught_peers(k);
  for (const auto& p : s.ring_partners) {
    auto* r = out->add_ring_partners();
    r->set_key(p.key);
    r->set_endpoint(p.endpoint);
    r->set_pipeline(p.pipeline);
    r->set_shared_values(p.shared_values);
    r->set_rings(p.rings);
  }
}

std::unique_ptr<Workload> make_stage_workload(const StageWorkloadOptions& options,
                                              const net::CurveKeyPair& identity) {
  return std::make_unique<StageWorkload>(options, identity);
}

}  // namespace rookery::node
