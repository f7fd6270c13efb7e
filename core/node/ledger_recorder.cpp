#include "node/ledger_recorder.hpp"

#include <algorithm>
#include <cstdlib>

#include <spdlog/spdlog.h>

#include "net/token_bucket.hpp"
#include "store/database.hpp"
#include "store/ledger.hpp"

namespace rookery::node {

namespace {
constexpr auto kRateWindow = std::chrono::seconds(5);
constexpr auto kProgressInterval = std::chrono::seconds(5);

void fill_sums(const store::LedgerSums& in, pb::LedgerSums& out) {
  out.set_work_units(static_cast<std::uint64_t>(in.units));
  out.set_samples(static_cast<std::uint64_t>(in.samples));
  out.set_flops(in.flops);
  out.set_busy_seconds(in.seconds);
  out.set_bytes_sent(in.bytes_sent);
  out.set_bytes_received(in.bytes_received);
  out.set_credit(in.credit);
}
}  // namespace

LedgerRecorder::LedgerRecorder(const clock::Clock& clock)
    : clock_(clock), last_progress_log_(clock.steady_now()) {}

LedgerRecorder::~LedgerRecorder() = default;

void LedgerRecorder::open(store::Database& db) {
  // The ledger is written every 5 s (ROOKERY_LEDGER_FLUSH_MS overrides it, for tests).
  auto flush = std::chrono::milliseconds(5000);
  if (const char* env = std::getenv("ROOKERY_LEDGER_FLUSH_MS"); env && std::atoi(env) > 0) {
    flush = std::chrono::milliseconds(std::atoi(env));
  }
  ledger_ = std::make_unique<store::LedgerWriter>(db, flush);
  const auto t = ledger_->totals();
  if (t.units > 0) {
    spdlog::info("ledger: {} units, {:.4g} TFLOP, {:.4g} credits so far (RAC {:.4g}/day)", t.units,
                 t.flops / 1e12, t.credit, t.rac_at(clock_.unix_ms()));
  }
}

void LedgerRecorder::record_locked(const Workload& source) {
  const auto totals = source.counters();
  if (&source != counted_) {  // a workload's counters start at zero
    counted_ = &source;
    seen_ = {};
  }
  const auto unit = totals.since(seen_);
  seen_ = totals;
  work_.set_work_units(work_.work_units() + 1);
  work_.set_flops(totals.flops);
  work_.set_busy_seconds(totals.busy_seconds);
  work_.set_samples(static_cast<std::uint64_t>(totals.samples));
  if (totals.loss >= 0) work_.set_last_loss(totals.loss);
  const auto now = clock_.steady_now();
  recent_flops_.emplace_back(now, unit.flops);
  drop_old_flops(now);

  // Pipeline traffic since the previous unit, from the process's bandwidth buckets.
  const auto sent = net::upload_bucket().bytes_passed();
  const auto received = net::download_bucket().bytes_passed();
  store::LedgerUnit u;
  u.bytes_sent = sent - ledger_sent_;
  u.bytes_received = received - ledger_received_;
  ledger_sent_ = sent;
  ledger_received_ = received;
  if (!ledger_) return;
  // Which job the work is for: asked again when the workload changes, while it has none (a
  // joining node waits for its shard) and every 100 units (a coordinator may move it).
  if (&source != ledger_workload_ || ledger_job_.empty() || ++ledger_units_since_describe_ >= 100) {
    pb::NodeSnapshot described;
    source.describe(described);
    ledger_job_ = described.has_stage() ? described.stage().job_id() : std::string();
    ledger_workload_ = &source;
    ledger_units_since_describe_ = 0;
  }
  if (ledger_job_.empty()) return;
  u.finished_unix_ms = clock_.unix_ms();
  u.seconds = unit.busy_seconds;
  u.samples = unit.samples;
  u.flops = unit.flops;
  u.job_id = ledger_job_;
  ledger_->record(std::move(u));
}

void LedgerRecorder::drop_old_flops(std::chrono::steady_clock::time_point now) {
  while (!recent_flops_.empty() && now - recent_flops_.front().first > kRateWindow)
    recent_flops_.pop_front();
}

void LedgerRecorder::update_rate_locked(bool contributing) {
  const auto now = clock_.steady_now();
  drop_old_flops(now);
  double flops = 0;
  for (const auto& [t, f] : recent_flops_) flops += f;
  const double window =
      recent_flops_.empty()
          ? 1.0
          : std::max(1.0, std::chrono::duration<double>(now - recent_flops_.front().first).count());
  work_.set_current_gflops(contributing ? flops / window / 1e9 : 0.0);
}

void LedgerRecorder::log_progress_locked(bool contributing) {
  const auto now = clock_.steady_now();
  if (!contributing || now - last_progress_log_ < kProgressInterval) return;
  const double dt = std::chrono::duration<double>(now - last_progress_log_).count();
  const auto samples = work_.samples();
  if (work_.last_loss() > 0 || samples > 0) {
    spdlog::info("progress: {} units, {} samples ({:.1f}/s), loss {:.4f}, {:.2f} GFLOP/s",
                 work_.work_units(), samples, (samples - last_progress_samples_) / dt,
                 work_.last_loss(), work_.current_gflops());
  }
  last_progress_log_ = now;
  last_progress_samples_ = samples;
}

void LedgerRecorder::describe_locked(pb::LedgerTotals& out) const {
  if (!ledger_) return;
  const auto t = ledger_->totals();
  fill_sums(t, *out.mutable_total());
  out.set_rac(t.rac_at(clock_.unix_ms()));
  out.set_first_unix_ms(t.first_unix_ms);
  out.set_last_unix_ms(t.last_unix_ms);
  out.set_pending_units(ledger_->pending());
  out.set_error(ledger_->last_error());
  out.set_available(true);
}

void LedgerRecorder::history_locked(const pb::LedgerHistoryQuery& q, pb::ControlReply& out) {
  if (!ledger_) {
    out.set_error("this node keeps no ledger");
    return;
  }
  if ((q.period() != pb::LedgerHistoryQuery::HOURS && q.period() != pb::LedgerHistoryQuery::DAYS) ||
      q.count() < 1 || q.count() > 1000) {
    out.set_error("ledger history: period must be HOURS or DAYS and count 1-1000");
    return;
  }
  try {
    const auto kind = q.period() == pb::LedgerHistoryQuery::HOURS ? store::LedgerPeriodKind::Hour
                                                                  : store::LedgerPeriodKind::Day;
    for (const auto& p : ledger_->ledger().history(kind, q.count(), clock_.unix_ms())) {
      auto* o = out.add_ledger_history();
      o->set_start_unix_ms(p.start_unix_ms);
      o->set_end_unix_ms(p.end_unix_ms);
      fill_sums(p, *o->mutable_sums());
    }
    out.set_ok(true);
  } catch (const std::exception& e) {
    out.set_error(std::string("ledger history: ") + e.what());
  }
}

void LedgerRecorder::flush_if_due() {
  if (ledger_) ledger_->flush_if_due();
}

void LedgerRecorder::flush() {
  if (ledger_) ledger_->flush();
}

}  // namespace rookery::node
