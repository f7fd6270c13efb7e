#pragma once
// CommonPoint: the weights a stage's replica last shared with the other pipelines' replicas
// of its blocks, and who shared them, so that a spot-check compares only replicas that can
// agree (spot_check.hpp).
//
// Honest replicas drift apart with every step each takes on its own data, and nothing can
// tell an honest replica that has drifted far from a liar: two outputs uncorrelated with each
// other are ~1 apart either way. test_pipeline_averaging measured it: at lr 1e-3, a chain of
// verifiers in a pipeline that started late was 0.93 from honest senders that had taken a
// dozen steps, and without averaging honest gradients were 0.9 to 1.06 from their verifiers
// after a few hundred steps, against a tolerance of 0.9 and a x-10 lie's 1.1. So a check is
// judged only where the replicas stand close to one point they both came from:
//   - The common point is the anchor every member of a ring holds after an averaging round
//     (an outer step applied to the same anchor with the same average), or the job's initial
//     weights before any round. Who shares it: the members that contributed to every round
//     of a ring since the last round that synced the anchors themselves. A replica restored
//     from a checkpoint or another peer's shard shares nothing until a round it takes part in.
//   - The verifier says whether the checked stage X shares its common point (X contributed to
//     those rounds), how far its own output moved since the common point (it recomputes the
//     check's input with the common point's weights too: measured, on this very input), and
//     how many optimizer steps it took since.
//   - Points are named by the number of the round that made them (the clock's window, the
//     same on every member). X's work carries the round its weights stood on when it ran (in
//     the forward or gradient itself), each verifier's answer the round it stands on: only
//     answers from the same point are heard (same_round()). A round often falls between work
//     and its check, and an outer step is no drift either side could measure.
//   - X's steps since the common point are the checker's own: the checker is X's neighbour in
//     one pipeline, where every stage takes the same steps (each micro-batch passes all of
//     them), and rounds restart everyone's count at the same instants. So X does not get to
//     say it drifted and escape the check.
// replicas_comparable() then admits a chain only when X shares every link's common point, and
// the links' drift plus X's estimated from it (by the ratio of X's steps to theirs) stays
// within two thirds of the tolerance: an honest X's distance to their output, about the sum
// of the two drifts, then stays within the tolerance (a chain's can be more: each link's
// drift is measured on its own input, not end to end). Otherwise the check is incomparable:
// it blames nobody, and the work is used only from a sender a passed check vouched for
// (checks resume after the next round).
// What it costs: a verifier's recomputation runs twice (now and on the common point's
// weights), and a stage that checks keeps one more copy of its weights.
// What a liar can do with it: comparability is the verifiers' and the checker's word, not
// the liar's. The one input to it a liar could shape, the input the drift is measured on, is
// never the liar's: past a first stage it is what the stage before the liar signed for it
// (signed_work.hpp), and on a first stage token ids. A liar that stays out of the rings stays
// out of every common point and is incomparable, as every stage of a swarm without averaging
// is once the replicas have drifted; the rings see it absent.
// Thread-safe.
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "model/block_range.hpp"

namespace rookery::pipeline {

// One ring of a finished averaging round, as this stage took part in it.
struct RingMeeting {
  model::BlockRange blocks;               // the ring's range, in blocks
  std::vector<std::string> contributors;  // whose values are in its average (this stage too)
  bool anchors_synced = false;            // the round averaged the anchors themselves
};

class CommonPoint {
 public:
  explicit CommonPoint(model::BlockRange blocks) : blocks_(blocks) {}

  // The optimizer's step count now (after each step, and once at the start).
  void stepped(std::int64_t steps);
  // The weights are not the job's initial ones (a checkpoint, or a shard from a peer): this
  // replica shares no point with anyone until a round it takes part in.
  void restored(std::int64_t steps);
  // A finished round, number `round` (the clock's window): the rings it averaged in with
  // partners. `steps_at_start`: the optimizer's steps when the round started (the weights are
  // now the new common point plus the steps taken since). False when no ring had a partner
  // (nothing changed).
  bool round_applied(std::span<const RingMeeting> rings, std::int64_t steps_at_start,
                     std::uint64_t round);

  // Optimizer steps since the common point.
  std::int64_t local_steps() const;
  // Whether `member` shares the common point of blocks `part` (of this stage's blocks).
  bool shared_with(const std::string& member, model::BlockRange part) const;
  // Rounds with partners so far.
  std::int64_t rounds() const;
  // The number of the round that made the common point (0: the job's initial weights, or a
  // restored replica's before its first round). What this replica stands on is named by it:
  // a stage sends it with its work, a verifier with its recomputation.
  std::uint64_t point_round() const;

 private:
  using Range = std::pair<std::int64_t, std::int64_t>;
  model::BlockRange blocks_;
  mutable std::mutex mutex_;
  std::int64_t steps_ = 0;
  std::int64_t base_steps_ = 0;  // the optimizer's steps at the common point
  bool at_start_ = true;         // the job's initial weights, shared with every replica
  std::int64_t rounds_ = 0;
  std::uint64_t point_round_ = 0;
  std::map<Range, std::set<std::string>> sharers_;  // by ring range: who holds its point
};

// What a verifier (a chain's link) said of its own replica for one check.
struct VerifierStanding {
  bool shares_point = false;  // the checked stage shares its common point
  double drift = 0;           // its output's relative distance from the common point's output
  std::int64_t local_steps = 0;
  std::uint64_t round = 0;  // the round of its common point (CommonPoint::point_round)
};

// Whether every link of a chain stands on the common point of round `round`, the one the
// checked stage's work was computed on. Rounds fall between a stage's work and its check (the
// work travels, waits in a queue, the check takes round trips), and a check across one
// compares a replica before an outer step with replicas after it: the step is not drift
// either side measured, and an honest stage fails by it. Such a check is incomparable, and
// its work is stale: it is not used (whoever vouched for its sender), so a sender gains
// nothing by naming another round than its own.
bool same_round(std::span<const VerifierStanding> links, std::uint64_t round);

// Whether a chain's recomputation can judge the checked stage, whose work was computed on the
// common point of `checked_round`, and whose steps since are taken as `checked_steps` (the
// checker's own). `tolerance` is the check's. When not, `why` says so (for the log).
bool replicas_comparable(std::span<const VerifierStanding> links, std::uint64_t checked_round,
                         std::int64_t checked_steps, double tolerance, std::string* why = nullptr);

// Where a chain's links stood, for the log: "0.12 in 10 steps + 0.05 in 10 steps".
std::string describe_standing(std::span<const VerifierStanding> links);

}  // namespace rookery::pipeline
