#include "coordinator/run_status.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "coordinator/run_archive.hpp"
#include "store/ledger.hpp"

namespace rookery::coordinator {

namespace {

constexpr std::uint32_t kDefaultLossPoints = 300;

}  // namespace

RunStatus::RunStatus(CoordinatorState& state, const clock::Clock& clock)
    : state_(state), clock_(clock), last_loss_sample_(clock.steady_now()) {}

void RunStatus::sample_loss(const std::map<std::string, Volunteer>& live) {
  const auto now = clock_.steady_now();
  if (now - last_loss_sample_ < kLossSampleEvery) return;
  last_loss_sample_ = now;
  double sum = 0;
  int n = 0;
  for (const auto& [k, v] : live) {
    if (v.loss >= 0) {
      sum += v.loss;
      ++n;
    }
  }
  if (n == 0) return;
  try {
    state_.add_loss(clock_.unix_ms(), sum / n);
  } catch (const std::exception& e) {
    spdlog::error("cannot record the loss: {}", e.what());
  }
}

void RunStatus::answer(const wire::pb::RunStatusRequest& r, const std::string& asker,
                       const std::string& job_id, const Assignment& plan, std::uint32_t replans,
                       const Membership& membership, const SeatOf& seat_of,
                       wire::pb::RunStatus& out) {
  const auto now = clock_.steady_now();
  const auto age = now - built_at_;
  const bool stale = builds_ == 0 || age >= kStatusFresh || plan.version != plan_version_ ||
                     membership.banned().size() != banned_ ||
                     (membership.generation() != generation_ && age >= kStatusMembersFresh);
  if (stale) {
    build(job_id, plan, replans, membership, seat_of);
    built_at_ = now;
    plan_version_ = plan.version;
    banned_ = membership.banned().size();
    generation_ = membership.generation();
    ++builds_;
  }
  out = cached_;
  const auto total = static_cast<std::uint32_t>(rows_.size());
  const auto first = std::min(r.first_node(), total);
  const auto page = std::min(r.max_nodes() ? r.max_nodes() : kDefaultStatusPage, kMaxStatusPage);
  const auto last = first + std::min(page, total - first);
  out.set_total_nodes(total);
  out.set_first_node(first);
  out.mutable_nodes()->Reserve(static_cast<int>(last - first));
  for (auto i = first; i < last; ++i) *out.add_nodes() = rows_[i];
  if (const auto mine = by_key_.find(asker); mine != by_key_.end()) {
    *out.mutable_asker() = rows_[mine->second.first];
    out.set_asker_rank(mine->second.second);
  }
  // The curves as long as this request asks, read once per build for each length asked.
  const auto points = r.loss_points() ? r.loss_points() : kDefaultLossPoints;
  auto curve = curves_.find(points);
  if (curve == curves_.end()) {
    try {
      curve = curves_
                  .emplace(points, std::pair(state_.loss_curve(points),
                                             archive_ ? state_.validation_curve(points)
                                                      : std::vector<LossSample>{}))
                  .first;
    } catch (const std::exception& e) {
      spdlog::error("cannot read the loss curve: {}", e.what());
      return;
    }
  }
  for (const auto& p : curve->second.first) {
    auto* lp = out.add_loss();
    lp->set_unix_ms(p.unix_ms);
    lp->set_loss(p.loss);
  }
  for (const auto& p : curve->second.second) {
    auto* lp = out.add_validation();
    lp->set_unix_ms(p.unix_ms);
    lp->set_loss(p.loss);
  }
}

void RunStatus::build(const std::string& job_id, const Assignment& plan, std::uint32_t replans,
                      const Membership& membership, const SeatOf& seat_of) {
  auto& out = cached_;
  out.Clear();
  rows_.clear();
  rows_.reserve(membership.live().size());
  curves_.clear();
  out.set_job_id(job_id);
  out.set_plan_version(plan.version);
  out.set_pipelines(static_cast<std::uint32_t>(plan.pipelines.size()));
  out.set_replans(replans);
  if (!coverage_ || coverage_plan_ != plan.version || plan.coverage) {
    const bool new_plan = !coverage_ || coverage_plan_ != plan.version;
    coverage_ = check_coverage_of(plan, averaging_max_group_);
    coverage_plan_ = plan.version;
    // Once per plan, the first time a dashboard or a volunteer asks (every node asks every
    // few seconds): which seats spot-checks reach, seat by seat in a small swarm.
    constexpr std::size_t kLoggedSeats = 32;
    if (new_plan && !plan.empty()) {
      spdlog::info("plan {}: spot-check coverage: {}", plan.version,
                   describe_coverage(*coverage_, coverage_->stages.size() <= kLoggedSeats));
    }
  }
  // Each seat's coverage by its place: the report lists the seats pipeline by pipeline.
  std::vector<std::size_t> first_seat{0};
  for (const auto& p : plan.pipelines) first_seat.push_back(first_seat.back() + p.size());
  const auto coverage_at = [&](int p, int s) -> const cluster::StageCoverage* {
    const auto i = first_seat[static_cast<std::size_t>(p)] + static_cast<std::size_t>(s);
    return i < coverage_->stages.size() ? &coverage_->stages[i] : nullptr;
  };
  auto* summary = out.mutable_check_coverage();
  summary->set_exact(static_cast<std::uint32_t>(coverage_->exact));
  summary->set_composed(static_cast<std::uint32_t>(coverage_->composed));
  summary->set_unchecked(static_cast<std::uint32_t>(coverage_->unchecked));
  summary->set_two_chains(static_cast<std::uint32_t>(coverage_->two_chains));
  double rate = 0;
  for (const auto& [k, v] : membership.live()) {
    auto* n = &rows_.emplace_back();
    n->set_key(k);
    n->set_alive(true);
    const auto [p, s] = seat_of(k);
    n->set_pipeline(p);
    n->set_stage(s);
    if (p >= 0) {
      const auto& seat = plan.pipelines[static_cast<std::size_t>(p)][static_cast<std::size_t>(s)];
      n->set_first_block(seat.first_block);
      n->set_last_block(seat.last_block);
      if (const auto* c = coverage_at(p, s)) {
        n->set_check(c->kind == cluster::CheckKind::Exact      ? wire::pb::CHECK_EXACT
                     : c->kind == cluster::CheckKind::Composed ? wire::pb::CHECK_COMPOSED
                                                               : wire::pb::CHECK_NONE);
        n->set_check_chains(static_cast<std::uint32_t>(c->chains));
      }
      if (s == 0) rate += v.samples_per_s;  // a pipeline's throughput is its first stage's
    }
    n->set_samples_per_s(v.samples_per_s);
    n->set_plan_version(v.plan_version);
    n->set_reach(v.reach);
    n->set_relayed_by(v.relay);
    for (const auto& [prober, answered] : v.dialled_by) {
      if (answered) {
        n->set_dialled_by_peers(n->dialled_by_peers() + 1);
      } else {
        n->set_undialled_by_peers(n->undialled_by_peers() + 1);
      }
    }
    n->set_samples(v.totals.samples);
    n->set_flops(v.totals.flops);
    n->set_confirmed_samples(v.totals.confirmed_samples());
    n->set_confirmed_flops(v.totals.confirmed_flops());
    n->set_confirmed_credit(store::credit_for_flops(std::max(0.0, v.totals.confirmed_flops())));
    auto* pr = n->mutable_profile();
    pr->set_flops_per_s(v.member.profile.flops_per_s);
    pr->set_free_memory_bytes(v.member.profile.free_memory_bytes);
    pr->set_upload_bytes_per_s(v.member.profile.upload_bytes_per_s);
    pr->set_download_bytes_per_s(v.member.profile.download_bytes_per_s);
    pr->set_rtt_s(v.member.profile.rtt_s);
    pr->set_peers_measured(v.peers_measured);
    pr->set_device(v.device);
  }
  out.set_samples_per_s(rate);
  // Each volunteer's place by confirmed samples (what the stages that consumed its work
  // confirm), ties sharing one: a volunteer's window shows its own, whatever page it reads.
  by_key_.clear();
  std::vector<std::size_t> order(rows_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return rows_[a].confirmed_samples() > rows_[b].confirmed_samples();
  });
  for (std::size_t i = 0; i < order.size(); ++i) {
    const bool tie =
        i > 0 && rows_[order[i]].confirmed_samples() == rows_[order[i - 1]].confirmed_samples();
    const auto rank =
        tie ? by_key_[rows_[order[i - 1]].key()].second : static_cast<std::uint32_t>(i + 1);
    by_key_[rows_[order[i]].key()] = {order[i], rank};
  }
  for (const auto& [k, b] : membership.banned()) {
    auto* n = out.add_banned();
    n->set_key(k);
    n->set_reason(b.reason);
    n->set_unix_ms(b.unix_ms);
    *n->mutable_why() = b.why;
  }
  try {
    std::int64_t all = 0;
    for (const auto& [k, c] : state_.contributions()) all += c.samples;
    out.set_samples(all);
    if (archive_) {
      archive_->describe(*out.mutable_archive());
      if (auto e = state_.latest_evaluation()) *out.mutable_evaluation() = std::move(*e);
    }
  } catch (const std::exception& e) {
    spdlog::error("cannot read the run's history: {}", e.what());
  }
}

}  // namespace rookery::coordinator
