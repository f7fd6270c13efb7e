#include <torch/torch.h>

#include "pipeline/stage_runtime.hpp"

#include <algorithm>
#include <mutex>
#include <optional>

#include <spdlog/spdlog.h>

#include "data/batch.hpp"
#include "data/open_dataset.hpp"
#include "model/block_chain.hpp"
#include "model/cuda_backend.hpp"
#include "model/mixed_precision.hpp"
#include "net/identity.hpp"
#include "wire/message.hpp"
#include "pipeline/loss_scaler.hpp"
#include "pipeline/next_hop_router.hpp"
#include "pipeline/spot_check_protocol.hpp"
#include "pipeline/stage_checkpoints.hpp"
#include "pipeline/stage_averaging.hpp"
#include "pipeline/stage_counters.hpp"
#include "pipeline/stage_inbox.hpp"
#include "pipeline/stage_messages.hpp"
#include "pipeline/stage_optimizer.hpp"
#include "pipeline/stage_schedule.hpp"
#include "pipeline/zmq_stage_link.hpp"
#include "pipeline/tensor_codec.hpp"
#include "pipeline/weight_stash.hpp"

namespace rookery::pipeline {

namespace {
using Clock = std::chrono::steady_clock;

double sum_flops(const std::vector<model::BlockCost>& costs, model::BlockRange r, bool backward) {
  double f = 0;
  for (auto b = r.first; b < r.last; ++b) {
    f += backward ? costs[static_cast<std::size_t>(b)].backward_flops_per_sample
                  : costs[static_cast<std::size_t>(b)].forward_flops_per_sample;
  }
  return f;
}

// The job's precision on this stage's device: bf16 where the GPU has it (model/mixed_precision).
model::PrecisionPlan precision_for(const job::JobSpec& job, const torch::Device& device) {
  bool bf16 = false;
  if (device.is_cuda()) {
    const auto info = model::cuda_device_info(device.has_index() ? device.index() : 0);
    bf16 = info && info->bf16;
  }
  const auto plan = model::resolve_precision(job.precision, device.type(), bf16);
  spdlog::info("stage computes in {} on {}{}", plan.describe(), device.str(),
               job.activation_checkpointing ? ", activations recomputed in the backward pass" : "");
  return plan;
}
}  // namespace

// The compute thread's loop over the mechanisms: the link's receiver thread fills the inbox
// (through the spot-check protocol), run_once takes one item and runs it on a stashed weight
// version, sends the result on, and lets the optimizer step and the averaging apply between
// items.
struct StageRuntime::Impl {
  Impl(net::SecureContext& c, const net::CurveKeyPair& id, StageConfig cfg,
       std::unique_ptr<StageLink> l)
      : config(std::move(cfg)),
        ctx(c),
        identity(id),
        chain(model::BlockChain::from_job(config.job)),
        device(config.device),
        optimizer(chain, config.blocks, device, config.job),
        precision(precision_for(config.job, device)),
        stash(chain, config.blocks, device, static_cast<std::size_t>(config.job.staleness),
              precision.autocast, config.job.activation_checkpointing),
        scaler(precision.loss_scaling),
        schedule(config, first()),
        checkpoints(config, first()),
        common_point(config.blocks),
        inbox(static_cast<std::size_t>(2 * config.job.staleness + 4), counters),
        link(std::move(l)) {}

  StageConfig config;
  net::SecureContext& ctx;
  net::CurveKeyPair identity;
  model::BlockChain chain;
  torch::Device device;
  StageCounters counters;
  StageOptimizer optimizer;
  model::PrecisionPlan precision;
  WeightStash stash;
  LossScaler scaler;
  StageSchedule schedule;
  StageCheckpoints checkpoints;
  CommonPoint common_point;  // where this replica stands among the others (spot-checks)
  StageInbox inbox;
  std::unique_ptr<data::Dataset> dataset;  // first stage only
  wire::Codec codec = wire::Codec::None;
  BoundaryShape boundary;  // the job's low-rank boundary compression, when it has one
  double forward_flops_per_sample = 0, backward_flops_per_sample = 0;

  std::unique_ptr<NextHopRouter> router;  // not on the last stage
  std::unique_ptr<SpotCheckProtocol> spot_checks;
  std::unique_ptr<StageAveraging> averaging;  // with other pipelines only
  // Whole-model gradient norms from the previous stage (GlobalNormClip), from the receiver
  // thread to the compute thread.
  std::mutex totals_mutex;
  std::vector<GradNormTotal> totals;
  std::string endpoint;
  // The stage's only way to its peers. Last, so that it stops receiving before the parts its
  // receiver feeds are destroyed.
  std::unique_ptr<StageLink> link;

  bool first() const { return config.blocks.first == 0; }
  bool last() const { return config.blocks.last == chain.block_count(); }
  net::PeerAddress own_address() const { return {endpoint, identity.public_key}; }
  MessageRules rules() const {
    return {config.job.id, config.pipeline, config.cross_pipeline, first(),
            last(),        boundary,        identity.public_key};
  }

  // ---- messages ----
  // `input_from`: what its sender signed of `input` (none on a first stage).
  void send_forward(const ForwardRecord& record, const torch::Tensor& input,
                    std::shared_ptr<const SignedWork> input_from, torch::Tensor activations,
                    torch::Tensor targets) {
    if (corrupts_activations(config.fault)) {
      torch::NoGradGuard no_grad;
      activations = activations * -10;
    }
    const auto now = Clock::now();
    const auto hop = router->pick(now);
    spot_checks->remember_sent_forward(record.micro_batch, input, std::move(input_from),
                                       activations, targets);
    router->sent(hop, record.micro_batch, now);
    const auto to = router->address(hop);
    link->send(to, [job_id = config.job.id, record, activations, targets, c = codec, b = boundary,
                    signer = &identity, to_key = to.key]() {
      return encode_forward(job_id, record, activations, targets, c, b, signer, to_key);
    });
  }

  // `record.averaging_round`: the common point's round when the micro-batch's forward ran here.
  void send_backward(const net::PeerAddress& to, const BackwardRecord& record, torch::Tensor grad) {
    if (corrupts_gradients(config.fault)) {
      torch::NoGradGuard no_grad;
      grad = grad * -10;
    }
    link->send(to, [job_id = config.job.id, record, grad, c = codec, b = boundary,
                    signer = &identity, to_key = to.key]() {
      return encode_backward(job_id, record, grad, c, b, signer, to_key);
    });
  }

  // No gradient will come for micro-batch `mb`: the stage that sent it gives it up too.
  void send_dropped(const net::PeerAddress& to, std::uint64_t mb, std::uint32_t pipeline) {
    link->send(to, [job_id = config.job.id, pipeline, mb]() {
      return encode_dropped(job_id, pipeline, mb);
    });
  }

  // Every next hop learns the whole model's gradient norm (each relays it further).
  void send_total(const GradNormTotal& total) {
    if (last()) return;
    for (const auto& hop : router->hops()) {
      link->send(hop.address, [job_id = config.job.id, total]() {
        return encode_grad_norm_total(job_id, total);
      });
    }
  }

  // The totals the receiver thread queued: a pending step waiting for one is taken.
  void absorb_totals() {
    std::vector<GradNormTotal> arrived;
    {
      std::lock_guard lock(totals_mutex);
      arrived.swap(totals);
    }
    for (const auto& t : arrived) {
      if (optimizer.learn_total(t.micro_batch, t.total_sq_norm)) stepped();
      send_total(t);
    }
  }

  // The weights or gradient buffers are needed: a step still waiting for the whole model's
  // norm is taken with the estimate.
  void settle() {
    absorb_totals();
    if (optimizer.settle()) {
      counters.update([](StageStats& s) { ++s.clip_estimated_steps; });
      stepped();
    }
  }

  void stepped() {
    stash.publish(optimizer);
    common_point.stepped(optimizer.steps());
    counters.update([&](StageStats& s) {
      ++s.optimizer_steps;
      s.last_clip_factor = optimizer.last_clip_factor();
    });
  }

  // The link's receiver thread: validate and decode, then queue for the compute thread.
  void receive(const std::string& peer, wire::Message& msg) {
    const bool checks_ready = spot_checks->ready();
    if (checks_ready && spot_checks->refuse_caught(peer, msg)) return;
    Inbound in;
    try {
      check_job(msg, rules());
      if (msg.header.has_grad_norm_total()) {
        auto total = decode_grad_norm_total(msg, rules());
        std::lock_guard lock(totals_mutex);
        if (totals.size() < 1024) totals.push_back(total);
        return;
      }
      if (is_spot_check_message(msg)) {
        if (!checks_ready) throw MessageError("spot-check message before this stage is ready");
        spot_checks->receive(peer, msg);
        return;
      }
      in = decode_pipeline_message(msg, peer, rules(), device);
    } catch (const std::exception& e) {
      counters.update([](StageStats& s) { ++s.rejected; });
      spdlog::warn("stage rejected a message from {}: {}", net::short_key(peer), e.what());
      return;
    }
    if (checks_ready && !in.discard && spot_checks->maybe_check(peer, in))
      return;  // held until the verdict
    inbox.push(std::move(in));
  }

  // ---- compute ----
  void count_forward(StageWork& w, std::int64_t samples) {
    w.flops += samples * forward_flops_per_sample;
    counters.update([&](StageStats& s) {
      ++s.forwards;
      s.forward_flops += samples * forward_flops_per_sample;
    });
  }

  // The peer's work reached this stage and was used: a receipt for the coordinator's ledger.
  void give_receipt(const std::string& peer, std::int64_t forward_samples,
                    std::int64_t backward_samples) {
    if (peer.empty()) return;
    counters.update([&](StageStats& s) {
      auto& r = s.receipts[peer];
      r.forward_samples += forward_samples;
      r.backward_samples += backward_samples;
    });
  }

  // A micro-batch's backward finished here: its gradient goes back (`send_back`, given the
  // squared norm to pass upstream), and the optimizer steps when enough have accumulated.
  // Clipping needs this stage's norm in what it sends; otherwise the gradient goes first, so
  // the previous stage starts its backward while this one steps.
  template <typename SendBack>
  void complete_backward(StageWork& w, std::uint64_t mb, std::int64_t samples, double loss,
                         double downstream_sq, SendBack send_back) {
    StageOptimizer::Counted counted;
    if (optimizer.clipping()) {
      counted = optimizer.count_backward(mb, downstream_sq);
      send_back(counted.through_sq_norm);
    } else {
      send_back(0.0);
      counted = optimizer.count_backward(mb, downstream_sq);
    }
    w.flops += samples * backward_flops_per_sample;
    w.samples += samples;
    w.loss = loss;
    counters.update([&](StageStats& s) {
      ++s.backwards;
      s.samples += samples;
      s.last_loss = loss;
      s.backward_flops += samples * backward_flops_per_sample;
    });
    if (averaging) averaging->count_samples(samples);
    if (!counted.stepped) return;
    stepped();
    // Only the first stage steps here with clipping on: it knows the exact total.
    if (optimizer.clipping()) send_total({config.pipeline, mb, counted.through_sq_norm});
  }

  // The last stage (or a one-stage pipeline): loss, backward, step, gradient back.
  void finish_last(StageWork& w, std::uint64_t mb, const std::shared_ptr<WeightVersion>& v,
                   torch::Tensor input, torch::Tensor output, torch::Tensor targets,
                   std::int64_t samples, const net::PeerAddress& return_to,
                   std::uint32_t pipeline) {
    auto loss = v->shard.loss(output, targets);
    scaler.scaled(loss).backward();
    const double value = loss.item<double>();
    torch::Tensor input_grad = first() ? torch::Tensor() : input.grad();
    scaler.unscale(v->params, input_grad);
    optimizer.accumulate(v->params, v->created_at_step);
    stash.release(v);
    complete_backward(w, mb, samples, value, 0.0, [&](double through_sq) {
      if (!first()) {
        send_backward(return_to,
                      {pipeline, mb, samples, value, through_sq, common_point.point_round()},
                      input_grad);
      }
    });
  }

  void feed(StageWork& w) {
    const auto n = config.job.micro_batch_size;
    std::int64_t first_sample = 0;
    counters.update([&](StageStats& s) { first_sample = s.next_sample; });
    auto batch = data::make_batch(*dataset, first_sample, n);
    const std::uint64_t mb = schedule.feed();
    counters.update([&](StageStats& s) { s.next_sample = first_sample + n; });
    auto inputs = batch.inputs.to(device);
    auto targets = batch.targets.to(device);
    settle();
    auto v = stash.acquire();
    auto out = v->shard.forward(inputs);
    count_forward(w, n);
    if (last()) {
      finish_last(w, mb, v, inputs, out, targets, n, {}, config.pipeline);
      return;
    }
    const auto round = common_point.point_round();  // what the forward ran on
    send_forward({config.pipeline, mb, first_sample, n, own_address(), round}, inputs, {},
                 out.detach(), targets);
    schedule.in_flight().emplace(
        mb, InFlight{v, inputs, out, {}, first_sample, n, Clock::now(), config.pipeline, round});
  }

  void reject(const char* what, std::uint64_t mb, const std::exception& e) {
    counters.update([](StageStats& s) { ++s.rejected; });
    spdlog::warn("stage rejected micro-batch {:x}: {} ({})", mb, what, brief(e));
  }

  void forward(StageWork& w, Inbound& in) {
    auto x = in.tensor.detach().requires_grad_(true);
    settle();
    auto v = stash.acquire();
    torch::Tensor out;
    try {
      out = v->shard.forward(x);
    } catch (const std::exception& e) {  // LibTorch's, and the blocks' own checks of their input
      stash.release(v);
      reject("activations do not fit this shard", in.micro_batch, e);
      return;
    }
    count_forward(w, in.samples);
    give_receipt(in.sender, in.samples, 0);
    if (last()) {
      try {
        finish_last(w, in.micro_batch, v, x, out, in.targets, in.samples, in.return_to,
                    in.pipeline);
      } catch (const std::exception& e) {
        reject("targets do not fit", in.micro_batch, e);
      }
      return;
    }
    const auto round = common_point.point_round();  // what the forward ran on
    send_forward({in.pipeline, in.micro_batch, in.first_sample, in.samples, own_address(), round},
                 x.detach(), std::move(in.signed_by_sender), out.detach(), in.targets);
    schedule.in_flight().emplace(
        in.micro_batch, InFlight{v, x, out, in.return_to, in.first_sample, in.samples, Clock::now(),
                                 in.pipeline, round});
  }

  // A micro-batch in flight is given up: its weight version and evidence are let go.
  void drop(std::uint64_t mb, bool tell_router) {
    auto& in_flight = schedule.in_flight();
    const auto it = in_flight.find(mb);
    if (it == in_flight.end()) return;
    stash.release(it->second.version);
    if (tell_router && router) router->forgotten(mb);
    spot_checks->forget_sent_forward(mb);
    in_flight.erase(it);
    counters.update([](StageStats& s) { ++s.dropped; });
  }

  void backward(StageWork& w, Inbound& in) {
    auto& in_flight = schedule.in_flight();
    auto it = in_flight.find(in.micro_batch);
    if (it == in_flight.end()) {
      // Dropped after a timeout, or from before a restart.
      if (!in.discard) counters.update([](StageStats& s) { ++s.unknown_backwards; });
      return;
    }
    if (in.discard) {  // its gradient was refused here, or the stage it went to dropped it
      const auto hop = router ? router->holder(in.micro_batch) : std::nullopt;
      if (!hop || router->address(*hop).key != in.sender) return;  // not the stage it was sent to
      const auto return_to = it->second.return_to;
      const auto pipeline = it->second.pipeline;
      drop(in.micro_batch, true);
      if (!first()) send_dropped(return_to, in.micro_batch, pipeline);
      return;
    }
    InFlight f = std::move(it->second);
    in_flight.erase(it);
    spot_checks->forget_sent_forward(in.micro_batch);
    if (router) router->returned(in.micro_batch, Clock::now());
    if (!in.tensor.sizes().equals(f.output.sizes())) {
      stash.release(f.version);
      counters.update([](StageStats& s) { ++s.rejected; });
      spdlog::warn(
          "stage rejected the gradient of micro-batch {:x}: shape does not match its activations",
          in.micro_batch);
      return;
    }
    settle();  // the gradient buffers are the pending step's
    f.output.backward(scaler.scaled(in.tensor));
    torch::Tensor input_grad = first() ? torch::Tensor() : f.input.grad();
    scaler.unscale(f.version->params, input_grad);
    optimizer.accumulate(f.version->params, f.version->created_at_step);
    stash.release(f.version);
    give_receipt(in.sender, 0, f.samples);
    spot_checks->remember_received_gradient(in.micro_batch, std::move(in.signed_by_sender));
    complete_backward(
        w, in.micro_batch, f.samples, in.loss, in.downstream_grad_sq_norm, [&](double through_sq) {
          if (!first()) {
            send_backward(
                f.return_to,
                {f.pipeline, in.micro_batch, f.samples, in.loss, through_sq, f.averaging_round},
                input_grad);
          }
        });
  }

  void recompute(StageWork& w, const Recompute& r) {
    if (!spot_checks->recompute(r, stash.current().shard, stash.common_point())) return;
    // The part of its blocks it ran (a chain's link runs only its part), forward, and back
    // for a gradient check's backward link.
    const bool backward = r.work == wire::pb::CHECKED_GRADIENTS && !r.forward_only;
    const double flops = static_cast<double>(r.input.size(0)) *
                         (sum_flops(chain.costs(), r.blocks, false) +
                          (backward ? sum_flops(chain.costs(), r.blocks, true) : 0.0));
    w.flops += flops;
    counters.update([&](StageStats& s) { s.recompute_flops += flops; });
  }

  void expire() {
    const auto now = Clock::now();
    for (const auto& key : spot_checks->expire(now)) {
      if (router) router->exclude(key);
    }
    for (const auto mb : schedule.expired(now)) {
      spdlog::warn(
          "micro-batch {:x} got no gradient within {} ms: dropped (a peer is slow or gone)", mb,
          config.micro_batch_timeout.count());
      drop(mb, true);
    }
    // Rerouting: micro-batches held by a next hop that stopped answering are dropped now
    // (new ones go to the other candidates), not after the full timeout.
    if (!router) return;
    for (const auto mb : router->check(now)) drop(mb, false);
  }
};

StageRuntime::StageRuntime(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                           StageConfig config)
    : StageRuntime(ctx, identity, std::move(config), nullptr) {}

StageRuntime::StageRuntime(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                           StageConfig config, std::unique_ptr<StageLink> link)
    : impl_(std::make_unique<Impl>(ctx, identity, std::move(config), std::move(link))) {
  auto& m = *impl_;
  const auto& job = m.config.job;
  if (m.config.blocks.first < 0 || m.config.blocks.last > m.chain.block_count() ||
      m.config.blocks.size() <= 0) {
    throw std::invalid_argument("stage blocks out of range");
  }
  if (!m.last() && m.config.next.empty() && m.config.next_candidates.empty())
    throw std::invalid_argument("a stage that is not last needs a next stage");
  m.codec = to_wire_codec(static_cast<int>(job.codec));
  m.boundary = boundary_shape(job);
  m.forward_flops_per_sample = sum_flops(m.chain.costs(), m.config.blocks, false);
  m.backward_flops_per_sample = sum_flops(m.chain.costs(), m.config.blocks, true);
  m.counters.update([&](StageStats& s) { s.next_sample = m.config.first_sample; });
  if (m.checkpoints.resume(m.optimizer, m.counters)) m.common_point.restored(m.optimizer.steps());
  m.stash.publish(m.optimizer);
  if (m.first()) m.dataset = data::open_dataset(job);

  if (!m.link) {
    ZmqStageLink::Options zo;
    zo.listen = m.config.listen;
    zo.lane_capacity = static_cast<std::size_t>(job.staleness + 2);
    zo.socket.send_hwm = zo.socket.recv_hwm = static_cast<int>(2 * job.staleness + 4);
    m.link = std::make_unique<ZmqStageLink>(m.ctx, m.identity, std::move(zo));
  }
  m.link->admit(m.config.peer_keys);
  if (!m.last()) {
    auto candidates = m.config.next_candidates;
    if (candidates.empty()) candidates.push_back(m.config.next);
    m.router = std::make_unique<NextHopRouter>(std::move(candidates));
  }
  m.spot_checks =
      std::make_unique<SpotCheckProtocol>(m.config, m.identity.public_key, m.chain.block_count(),
                                          m.device, *m.link, m.inbox, m.counters, m.common_point);
  // The receiver thread starts here; it serves no spot-check until spot_checks->start().
  m.link->listen(
      [this](const std::string& peer, wire::Message& msg) { impl_->receive(peer, msg); });
  m.endpoint = m.config.advertise.empty() ? m.link->endpoint() : m.config.advertise;
  if (m.config.averaging.enabled()) {
    m.averaging = std::make_unique<StageAveraging>(m.ctx, m.identity, m.config, m.codec,
                                                   m.optimizer, m.counters, m.common_point);
  }
  // A verifier recomputes on its common point's weights too (common_point.hpp): the weights
  // it starts with until a round moves them.
  m.spot_checks->start(m.endpoint);
  if (m.spot_checks->verifies()) m.stash.set_common_point(m.optimizer.flat_parameters());
}

StageRuntime::~StageRuntime() {
  impl_->link.reset();  // stop receiving before the parts the receiver feeds go
}

StageWork StageRuntime::run_once(std::chrono::milliseconds wait) {
  auto& m = *impl_;
  StageWork w;
  m.expire();
  if (m.averaging) {
    if (m.averaging->apply_finished(m.optimizer)) {
      m.stash.publish(m.optimizer);
      if (m.spot_checks->verifies()) m.stash.set_common_point(m.averaging->anchor());
    }
    m.averaging->maybe_start(m.optimizer);
    wait = m.averaging->until_next_window(wait);
  }
  m.checkpoints.maybe_save(m.optimizer, m.counters);
  m.absorb_totals();
  auto item = m.inbox.take(
      wait, [&] { return m.schedule.can_forward(); }, [&] { return m.schedule.can_feed(); });
  m.absorb_totals();
  const auto t0 = Clock::now();
  if (item.recompute) {
    m.recompute(w, *item.recompute);
  } else if (item.work) {
    if (item.work->backward) {
      m.backward(w, *item.work);
    } else {
      m.forward(w, *item.work);
    }
  } else if (m.schedule.can_feed()) {
    m.feed(w);
  } else {
    return w;
  }
  w.did_work = true;
  w.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  const auto live = m.schedule.live_versions(m.stash.current_ptr());
  const auto in_flight = static_cast<std::int64_t>(m.schedule.in_flight().size());
  m.counters.update([&](StageStats& s) {
    s.busy_seconds += w.seconds;
    s.live_versions = live;
    s.stash_bytes = (live - 1) * m.optimizer.parameter_bytes();
    s.in_flight = in_flight;
  });
  return w;
}

void StageRuntime::checkpoint_now() {
  // A step still waiting for the whole model's gradient norm belongs in the checkpoint (on a
  // clean stop nothing else would take it).
  impl_->settle();
  impl_->checkpoints.save(impl_->optimizer, impl_->counters);
}

std::vector<float> StageRuntime::parameters() const { return impl_->optimizer.flat_parameters(); }

std::int64_t StageRuntime::optimizer_steps() const {
  return impl_->optimizer.optimizer().steps_taken();
}

std::vector<std::string> StageRuntime::optimizer_state_names() const {
  return impl_->optimizer.optimizer().state_buffer_names();
}

OptimizerState StageRuntime::optimizer_state() const { return impl_->optimizer.state(); }

std::vector<std::int64_t> StageRuntime::block_moment_steps() const {
  return impl_->optimizer.block_moment_steps(impl_->config.blocks);
}

void StageRuntime::load_blocks(std::int64_t first, std::int64_t last, std::span<const float> values,
                               std::int64_t optimizer_steps, const OptimizerState* state) {
  impl_->optimizer.load_blocks(impl_->config.blocks, first, last, values, optimizer_steps, state);
  impl_->stash.publish(impl_->optimizer);
  impl_->common_point.restored(impl_->optimizer.steps());
  if (impl_->spot_checks && impl_->spot_checks->verifies())
    impl_->stash.set_common_point(impl_->optimizer.flat_parameters());
}

void StageRuntime::set_draining(bool draining) {
  impl_->schedule.set_draining(draining);
  impl_->inbox.wake();
}

bool StageRuntime::idle() const {
  // in_flight belongs to the compute thread, which is the caller. Forwards still waiting in
  // the inbox are not started work: they wait for the resume.
  return impl_->schedule.in_flight().empty() && impl_->inbox.no_gradients();
}

void StageRuntime::restrict_peers(const std::vector<std::string>& members) {
  impl_->link->restrict_peers(members);
}

StageStats StageRuntime::stats() const {
  auto s = impl_->counters.snapshot();
  if (impl_->link) s.bytes_sent = impl_->link->bytes_sent();
  if (impl_->averaging) s.averaging_bytes_sent = impl_->averaging->bytes_sent();
  if (impl_->spot_checks) impl_->spot_checks->add_stats(s);
  return s;
}

std::string StageRuntime::endpoint() const { return impl_->endpoint; }
bool StageRuntime::is_first() const { return impl_->first(); }
bool StageRuntime::is_last() const { return impl_->last(); }
const StageConfig& StageRuntime::config() const { return impl_->config; }
bool StageRuntime::finished() const { return impl_->schedule.finished(); }

std::string StageRuntime::description() const {
  const auto& m = *impl_;
  return "training blocks [" + std::to_string(m.config.blocks.first) + ", " +
         std::to_string(m.config.blocks.last) + ") of " + std::to_string(m.chain.block_count()) +
         " in pipeline " + std::to_string(m.config.pipeline) + " of '" +
         (m.config.job.name.empty() ? m.config.job.id : m.config.job.name) + "' on " +
         m.config.device;
}

}  // namespace rookery::pipeline
