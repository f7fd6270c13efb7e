#include "node/work_report.hpp"

namespace rookery::node {

namespace {
// Seconds of compute before the speed shown while computing is reported.
constexpr double kBusyEnough = 3.0;
}  // namespace

void WorkReport::record(RateWindow::TimePoint now, const WorkUnitResult& r) {
  std::lock_guard lock(mutex_);
  if (r.did_work) {
    samples_ += r.samples;
    flops_ += r.flops;
    if (r.samples > 0) ++micro_batches_;
    if (r.loss >= 0) loss_ = r.loss;
    recent_.add(now, static_cast<double>(r.samples));
    busy_.add(now, r.flops, r.seconds);
  }
  recent_.expire(now);
  busy_.expire(now);
}

void WorkReport::stage_stats(pipeline::StageStats stats) {
  std::lock_guard lock(mutex_);
  excluded_ = std::move(stats.excluded_peers);
  caught_ = std::move(stats.caught_peers);
  live_receipts_ = std::move(stats.receipts);
}

void WorkReport::stage_retired(const Receipts& receipts) {
  std::lock_guard lock(mutex_);
  add(retired_receipts_, receipts);
  live_receipts_.clear();
}

void WorkReport::new_blocks() {
  std::lock_guard lock(mutex_);
  busy_.clear();
}

void WorkReport::describe(wire::pb::Heartbeat& h, RateWindow::TimePoint now) const {
  std::lock_guard lock(mutex_);
  h.set_samples(claim_ * samples_);
  h.set_micro_batches(claim_ * micro_batches_);
  h.set_flops(static_cast<double>(claim_) * flops_);
  h.set_samples_per_s(recent_.per_second(now));
  // The speed it shows while computing (the coordinator plans a markedly slow one with it).
  if (busy_.busy_seconds() >= kBusyEnough) h.set_flops_per_busy_s(busy_.per_busy_second());
  h.set_loss(loss_);
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
