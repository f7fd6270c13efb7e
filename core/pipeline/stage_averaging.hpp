#pragma once
// StageAveraging: a stage's seat in Ravnest's parallel multi-ring all-reduce with the stages
// of other pipelines that hold the same parameters, as DiLoCo's outer steps. At every
// averaging interval (by the clock, the same instants on every member) it hands the
// reduce::Averager its pseudo-gradient, the anchor (the weights the last outer step made)
// minus the master weights now, compressed with the job's codec and error feedback, and
// training goes on. When the round is done (checked between micro-batches) the outer
// optimizer moves the anchor by the average (reduce/outer_optimizer), and the weights become
// the new anchor plus the steps taken while the round ran. Absolute weights are never
// quantised: every job.outer.anchor_sync_every-th round also averages the anchors (and the
// outer momentum, when the job has one) uncompressed, so a replica that missed a round comes
// back to the others. Every job.average_optimizer_state_every-th round also carries the
// optimizer's moments, in the same rings. The Averager and its ZeroMQ transport run the rings
// on their own threads; the rest is the compute thread's.
//
// In groups (job.averaging_max_group, Moshpit SGD): round r's rings span only the pipelines of
// r's group (reduce/averaging_groups.hpp: a grid of d dimensions, r averages along r mod d),
// so a round's size, and the pipelines one failure holds up, stay within the bound. r is the
// clock's window, which every member derives alone, so all agree on the groups without asking;
// a member that is in no group of two or more this round sends nothing and keeps its steps for
// the next round's pseudo-gradient. What a group round means for the outer step: a member's
// pseudo-gradient is averaged over its group only, and each member steps its own anchor with
// its group's average. Averaging pseudo-gradients never brings anchors that differ closer
// (anchor_i - mean(anchor - weights) keeps anchor_i - anchor_k), so after a group round the
// groups' anchors differ by their groups' mean progress, and only averaging the anchors
// themselves mixes them. Anchor syncs therefore count sweeps of d rounds: the anchors ride in
// every round of each outer.anchor_sync_every-th sweep (rounds r with (r / d) % every == 0),
// once along each dimension, which on a full grid gives every member the common mean of the
// anchors (up to the last round's group step). A lone sync round would mix them along one
// dimension only, and with `every` a multiple of d always the same one. anchor_sync_every 1
// averages the anchors in every round: Moshpit's gossip, at an f32 anchor's bytes a round.
//
// The outer momentum is each member's own between syncs: the momentum of the averages it
// received. Members that took the same rounds hold the same; one that missed a round (busy
// with the last, or its ring failed) lacks that round's average, and in groups each holds its
// groups'. With momentum mu the gap does not fade by itself: it moves that member's anchor by
// lr x mu x the gap every round, so its weights drift from the others' until their
// pseudo-gradients differ enough for CenteredClip to clip it hard and its partners to exclude
// it (measured: 4 honest pipelines with DiLoCo's lr 0.7 and momentum 0.9 excluded five
// partners within 15 s). The momentum therefore rides with the anchors in their sync rounds,
// uncompressed, and every member that took part leaves the sync with the same anchor and the
// same momentum. The error feedback is each member's own residual, as in one ring. The
// optimizer's moments follow the same sweeps.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "clock/clock.hpp"
#include "net/secure_context.hpp"
#include "pipeline/common_point.hpp"
#include "pipeline/stage_counters.hpp"
#include "pipeline/stage_runtime.hpp"
#include "wire/codec.hpp"

namespace rookery::reduce {
class Averager;
class ErrorFeedback;
class MultiRingPlan;
class OuterOptimizer;
class ZmqTransport;
class AggregationTally;
class PeerExclusion;
struct AveragingResult;
}  // namespace rookery::reduce

namespace rookery::pipeline {

class StageOptimizer;

class StageAveraging {
 public:
  // Joins the rings config.averaging describes (throws std::invalid_argument when a ring
  // member has no endpoint; in groups every pipeline's member of its ranges is a peer). Only
  // for a config whose averaging is enabled().
  // Tells `common_point` of every round applied.
  StageAveraging(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                 const StageConfig& config, wire::Codec codec, const StageOptimizer& optimizer,
                 StageCounters& counters, CommonPoint& common_point,
                 const clock::Clock& clock = clock::SystemClock::instance());
  ~StageAveraging();

  // Backwards finished since the last round, for the weight of this stage's contribution.
  void count_samples(std::int64_t samples) { samples_since_average_ += samples; }
  // Starts a round when a new window has opened (and the previous round is over).
  void maybe_start(const StageOptimizer& optimizer);
  // Applies a finished round to the master weights (and moments). Returns whether the
  // weights changed, so forwards need a new version.
  bool apply_finished(StageOptimizer& optimizer);
  // How long an idle stage may wait for work before it must look at the clock again.
  std::chrono::milliseconds until_next_window(std::chrono::milliseconds wait) const;
  // Bytes this stage's rings have sent (every buffer, headers included). Thread-safe.
  std::uint64_t bytes_sent() const;
  // The weights the last outer step made, which every replica that took part in the same
  // rounds holds (compute thread).
  const std::vector<float>& anchor() const { return anchor_; }
  // The outer optimizer's momentum (empty until its first step with momentum; compute thread).
  const std::vector<float>& outer_momentum() const;

 private:
  // Buffer names in the rings (the same on every member).
  static constexpr std::string_view kPseudoGradient = "pseudo_gradient";
  static constexpr std::string_view kAnchor = "anchor";
  static constexpr std::string_view kOuterMomentum = "outer_momentum";  // rides with the anchors

  // Whether round `round` is in an every-th sweep of dimensions_ rounds (every N-th round in one
  // ring), as every member counts them.
  bool in_sweep(std::uint64_t round, std::int64_t every) const;
  void apply_outer_step(const reduce::AveragingResult& result,
                        const std::vector<std::pair<std::size_t, std::size_t>>& stepped,
                        StageOptimizer& optimizer);
  bool apply_optimizer_state(const reduce::AveragingResult& result, StageOptimizer& optimizer);
  static std::vector<RingMeeting> meetings(const reduce::AveragingResult& result);

  const StageConfig& config_;
  std::string own_key_;
  StageCounters& counters_;
  CommonPoint& common_point_;
  const clock::Clock& clock_;
  std::int64_t rings_ = 0;  // rings this stage sits in (in groups: with every pipeline)
  std::unique_ptr<reduce::MultiRingPlan> plan_;
  std::size_t max_group_ = 0;   // pipelines in a round's group; 0: one ring across all of them
  std::size_t dimensions_ = 1;  // rounds for every pipeline to reach every other
  std::unique_ptr<reduce::ZmqTransport> transport_;
  std::unique_ptr<reduce::Averager> averager_;
  // Who was rejected or clipped hard in this stage's slices (BTARD): repeat offenders are
  // what a node reports to the coordinator.
  std::shared_ptr<reduce::AggregationTally> aggregation_tally_;
  // The optimizer state's verdicts, tallied apart (PeerExclusion judges each tally alone).
  std::shared_ptr<reduce::AggregationTally> state_tally_;
  std::shared_ptr<reduce::PeerExclusion> exclusion_;
  // The newest proof that each excluded partner lied (reduce/ring_proof.hpp), while excluded.
  std::map<std::string, std::vector<std::byte>> proofs_;
  std::vector<std::string> averaged_state_;  // optimizer buffers the rounds carry (empty: none)
  std::int64_t samples_since_average_ = 0;
  std::uint64_t last_window_ = 0;  // the last averaging window this stage saw
  // The outer step's state: the anchor (the weights the last outer step made; the stage's
  // own weights when it starts), the weights when the running round started, the outer
  // optimizer's momentum, and what the codec dropped (error feedback; null: off).
  std::vector<float> anchor_, round_start_;
  std::int64_t round_start_steps_ = 0;  // the optimizer's steps when the running round started
  bool awaiting_result_ = false;        // a round was started and its result not applied yet
  std::unique_ptr<reduce::OuterOptimizer> outer_;
  std::unique_ptr<reduce::ErrorFeedback> feedback_;
};

}  // namespace rookery::pipeline
