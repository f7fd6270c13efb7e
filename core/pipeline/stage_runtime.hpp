#pragma once
// StageRuntime: one pipeline stage of Ravnest's zero-bubble asynchronous model parallelism.
//
// The stage holds blocks [first, last) of the model. It runs forward as soon as input
// arrives and backward as soon as the gradient arrives, steps its own optimizer after each
// (accumulated) backward, and never flushes: the first stage keeps at most `staleness`
// micro-batches in flight. Weight stashing (PipeDream): every forward runs on a weight
// *version* that is never changed while micro-batches it started are in flight, so each
// backward runs through the graph its forward built, with exactly the weights it used.
// The optimizer updates a master copy; a version is refreshed from it, or a new one taken
// from a small pool, after each step. Versions nobody needs are recycled at once.
//
// With other pipelines training the same model, the stage also sits in Ravnest's parallel
// multi-ring all-reduce: at every averaging interval (by the clock, the same instants on
// every member) it hands a copy of its master weights to a reduce::Averager and trains on;
// when the round is done (checked between micro-batches) it adds (average - snapshot), so
// the steps it took meanwhile are kept. Every job.average_optimizer_state_every-th round also
// carries the optimizer's moments, in the same rings (see StageAveraging::maybe_start).
//
// Threads: the link's receiver thread receives and decodes messages into the inbox; the
// caller of run_once() computes; the link encodes (codec) and sends off the caller's thread;
// the Averager and its ZeroMQ transport run rings on their own threads. Queues are bounded
// by the staleness, and nothing busy-waits.
//
// Each mechanism is a class of its own, which StageRuntime composes: WeightStash,
// StageOptimizer (with weight prediction), StageAveraging, StageInbox, StageSchedule,
// SpotCheckProtocol, StageCheckpoints, and stage_messages for what travels between stages;
// a StageLink (stage_link.hpp) is its only way to its peers.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <string_view>
#include <string>
#include <vector>

#include "job/job_spec.hpp"
#include "model/block_range.hpp"
#include "net/peer_sender.hpp"
#include "net/secure_context.hpp"
#include "pipeline/spot_check.hpp"
#include "pipeline/stage_link.hpp"
#include "reduce/multi_ring_plan.hpp"

namespace rookery::pipeline {

// Averaging with the stages of other pipelines that hold the same parameters.
struct AveragingConfig {
  std::vector<reduce::PipelinePartition>
      pipelines;                                 // every pipeline, in plan order; fewer than 2: off
  std::map<std::string, std::string> endpoints;  // member key -> its reduce endpoint (tcp://)
  std::string listen;                            // this stage's reduce endpoint
  std::chrono::milliseconds interval{10000};     // round r starts at r x interval, Unix time
  std::chrono::milliseconds timeout{5000};       // each wait inside a ring (at most interval / 6)
  std::uint32_t max_attempts = 2;                // a failed member is excluded, then one retry
  bool enabled() const { return pipelines.size() >= 2; }
};

// Misbehaviour on purpose, for the tests that show a swarm survives it.
enum class Fault {
  None,
  SignFlipAveraging,   // hands the rings reference - 1000 x (its update since the last average)
  CorruptActivations,  // sends its activations forward sign-flipped and scaled x10
  CorruptGradients,    // sends its gradients back sign-flipped and scaled x10
  CorruptWork,         // both: whatever its seat sends, forward or back, is wrong
  LyingAggregator,     // as a ring chunk's owner, hands out its aggregate x-1000 + 1
  AlteringForwarder,   // alters (x-1000 + 1) the averaged bytes it forwards around the ring
  LyingAggregatorCommitments,  // LyingAggregator, and signs for an input its partner never sent
  FalseSpotChecks,  // reports every stage that sends it work as caught in spot-checks, unchecked
};

inline bool corrupts_activations(Fault f) {
  return f == Fault::CorruptActivations || f == Fault::CorruptWork;
}
inline bool corrupts_gradients(Fault f) {
  return f == Fault::CorruptGradients || f == Fault::CorruptWork;
}

// A stage somewhere in the swarm: who holds which blocks (spot-checks find verifiers here).
struct StageHolder {
  net::PeerAddress address;
  model::BlockRange blocks;
};

struct StageConfig {
  job::JobSpec job;
  std::uint32_t pipeline = 0;
  model::BlockRange blocks;
  std::string listen = "tcp://127.0.0.1:0";  // where this stage receives (over ZeroMQ)
  std::string advertise;  // what peers should connect to (default: the bound endpoint)
  net::PeerAddress next;  // empty for the last stage
  // SWARM's wiring: every node that holds the next blocks, in any pipeline whose cut matches
  // (next among them). Micro-batches go to them by weighted round-robin (NextHopRouter).
  std::vector<net::PeerAddress> next_candidates;
  // Micro-batches may come from, and their gradients go back to, other pipelines' stages.
  bool cross_pipeline = false;
  std::vector<std::string> peer_keys;  // keys allowed to send to this stage
  std::string device = "cpu";
  std::filesystem::path checkpoint_path;  // empty: no checkpoints
  std::chrono::seconds checkpoint_interval{300};
  std::chrono::milliseconds micro_batch_timeout{20000};  // in flight longer: dropped and counted
  std::int64_t max_micro_batches = 0;  // first stage: stop feeding after this many; 0 = unbounded
  std::int64_t first_sample = 0;       // first stage: where sample ids start (unless resumed)
  // First stage: 0 runs Ravnest's schedule (never flush). N > 0 runs GPipe's synchronous
  // schedule instead: feed N micro-batches, then wait until all are back before feeding
  // more (with grad_accumulation = N, one step per flush). The baseline in benchmarks.
  std::int64_t flush_every = 0;
  // Stages after this one in the pipeline. A stage holds at most (staleness - stages_before)
  // micro-batches in flight, at least one, as in PipeDream's 1F1B: the gradient delay of each
  // stage is then bounded by its place in the pipeline, not by how the operating system
  // happens to schedule the processes (a slow next stage would otherwise let a middle stage
  // fill up to the first stage's bound, and a longer delay costs training quality).
  std::int64_t stages_before = 0;
  AveragingConfig averaging;
  // Every stage of the swarm (this one included): a sender's verifiers are the others that
  // hold exactly its blocks, or, where none does, chains of others whose ranges cover them.
  // Empty: this stage checks nobody (spot_check.hpp).
  std::vector<StageHolder> holders;
  Fault fault = Fault::None;
};

struct StageStats {
  std::int64_t forwards = 0;   // micro-batches forwarded by this stage
  std::int64_t backwards = 0;  // micro-batches whose backward finished here
  std::int64_t samples = 0;    // samples whose backward finished here
  std::int64_t optimizer_steps = 0;
  std::int64_t dropped = 0;            // given up in flight: timed out, or refused downstream
  std::int64_t rejected = 0;           // malformed or unusable messages
  std::int64_t unknown_backwards = 0;  // gradients for micro-batches no longer in flight
  std::int64_t in_flight = 0;
  std::int64_t live_versions = 0;  // weight versions held for in-flight micro-batches
  std::int64_t stash_bytes = 0;    // memory those versions take
  std::int64_t next_sample = 0;
  double last_loss = -1;
  double forward_flops = 0, backward_flops = 0;
  double recompute_flops = 0;  // spot-check recomputations run for other checkers
  double busy_seconds = 0;
  std::uint64_t bytes_sent = 0;
  std::int64_t checkpoints = 0;
  // Multi-ring averaging with the other pipelines.
  std::int64_t averaging_rings = 0;    // rings this stage sits in
  std::int64_t averaging_rounds = 0;   // rounds applied in which at least one partner took part
  std::int64_t averaging_alone = 0;    // rounds in which no partner could be reached
  std::int64_t averaging_skipped = 0;  // periods that passed while the previous round still ran
  std::int64_t averaging_state_rounds =
      0;  // applied rounds that averaged the optimizer's moments too
  std::uint64_t averaging_last_round = 0;
  double averaging_seconds = 0;             // the last applied round, start to finish
  std::uint64_t averaging_bytes_sent = 0;   // by this stage's rings, every buffer
  std::vector<std::string> excluded_peers;  // ring partners left out of this stage's aggregates
  // Proofs that excluded partners lied as owners or forwarders (reduce/ring_proof.hpp), tagged:
  // the newest of each, while it is excluded, for the coordinator to check and ban on.
  std::vector<std::vector<std::byte>> aggregation_proofs;
  struct RingPartner {
    std::string key, endpoint;
    std::uint32_t pipeline = 0;
    std::int64_t shared_values = 0, rings = 0;
  };
  std::vector<RingPartner> ring_partners;  // who this stage averages with, by pipeline
  // Spot-checks of the activations and gradients this stage receives (spot_check.hpp).
  std::int64_t spot_checks_passed = 0;
  std::int64_t spot_checks_failed = 0;
  std::int64_t spot_checks_inconclusive = 0;
  std::int64_t spot_checks_unanswered =
      0;  // the input never came: that work dropped, nobody blamed
  // No verifier's replica stood close enough to the sender's (pipeline/common_point.hpp):
  // the work is used, nobody blamed.
  std::int64_t spot_checks_incomparable = 0;
  std::int64_t recomputes = 0;  // recomputations this stage ran for other checkers
  std::vector<std::string>
      caught_peers;  // senders caught sending wrong activations or gradients: refused
  // Receipts: of each peer's work, the samples this stage consumed (its activations trained
  // on here, its gradients applied here), by the peer's key. The coordinator credits a node
  // with the work its consumers confirm, not with what it claims (the run's ledger).
  struct Receipt {
    std::int64_t forward_samples = 0, backward_samples = 0;
  };
  std::map<std::string, Receipt> receipts;
  // Global-norm clipping (job.max_grad_norm): steps taken with an estimated total because the
  // weights were needed before the exact one came (GlobalNormClip), and the last step's factor.
  std::int64_t clip_estimated_steps = 0;
  double last_clip_factor = 1;
};

// The optimizer's per-parameter state for some blocks, laid out like their parameters
// (model::Optimizer's state buffers, flat): what travels with the parameters when a shard
// moves to another node.
struct OptimizerState {
  std::int64_t moment_step = 0;  // AdamW's bias-correction step of these moments (0 for SGD)
  std::vector<std::pair<std::string, std::vector<float>>> buffers;  // name -> values
  const std::vector<float>* find(std::string_view name) const {
    for (const auto& [n, v] : buffers) {
      if (n == name) return &v;
    }
    return nullptr;
  }
};

struct StageWork {
  bool did_work = false;
  double flops = 0;
  double seconds = 0;
  std::int64_t samples = 0;  // samples completed (backward) in this call
  double loss = -1;          // the loss of a micro-batch completed in this call, if any
};

class StageRuntime {
 public:
  // Binds the stage's socket (a ZmqStageLink at config.listen) and loads the checkpoint at
  // config.checkpoint_path if there is one. Throws CheckpointError for a corrupt checkpoint
  // (never trains from a bad one).
  StageRuntime(net::SecureContext& ctx, const net::CurveKeyPair& identity, StageConfig config);
  // The same over `link`, which starts listening here (its endpoint is the stage's address);
  // config.listen is not used. `ctx` still carries the averaging rings.
  StageRuntime(net::SecureContext& ctx, const net::CurveKeyPair& identity, StageConfig config,
               std::unique_ptr<StageLink> link);
  ~StageRuntime();
  StageRuntime(const StageRuntime&) = delete;
  StageRuntime& operator=(const StageRuntime&) = delete;

  // Does one item of work (a backward, a forward, or, on the first stage, a new
  // micro-batch), waiting up to `wait` for one. Call from one thread only.
  StageWork run_once(std::chrono::milliseconds wait);
  // Writes a checkpoint now (the compute thread; also on a clean stop).
  void checkpoint_now();
  // The shard's parameters, flattened (reduce::flatten_parameters' layout: its blocks in
  // order). Compute thread only.
  std::vector<float> parameters() const;
  std::int64_t optimizer_steps() const;
  // The names of the optimizer's state buffers (model::Optimizer::state_buffer_names).
  std::vector<std::string> optimizer_state_names() const;
  // The optimizer's state for the whole shard (parameters() layout). Compute thread only.
  OptimizerState optimizer_state() const;
  // Each block's moment step (model::Optimizer::moment_step over its parameters): how long
  // the block has trained since it last started from fresh moments. Compute thread only.
  std::vector<std::int64_t> block_moment_steps() const;
  // Replaces the parameters of blocks [first, last), which must lie inside the shard, with
  // `values` (the same layout) — the state a peer handed over when a new plan moved those
  // blocks here. Adopts `optimizer_steps` when it is ahead (the learning-rate schedule goes
  // on where the swarm is). With `state` (every buffer of optimizer_state_names(), each laid
  // out like `values`), the optimizer's moments of those blocks become the handed-over ones;
  // without, they start fresh (as a new optimizer's). Compute thread only. Throws
  // std::invalid_argument on a size or range mismatch, a missing or unknown buffer, or a
  // moment that is not finite (or a negative second moment), without changing anything.
  void load_blocks(std::int64_t first, std::int64_t last, std::span<const float> values,
                   std::int64_t optimizer_steps, const OptimizerState* state = nullptr);

  StageStats stats() const;
  std::string endpoint() const;  // the address peers send to
  bool is_first() const;
  bool is_last() const;
  // First stage with max_micro_batches set: all fed and none left in flight.
  bool finished() const;
  // Pausing gracefully: while draining the stage starts no new micro-batch (the first stage
  // feeds none, the others leave new forwards waiting in the inbox) and finishes the backward
  // of every micro-batch in flight. Thread-safe.
  void set_draining(bool draining);
  // The job's members as the coordinator lists them: peers not among them (a volunteer that
  // left or was banned) are refused from now on, on open connections too.
  void restrict_peers(const std::vector<std::string>& members);
  // Nothing in flight and no gradient waiting: pausing now costs no peer a micro-batch.
  // Call from the compute thread.
  bool idle() const;
  std::string description() const;
  const StageConfig& config() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rookery::pipeline
