#pragma once
// CenteredClip: the Byzantine-tolerant aggregator of BTARD ("Secure Distributed Training at
// Scale", Gorbunov et al., ICML 2022), applied to one reduction slice at a time (the ring
// calls it per segment of a chunk, so it fits the multi-ring: every range is aggregated
// where it is owned).
//
//   1. Reject: a contribution with a NaN/Inf value, a weight that is not a positive finite
//      number, or a norm above `reject_norm_factor` x the median norm of the contributions
//      never enters the aggregate.
//   2. Weights: a member's weight (samples it claims) is capped at `weight_cap` x the median
//      weight, so a minority cannot outweigh the majority by claiming more samples.
//   3. Centre and start. The ring's slice owner passes its own values (Contribution::own):
//      an honest node trusts itself, so the arithmetic runs about them, and the start is the
//      weighted geometric median (Weiszfeld's iteration, in coefficient space). Without own
//      values (or when ours fail step 1) the centre and start are the coordinate-wise median
//      m, found by a sorting network per coordinate. Either start is a point a minority
//      cannot move far. tau_abs = tau x the median distance ||g_i - start|| (tau is relative,
//      so one value works for parameters and optimizer state alike).
//   4. Iterate  x <- x + sum_i w_i (g_i - x) min(1, tau_abs / ||g_i - x||) / sum_i w_i
//      until ||step|| <= tolerance x tau_abs or `max_iterations` steps were taken.
//
// Steps 3 and 4 run in coefficient space: x always stays centre + sum_i b_i (g_i - centre),
// so with the Gram matrix of the centred inputs every norm the iterations need is an n x n
// product, and the data are read twice in all (norms and Gram in one blocked pass, the result
// in a second) however many iterations it takes. The Gram matrix is the costly part (n^2/2
// multiply-adds per coordinate against the mean's n): it runs in 4 x 4 register tiles where
// there are 32 vector registers (AVX-512), 2 x 4 elsewhere, and sums lane-wise in f32 for 16
// blocks at a time before folding into double. tests/bench/reduce/bench_aggregate: about our own
// values 1.6-1.9x the plain weighted mean at 16 members x 1M values; the median centre costs
// its sorting network on top (3.6-4.4x).
//
// Each call can report, per member, whether it was rejected (and why), clipped, or clipped
// hard (scaled by less than `hard_clip_factor` at the result), to an AggregationObserver, so
// repeat offenders can be found. Stateless apart from that: thread-safe when the observer is.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "job/job_spec.hpp"
#include "reduce/aggregator.hpp"

namespace rookery::reduce {

struct CenteredClipOptions {
  double tau = 1.0;  // clip radius, x the median distance of the inputs from their median
  std::uint32_t max_iterations = 50;
  double tolerance = 1e-5;          // stop when the step is at most tolerance x the clip radius
  double reject_norm_factor = 100;  // reject ||g_i|| > this x the median norm; 0 disables the check
  double weight_cap = 1.0;          // weights capped at this x the median weight; 0: no cap
  double hard_clip_factor = 0.5;    // clipped hard: scaled by less than this at the result
};

// Throws std::invalid_argument naming the bad field (tau must be > 0, and so on).
void validate(const CenteredClipOptions& options);

enum class Verdict : std::uint8_t {
  accepted,      // entered the aggregate unscaled
  clipped,       // entered it scaled by clip_factor in [hard_clip_factor, 1)
  clipped_hard,  // scaled by less than hard_clip_factor
  rejected_non_finite,
  rejected_weight,  // weight not a positive finite number
  rejected_norm,    // norm above reject_norm_factor x the median norm
};
std::string_view to_string(Verdict v);
inline bool is_rejected(Verdict v) { return v >= Verdict::rejected_non_finite; }

struct MemberReport {
  std::string member;
  Verdict verdict = Verdict::accepted;
  double weight = 0;       // the weight used (after the cap); 0 when rejected
  double norm = 0;         // ||g_i|| (inf or NaN when non-finite)
  double distance = 0;     // ||g_i - x|| at the result (0 when rejected)
  double clip_factor = 1;  // min(1, tau_abs / distance) at the result
};

struct AggregationReport {
  std::size_t values = 0;  // length of the slice
  double median_norm = 0;
  double tau = 0;  // the absolute clip radius used
  std::uint32_t iterations = 0;
  bool converged = false;             // the last step was below the tolerance
  std::vector<MemberReport> members;  // in contribution order
};

// Called once per aggregate() call, possibly from several ring threads at once.
class AggregationObserver {
 public:
  virtual ~AggregationObserver() = default;
  virtual void on_aggregate(const AggregationReport& report) = 0;
};

// Counts, per member, the calls in which it was rejected or clipped hard: what a node will
// report to the coordinator about repeat offenders. Thread-safe.
class AggregationTally final : public AggregationObserver {
 public:
  struct Counts {
    std::uint64_t seen = 0, rejected = 0, clipped_hard = 0, clipped = 0;
    friend bool operator==(const Counts&, const Counts&) = default;
  };
  void on_aggregate(const AggregationReport& report) override;
  std::map<std::string, Counts> counts() const;
  std::uint64_t calls() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, Counts> counts_;
  std::uint64_t calls_ = 0;
};

class CenteredClip final : public Aggregator {
 public:
  explicit CenteredClip(CenteredClipOptions options = {},
                        std::shared_ptr<AggregationObserver> observer = {});
  std::string_view name() const override { return "centered-clip"; }
  // Throws std::invalid_argument when there are no contributions, their lengths differ from
  // out's, or every contribution is rejected.
  void aggregate(std::span<const Contribution> contributions, std::span<float> out) const override;
  // The same, also returning the report (and passing it to the observer).
  AggregationReport aggregate_with_report(std::span<const Contribution> contributions,
                                          std::span<float> out) const;

  const CenteredClipOptions& options() const { return options_; }
  const Aggregator& verifiable() const override { return untallied_ ? *untallied_ : *this; }

 private:
  CenteredClipOptions options_;
  std::shared_ptr<AggregationObserver> observer_;
  std::shared_ptr<const CenteredClip> untallied_;  // the same without the observer
};

// The aggregator a job asks for (job.aggregator): CenteredClip with the spec's knobs, or the
// plain WeightedMean. The observer, if any, receives CenteredClip's per-call reports.
std::shared_ptr<const Aggregator> make_aggregator(
    const job::AggregatorSpec& spec, std::shared_ptr<AggregationObserver> observer = {});

}  // namespace rookery::reduce
