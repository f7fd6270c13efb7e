#include "pipeline/stage_averaging.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "net/identity.hpp"
#include "pipeline/stage_optimizer.hpp"
#include "reduce/averager.hpp"
#include "reduce/centered_clip.hpp"
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
}  // namespace

StageAveraging::StageAveraging(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                               const StageConfig& config, wire::Codec codec,
                               const StageOptimizer& optimizer, StageCounters& counters,
                               const clock::Clock& clock)
    : config_(config),
      own_key_(identity.public_key),
      counters_(counters),
      clock_(clock),
      aggregation_tally_(std::make_shared<reduce::AggregationTally>()),
      state_tally_(std::make_shared<reduce::AggregationTally>()),
      exclusion_(std::make_shared<reduce::PeerExclusion>()) {
  const auto& a = config.averaging;
  const auto& job = config.job;
  const auto plan = reduce::MultiRingPlan(reduce::block_parameter_counts(job.model), a.pipelines);
  auto ranges = plan.for_node(identity.public_key);
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
  reduce::AveragerConfig ac{std::move(ranges), ro, {}};
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
  spdlog::info(
      "averaging with {} other pipeline(s) in {} ring(s) every {} ms ({}; optimizer state {}), "
      "listening on {}",
      a.pipelines.size() - 1, ac.ranges.ranges.size(), a.interval.count(), ro.aggregator->name(),
      averaged_state_.empty()
          ? std::string("not averaged")
          : "every " + std::to_string(job.average_optimizer_state_every) + " rounds",
      transport_->endpoint());
  averager_ = std::make_unique<reduce::Averager>(*transport_, std::move(ac));
}

StageAveraging::~StageAveraging() = default;

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
  if (averager_->in_progress() > 0) {
    // The previous round still runs: never queue behind it.
    counters_.update([](StageStats& s) { ++s.averaging_skipped; });
    return;
  }
  std::vector<reduce::FlatBuffer> buffers;
  buffers.push_back({"params", optimizer.flat_parameters()});
  if (config_.fault == Fault::SignFlipAveraging) {
    auto& v = buffers.front().values;
    if (lie_reference_.empty()) lie_reference_ = v;
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = lie_reference_[i] - 1000.0f * (v[i] - lie_reference_[i]);
  }
  // Every N-th round by number, so every member includes the moments in the same rounds
  // (rounds are numbered by the clock) and the rings for them meet.
  const bool with_state =
      !averaged_state_.empty() &&
      window % static_cast<std::uint64_t>(config_.job.average_optimizer_state_every) == 0;
  if (with_state) {
    for (const auto& name : averaged_state_)
      buffers.push_back({name, optimizer.optimizer().state_buffer(name)});
  }
  averager_->start(window, std::move(buffers), std::max<std::int64_t>(1, samples_since_average_));
  spdlog::debug("averaging round {} started after {} steps ({} samples){}", window,
                optimizer.steps(), samples_since_average_,
                with_state ? ", with the optimizer state" : "");
  samples_since_average_ = 0;
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
  bool partnered = false;
  for (const auto& r : result->rings) partnered = partnered || r.outcome.averaged();
  bool state_applied = false;
  if (partnered) {
    auto current = optimizer.flat_parameters();
    result->apply_to("params", current);
    optimizer.write_flat_parameters(current);
    if (config_.fault == Fault::SignFlipAveraging) lie_reference_ = current;
    state_applied = apply_optimizer_state(*result, optimizer);
  }
  spdlog::debug("averaging round {} {} in {:.3f} s", result->round,
                partnered ? "applied" : "found no partner", result->seconds);
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
    (partnered ? s.averaging_rounds : s.averaging_alone)++;
    if (state_applied) ++s.averaging_state_rounds;
    s.averaging_last_round = result->round;
    if (partnered) s.averaging_seconds = result->seconds;
  });
  return partnered;
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
