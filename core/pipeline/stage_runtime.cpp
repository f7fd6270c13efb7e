#include <torch/torch.h>

#include "pipeline/stage_runtime.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <random>

#include <spdlog/spdlog.h>

#include "data/batch.hpp"
#include "data/open_dataset.hpp"
#include "model/optimizer.hpp"
#include "net/identity.hpp"
#include "net/rpc.hpp"
#include "net/token_bucket.hpp"
#include "pipeline/checkpoint.hpp"
#include "pipeline/next_hop_router.hpp"
#include "pipeline/tensor_codec.hpp"
#include "reduce/averager.hpp"
#include "reduce/centered_clip.hpp"
#include "reduce/peer_exclusion.hpp"
#include "reduce/shard_buffers.hpp"
#include "reduce/zmq_transport.hpp"

namespace rookery::pipeline {

namespace {
using Clock = std::chrono::steady_clock;

// The weights one or more in-flight micro-batches were forwarded with. Never modified while
// in_flight > 0, so their retained graphs stay valid.
struct WeightVersion {
  explicit WeightVersion(model::Shard s) : shard(std::move(s)) {
    for (auto& p : shard.parameters()) params.push_back(p.tensor);
  }
  std::uint64_t id = 0;
  std::int64_t created_at_step = 0;  // the master's optimizer steps when these weights were made
  model::Shard shard;
  std::vector<torch::Tensor> params;
  int in_flight = 0;
};

struct InFlight {
  std::shared_ptr<WeightVersion> version;
  torch::Tensor input;   // requires grad on non-first stages: its .grad goes back
  torch::Tensor output;  // the retained graph
  net::PeerAddress return_to;
  std::int64_t first_sample = 0;
  std::int64_t samples = 0;
  Clock::time_point started;
  std::uint32_t pipeline = 0;  // the pipeline whose first stage fed it
};

struct Inbound {
  bool backward = false;
  std::uint64_t micro_batch = 0;
  std::int64_t first_sample = 0;
  std::int64_t samples = 0;
  double loss = -1;
  net::PeerAddress return_to;
  torch::Tensor tensor;   // activations (forward) or gradient (backward)
  torch::Tensor targets;  // forward only
  std::string sender;
  std::uint32_t pipeline = 0;  // forward: the micro-batch's pipeline (its first stage's)
  // Backward only: the gradient is refused (refuse_locked); the compute thread drops the
  // micro-batch now instead of waiting for its timeout.
  bool discard = false;
};

using CheckedWork = wire::pb::CheckedWork;

// A verifier's job for another stage's spot-check: run this input through the blocks
// (activations), or run them backward from it (gradients).
struct Recompute {
  std::uint64_t micro_batch = 0;
  CheckedWork work = wire::pb::CHECKED_ACTIVATIONS;
  torch::Tensor input;
  torch::Tensor grad_output;  // gradients, when the blocks do not end the model
  torch::Tensor targets;      // gradients, when they do
  net::PeerAddress return_to;
};

// What this stage sent forward for a micro-batch in flight: a gradient check of the stage
// it went to starts from it.
struct SentForward {
  torch::Tensor activations, targets;
};

// The tensors of a spot-check this stage runs (SpotChecker keeps the bookkeeping).
struct CheckMaterial {
  torch::Tensor received;  // the checked stage's activations or gradient, as they came
  std::vector<net::PeerAddress> verifiers;
  model::BlockRange blocks;                      // the checked stage's
  std::map<std::string, torch::Tensor> outputs;  // verifier -> its recomputation (undefined: none)
  std::optional<Inbound> held;                   // the micro-batch, trained on only if it passes
  SentForward sent;                              // gradients: what this stage sent the checked one
  std::string witness;  // gradients: whose gradient the checked one says it used
};

// The last `capacity` entries by micro-batch: what a stage remembers of finished work for
// checks that come after it.
template <typename V>
struct Recent {
  std::map<std::uint64_t, V> items;
  std::deque<std::uint64_t> order;
  void put(std::uint64_t mb, V v, std::size_t capacity) {
    if (items.insert_or_assign(mb, std::move(v)).second) order.push_back(mb);
    while (order.size() > capacity) {
      items.erase(order.front());
      order.pop_front();
    }
  }
  const V* find(std::uint64_t mb) const {
    const auto it = items.find(mb);
    return it == items.end() ? nullptr : &it->second;
  }
};

struct SentGradient {
  std::string to;  // the stage it went to (Z85 key)
  torch::Tensor grad;
};

// The spot-checks of one kind of work this stage receives: activations from the stages
// before it, gradients from the stages after it.
struct CheckBook {
  std::unique_ptr<SpotChecker> checker;           // null: this stage checks nobody this way
  std::map<std::uint64_t, CheckMaterial> checks;  // guarded by the stage's mutex
};

// An exception's message without LibTorch's backtrace.
std::string brief(const std::exception& e) {
  if (const auto* c = dynamic_cast<const c10::Error*>(&e)) return c->what_without_backtrace();
  return e.what();
}

const char* work_name(CheckedWork w) {
  return w == wire::pb::CHECKED_GRADIENTS ? "gradients" : "activations";
}

double sum_flops(const std::vector<model::BlockCost>& costs, model::BlockRange r, bool backward) {
  double f = 0;
  for (auto b = r.first; b < r.last; ++b) {
    f += backward ? costs[static_cast<std::size_t>(b)].backward_flops_per_sample
                  : costs[static_cast<std::size_t>(b)].forward_flops_per_sample;
  }
  return f;
}
}  // namespace

struct StageRuntime::Impl {
  Impl(net::SecureContext& c, const net::CurveKeyPair& id, StageConfig cfg)
      : config(std::move(cfg)),
        ctx(c),
        identity(id),
        chain(model::BlockChain::from_job(config.job)),
        device(config.device),
        master(chain.shard(config.blocks)),
        optimizer(std::nullopt) {}

  StageConfig config;
  net::SecureContext& ctx;
  net::CurveKeyPair identity;
  model::BlockChain chain;
  torch::Device device;
  model::Shard master;
  std::vector<torch::Tensor> master_params;
  std::optional<model::Optimizer> optimizer;
  std::unique_ptr<data::Dataset> dataset;
  wire::Codec codec = wire::Codec::None;
  double forward_flops_per_sample = 0, backward_flops_per_sample = 0;
  std::int64_t param_bytes = 0;

  // --- compute thread only ---
  std::shared_ptr<WeightVersion> current;
  std::vector<std::shared_ptr<WeightVersion>> pool;
  std::uint64_t next_version_id = 1;
  std::map<std::uint64_t, InFlight> in_flight;
  std::int64_t accumulated = 0;
  std::int64_t steps = 0;  // optimizer steps taken by this process
  // Weight prediction (SpecTrain, PipeMare): a micro-batch's gradient reaches the master
  // `delay` steps after its forward, so the forward runs on the weights predicted for that
  // moment, master + delay x (last update), instead of weights already `delay` steps old.
  // The delay is measured, not assumed: it is 0 on the last stage and with staleness 1.
  std::vector<torch::Tensor> last_update;
  double delay_ema = 0;
  std::uint64_t incarnation = 0;
  std::uint64_t micro_batch_counter = 0;
  std::int64_t fed = 0;
  std::atomic<bool> draining{false};  // pausing: start no new micro-batch, finish those in flight
  Clock::time_point last_checkpoint = Clock::now();

  // --- shared with the receiver thread and readers of stats() ---
  mutable std::mutex mutex;
  std::condition_variable inbox_cv;
  std::deque<Inbound> forwards, backwards;
  StageStats stats;
  std::size_t inbox_capacity = 8;

  std::unique_ptr<net::PeerSender> sender;
  std::unique_ptr<NextHopRouter> router;  // not on the last stage
  std::unique_ptr<net::RpcServer> server;
  std::string endpoint;

  // --- multi-ring averaging (compute thread; the Averager runs rings on its own thread) ---
  std::unique_ptr<reduce::ZmqTransport> ring_transport;
  std::unique_ptr<reduce::Averager> averager;
  // Who was rejected or clipped hard in this stage's slices (BTARD): repeat offenders are
  // what a node reports to the coordinator.
  std::shared_ptr<reduce::AggregationTally> aggregation_tally =
      std::make_shared<reduce::AggregationTally>();
  // The optimizer state's verdicts, tallied apart (PeerExclusion judges each tally alone).
  std::shared_ptr<reduce::AggregationTally> state_tally =
      std::make_shared<reduce::AggregationTally>();
  std::vector<std::string> averaged_state;  // optimizer buffers the rounds carry (empty: none)
  std::shared_ptr<reduce::PeerExclusion> exclusion = std::make_shared<reduce::PeerExclusion>();
  std::int64_t samples_since_average = 0;
  std::uint64_t last_window = 0;     // the last averaging window this stage saw
  std::vector<float> lie_reference;  // Fault::SignFlipAveraging: weights after the last average

  // --- spot-checks (spot_check.hpp); the maps and the queue are guarded by `mutex` ---
  CheckBook activation_checks;  // of the stages before this one (none on a first stage)
  CheckBook gradient_checks;    // of the stages after it (none on a last stage)
  // Set once the constructor is done (the receiver thread starts before it is): until then
  // the receiver starts no check and serves none, as the checkers and endpoint are not ready.
  std::atomic<bool> ready{false};
  std::map<std::uint64_t, torch::Tensor>
      declared_inputs;  // what this stage's sent micro-batches came from
  std::map<std::uint64_t, SentForward>
      sent_forwards;  // what it sent, while in flight (gradient checks only)
  // Gradient checks of this stage and of the stage before it, for its last kKeptGradients
  // micro-batches: who sent it the gradient of its output (the witness it names when
  // checked), and what gradient it sent back and to whom (what it shows as a witness).
  bool keeps_gradient_evidence = false;  // set when the job spot-checks and the swarm is known
  Recent<std::string> gradient_senders;
  Recent<SentGradient> sent_gradients;
  static constexpr std::size_t kKeptGradients = 32;
  std::vector<std::string> caught_next_hops;  // for the compute thread to take out of the router
  std::deque<Recompute> recomputes;
  std::mt19937 verifier_rng{std::random_device{}()};
  static constexpr std::size_t kMaxRecomputes = 4;

  bool first() const { return config.blocks.first == 0; }
  bool last() const { return config.blocks.last == chain.block_count(); }

  // ---- weight versions ----
  std::shared_ptr<WeightVersion> new_version() {
    if (!pool.empty()) {
      auto v = pool.back();
      pool.pop_back();
      return v;
    }
    auto shard = chain.shard(config.blocks);
    shard.to(device);
    shard.set_training(true);
    return std::make_shared<WeightVersion>(std::move(shard));
  }

  void copy_master_into(WeightVersion& v) {
    torch::NoGradGuard no_grad;
    const double delay = config.job.weight_prediction ? std::round(delay_ema) : 0.0;
    for (std::size_t i = 0; i < master_params.size(); ++i) {
      if (delay > 0 && last_update[i].defined()) {
        torch::add_out(v.params[i], master_params[i], last_update[i], delay);
      } else {
        v.params[i].copy_(master_params[i]);
      }
    }
    v.id = next_version_id++;
    v.created_at_step = steps;
  }

  // After the master changed: the version forwards use from now on.
  void publish_version() {
    if (current && current->in_flight == 0) {
      copy_master_into(*current);  // nobody holds a graph on it: refresh in place
      return;
    }
    auto v = new_version();
    copy_master_into(*v);
    current = v;
  }

  std::shared_ptr<WeightVersion> acquire() {
    ++current->in_flight;
    return current;
  }

  void release(const std::shared_ptr<WeightVersion>& v) {
    --v->in_flight;
    if (v->in_flight == 0 && v != current) {
      for (auto& p : v->params) p.mutable_grad() = torch::Tensor();
      if (pool.size() < static_cast<std::size_t>(config.job.staleness)) pool.push_back(v);
    }
  }

  void refresh_memory_stats_locked() {
    std::set<const WeightVersion*> live{current.get()};
    for (const auto& [id, f] : in_flight) live.insert(f.version.get());
    stats.live_versions = static_cast<std::int64_t>(live.size());
    stats.stash_bytes = static_cast<std::int64_t>(live.size() - 1) * param_bytes;
    stats.in_flight = static_cast<std::int64_t>(in_flight.size());
  }

  // Gradients of a finished backward join the master's accumulated gradients.
  void accumulate_from(WeightVersion& v) {
    torch::NoGradGuard no_grad;
    delay_ema = 0.9 * delay_ema + 0.1 * static_cast<double>(steps - v.created_at_step);
    for (std::size_t i = 0; i < master_params.size(); ++i) {
      auto& g = v.params[i].mutable_grad();
      if (g.defined()) master_params[i].mutable_grad().add_(g);
      g = torch::Tensor();
    }
  }

  void maybe_step() {
    if (++accumulated < config.job.grad_accumulation) return;
    {
      torch::NoGradGuard no_grad;
      if (accumulated > 1) {
        for (auto& p : master_params) p.mutable_grad().div_(static_cast<double>(accumulated));
      }
    }
    const bool predict = config.job.weight_prediction && config.job.staleness > 1;
    if (predict) {
      torch::NoGradGuard no_grad;
      for (std::size_t i = 0; i < master_params.size(); ++i) {
        if (!last_update[i].defined()) last_update[i] = torch::empty_like(master_params[i]);
        last_update[i].copy_(master_params[i]);
      }
    }
    optimizer->step();
    ++steps;
    {
      torch::NoGradGuard no_grad;
      for (std::size_t i = 0; i < master_params.size(); ++i) {
        master_params[i].mutable_grad().zero_();
        if (predict) torch::sub_out(last_update[i], master_params[i], last_update[i]);
      }
    }
    accumulated = 0;
    publish_version();
    std::lock_guard lock(mutex);
    ++stats.optimizer_steps;
  }

  // ---- multi-ring averaging ----
  void start_averaging() {
    const auto& a = config.averaging;
    const auto plan =
        reduce::MultiRingPlan(reduce::block_parameter_counts(config.job.model), a.pipelines);
    auto ranges = plan.for_node(identity.public_key);
    reduce::ZmqTransportConfig tc;
    tc.listen = a.listen;
    tc.send_timeout = std::min(a.timeout, a.interval / (2 * (a.max_attempts + 1)));
    ring_transport = std::make_unique<reduce::ZmqTransport>(ctx, identity, tc);
    for (const auto& r : ranges.ranges) {
      for (const auto& member : r.members) {
        if (member == identity.public_key) continue;
        const auto it = a.endpoints.find(member);
        if (it == a.endpoints.end())
          throw std::invalid_argument("averaging: no reduce endpoint for ring member " + member);
        ring_transport->add_peer(member, it->second);
      }
    }
    reduce::RingOptions ro;
    ro.codec = codec;
    ro.aggregator = reduce::make_aggregator(config.job.aggregator, aggregation_tally);
    if (config.job.aggregator.kind == job::AggregatorKind::centered_clip) {
      ro.aggregator = std::make_shared<reduce::ExcludingAggregator>(ro.aggregator, exclusion);
    }
    // A round gives up within (attempts + 1) waits; it must be over before the next window
    // opens, or a member still busy with a round its partner gave up on would sit out the
    // partner's next round, and the two would keep missing each other.
    ro.max_attempts = a.max_attempts;
    ro.timeout = std::min(a.timeout, a.interval / (2 * (a.max_attempts + 1)));
    stats.averaging_rings = static_cast<std::int64_t>(ranges.ranges.size());
    // Partners for the dashboard: every other member of our rings, with what we share.
    // Members are in pipeline order, one per pipeline.
    stats.ring_partners.clear();
    for (const auto& r : ranges.ranges) {
      for (std::size_t p = 0; p < r.members.size(); ++p) {
        const auto& member = r.members[p];
        if (member == identity.public_key) continue;
        auto it = std::find_if(stats.ring_partners.begin(), stats.ring_partners.end(),
                               [&](const StageStats::RingPartner& x) { return x.key == member; });
        if (it == stats.ring_partners.end()) {
          it = stats.ring_partners.insert(
              stats.ring_partners.end(),
              {member, a.endpoints.at(member), static_cast<std::uint32_t>(p), 0, 0});
        }
        it->shared_values += static_cast<std::int64_t>(r.size());
        ++it->rings;
      }
    }
    std::sort(stats.ring_partners.begin(), stats.ring_partners.end(),
              [](const auto& x, const auto& y) { return x.pipeline < y.pipeline; });
    reduce::AveragerConfig ac{std::move(ranges), ro, {}};
    // Optimizer state (issue 4): the moments are laid out like the parameters, so they ride
    // in the same rings (ring keys differ by buffer name) with the same members, timeouts,
    // codec and exclusions. CenteredClip applies to them as to the parameters: they come from
    // the same untrusted partners, and a lie about them is as harmful (a huge second moment
    // freezes a parameter, a negative one makes its update NaN). Its radius is relative to
    // the spread of the inputs, so the same tau fits moments whose scale is 1e-8. Their
    // verdicts go to a tally of their own, so a liar honest about its moments cannot dilute
    // its parameter lies below the exclusion rule (and the reverse).
    if (config.job.average_optimizer_state_every > 0)
      averaged_state = optimizer->state_buffer_names();
    if (config.job.aggregator.kind == job::AggregatorKind::centered_clip) {
      std::shared_ptr<const reduce::Aggregator> state_aggregator =
          std::make_shared<reduce::ExcludingAggregator>(
              reduce::make_aggregator(config.job.aggregator, state_tally), exclusion);
      for (const auto& name : averaged_state) ac.buffer_aggregators[name] = state_aggregator;
    }
    spdlog::info(
        "averaging with {} other pipeline(s) in {} ring(s) every {} ms ({}; optimizer state {}), "
        "listening on {}",
        a.pipelines.size() - 1, ac.ranges.ranges.size(), a.interval.count(), ro.aggregator->name(),
        averaged_state.empty()
            ? std::string("not averaged")
            : "every " + std::to_string(config.job.average_optimizer_state_every) + " rounds",
        ring_transport->endpoint());
    averager = std::make_unique<reduce::Averager>(*ring_transport, std::move(ac));
  }

  // Rounds are scheduled by the clock, not by local steps: round r starts at r x interval
  // (Unix time) on every member. Step counts drift apart between pipelines (a drop, a
  // restart from a checkpoint, a slower PC); synchronised clocks do not, so partners always
  // agree on which round they are in, and a member that missed one simply joins the next.
  void maybe_start_average() {
    if (!averager || stats.averaging_rings == 0) return;
    const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    const auto window = static_cast<std::uint64_t>(now_ms / config.averaging.interval.count());
    if (last_window == 0) last_window = window;  // the first full window after start
    if (window <= last_window) return;
    last_window = window;
    if (averager->in_progress() > 0) {
      std::lock_guard lock(mutex);
      ++stats.averaging_skipped;  // the previous round still runs: never queue behind it
      return;
    }
    std::vector<reduce::FlatBuffer> buffers;
    buffers.push_back({"params", reduce::flatten_parameters(master)});
    if (config.fault == Fault::SignFlipAveraging) {
      auto& v = buffers.front().values;
      if (lie_reference.empty()) lie_reference = v;
      for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = lie_reference[i] - 1000.0f * (v[i] - lie_reference[i]);
    }
    // Every N-th round by number, so every member includes the moments in the same rounds
    // (rounds are numbered by the clock) and the rings for them meet.
    const bool with_state =
        !averaged_state.empty() &&
        window % static_cast<std::uint64_t>(config.job.average_optimizer_state_every) == 0;
    if (with_state) {
      for (const auto& name : averaged_state)
        buffers.push_back({name, optimizer->state_buffer(name)});
    }
    averager->start(window, std::move(buffers), std::max<std::int64_t>(1, samples_since_average));
    spdlog::debug("averaging round {} started after {} steps ({} samples){}", window, steps,
                  samples_since_average, with_state ? ", with the optimizer state" : "");
    samples_since_average = 0;
  }

  // How long an idle stage may wait for work before it must look at the clock again: a
  // round has to start on time on every member (a partner waits only interval / 6 for it),
  // so an idle wait ends at the next window's opening.
  std::chrono::milliseconds until_next_window(std::chrono::milliseconds wait) const {
    if (!averager || stats.averaging_rings == 0) return wait;
    const auto interval = config.averaging.interval.count();
    const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    const auto left = std::chrono::milliseconds(interval - now_ms % interval + 1);
    return std::min(wait, left);
  }

  // Between micro-batches: a finished round's average joins the master weights.
  void apply_finished_average() {
    if (!averager) return;
    auto result = averager->poll();
    if (!result) return;
    bool partnered = false;
    for (const auto& r : result->rings) partnered = partnered || r.outcome.averaged();
    bool state_applied = false;
    if (partnered) {
      auto current = reduce::flatten_parameters(master);
      result->apply_to("params", current);
      reduce::write_parameters(master, current);
      if (config.fault == Fault::SignFlipAveraging) lie_reference = current;
      publish_version();
      state_applied = apply_optimizer_state(*result);
    }
    spdlog::debug("averaging round {} {} in {:.3f} s", result->round,
                  partnered ? "applied" : "found no partner", result->seconds);
    const std::vector<reduce::PeerExclusion::Tally> tallies{aggregation_tally->counts(),
                                                            state_tally->counts()};
    for (const auto& member : exclusion->end_round(tallies)) {
      if (member == identity.public_key) {
        spdlog::warn(
            "averaging: this stage's own weights are far from all its partners' (clipped hard in 3 "
            "rounds in "
            "a row); it leaves them out of its slices and takes the partners' average");
        continue;
      }
      spdlog::warn(
          "averaging: excluding ring partner {} (its contributions were clipped hard or rejected "
          "in every "
          "slice of 3 rounds in a row)",
          net::short_key(member));
    }
    std::lock_guard lock(mutex);
    stats.excluded_peers = exclusion->excluded_members();
    (partnered ? stats.averaging_rounds : stats.averaging_alone)++;
    if (state_applied) ++stats.averaging_state_rounds;
    stats.averaging_last_round = result->round;
    if (partnered) stats.averaging_seconds = result->seconds;
  }

  // The moments, like the parameters: current += average - snapshot, so the steps taken
  // during the round are kept. A second moment can undershoot that way (it decayed locally by
  // more than the average added), even below 0, and AdamW would then divide by eps alone: it
  // is kept at least at the smaller of this stage's own value and the average, both of them
  // real estimates of the squared gradient. Anything unusable leaves the optimizer's state as
  // it was. Returns whether it applied.
  bool apply_optimizer_state(const reduce::AveragingResult& result) {
    bool any = false;
    for (const auto& name : averaged_state) {
      const auto* averaged = result.find(name);
      if (!averaged) continue;  // a parameters-only round
      try {
        auto current = optimizer->state_buffer(name);
        const auto own = current;
        result.apply_to(name, current);
        if (name.ends_with("_sq") && averaged->values.size() == current.size()) {
          for (std::size_t i = 0; i < current.size(); ++i) {
            current[i] =
                std::max(current[i], std::max(0.0f, std::min(own[i], averaged->values[i])));
          }
        }
        optimizer->write_state_buffer(name, 0, current, optimizer->moment_step());
        any = true;
      } catch (const std::exception& e) {
        spdlog::warn(
            "averaging round {}: the averaged optimizer state '{}' is not usable ({}); keeping "
            "this stage's own",
            result.round, name, e.what());
      }
    }
    return any;
  }

  // ---- messages ----
  void send_forward(std::uint64_t mb, std::int64_t first_sample, std::int64_t samples,
                    torch::Tensor activations, torch::Tensor targets, std::uint32_t pipeline) {
    auto job_id = config.job.id;
    net::PeerAddress me{endpoint, identity.public_key};
    const auto c = codec;
    if (corrupts_activations(config.fault)) {
      torch::NoGradGuard no_grad;
      activations = activations * -10;
    }
    if (gradient_checks.checker) {  // shared, not copied: forgotten when the gradient is in
      std::lock_guard lock(mutex);
      sent_forwards[mb] = SentForward{activations, targets};
    }
    const auto now = Clock::now();
    const auto hop = router->pick(now);
    router->sent(hop, mb, now);
    sender->send(router->address(hop), [=]() {
      wire::pb::Envelope h;
      h.set_job_id(job_id);
      auto* f = h.mutable_forward();
      f->set_pipeline(pipeline);
      f->set_micro_batch(mb);
      f->set_first_sample(first_sample);
      f->set_samples(static_cast<std::int32_t>(samples));
      f->mutable_return_to()->set_endpoint(me.endpoint);
      f->mutable_return_to()->set_key(me.key);
      std::vector<wire::OutgoingTensor> t;
      t.push_back(encode_tensor("activations", activations, c));
      t.push_back(encode_tensor("targets", targets, wire::Codec::None));
      return wire::encode(std::move(h), std::move(t));
    });
  }

  void send_backward(const net::PeerAddress& to, std::uint64_t mb, std::int64_t samples,
                     double loss, torch::Tensor grad, std::uint32_t pipeline) {
    auto job_id = config.job.id;
    const auto c = codec;
    if (corrupts_gradients(config.fault)) {
      torch::NoGradGuard no_grad;
      grad = grad * -10;
    }
    remember_sent_gradient(mb, to.key,
                           grad);  // what it sent, lie or not: a witness tells the truth about it
    sender->send(to, [=]() {
      wire::pb::Envelope h;
      h.set_job_id(job_id);
      auto* b = h.mutable_backward();
      b->set_pipeline(pipeline);
      b->set_micro_batch(mb);
      b->set_loss(loss);
      b->set_samples(static_cast<std::int32_t>(samples));
      std::vector<wire::OutgoingTensor> t;
      t.push_back(encode_tensor("grad", grad, c));
      return wire::encode(std::move(h), std::move(t));
    });
  }

  // Receiver thread: validate and decode, then queue for the compute thread.
  std::optional<net::Reply> receive(const net::RequestContext& req, wire::Message& msg) {
    // The governor's download cap: holding the receiver back lets TCP slow the sender down.
    std::uint64_t bytes = msg.header.ByteSizeLong();
    for (const auto& t : msg.tensors) bytes += t.bytes().size();
    net::download_bucket().acquire(bytes);
    const bool checks_ready = ready.load(std::memory_order_acquire);
    if (checks_ready && refuse_caught(req.peer_key, msg)) return std::nullopt;
    Inbound in;
    in.sender = req.peer_key;
    try {
      if (msg.header.job_id() != config.job.id)
        throw std::runtime_error("message for job '" + msg.header.job_id() + "'");
      if (msg.header.has_spot_check_request() || msg.header.has_spot_check_input() ||
          msg.header.has_recompute_request() || msg.header.has_recompute_result()) {
        if (!checks_ready)
          throw std::runtime_error("spot-check message before this stage is ready");
        receive_spot_check(req.peer_key, msg);
        return std::nullopt;
      }
      if (msg.header.has_forward()) {
        const auto& f = msg.header.forward();
        if (f.pipeline() != config.pipeline && !config.cross_pipeline) {
          throw std::runtime_error("forward for pipeline " + std::to_string(f.pipeline()));
        }
        if (first()) throw std::runtime_error("the first stage takes no activations");
        const auto* act = msg.tensor("activations");
        const auto* tgt = msg.tensor("targets");
        if (!act || !tgt) throw std::runtime_error("forward without activations or targets");
        if (f.samples() <= 0 || act->shape().empty() || act->shape()[0] != f.samples() ||
            tgt->shape().empty() || tgt->shape()[0] != f.samples()) {
          throw std::runtime_error("forward's tensors do not hold " + std::to_string(f.samples()) +
                                   " samples");
        }
        if (!net::is_z85_key(f.return_to().key()) ||
            f.return_to().endpoint().rfind("tcp://", 0) != 0) {
          throw std::runtime_error("forward without a valid return address");
        }
        in.micro_batch = f.micro_batch();
        in.pipeline = f.pipeline();
        in.first_sample = f.first_sample();
        in.samples = f.samples();
        in.return_to = {f.return_to().endpoint(), f.return_to().key()};
        in.tensor = decode_tensor(*act, device);
        in.targets = decode_tensor(*tgt, device);
        if (in.tensor.scalar_type() != torch::kFloat32 ||
            in.targets.scalar_type() != torch::kInt64) {
          throw std::runtime_error("activations must be f32 and targets int64");
        }
      } else if (msg.header.has_backward()) {
        const auto& b = msg.header.backward();
        if (b.pipeline() != config.pipeline && !config.cross_pipeline) {
          throw std::runtime_error("backward for pipeline " + std::to_string(b.pipeline()));
        }
        if (last()) throw std::runtime_error("the last stage takes no gradients");
        const auto* g = msg.tensor("grad");
        if (!g) throw std::runtime_error("backward without a gradient");
        in.backward = true;
        in.micro_batch = b.micro_batch();
        in.samples = b.samples();
        in.loss = b.loss();
        in.tensor = decode_tensor(*g, device);
        if (in.tensor.scalar_type() != torch::kFloat32)
          throw std::runtime_error("gradient must be f32");
      } else {
        throw std::runtime_error("not a pipeline message");
      }
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex);
      ++stats.rejected;
      spdlog::warn("stage rejected a message from {}: {}", net::short_key(req.peer_key), e.what());
      return std::nullopt;
    }
    if (checks_ready && maybe_spot_check(req.peer_key, in))
      return std::nullopt;  // held until the verdict
    {
      std::lock_guard lock(mutex);
      auto& q = in.backward ? backwards : forwards;
      if (q.size() >= inbox_capacity) {
        ++stats.rejected;
        spdlog::warn("stage inbox full ({} waiting): dropped a message from {}", q.size(),
                     net::short_key(req.peer_key));
        return std::nullopt;
      }
      q.push_back(std::move(in));
      inbox_cv.notify_one();
    }
    return std::nullopt;
  }

  // ---- spot-checks (spot_check.hpp) ----
  CheckBook& book(CheckedWork work) {
    return work == wire::pb::CHECKED_GRADIENTS ? gradient_checks : activation_checks;
  }

  // Other holders of exactly `sender`'s blocks, up to two, at random; those blocks; and the
  // address `sender` is listed under.
  std::vector<net::PeerAddress> verifiers_for(const std::string& sender, model::BlockRange& blocks,
                                              net::PeerAddress& listed) {
    const auto it = std::find_if(config.holders.begin(), config.holders.end(),
                                 [&](const StageHolder& h) { return h.address.key == sender; });
    if (it == config.holders.end()) return {};
    blocks = it->blocks;
    listed = it->address;
    std::vector<net::PeerAddress> v;
    for (const auto& h : config.holders) {
      if (h.blocks.first == blocks.first && h.blocks.last == blocks.last &&
          h.address.key != sender && h.address.key != identity.public_key) {
        v.push_back(h.address);
      }
    }
    std::lock_guard lock(mutex);
    std::shuffle(v.begin(), v.end(), verifier_rng);
    if (v.size() > 2) v.resize(2);
    return v;
  }

  // A spot-check message (request, answer, recomputation). Posted, never waited for: the
  // receiver thread sends most of them and must not stall on one peer; one that is dropped
  // (that peer's lane is full) leaves its check unanswered, which blames nobody.
  void send_message(const net::PeerAddress& to, wire::pb::Envelope header,
                    std::vector<std::pair<std::string, torch::Tensor>> tensors = {}) {
    header.set_job_id(config.job.id);
    sender->post(to, [header = std::move(header), tensors = std::move(tensors)]() mutable {
      std::vector<wire::OutgoingTensor> t;
      for (auto& [name, tensor] : tensors) {
        if (tensor.defined()) t.push_back(encode_tensor(name, tensor, wire::Codec::None));
      }
      return wire::encode(std::move(header), std::move(t));
    });
  }

  net::PeerAddress own_address() const { return {endpoint, identity.public_key}; }

  // Receiver thread: a message from a stage this one caught lying is refused. Its forwards
  // die here; its gradients are turned into a discard, so the micro-batch this stage sent it
  // is dropped now instead of holding a slot until its timeout.
  bool refuse_caught(const std::string& peer, const wire::Message& msg) {
    const bool forward = msg.header.has_forward(), backward = msg.header.has_backward();
    auto& b = forward ? activation_checks : gradient_checks;
    if ((!forward && !backward) || !b.checker || !b.checker->is_caught(peer)) return false;
    Inbound drop;
    drop.backward = backward;
    if (backward) drop.micro_batch = msg.header.backward().micro_batch();
    drop.sender = peer;
    std::lock_guard lock(mutex);
    refuse_locked(std::move(drop));  // caught sending wrong work (logged then)
    return true;
  }

  // Work this stage will not use (its sender is caught or suspect, or it failed or went
  // unanswered in a spot-check), counted as rejected. A forward dies here; a gradient becomes
  // a discard, so the compute thread drops the micro-batch this stage sent for it now
  // instead of holding a slot until its timeout.
  void refuse_locked(Inbound in) {
    ++stats.rejected;
    if (!in.backward) return;
    in.discard = true;
    in.tensor = torch::Tensor();
    backwards.push_back(
        std::move(in));  // beyond inbox_capacity: one per refused micro-batch in flight
    inbox_cv.notify_one();
  }

  // Receiver thread, a forward or a gradient from `sender`: perhaps check it. A checked
  // micro-batch is held until the verdict and used only if it does not fail, so a liar's work
  // never reaches this stage's weights while it is on probation or under suspicion (a check
  // takes a few round trips; after probation only a `rate` share of micro-batches waits for
  // one). Returns whether it took the micro-batch.
  bool maybe_spot_check(const std::string& sender, Inbound& in) {
    const CheckedWork work =
        in.backward ? wire::pb::CHECKED_GRADIENTS : wire::pb::CHECKED_ACTIVATIONS;
    auto& b = book(work);
    const auto micro_batch = in.micro_batch;
    if (!b.checker || (!in.backward && in.return_to.key != sender)) return false;
    model::BlockRange blocks;
    net::PeerAddress listed;
    auto verifiers = verifiers_for(sender, blocks, listed);
    if (verifiers.empty()) return false;
    SentForward sent;
    if (in.backward) {  // the gradient of what this stage sent: still in flight here?
      std::lock_guard lock(mutex);
      const auto it = sent_forwards.find(micro_batch);
      if (it == sent_forwards.end()) return false;  // backward() counts it as unknown
      sent = it->second;
    }
    switch (b.checker->decide(sender)) {
      case SpotDecision::Use:
        return false;
      case SpotDecision::Check:
        break;
      case SpotDecision::
          Refuse: {  // a suspect with every check slot taken: its work waits for none
        std::lock_guard lock(mutex);
        refuse_locked(std::move(in));
        return true;
      }
    }
    std::vector<std::string> keys;
    for (const auto& v : verifiers) keys.push_back(v.key);
    if (!b.checker->begin(micro_batch, sender, keys, Clock::now())) return false;
    const net::PeerAddress checked = in.backward ? listed : in.return_to;
    {
      std::lock_guard lock(mutex);
      auto received = in.tensor;
      b.checks[micro_batch] = CheckMaterial{
          std::move(received), std::move(verifiers), blocks, {}, std::move(in), sent, {}};
    }
    if (work == wire::pb::CHECKED_GRADIENTS && blocks.last == chain.block_count()) {
      // A last stage's gradient follows from the activations and the targets, both ours.
      b.checker->input_shown(micro_batch);
      ask_verifiers(work, micro_batch, {});
      return true;
    }
    wire::pb::Envelope h;
    auto* r = h.mutable_spot_check_request();
    r->set_micro_batch(micro_batch);
    r->set_work(work);
    r->mutable_return_to()->set_endpoint(own_address().endpoint);
    r->mutable_return_to()->set_key(own_address().key);
    send_message(checked, std::move(h));
    return true;
  }

  // Gradients: the checked stage says whose gradient it ran backward from; that stage must hold
  // the blocks after it. It is asked what it sent, and that is what the verifiers start from.
  void ask_witness(std::uint64_t mb, const std::string& checked, model::BlockRange blocks,
                   const std::string& named) {
    const auto it =
        std::find_if(config.holders.begin(), config.holders.end(), [&](const StageHolder& h) {
          return h.address.key == named && h.blocks.first == blocks.last && named != checked;
        });
    if (it == config.holders.end()) {
      end_check(wire::pb::CHECKED_GRADIENTS, mb, SpotVerdict::Failed,
                named.empty() ? "named nobody as the sender of its gradient"
                              : "named a stage that does not hold the blocks after it as the "
                                "sender of its gradient");
      return;
    }
    {
      std::lock_guard lock(mutex);
      const auto c = gradient_checks.checks.find(mb);
      if (c == gradient_checks.checks.end()) return;
      c->second.witness = named;
    }
    wire::pb::Envelope h;
    auto* r = h.mutable_spot_check_request();
    r->set_micro_batch(mb);
    r->set_work(wire::pb::CHECKED_GRADIENTS);
    r->set_sent_to(checked);
    r->mutable_return_to()->set_endpoint(own_address().endpoint);
    r->mutable_return_to()->set_key(own_address().key);
    send_message(it->address, std::move(h));
  }

  // The checked stage showed what its work started from (`declared`; undefined for a last
  // stage's gradient): ask the verifiers to redo the work from it.
  void ask_verifiers(CheckedWork work, std::uint64_t mb, torch::Tensor declared) {
    std::vector<net::PeerAddress> verifiers;
    model::BlockRange blocks;
    SentForward sent;
    {
      std::lock_guard lock(mutex);
      const auto it = book(work).checks.find(mb);
      if (it == book(work).checks.end()) return;
      verifiers = it->second.verifiers;
      blocks = it->second.blocks;
      sent = it->second.sent;
    }
    std::vector<std::pair<std::string, torch::Tensor>> tensors;
    if (work == wire::pb::CHECKED_ACTIVATIONS) {
      tensors = {{"input", declared}};
    } else {
      tensors = {{"input", sent.activations}};
      tensors.emplace_back(declared.defined() ? "grad_output" : "targets",
                           declared.defined() ? declared : sent.targets);
    }
    for (const auto& v : verifiers) {
      wire::pb::Envelope h;
      auto* r = h.mutable_recompute_request();
      r->set_micro_batch(mb);
      r->set_work(work);
      r->set_first_block(blocks.first);
      r->set_last_block(blocks.last);
      r->mutable_return_to()->set_endpoint(own_address().endpoint);
      r->mutable_return_to()->set_key(own_address().key);
      send_message(v, std::move(h), tensors);
    }
  }

  // The four spot-check messages, on the receiver thread. Throws on a message that does not
  // belong to a check (counted as rejected by the caller).
  void receive_spot_check(const std::string& peer, wire::Message& msg) {
    const auto& header = msg.header;
    if (header
            .has_spot_check_request()) {  // we are the checked stage: show what the work came from
      const auto& r = header.spot_check_request();
      if (r.return_to().key() != peer || r.return_to().endpoint().rfind("tcp://", 0) != 0) {
        throw std::runtime_error("spot-check request whose return address is not its sender's");
      }
      wire::pb::Envelope h;
      auto* answer = h.mutable_spot_check_input();
      answer->set_micro_batch(r.micro_batch());
      answer->set_work(r.work());
      torch::Tensor input;
      {
        std::lock_guard lock(mutex);
        if (r.work() != wire::pb::CHECKED_GRADIENTS) {  // our input
          if (const auto it = declared_inputs.find(r.micro_batch()); it != declared_inputs.end())
            input = it->second;
        } else if (!r.sent_to().empty()) {  // a witness: the gradient we sent that stage
          const auto* g = sent_gradients.find(r.micro_batch());
          if (g && g->to == r.sent_to()) input = g->grad;
        } else if (const auto* from =
                       gradient_senders.find(r.micro_batch())) {  // whose gradient we used
          answer->set_received_from(*from);
        }
      }
      send_message({r.return_to().endpoint(), peer}, std::move(h), {{"input", input}});
      return;
    }
    if (header.has_recompute_request()) {  // we are a verifier: queue it for the compute thread
      const auto& r = header.recompute_request();
      if (r.return_to().key() != peer || r.return_to().endpoint().rfind("tcp://", 0) != 0) {
        throw std::runtime_error("recompute request whose return address is not its sender's");
      }
      const net::PeerAddress back{r.return_to().endpoint(), peer};
      std::string refusal;
      const auto* t = msg.tensor("input");
      const bool gradients = r.work() == wire::pb::CHECKED_GRADIENTS;
      const auto* extra = gradients ? msg.tensor(last() ? "targets" : "grad_output") : nullptr;
      if (r.first_block() != config.blocks.first || r.last_block() != config.blocks.last) {
        refusal = "this stage holds other blocks";
      } else if (!t || (gradients && !extra)) {
        refusal = gradients ? (last() ? "no input or targets" : "no input or output gradient")
                            : "no input";
      } else {
        Recompute job{r.micro_batch(), r.work(), decode_tensor(*t, device), {}, {}, back};
        if (gradients) (last() ? job.targets : job.grad_output) = decode_tensor(*extra, device);
        std::lock_guard lock(mutex);
        if (recomputes.size() < kMaxRecomputes) {
          recomputes.push_back(std::move(job));
          inbox_cv.notify_one();
          return;
        }
        refusal = "too many recomputations waiting";
      }
      wire::pb::Envelope h;
      h.mutable_recompute_result()->set_micro_batch(r.micro_batch());
      h.mutable_recompute_result()->set_work(r.work());
      h.mutable_recompute_result()->set_reason(refusal);
      send_message(back, std::move(h));
      return;
    }
    if (header.has_spot_check_input()) {  // what the checked stage declared: ask the verifiers
      const auto work = header.spot_check_input().work();
      auto& b = book(work);
      if (!b.checker)
        throw std::runtime_error(std::string("spot-check answer, but this stage checks no ") +
                                 work_name(work));
      const auto mb = header.spot_check_input().micro_batch();
      const auto p = b.checker->pending(mb);
      torch::Tensor received;
      std::string witness;
      model::BlockRange blocks;
      {
        std::lock_guard lock(mutex);
        const auto it = b.checks.find(mb);
        if (p && it != b.checks.end()) {
          received = it->second.received;  // shared, not copied
          witness = it->second.witness;
          blocks = it->second.blocks;
        }
      }
      const bool from_witness = !witness.empty() && peer == witness;
      if (!received.defined() || (p->first != peer && !from_witness)) {
        throw std::runtime_error("spot-check input for no check of this sender");
      }
      if (work == wire::pb::CHECKED_GRADIENTS && !from_witness) {  // X names its witness: ask it
        if (!witness.empty()) throw std::runtime_error("a second witness for one spot-check");
        ask_witness(mb, peer, blocks, header.spot_check_input().received_from());
        return;
      }
      const auto* t = msg.tensor("input");
      torch::Tensor input;
      if (t) input = decode_tensor(*t, torch::kCPU);
      if (!input.defined() || input.dim() == 0 || input.size(0) != received.size(0)) {
        end_check(work, mb, SpotVerdict::Failed,
                  from_witness      ? "the stage it named does not confirm sending it a gradient"
                  : input.defined() ? "showed an input of another shape"
                                    : "showed no input for a micro-batch it sent");
        return;
      }
      b.checker->input_shown(mb);
      ask_verifiers(work, mb, input);
      return;
    }
    // A verifier's recomputation.
    const auto work = header.recompute_result().work();
    auto& b = book(work);
    if (!b.checker)
      throw std::runtime_error(std::string("recomputation, but this stage checks no ") +
                               work_name(work));
    const auto mb = header.recompute_result().micro_batch();
    const auto p = b.checker->pending(mb);
    if (!p || std::find(p->second.begin(), p->second.end(), peer) == p->second.end()) {
      throw std::runtime_error("recomputation for no check that asked this peer");
    }
    const auto* t = msg.tensor("output");
    torch::Tensor output;
    if (t) output = decode_tensor(*t, torch::kCPU);
    CheckMaterial material;
    {
      std::lock_guard lock(mutex);
      auto& m = b.checks.at(mb);
      m.outputs[peer] = output;
      if (m.outputs.size() < m.verifiers.size()) return;
      material = std::move(m);
      b.checks.erase(mb);
    }
    judge_check(work, mb, std::move(material));
  }

  // Every verifier answered: compare.
  void judge_check(CheckedWork work, std::uint64_t mb, CheckMaterial m) {
    torch::NoGradGuard no_grad;
    const auto received = m.received.to(torch::kCPU, torch::kFloat64);
    const double received_norm = received.norm().item<double>();
    std::vector<torch::Tensor> outputs;
    for (const auto& [key, out] : m.outputs) {
      if (out.defined() && out.sizes().equals(received.sizes()) && out.is_floating_point()) {
        outputs.push_back(out.to(torch::kFloat64));
      }
    }
    std::vector<double> to_checked;
    for (const auto& out : outputs) {
      to_checked.push_back(relative_distance((received - out).norm().item<double>(), received_norm,
                                             out.norm().item<double>()));
    }
    double between = 0;
    if (outputs.size() == 2) {
      between =
          relative_distance((outputs[0] - outputs[1]).norm().item<double>(),
                            outputs[0].norm().item<double>(), outputs[1].norm().item<double>());
    }
    const auto verdict = judge(to_checked, between, config.job.spot_checks.tolerance);
    std::string detail = "distance to the verifiers";
    for (const double d : to_checked) detail += " " + std::to_string(d).substr(0, 5);
    if (outputs.size() == 2) detail += ", between them " + std::to_string(between).substr(0, 5);
    if (outputs.empty()) detail = "no verifier could recompute it";
    end_check(work, mb, verdict, detail, std::move(m));
  }

  // A check is over: the held micro-batch is used unless it failed.
  void end_check(CheckedWork work, std::uint64_t mb, SpotVerdict verdict, const std::string& detail,
                 std::optional<CheckMaterial> material = std::nullopt) {
    auto& b = book(work);
    const auto p = b.checker->pending(mb);
    if (!p) return;
    const bool caught = b.checker->finish(mb, verdict);
    release_held(work, mb, verdict, std::move(material));
    const char* what = verdict == SpotVerdict::Passed   ? "passed"
                       : verdict == SpotVerdict::Failed ? "FAILED"
                                                        : "inconclusive";
    if (verdict == SpotVerdict::Failed) {
      spdlog::warn("spot-check of {}'s {} for micro-batch {:x} failed: {}",
                   net::short_key(p->first), work_name(work), mb, detail);
    } else {
      spdlog::debug("spot-check of {}'s {} for micro-batch {:x} {}: {}", net::short_key(p->first),
                    work_name(work), mb, what, detail);
    }
    if (caught) announce_caught(work, p->first);
  }

  void release_held(CheckedWork work, std::uint64_t mb, SpotVerdict verdict,
                    std::optional<CheckMaterial> material = std::nullopt) {
    std::lock_guard lock(mutex);
    if (!material) {
      auto& checks = book(work).checks;
      const auto it = checks.find(mb);
      if (it == checks.end()) return;
      material = std::move(it->second);
      checks.erase(it);
    }
    if (!material->held) return;
    auto& held = *material->held;
    if (verdict == SpotVerdict::Failed || verdict == SpotVerdict::Unanswered) {
      refuse_locked(std::move(held));
      return;
    }
    // Beyond inbox_capacity: bounded by the pending checks.
    (held.backward ? backwards : forwards).push_back(std::move(held));
    inbox_cv.notify_one();
  }

  void announce_caught(CheckedWork work, const std::string& key) {
    spdlog::warn(
        "stage {} failed {} spot-checks of its {}: its {} are refused from now on, and reported",
        net::short_key(key), config.job.spot_checks.failures_to_catch, work_name(work),
        work_name(work));
    if (work != wire::pb::CHECKED_GRADIENTS) return;
    std::lock_guard lock(mutex);
    caught_next_hops.push_back(key);  // the compute thread routes around it
  }

  // Compute thread: a verifier's recomputation for another stage's check. Gradients come
  // from torch::autograd::grad, which leaves the weights' own gradients untouched.
  void recompute(StageWork& w, const Recompute& r) {
    torch::Tensor out;
    std::string reason;
    const bool gradients = r.work == wire::pb::CHECKED_GRADIENTS;
    try {
      if (gradients) {
        auto x = r.input.detach().requires_grad_(true);
        auto y = current->shard.forward(x);
        out = last() ? torch::autograd::grad({current->shard.loss(y, r.targets)}, {x})[0]
                     : torch::autograd::grad({y}, {x}, {r.grad_output})[0];
        out = out.detach();
      } else {
        torch::NoGradGuard no_grad;
        out = current->shard.forward(r.input).detach();
      }
    } catch (
        const std::exception& e) {  // LibTorch's errors, and the blocks' own checks of their input
      reason =
          std::string(gradients ? "the input, output gradient or targets do not fit these blocks ("
                                : "the input does not fit these blocks (") +
          brief(e) + ")";
      out = torch::Tensor();
    }
    if (out.defined()) {
      w.flops += static_cast<double>(r.input.size(0)) *
                 (forward_flops_per_sample + (gradients ? backward_flops_per_sample : 0.0));
    }
    {
      std::lock_guard lock(mutex);
      ++stats.recomputes;
    }
    wire::pb::Envelope h;
    h.mutable_recompute_result()->set_micro_batch(r.micro_batch);
    h.mutable_recompute_result()->set_work(r.work);
    h.mutable_recompute_result()->set_reason(reason);
    send_message(r.return_to, std::move(h), {{"output", out}});
  }

  // Compute thread: the evidence of gradient checks, kept a while (see gradient_senders).
  void remember_gradient_sender(std::uint64_t mb, const std::string& from) {
    if (!keeps_gradient_evidence) return;
    std::lock_guard lock(mutex);
    gradient_senders.put(mb, from, kKeptGradients);
  }
  void remember_sent_gradient(std::uint64_t mb, const std::string& to, torch::Tensor grad) {
    if (!keeps_gradient_evidence) return;
    std::lock_guard lock(mutex);
    sent_gradients.put(mb, SentGradient{to, std::move(grad)}, kKeptGradients);
  }

  void forget_declared_input(std::uint64_t mb) {
    std::lock_guard lock(mutex);
    declared_inputs.erase(mb);
    sent_forwards.erase(mb);
  }

  // ---- compute ----
  bool can_feed() const {
    if (!first() || draining.load()) return false;
    if (config.max_micro_batches > 0 && fed >= config.max_micro_batches) return false;
    if (config.flush_every > 0) {  // GPipe: a group of micro-batches, then a flush
      return fed % config.flush_every != 0 || in_flight.empty();
    }
    return static_cast<std::int64_t>(in_flight.size()) < config.job.staleness;
  }

  // A forward from the previous stage waits in the inbox while this stage is at its bound.
  bool can_forward() const {
    if (draining.load()) return false;
    const auto limit = std::max<std::int64_t>(1, config.job.staleness - config.stages_before);
    return config.flush_every > 0 || static_cast<std::int64_t>(in_flight.size()) < limit;
  }

  // The last stage (or a one-stage pipeline): loss, backward, step, gradient back.
  void finish_last(StageWork& w, std::uint64_t mb, const std::shared_ptr<WeightVersion>& v,
                   torch::Tensor input, torch::Tensor output, torch::Tensor targets,
                   std::int64_t samples, const net::PeerAddress& return_to,
                   std::uint32_t pipeline) {
    auto loss = v->shard.loss(output, targets);
    loss.backward();
    const double value = loss.item<double>();
    accumulate_from(*v);
    release(v);
    if (!first()) send_backward(return_to, mb, samples, value, input.grad(), pipeline);
    complete_backward(w, samples, value);
  }

  // A micro-batch's backward finished here: count it, then step when enough have accumulated.
  void complete_backward(StageWork& w, std::int64_t samples, double loss) {
    w.flops += samples * backward_flops_per_sample;
    w.samples += samples;
    w.loss = loss;
    {
      std::lock_guard lock(mutex);
      ++stats.backwards;
      stats.samples += samples;
      stats.last_loss = loss;
      stats.backward_flops += samples * backward_flops_per_sample;
    }
    samples_since_average += samples;
    maybe_step();
  }

  void feed(StageWork& w) {
    const auto n = config.job.micro_batch_size;
    const std::int64_t first_sample = stats_next_sample();
    auto batch = data::make_batch(*dataset, first_sample, n);
    const std::uint64_t mb = incarnation | micro_batch_counter++;
    ++fed;
    {
      std::lock_guard lock(mutex);
      stats.next_sample = first_sample + n;
    }
    auto inputs = batch.inputs.to(device);
    auto targets = batch.targets.to(device);
    auto v = acquire();
    auto out = v->shard.forward(inputs);
    count_forward(w, n);
    if (last()) {
      finish_last(w, mb, v, inputs, out, targets, n, {}, config.pipeline);
      return;
    }
    remember_declared_input(mb, inputs);
    send_forward(mb, first_sample, n, out.detach(), targets, config.pipeline);
    in_flight.emplace(mb,
                      InFlight{v, inputs, out, {}, first_sample, n, Clock::now(), config.pipeline});
  }

  // The input of a micro-batch this stage sends on, kept (shared, not copied) while it is in
  // flight: a checker may ask to see it.
  void remember_declared_input(std::uint64_t mb, torch::Tensor input) {
    std::lock_guard lock(mutex);
    declared_inputs[mb] = std::move(input);
  }

  std::int64_t stats_next_sample() {
    std::lock_guard lock(mutex);
    return stats.next_sample;
  }

  void count_forward(StageWork& w, std::int64_t samples) {
    w.flops += samples * forward_flops_per_sample;
    std::lock_guard lock(mutex);
    ++stats.forwards;
    stats.forward_flops += samples * forward_flops_per_sample;
  }

  // The peer's work reached this stage and was used: a receipt for the coordinator's ledger.
  void give_receipt(const std::string& peer, std::int64_t forward_samples,
                    std::int64_t backward_samples) {
    if (peer.empty()) return;
    std::lock_guard lock(mutex);
    auto& r = stats.receipts[peer];
    r.forward_samples += forward_samples;
    r.backward_samples += backward_samples;
  }

  void forward(StageWork& w, Inbound& in) {
    auto x = in.tensor.detach().requires_grad_(true);
    auto v = acquire();
    torch::Tensor out;
    try {
      out = v->shard.forward(x);
    } catch (
        const std::exception& e) {  // LibTorch's errors, and the blocks' own checks of their input
      release(v);
      std::lock_guard lock(mutex);
      ++stats.rejected;
      spdlog::warn("stage rejected micro-batch {:x}: activations do not fit this shard ({})",
                   in.micro_batch, brief(e));
      return;
    }
    count_forward(w, in.samples);
    give_receipt(in.sender, in.samples, 0);
    if (last()) {
      try {
        finish_last(w, in.micro_batch, v, x, out, in.targets, in.samples, in.return_to,
                    in.pipeline);
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex);
        ++stats.rejected;
        spdlog::warn("stage rejected micro-batch {:x}: targets do not fit ({})", in.micro_batch,
                     brief(e));
      }
      return;
    }
    remember_declared_input(in.micro_batch, x.detach());
    send_forward(in.micro_batch, in.first_sample, in.samples, out.detach(), in.targets,
                 in.pipeline);
    in_flight.emplace(in.micro_batch, InFlight{v, x, out, in.return_to, in.first_sample, in.samples,
                                               Clock::now(), in.pipeline});
  }

  void backward(StageWork& w, Inbound& in) {
    auto it = in_flight.find(in.micro_batch);
    if (it == in_flight.end()) {
      std::lock_guard lock(mutex);
      if (!in.discard)
        ++stats.unknown_backwards;  // dropped after a timeout, or from before a restart
      return;
    }
    if (in.discard) {  // its gradient failed a spot-check, or came from a stage caught lying
      const auto hop = router ? router->holder(in.micro_batch) : std::nullopt;
      if (!hop || router->address(*hop).key != in.sender) return;  // not the stage it was sent to
      release(it->second.version);
      router->forgotten(in.micro_batch);
      forget_declared_input(in.micro_batch);
      in_flight.erase(it);
      std::lock_guard lock(mutex);
      ++stats.dropped;
      return;
    }
    InFlight f = std::move(it->second);
    in_flight.erase(it);
    forget_declared_input(in.micro_batch);
    if (router) router->returned(in.micro_batch, Clock::now());
    if (!in.tensor.sizes().equals(f.output.sizes())) {
      release(f.version);
      std::lock_guard lock(mutex);
      ++stats.rejected;
      spdlog::warn(
          "stage rejected the gradient of micro-batch {:x}: shape does not match its activations",
          in.micro_batch);
      return;
    }
    f.output.backward(in.tensor);
    accumulate_from(*f.version);
    release(f.version);
    give_receipt(in.sender, 0, f.samples);
    remember_gradient_sender(in.micro_batch, in.sender);
    if (!first())
      send_backward(f.return_to, in.micro_batch, f.samples, in.loss, f.input.grad(), f.pipeline);
    complete_backward(w, f.samples, in.loss);
  }

  void expire() {
    const auto now = Clock::now();
    for (const auto work : {wire::pb::CHECKED_ACTIVATIONS, wire::pb::CHECKED_GRADIENTS}) {
      auto& b = book(work);
      if (!b.checker) continue;
      for (const auto& e : b.checker->expire(now)) {
        release_held(work, e.micro_batch, e.verdict);
        if (e.verdict == SpotVerdict::Unanswered) {
          spdlog::info(
              "spot-check of {}'s {} for micro-batch {:x} went unanswered: that work is dropped, "
              "nobody is "
              "blamed, and its next micro-batches wait for a check",
              net::short_key(e.checked), work_name(work), e.micro_batch);
        }
      }
    }
    std::vector<std::string> shunned;
    {
      std::lock_guard lock(mutex);
      shunned.swap(caught_next_hops);
    }
    for (const auto& key : shunned) {
      if (router) router->exclude(key);
    }
    for (auto it = in_flight.begin(); it != in_flight.end();) {
      if (now - it->second.started > config.micro_batch_timeout) {
        spdlog::warn(
            "micro-batch {:x} got no gradient within {} ms: dropped (a peer is slow or gone)",
            it->first, config.micro_batch_timeout.count());
        release(it->second.version);
        if (router) router->forgotten(it->first);
        forget_declared_input(it->first);
        it = in_flight.erase(it);
        std::lock_guard lock(mutex);
        ++stats.dropped;
      } else {
        ++it;
      }
    }
    // Rerouting: micro-batches held by a next hop that stopped answering are dropped now
    // (new ones go to the other candidates), not after the full timeout.
    if (!router) return;
    for (const auto mb : router->check(now)) {
      const auto it = in_flight.find(mb);
      if (it == in_flight.end()) continue;
      release(it->second.version);
      forget_declared_input(mb);
      in_flight.erase(it);
      std::lock_guard lock(mutex);
      ++stats.dropped;
    }
  }

  void checkpoint() {
    if (config.checkpoint_path.empty()) return;
    CheckpointCounters c;
    c.job_id = config.job.id;
    c.pipeline = config.pipeline;
    c.blocks = config.blocks;
    {
      std::lock_guard lock(mutex);
      c.micro_batches = stats.backwards;
      c.samples = stats.samples;
      c.next_sample = stats.next_sample;
    }
    save_checkpoint(config.checkpoint_path, master, *optimizer, c);
    spdlog::debug("checkpoint after {} steps; measured gradient delay {:.2f} steps", steps,
                  delay_ema);
    last_checkpoint = Clock::now();
    std::lock_guard lock(mutex);
    ++stats.checkpoints;
  }
};

StageRuntime::StageRuntime(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                           StageConfig config)
    : impl_(std::make_unique<Impl>(ctx, identity, std::move(config))) {
  auto& m = *impl_;
  const auto& job = m.config.job;
  if (m.config.blocks.first < 0 || m.config.blocks.last > m.chain.block_count() ||
      m.config.blocks.size() <= 0) {
    throw std::invalid_argument("stage blocks out of range");
  }
  if (!m.last() && m.config.next.empty() && m.config.next_candidates.empty())
    throw std::invalid_argument("a stage that is not last needs a next stage");
  m.master.to(m.device);
  m.master.set_training(true);
  for (auto& p : m.master.parameters()) {
    m.master_params.push_back(p.tensor);
    p.tensor.mutable_grad() = torch::zeros_like(p.tensor);
    m.param_bytes += static_cast<std::int64_t>(p.tensor.nbytes());
  }
  m.optimizer.emplace(model::make_optimizer(job.optimizer, m.master.parameters()));
  m.last_update.resize(m.master_params.size());
  m.codec = to_wire_codec(static_cast<int>(job.codec));
  m.forward_flops_per_sample = sum_flops(m.chain.costs(), m.config.blocks, false);
  m.backward_flops_per_sample = sum_flops(m.chain.costs(), m.config.blocks, true);
  m.inbox_capacity = static_cast<std::size_t>(2 * job.staleness + 4);
  m.stats.next_sample = m.config.first_sample;
  std::random_device rd;
  m.incarnation = static_cast<std::uint64_t>(rd()) << 32;

  if (!m.config.checkpoint_path.empty() && std::filesystem::exists(m.config.checkpoint_path)) {
    auto c =
        load_checkpoint(m.config.checkpoint_path, m.master, *m.optimizer, job.id, m.config.blocks);
    m.stats.backwards = c.micro_batches;
    m.stats.samples = c.samples;
    m.stats.optimizer_steps = m.optimizer->steps_taken();
    if (m.first()) m.stats.next_sample = c.next_sample;
    spdlog::info("resumed from checkpoint {}: {} optimizer steps, {} samples",
                 m.config.checkpoint_path.string(), m.optimizer->steps_taken(), c.samples);
  }
  m.current = m.new_version();
  m.copy_master_into(*m.current);
  if (m.first()) m.dataset = data::open_dataset(job);

  m.ctx.auth().replace(net::kPeerDomain, m.config.peer_keys);
  net::SocketOptions sock;
  sock.send_hwm = sock.recv_hwm = static_cast<int>(2 * job.staleness + 4);
  m.sender = std::make_unique<net::PeerSender>(m.ctx, m.identity,
                                               static_cast<std::size_t>(job.staleness + 2), sock);
  if (!m.last()) {
    auto candidates = m.config.next_candidates;
    if (candidates.empty()) candidates.push_back(m.config.next);
    m.router = std::make_unique<NextHopRouter>(std::move(candidates));
  }
  net::RpcServer::Config rc;
  rc.endpoint = m.config.listen;
  rc.domain = net::kPeerDomain;
  rc.socket = sock;
  m.server = std::make_unique<net::RpcServer>(
      m.ctx, &m.identity, rc,
      [this](const net::RequestContext& r, wire::Message& msg) { return impl_->receive(r, msg); });
  m.endpoint = m.config.advertise.empty() ? m.server->endpoint() : m.config.advertise;
  if (m.config.averaging.enabled()) m.start_averaging();
  // Spot-checks need a deterministic forward (dropout draws differ) and other holders of a
  // sender's blocks. A stage checks the activations it receives (not on a first stage) and the
  // gradients it receives (not on a last one).
  const job::SpotCheckSpec& checks = job.spot_checks;
  if (!m.config.holders.empty() && (checks.rate > 0 || checks.probation > 0)) {
    const auto* gpt = std::get_if<job::GptSpec>(&job.model.arch);
    if (gpt && gpt->dropout > 0) {
      spdlog::info("spot-checks off: the model uses dropout, so two honest forwards differ");
    } else {
      m.keeps_gradient_evidence = true;
      if (!m.first()) m.activation_checks.checker = std::make_unique<SpotChecker>(checks);
      if (!m.last()) m.gradient_checks.checker = std::make_unique<SpotChecker>(checks);
      spdlog::info(
          "spot-checking the {} this stage receives: each sender's first {}, then {:.1f}%, "
          "recomputed by other holders of its blocks",
          m.first()  ? "gradients"
          : m.last() ? "activations"
                     : "activations and gradients",
          checks.probation, 100.0 * checks.rate);
    }
  }
  m.ready.store(true, std::memory_order_release);
}

StageRuntime::~StageRuntime() {
  impl_->server.reset();  // stop receiving first
  impl_->sender.reset();
}

StageWork StageRuntime::run_once(std::chrono::milliseconds wait) {
  auto& m = *impl_;
  StageWork w;
  m.expire();
  m.apply_finished_average();
  m.maybe_start_average();
  if (!m.config.checkpoint_path.empty() &&
      Clock::now() - m.last_checkpoint > m.config.checkpoint_interval) {
    try {
      m.checkpoint();
    } catch (const std::exception& e) {
      spdlog::error("{}", e.what());
      m.last_checkpoint = Clock::now();  // try again after the next interval
    }
  }
  std::optional<Inbound> item;
  std::optional<Recompute> recompute;
  {
    std::unique_lock lock(m.mutex);
    auto ready = [&] {
      return !m.backwards.empty() || !m.recomputes.empty() ||
             (!m.forwards.empty() && m.can_forward()) || m.can_feed();
    };
    if (!ready()) m.inbox_cv.wait_for(lock, m.until_next_window(wait), ready);
    // Backward first: it frees memory and a weight version, and unblocks the first stage.
    // Then a checker's recomputation: a check waits on it (and it is short, forward only).
    if (!m.backwards.empty()) {
      item = std::move(m.backwards.front());
      m.backwards.pop_front();
    } else if (!m.recomputes.empty()) {
      recompute = std::move(m.recomputes.front());
      m.recomputes.pop_front();
    } else if (!m.forwards.empty() && m.can_forward()) {
      item = std::move(m.forwards.front());
      m.forwards.pop_front();
    }
  }
  const auto t0 = Clock::now();
  if (recompute) {
    m.recompute(w, *recompute);
  } else if (item) {
    if (item->backward) {
      m.backward(w, *item);
    } else {
      m.forward(w, *item);
    }
  } else if (m.can_feed()) {
    m.feed(w);
  } else {
    return w;
  }
  w.did_work = true;
  w.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  std::lock_guard lock(m.mutex);
  m.stats.busy_seconds += w.seconds;
  m.refresh_memory_stats_locked();
  return w;
}

void StageRuntime::checkpoint_now() { impl_->checkpoint(); }

std::vector<float> StageRuntime::parameters() const {
  return reduce::flatten_parameters(impl_->master);
}

std::int64_t StageRuntime::optimizer_steps() const { return impl_->optimizer->steps_taken(); }

std::vector<std::string> StageRuntime::optimizer_state_names() const {
  return impl_->optimizer->state_buffer_names();
}

OptimizerState StageRuntime::optimizer_state() const {
  OptimizerState s;
  s.moment_step = impl_->optimizer->moment_step();
  for (const auto& name : impl_->optimizer->state_buffer_names())
    s.buffers.emplace_back(name, impl_->optimizer->state_buffer(name));
  return s;
}

void StageRuntime::load_blocks(std::int64_t first, std::int64_t last, std::span<const float> values,
                               std::int64_t optimizer_steps, const OptimizerState* state) {
  auto& m = *impl_;
  if (first < m.config.blocks.first || last > m.config.blocks.last || first >= last) {
    throw std::invalid_argument("blocks [" + std::to_string(first) + ", " + std::to_string(last) +
                                ") are not inside this stage's shard");
  }
  const auto counts = reduce::block_parameter_counts(m.config.job.model);
  std::int64_t offset = 0, size = 0;
  for (auto b = m.config.blocks.first; b < last; ++b)
    (b < first ? offset : size) += counts.at(static_cast<std::size_t>(b));
  if (static_cast<std::int64_t>(values.size()) != size) {
    throw std::invalid_argument("blocks [" + std::to_string(first) + ", " + std::to_string(last) +
                                ") have " + std::to_string(size) + " parameters, not " +
                                std::to_string(values.size()));
  }
  // The optimizer state is checked whole before anything changes.
  const auto names = m.optimizer->state_buffer_names();
  if (state) {
    if (state->moment_step < 0)
      throw std::invalid_argument("optimizer state with a negative moment step");
    for (const auto& [name, v] : state->buffers) {
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        throw std::invalid_argument("this stage's optimizer keeps no state buffer '" + name + "'");
      }
    }
    for (const auto& name : names) {
      const auto* v = state->find(name);
      if (!v) throw std::invalid_argument("optimizer state without buffer '" + name + "'");
      if (static_cast<std::int64_t>(v->size()) != size) {
        throw std::invalid_argument("optimizer state '" + name + "' has " +
                                    std::to_string(v->size()) + " values, the blocks have " +
                                    std::to_string(size) + " parameters");
      }
      const bool second_moment = name.ends_with("_sq");
      for (const float x : *v) {
        if (!std::isfinite(x) || (second_moment && x < 0)) {
          throw std::invalid_argument(
              "optimizer state '" + name + "' holds " + std::to_string(x) +
              (second_moment ? " (second moments are finite and >= 0)" : " (not finite)"));
        }
      }
    }
  }
  auto current = reduce::flatten_parameters(m.master);
  std::copy(values.begin(), values.end(), current.begin() + offset);
  reduce::write_parameters(m.master, current);
  // Moments that belonged to other weights are dropped; handed-over ones come with their
  // bias-correction step (write_state_buffer gives it to parameters without state).
  m.optimizer->reset_state(offset, size);
  if (state) {
    for (const auto& name : names)
      m.optimizer->write_state_buffer(name, offset, *state->find(name), state->moment_step);
  }
  for (auto& u : m.last_update) {
    if (u.defined()) u.zero_();  // no prediction across a jump in the weights
  }
  if (optimizer_steps > m.optimizer->steps_taken()) m.optimizer->set_steps_taken(optimizer_steps);
  m.publish_version();
}

void StageRuntime::set_draining(bool draining) {
  impl_->draining.store(draining);
  std::lock_guard lock(impl_->mutex);
  impl_->inbox_cv.notify_all();
}

bool StageRuntime::idle() const {
  std::lock_guard lock(impl_->mutex);
  // in_flight belongs to the compute thread, which is the caller; the inbox to the lock.
  // Forwards still waiting in the inbox are not started work: they wait for the resume.
  return impl_->in_flight.empty() && impl_->backwards.empty();
}

void StageRuntime::restrict_peers(const std::vector<std::string>& members) {
  const std::set<std::string> listed(members.begin(), members.end());
  auto& auth = impl_->ctx.auth();
  std::vector<std::string> keep;
  for (const auto& key : auth.allowed(net::kPeerDomain)) {
    if (listed.count(key)) {
      keep.push_back(key);
    } else {
      spdlog::warn("peer {} is no longer a member of the job: refused from now on",
                   net::short_key(key));
    }
  }
  auth.replace(net::kPeerDomain, keep);
}

StageStats StageRuntime::stats() const {
  std::lock_guard lock(impl_->mutex);
  auto s = impl_->stats;
  if (impl_->sender) s.bytes_sent = impl_->sender->bytes_sent();
  for (const auto* b : {&impl_->activation_checks, &impl_->gradient_checks}) {
    if (!b->checker) continue;
    const auto c = b->checker->stats();
    s.spot_checks_passed += c.passed;
    s.spot_checks_failed += c.failed;
    s.spot_checks_inconclusive += c.inconclusive;
    s.spot_checks_unanswered += c.unanswered;
    for (const auto& k : c.caught) {
      if (std::find(s.caught_peers.begin(), s.caught_peers.end(), k) == s.caught_peers.end())
        s.caught_peers.push_back(k);
    }
  }
  return s;
}

std::string StageRuntime::endpoint() const { return impl_->endpoint; }
bool StageRuntime::is_first() const { return impl_->first(); }
bool StageRuntime::is_last() const { return impl_->last(); }
const StageConfig& StageRuntime::config() const { return impl_->config; }

bool StageRuntime::finished() const {
  const auto& m = *impl_;
  return m.first() && m.config.max_micro_batches > 0 && m.fed >= m.config.max_micro_batches &&
         m.in_flight.empty();
}

std::string StageRuntime::description() const {
  const auto& m = *impl_;
  return "training blocks [" + std::to_string(m.config.blocks.first) + ", " +
         std::to_string(m.config.blocks.last) + ") of " + std::to_string(m.chain.block_count()) +
         " in pipeline " + std::to_string(m.config.pipeline) + " of '" +
         (m.config.job.name.empty() ? m.config.job.id : m.config.job.name) + "' on " +
         m.config.device;
}

}  // namespace rookery::pipeline
