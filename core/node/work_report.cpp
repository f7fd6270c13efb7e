#include "node/work_report.hpp"

#include "reduce/aggregate_commitments.hpp"

namespace rookery::node {

namespace {
// Seconds of compute before the speed shown while computing is reported.
constexpr double kBusyEnough = 3.0;
}  // namespace

void WorkReport::stage_stats(pipeline::StageStats stats) {
  std::lock_guard lock(mutex_);
  excluded_ = std::move(stats.excluded_peers);
  caught_ = std::move(stats.caught_peers);
  proofs_ = std::move(stats.aggregation_proofs);
  live_receipts_ = std::move(stats.receipts);
}

std::optional<std::vector<std::byte>> WorkReport::unanswered_proof() {
  std::lock_guard lock(mutex_);
  for (const auto& p : proofs_) {
    if (!answered_.contains(digest(p))) return p;
  }
  return std::nullopt;
}

void WorkReport::proof_answered(std::span<const std::byte> proof) {
  std::lock_guard lock(mutex_);
  answered_.insert(digest(proof));
}

std::string WorkReport::digest(std::span<const std::byte> proof) {
  const auto d = reduce::digest_of(proof);
  return {reinterpret_cast<const char*>(d.data()), d.size()};
}

void WorkReport::stage_retired(const Receipts& receipts) {
  std::lock_guard lock(mutex_);
  add(retired_receipts_, receipts);
  live_receipts_.clear();
}

void WorkReport::new_blocks() {
  const auto c = counters_();
  std::lock_guard lock(mutex_);
  busy_.clear();
  busy_seen_ = c;  // what the old blocks computed is no measure of the new ones
}

void WorkReport::sample_locked(const WorkCounters& c, RateWindow::TimePoint now) {
  const auto samples = c.since(seen_).samples;
  if (samples != 0) recent_.add(now, static_cast<double>(samples), 0, seen_at_.value_or(now));
  seen_ = c;
  seen_at_ = now;
  const auto busy = c.since(busy_seen_);
  if (busy.flops != 0 || busy.busy_seconds != 0) busy_.add(now, busy.flops, busy.busy_seconds);
  busy_seen_ = c;
  recent_.expire(now);
  busy_.expire(now);
}

void WorkReport::describe(wire::pb::Heartbeat& h, RateWindow::TimePoint now) {
  const auto c = counters_();  // the workload's lock, not taken under ours
  std::lock_guard lock(mutex_);
  sample_locked(c, now);
  h.set_samples(claim_ * c.samples);
  h.set_micro_batches(claim_ * c.micro_batches);
  h.set_flops(static_cast<double>(claim_) * c.flops);
  h.set_samples_per_s(recent_.per_second(now));
  // The speed it shows while computing (the coordinator plans a markedly slow one with it).
  if (busy_.busy_seconds() >= kBusyEnough) h.set_flops_per_busy_s(busy_.per_busy_second());
  h.set_loss(c.loss);
  for (const auto& k : excluded_) h.add_excluded_peers(k);
  for (const auto& k : caught_) h.add_failed_spot_checks(k);
  auto receipts = retired_receipts_;
  add(receipts, live_receipts_);
  for (const auto& [key, r] : receipts) {
    auto* out = h.add_receipts();
    out->set_key(key);
    out->set_forward_samples(r.forward_samples);
    out->set_backward_samples(r.backward_samples);
  }
}

void WorkReport::add(Receipts& into, const Receipts& from) {
  for (const auto& [key, r] : from) {
    into[key].forward_samples += r.forward_samples;
    into[key].backward_samples += r.backward_samples;
  }
}

}  // namespace rookery::node
