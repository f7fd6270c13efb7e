#include "pipeline/stage_averaging.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <spdlog/spdlog.h>

#include "net/identity.hpp"
#include "pipeline/stage_optimizer.hpp"
#include "reduce/averager.hpp"
#include "reduce/averaging_groups.hpp"
#include "reduce/centered_clip.hpp"
#include "reduce/error_feedback.hpp"
#include "reduce/outer_optimizer.hpp"
#include "reduce/multi_ring_plan.hpp"
#include "reduce/peer_exclusion.hpp"
#include "reduce/shard_buffers.hpp"
#include "reduce/zmq_transport.hpp"

namespace rookery::pipeline {

namespace {
// Partners for the dashboard: every other member of our rings, with what we share. Members
// are in pipeline order, one per pipeline.
std::vector<StageStats::RingPartner> ring_partners(const reduce::NodeRanges& ranges,
                                                   const std::string& own_key,
                                                   const AveragingConfig& a) {
  std::vector<StageStats::RingPartner> partners;
  for (const auto& r : ranges.ranges) {
    for (std::size_t p = 0; p < r.members.size(); ++p) {
      const auto& member = r.members[p];
      if (member == own_key) continue;
      auto it = std::find_if(partners.begin(), partners.end(),
                             [&](const StageStats::RingPartner& x) { return x.key == member; });
      if (it == partners.end()) {
        it = partners.insert(partners.end(),
                             {member, a.endpoints.at(member), static_cast<std::uint32_t>(p), 0, 0});
      }
      it->shared_values += static_cast<std::int64_t>(r.size());
      ++it->rings;
    }
  }
  std::sort(partners.begin(), partners.end(),
            [](const auto& x, const auto& y) { return x.pipeline < y.pipeline; });
  return partners;
}

// The group bound a stage averages with (averaging_group_bound), saying so when the job's own
// bound fits no grid of the pipelines.
std::size_t group_bound(std::int64_t asked, std::size_t pipelines) {
  const auto bound = reduce::averaging_group_bound(asked, pipelines);
  if (asked > 0 && bound != 0 && bound != std::size_t(asked)) {
    spdlog::warn(
        "averaging: {} pipelines fit no grid of groups of at most {}; averaging in "
        "groups of at most {} instead",
        pipelines, asked, bound);
  }
  return bound;
}
}  // namespace

StageAveraging::StageAveraging(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                               const StageConfig& config, wire::Codec codec,
                               const StageOptimizer& optimizer, StageCounters& counters,
                               CommonPoint& common_point, const clock::Clock& clock)
    : config_(config),
      own_key_(identity.public_key),
      counters_(counters),
      common_point_(common_point),
      clock_(clock),
      aggregation_tally_(std::make_shared<reduce::AggregationTally>()),
      state_tally_(std::make_shared<reduce::AggregationTally>()),
      exclusion_(std::make_shared<reduce::PeerExclusion>()) {
  const auto& a = config.averaging;
  const auto& job = config.job;
  plan_ = std::make_unique<reduce::MultiRingPlan>(reduce::block_parameter_counts(job.model),
                                                  a.pipelines);
  // Every ring across all pipelines: in groups, each round's rings are some of its members.
  auto ranges = plan_->for_node(identity.public_key);
  max_group_ = group_bound(job.averaging_max_group, a.pipelines.size());
  if (max_group_ > 0)
    dimensions_ = reduce::averaging_grid(a.pipelines.size(), max_group_).dimensions;
  reduce::ZmqTransportConfig tc;
  tc.listen = a.listen;
  tc.send_timeout = std::min(a.timeout, a.interval / (2 * (a.max_attempts + 1)));
  transport_ = std::make_unique<reduce::ZmqTransport>(ctx, identity, tc);
  for (const auto& r : ranges.ranges) {
    for (const auto& member : r.members) {
      if (member == identity.public_key) continue;
      const auto it = a.endpoints.find(member);
      if (it == a.endpoints.end())
        throw std::invalid_argument("averaging: no reduce endpoint for ring member " + member);
      transport_->add_peer(member, it->second);
    }
  }
  reduce::RingOptions ro;
  ro.codec = codec;
  ro.aggregator = reduce::make_aggregator(job.aggregator, aggregation_tally_);
  if (job.aggregator.kind == job::AggregatorKind::centered_clip) {
    ro.aggregator = std::make_shared<reduce::ExcludingAggregator>(ro.aggregator, exclusion_);
  }
  // The job's averaging.verify (auto: with CenteredClip, the job asking for Byzantine
  // robustness): inputs committed, every chunk's aggregate recomputed by averaging.validators
  // members, forwarded bytes signed (reduce/aggregate_verification.hpp). Every member of a
  // ring runs the same job, so all agree.
  ro.verify = job::verifies_aggregation(job);
  ro.validators = static_cast<std::uint32_t>(job.averaging.validators);
  if (config.fault == Fault::LyingAggregator) ro.fault = reduce::RingOptions::Fault::lying_owner;
  if (config.fault == Fault::AlteringForwarder)
    ro.fault = reduce::RingOptions::Fault::altering_forwarder;
  if (config.fault == Fault::LyingAggregatorCommitments)
    ro.fault = reduce::RingOptions::Fault::lying_owner_commitments;
  // A round gives up within (attempts + 1) waits; it must be over before the next window
  // opens, or a member still busy with a round its partner gave up on would sit out the
  // partner's next round, and the two would keep missing each other.
  ro.max_attempts = a.max_attempts;
  ro.timeout = std::min(a.timeout, a.interval / (2 * (a.max_attempts + 1)));
  rings_ = static_cast<std::int64_t>(ranges.ranges.size());
  counters_.update([&](StageStats& s) {
    s.averaging_rings = rings_;
    s.ring_partners = ring_partners(ranges, own_key_, a);
  });
  reduce::AveragerConfig ac{std::move(ranges), ro, {}, {}};
  // The anchors, when a round syncs them, travel uncompressed: never quantise the weights.
  ac.buffer_codecs[std::string(kAnchor)] = wire::Codec::None;
  if (job.outer.momentum > 0) ac.buffer_codecs[std::string(kOuterMomentum)] = wire::Codec::None;
  outer_ = std::make_unique<reduce::OuterOptimizer>(job.outer);
  if (job.outer.error_feedback && codec != wire::Codec::None)
    feedback_ = std::make_unique<reduce::ErrorFeedback>(codec);
  // The weights this stage starts from: the job's initial weights (the same on every replica,
  // by the job's seed), a checkpoint's, or those fetched from a holder of its blocks. The
  // last two may differ from the partners' anchor until the next anchor sync.
  anchor_ = optimizer.flat_parameters();

  // Optimizer state: the moments are laid out like the parameters, so they ride in the same
  // rings (ring keys differ by buffer name) with the same members, timeouts, codec and
  // exclusions. CenteredClip applies to them as to the parameters: they come from the same
  // untrusted partners, and a lie about them is as harmful (a huge second moment freezes a
  // parameter, a negative one makes its update NaN). Its radius is relative to the spread of
  // the inputs, so the same tau fits moments whose scale is 1e-8. Their verdicts go to a
  // tally of their own, so a liar honest about its moments cannot dilute its parameter lies
  // below the exclusion rule (and the reverse).
  if (job.average_optimizer_state_every > 0)
    averaged_state_ = optimizer.optimizer().state_buffer_names();
  if (job.aggregator.kind == job::AggregatorKind::centered_clip) {
    std::shared_ptr<const reduce::Aggregator> state_aggregator =
        std::make_shared<reduce::ExcludingAggregator>(
            reduce::make_aggregator(job.aggregator, state_tally_), exclusion_);
    for (const auto& name : averaged_state_) ac.buffer_aggregators[name] = state_aggregator;
  }
  // The moments never travel as int8 or fp16: a second moment spans orders of magnitude inside
  // one block, and int8's absmax scale (or fp16's range) rounds the small ones to 0, which
  // makes AdamW's step for them lr / eps. bf16 keeps f32's range with 3 digits; with no codec
  // they go uncompressed.
  if (codec != wire::Codec::None) {
    for (const auto& name : averaged_state_) ac.buffer_codecs[name] = wire::Codec::Bf16;
  }
  const std::string rounds =
      dimensions_ > 1 ? "sweeps of " + std::to_string(dimensions_) + " rounds" : "rounds";
  spdlog::info(
      "averaging with {} other pipeline(s) in {} ring(s){} every {} ms ({}; outer step lr {} "
      "momentum {} on {} pseudo-gradients{}; anchors synced every {} {}; optimizer state "
      "{}), listening on {}",
      a.pipelines.size() - 1, ac.ranges.ranges.size(),
      max_group_ ? fmt::format(" in groups of at most {} ({} rounds reach every pipeline)",
                               max_group_, dimensions_)
                 : std::string(),
      a.interval.count(), ro.aggregator->name(), job.outer.lr, job.outer.momentum,
      wire::codec_name(codec), feedback_ ? " with error feedback" : "", job.outer.anchor_sync_every,
      rounds,
      averaged_state_.empty()
          ? std::string("not averaged")
          : "every " + std::to_string(job.average_optimizer_state_every) + " " + rounds,
      transport_->endpoint());
  averager_ = std::make_unique<reduce::Averager>(*transport_, std::move(ac));
}

StageAveraging::~StageAveraging() = default;

std::uint64_t StageAveraging::bytes_sent() const { return transport_->bytes_sent(); }

const std::vector<float>& StageAveraging::outer_momentum() const { return outer_->momentum(); }

// Rounds are scheduled by the clock, not by local steps: round r starts at r x interval
// (Unix time) on every member. Step counts drift apart between pipelines (a drop, a restart
// from a checkpoint, a slower PC); synchronised clocks do not, so partners always agree on
// which round they are in, and a member that missed one simply joins the next.
void StageAveraging::maybe_start(const StageOptimizer& optimizer) {
  if (rings_ == 0) return;
  const auto window =
      static_cast<std::uint64_t>(clock_.unix_ms() / config_.averaging.interval.count());
  if (last_window_ == 0) last_window_ = window;  // the first full window after start
  if (window <= last_window_) return;
  last_window_ = window;
  if (awaiting_result_) {
    // The previous round still runs, or its result is not applied yet: never queue behind it
    // (its outer step needs the weights its own round started from).
    counters_.update([](StageStats& s) { ++s.averaging_skipped; });
    return;
  }
  if (max_group_ > 0) {
    // This round's groups: the same on every member, which numbers the round by the clock too.
    auto ranges = plan_->for_node(own_key_, window, max_group_);
    if (ranges.ranges.empty()) {
      spdlog::debug("averaging round {}: in no group this round", window);
      return;  // nothing sent; the next round's pseudo-gradient carries the steps
    }
    averager_->set_ranges(std::move(ranges));
  }
  round_start_ = optimizer.flat_parameters();
  round_start_steps_ = optimizer.steps();
  if (anchor_.size() != round_start_.size()) anchor_ = round_start_;
  std::vector<float> pseudo_gradient(round_start_.size());
  for (std::size_t i = 0; i < pseudo_gradient.size(); ++i)
    pseudo_gradient[i] = anchor_[i] - round_start_[i];
  if (config_.fault == Fault::SignFlipAveraging) {
    for (auto& v : pseudo_gradient) v *= -1000.0f;  // the lie: 1000x the steps, backwards
  }
  std::vector<reduce::FlatBuffer> buffers;
  buffers.push_back({std::string(kPseudoGradient), feedback_
                                                       ? feedback_->compensate(pseudo_gradient)
                                                       : std::move(pseudo_gradient)});
  // Every N-th round by number (in groups: every round of every N-th sweep), as every member
  // counts them.
  if (in_sweep(window, config_.job.outer.anchor_sync_every)) {
    buffers.push_back({std::string(kAnchor), anchor_});
    if (config_.job.outer.momentum > 0) {
      // Zeros until the first outer step, as every replica's.
      auto momentum = outer_->momentum();
      momentum.resize(anchor_.size(), 0.0f);
      buffers.push_back({std::string(kOuterMomentum), std::move(momentum)});
    }
  }
  // Likewise, so every member includes the moments in the same rounds (rounds are numbered by
  // the clock) and the rings for them meet.
  const bool with_state =
      !averaged_state_.empty() && in_sweep(window, config_.job.average_optimizer_state_every);
  if (with_state) {
    for (const auto& name : averaged_state_)
      buffers.push_back({name, optimizer.optimizer().state_buffer(name)});
  }
  averager_->start(window, std::move(buffers), std::max<std::int64_t>(1, samples_since_average_));
  awaiting_result_ = true;
  spdlog::debug("averaging round {} started after {} steps ({} samples){}", window,
                optimizer.steps(), samples_since_average_,
                with_state ? ", with the optimizer state" : "");
  samples_since_average_ = 0;
}

bool StageAveraging::in_sweep(std::uint64_t round, std::int64_t every) const {
  return every > 0 && (round / dimensions_) % static_cast<std::uint64_t>(every) == 0;
}

// A round has to start on time on every member (a partner waits only interval / 6 for it),
// so an idle wait ends at the next window's opening.
std::chrono::milliseconds StageAveraging::until_next_window(std::chrono::milliseconds wait) const {
  if (rings_ == 0) return wait;
  const auto interval = config_.averaging.interval.count();
  const auto left = std::chrono::milliseconds(interval - clock_.unix_ms() % interval + 1);
  return std::min(wait, left);
}

bool StageAveraging::apply_finished(StageOptimizer& optimizer) {
  auto result = averager_->poll();
  if (!result) return false;
  awaiting_result_ = false;
  bool partnered = false;
  for (const auto& r : result->rings) partnered = partnered || r.outcome.averaged();
  bool state_applied = false;
  const auto stepped = result->averaged_spans(kPseudoGradient);
  if (feedback_) feedback_->settle(stepped);
  if (partnered) {
    apply_outer_step(*result, stepped, optimizer);
    state_applied = apply_optimizer_state(*result, optimizer);
    common_point_.round_applied(meetings(*result), round_start_steps_, result->round);
  }
  spdlog::debug("averaging round {} {} in {:.3f} s", result->round,
                partnered ? "applied" : "found no partner", result->seconds);
  // Partners caught lying as aggregators or forwarders, with evidence every ring member
  // checked: excluded at once, and so reported to the coordinator's ban vote.
  for (const auto& ring : result->rings) {
    for (std::size_t i = 0; i < ring.outcome.caught.size(); ++i) {
      const auto& member = ring.outcome.caught[i];
      if (member == own_key_ || exclusion_->excluded(member)) continue;
      exclusion_->exclude(member);
      spdlog::warn("averaging: excluding ring partner {}: caught in ring '{}' ({})",
                   net::short_key(member), ring.buffer,
                   i < ring.outcome.evidence.size() ? ring.outcome.evidence[i] : "");
    }
  }
  // Partners this stage proved liars (an owner's false aggregate, a forwarder's altered bytes),
  // with a proof anyone can check: excluded at once (even where no other member could second
  // it), and the proof goes to the coordinator.
  for (const auto& ring : result->rings) {
    for (const auto& [liar, bytes] : ring.outcome.proofs) {
      if (liar == own_key_) continue;
      if (!exclusion_->excluded(liar)) {
        exclusion_->exclude(liar);
        spdlog::warn("averaging: excluding ring partner {}: proved a liar in ring '{}'",
                     net::short_key(liar), ring.buffer);
      }
      proofs_[liar] = bytes;
    }
  }
  std::erase_if(proofs_, [&](const auto& p) { return !exclusion_->excluded(p.first); });
  const std::vector<reduce::PeerExclusion::Tally> tallies{aggregation_tally_->counts(),
                                                          state_tally_->counts()};
  for (const auto& member : exclusion_->end_round(tallies)) {
    if (member == own_key_) {
      spdlog::warn(
          "averaging: this stage's own weights are far from all its partners' (clipped hard in 3 "
          "rounds in a row); it leaves them out of its slices and takes the partners' average");
      continue;
    }
    spdlog::warn(
        "averaging: excluding ring partner {} (its contributions were clipped hard or rejected "
        "in every slice of 3 rounds in a row)",
        net::short_key(member));
  }
  counters_.update([&](StageStats& s) {
    s.excluded_peers = exclusion_->excluded_members();
    s.aggregation_proofs.clear();
    for (const auto& [owner, bytes] : proofs_) s.aggregation_proofs.push_back(bytes);
    (partnered ? s.averaging_rounds : s.averaging_alone)++;
    if (state_applied) ++s.averaging_state_rounds;
    s.averaging_last_round = result->round;
    if (partnered) s.averaging_seconds = result->seconds;
  });
  return partnered;
}

// The rings of a round as the common point counts them: by range, who is in the outer step's
// average (and, in a sync, in the anchors' too).
std::vector<RingMeeting> StageAveraging::meetings(const reduce::AveragingResult& result) {
  std::map<std::pair<std::int64_t, std::int64_t>, RingMeeting> by_range;
  std::set<std::pair<std::int64_t, std::int64_t>> anchored;
  for (const auto& r : result.rings) {
    const std::pair range{r.range.first_block, r.range.last_block};
    if (r.buffer == kPseudoGradient) {
      auto& m = by_range[range];
      m.blocks = {range.first, range.second};
      m.contributors = r.outcome.contributors;
    } else if (r.buffer == kAnchor && r.outcome.averaged()) {
      anchored.insert(range);
    }
  }
  std::vector<RingMeeting> out;
  for (auto& [range, m] : by_range) {
    m.anchors_synced = anchored.count(range) > 0;
    out.push_back(std::move(m));
  }
  return out;
}

// The anchor: where the anchors were synced, their average (and the momentum's); then the
// outer step where the pseudo-gradients averaged. The weights are the new anchor plus the local
// steps taken since the round started (the compute thread went on training), wherever either
// changed the anchor.
void StageAveraging::apply_outer_step(const reduce::AveragingResult& result,
                                      const reduce::Spans& stepped, StageOptimizer& optimizer) {
  const auto* g = result.find(kPseudoGradient);
  if (!g || g->values.size() != anchor_.size() || round_start_.size() != anchor_.size()) return;
  const auto synced = result.averaged_spans(kAnchor);
  if (const auto* anchors = result.find(kAnchor);
      anchors && anchors->values.size() == anchor_.size()) {
    for (const auto& [first, last] : synced)
      std::copy(anchors->values.begin() + std::ptrdiff_t(first),
                anchors->values.begin() + std::ptrdiff_t(last),
                anchor_.begin() + std::ptrdiff_t(first));
  }
  // The momentum where it was synced: the outer step below then moves every member that took
  // part in the sync by the same amount.
  if (const auto* momentum = result.find(kOuterMomentum);
      momentum && momentum->values.size() == anchor_.size())
    outer_->set_momentum(momentum->values, result.averaged_spans(kOuterMomentum));
  outer_->step(anchor_, g->values, stepped);
  auto current = optimizer.flat_parameters();
  if (current.size() != anchor_.size()) return;  // re-partitioned meanwhile: nothing fits
  auto rebase = [&](const reduce::Spans& spans) {
    for (const auto& [first, last] : spans)
      for (std::size_t i = first; i < last; ++i)
        current[i] = anchor_[i] + (current[i] - round_start_[i]);
  };
  // The union of both: a value in both is rebased once.
  reduce::Spans changed = stepped;
  changed.insert(changed.end(), synced.begin(), synced.end());
  std::sort(changed.begin(), changed.end());
  reduce::Spans merged;
  for (const auto& s : changed) {
    if (!merged.empty() && s.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, s.second);
    } else {
      merged.push_back(s);
    }
  }
  rebase(merged);
  optimizer.write_flat_parameters(current);
}

// The moments, like the parameters: current += average - snapshot, so the steps taken during
// the round are kept. A second moment can undershoot that way (it decayed locally by more
// than the average added), even below 0, and AdamW would then divide by eps alone: it is
// kept at least at the smaller of this stage's own value and the average, both of them real
// estimates of the squared gradient. Anything unusable leaves the optimizer's state as it
// was. Returns whether it applied.
bool StageAveraging::apply_optimizer_state(const reduce::AveragingResult& result,
                                           StageOptimizer& stage_optimizer) {
  auto& optimizer = stage_optimizer.optimizer();
  bool any = false;
  for (const auto& name : averaged_state_) {
    const auto* averaged = result.find(name);
    if (!averaged) continue;  // a parameters-only round
    try {
      auto current = optimizer.state_buffer(name);
      const auto own = current;
      result.apply_to(name, current);
      if (name.ends_with("_sq") && averaged->values.size() == current.size()) {
        for (std::size_t i = 0; i < current.size(); ++i) {
          current[i] = std::max(current[i], std::max(0.0f, std::min(own[i], averaged->values[i])));
        }
      }
      optimizer.write_state_buffer(name, 0, current, optimizer.moment_step());
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

}  // namespace rookery::pipeline
