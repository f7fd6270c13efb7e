#pragma once
// Spot-checks of pipeline work: BTARD's "verify a random share of the work" for what travels
// between stages, activations forward and gradients back (Secure Distributed Training at
// Scale, section 3.3; SWARM leaves a stage free to send anything). Aggregation guards the
// averages; this guards the pipeline itself, where a stage that sends garbage forward poisons
// every stage after it, and one that sends garbage back poisons every stage before it.
//
// A check of X's activations, run by a stage D that received a micro-batch's activations from X:
//   1. D asks X for the input X declares it computed them from (SpotCheckRequest). X keeps
//      the input of every micro-batch in flight for its own backward, so an honest X always
//      has it, and a stage that will not show its input fails the check. Past the first
//      stage, X shows the forward it computed from exactly as it came, signed for X by the
//      stage that sent it (signed_work.hpp; that stage must hold the blocks before X's, and
//      one the checker's plan seats elsewhere leaves the check unanswered: work that crossed
//      a plan change, which nodes make at their own instants):
//      the verifiers start from those bytes, so X gets no say in what they run (an input
//      chosen to swing the verifiers' outputs would make the check incomparable,
//      common_point.hpp), and neither does the sender, which cannot disown what it signed. A
//      first stage's input is token ids, which the verifiers check.
//   2. D sends that input to up to two verifiers, other holders of exactly X's blocks
//      (RecomputeRequest), which run their own copy forward and send the output back. Where
//      fewer than two hold exactly X's blocks, a verifier may be a chain: holders whose ranges
//      together cover X's blocks, each running only its part, the next one from the previous
//      one's output (core/cluster/verifier_chains.hpp chooses them, ChainRecompute runs them).
// A check of X's gradient, run by a stage U that sent X the micro-batch's activations:
//   1. If X ends the model, its gradient follows from U's activations and the targets (U sent
//      both). Otherwise U asks X for the gradient of X's own output that X ran backward from,
//      and X shows it exactly as it came, signed for X by the stage that sent it (which must
//      hold the blocks after X's; signed_work.hpp). X cannot change it: the backward is linear
//      in it, so a stage that sends its gradients scaled by -10 could otherwise declare its
//      incoming gradient scaled by -10 and pass; and the stage that sent it cannot disown it.
//   2. U sends the activations and that gradient (or the targets) to up to two verifiers,
//      which run X's blocks backward (torch::autograd::grad, their weights' gradients
//      untouched) and send d loss / d input back. A chain runs its links forward to learn the
//      activations entering each part, then backward in the reverse order.
// Both kinds end the same way:
//   3. judge(): honest replicas differ (each trains between averages), so only verifiers whose
//      replicas stand close to a point X's came from too are heard (common_point.hpp: X took
//      part in their last averaging rounds, and they measured their own drift since on this
//      input); with none, the check is incomparable and blames nobody. It fails only
//      when X's output is farther than the tolerance from every verifier's, and two verifiers
//      agree with each other within it (a lying verifier alone cannot fail an honest X: X
//      passes by agreeing with the other one). Two chains share no holder, so a lying link
//      spoils one of them only, as a lying verifier does.
// Any output uncorrelated with the true one is at least 1 away from it in that measure
// (||a - b||^2 = ||a||^2 + ||b||^2 >= max^2), so a tolerance below 1 catches every kind of
// garbage; honest replicas early in a run were measured up to 0.7 apart (0.93 with one
// verifier), later 0.1 to 0.3.
// A check whose input never comes (the checked stage did not answer before the deadline) is
// unanswered: it blames nobody, for a stage starved of CPU by its owner's work, or a request
// lost to a full queue, looks the same as one that will not answer; but it trusts nobody
// either: the held micro-batch is dropped, and the sender is suspect, so its work is used only
// after a check passes (while its checks are all pending, its micro-batches are refused). A
// stage that never answers therefore does no harm: its work dies here, and the stages before
// it route around it as around any stalled stage.
// A sender that fails `failures_to_catch` checks, and at least a third of its conclusive
// ones (an honest sender fails now and then early in a run), is caught: the checker refuses
// its work from then on (an activation liar's micro-batches die at D, and stages before it
// route around it, SWARM style; U drops what it had sent a gradient liar and routes around
// it) and names it to the coordinator, which bans it when most of the stages on that side of
// it agree (core/coordinator). Every sender's first `probation` micro-batches are checked,
// then a `rate` share of them; after a failed or unanswered check, every one until a check
// passes (a suspect is caught within a few micro-batches, not after hundreds).
//
// What it does not catch: a stage that lies by less than the tolerance (its harm is bounded
// by it, as CenteredClip bounds an averaging liar's), two colluders (a stage can sign garbage
// forward or back for a lying X that computes honestly from it, though its own work is then
// checked by X's neighbours as any stage's is),
// and a stage holding a block nobody else holds (with one pipeline, every stage; the planner
// reports which stages are checkable, core/cluster/check_coverage.hpp). A model
// with dropout cannot be checked this way (two honest forwards differ); the node turns checks
// off. Where the job compresses stage boundaries (low-rank factors), what the verifiers return,
// and the activations and gradient they start from, are compressed as the sender's were
// before they are compared (boundary_compression.hpp's as_received).
//
// SpotChecker is the bookkeeping of one kind of check (which micro-batches to check, what is
// pending, verdicts, who is caught); a stage keeps one for the activations it receives and
// one for the gradients; the stage runtime moves the tensors and computes the distances.
// Thread-safe.
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "job/job_spec.hpp"

namespace rookery::pipeline {

enum class SpotVerdict {
  Passed,        // the checked output agrees with a verifier's
  Failed,        // it disagrees with every verifier, which agree with each other
  Inconclusive,  // the verifiers disagree with each other, or none answered
  Unanswered,  // the input never came: nobody is blamed, the work is dropped, the sender is suspect
  Incomparable,  // no verifier's replica stood close enough to the sender's (common_point.hpp)
};

// What to do with a micro-batch a sender delivers.
enum class SpotDecision {
  Use,     // train on it unchecked
  Check,   // hold it until a verdict
  Refuse,  // drop it: the sender is caught, or suspect with no room for another check
};

// Relative distance between two outputs: ||a - b|| / max(||a||, ||b||) (0 when both are 0).
double relative_distance(double distance, double norm_a, double norm_b);

// The verdict from the relative distances of the checked output to each verifier's output
// (one or two) and, with two, between the verifiers.
SpotVerdict judge(const std::vector<double>& to_checked, double between_verifiers,
                  double tolerance);

struct SpotCheckStats {
  std::int64_t started = 0;
  std::int64_t passed = 0;
  std::int64_t failed = 0;
  std::int64_t inconclusive = 0;
  std::int64_t unanswered = 0;
  std::int64_t incomparable = 0;
  std::vector<std::string> caught;  // senders refused from now on (Z85 keys)
};

class SpotChecker {
 public:
  using Clock = std::chrono::steady_clock;

  explicit SpotChecker(job::SpotCheckSpec spec,
                       std::chrono::milliseconds timeout = std::chrono::seconds(10),
                       std::uint64_t seed = std::random_device{}());

  bool enabled() const { return spec_.rate > 0 || spec_.probation > 0; }
  // Whether to check this micro-batch from `sender` (probation first, then the rate; every one
  // while it is suspect). Counts the sender's micro-batches. A caught sender's work is refused,
  // and a suspect's when the pending checks are at their bound (it must not slip through
  // unchecked); anyone else's is then used unchecked.
  SpotDecision decide(const std::string& sender);
  // A check begins: `checked` sent micro-batch `micro_batch`; `verifiers` will be asked to
  // recompute it. False when one is already pending for that micro-batch.
  bool begin(std::uint64_t micro_batch, const std::string& checked,
             std::vector<std::string> verifiers, Clock::time_point now);
  // The checked stage and the verifiers of a pending check (nothing if none is pending).
  std::optional<std::pair<std::string, std::vector<std::string>>> pending(
      std::uint64_t micro_batch) const;
  // The checked stage showed its input: the verifiers were asked.
  void input_shown(std::uint64_t micro_batch);
  // The check is over with this verdict (from judge(), or a refusal to show the input).
  // Returns true when it makes the checked stage caught.
  bool finish(std::uint64_t micro_batch, SpotVerdict verdict);
  // Checks past their deadline: those whose input never came are unanswered, the others are
  // inconclusive (a verifier did not answer); neither catches anyone. Returns the
  // micro-batches ended, with their verdicts and the stages they checked.
  struct Expired {
    std::uint64_t micro_batch = 0;
    SpotVerdict verdict = SpotVerdict::Inconclusive;
    std::string checked;
  };
  std::vector<Expired> expire(Clock::time_point now);

  bool is_caught(const std::string& sender) const;
  // Every sender whose work it has seen (Z85 keys).
  std::vector<std::string> senders() const;
  // Whether an incomparable check of `sender` may still let its work be used: it passed a
  // check before, or its checks have been incomparable so long that no check can be had
  // (replicas that never average: nothing could ever vouch for anyone). A sender nobody has
  // vouched for yet gets its work dropped instead, so a liar gains nothing from a stretch in
  // which the replicas drifted too far to judge it.
  bool vouched(const std::string& sender) const;
  SpotCheckStats stats() const;

 private:
  struct Pending {
    std::string checked;
    std::vector<std::string> verifiers;
    Clock::time_point deadline;
    bool input_shown = false;
  };
  struct Record {
    std::int64_t seen = 0;
    std::int64_t passed = 0;
    std::int64_t failed = 0;
    bool suspect = false;  // its last check failed or went unanswered: check every micro-batch
    std::int64_t incomparable_run = 0;  // incomparable checks since its last conclusive one
  };
  bool finish_locked(std::uint64_t micro_batch, SpotVerdict verdict);

  job::SpotCheckSpec spec_;
  std::chrono::milliseconds timeout_;
  mutable std::mutex mutex_;
  std::mt19937_64 rng_;
  std::map<std::uint64_t, Pending> pending_;
  std::map<std::string, Record> senders_;
  std::set<std::string> caught_;
  SpotCheckStats stats_;
};

}  // namespace rookery::pipeline
