#include "store/ledger.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <iterator>

namespace rookery::store {

namespace {
constexpr std::int64_t kQuarterSeconds = 900;

std::int64_t quarter_of(std::int64_t unix_ms) {
  const std::int64_t s = unix_ms >= 0 ? unix_ms / 1000 : -((-unix_ms + 999) / 1000);
  const std::int64_t q =
      s >= 0 ? s / kQuarterSeconds : -((-s + kQuarterSeconds - 1) / kQuarterSeconds);
  return q * kQuarterSeconds;
}

std::tm local_tm(std::int64_t unix_s) {
  const std::time_t t = static_cast<std::time_t>(unix_s);
  std::tm tm{};
  localtime_r(&t, &tm);
  return tm;
}

std::int64_t i64(std::uint64_t v) { return static_cast<std::int64_t>(v); }
std::uint64_t u64(std::int64_t v) { return v < 0 ? 0 : static_cast<std::uint64_t>(v); }

LedgerSums read_sums(const Statement& s, int first) {
  LedgerSums out;
  out.units = s.integer(first);
  out.samples = s.integer(first + 1);
  out.flops = s.real(first + 2);
  out.seconds = s.real(first + 3);
  out.bytes_sent = u64(s.integer(first + 4));
  out.bytes_received = u64(s.integer(first + 5));
  out.credit = s.real(first + 6);
  return out;
}
}  // namespace

// --- BOINC's averages ---

void update_average(double now, double work_start, double work, double half_life, double& avg,
                    double& avg_time) {
  if (avg_time > 0) {
    // As BOINC: imagine the new work was done evenly since avg_time, which gives a rate R';
    // replace the average R by a weighted mean of R and R', weighted so that R halves in
    // half_life when R' = 0. Where (1 - weight) is tiny the division by diff is replaced by
    // its first-order limit.
    const double diff = std::max(0.0, now - avg_time);
    const double diff_days = diff / kSecondsPerDay;
    const double weight = std::exp(-diff * M_LN2 / half_life);
    avg *= weight;
    if (1.0 - weight > 1e-6) {
      avg += (1.0 - weight) * (work / diff_days);
    } else {
      avg += M_LN2 * work * kSecondsPerDay / half_life;
    }
  } else if (work > 0) {
    // The first grant: the average is the rate of that work. (BOINC divides by the time since
    // the work started as is; a zero span would divide by zero, so it counts as a second.)
    const double dd = std::max(now - work_start, 1.0) / kSecondsPerDay;
    avg = work / dd;
  }
  avg_time = now;
}

double decay_average(double avg, double avg_time, double now, double half_life) {
  if (avg_time <= 0) return avg;
  const double diff = std::max(0.0, now - avg_time);
  return avg * std::exp(-diff * M_LN2 / half_life);
}

void LedgerSums::add(const LedgerUnit& u) {
  units += 1;
  samples += u.samples;
  flops += u.flops;
  seconds += u.seconds;
  bytes_sent += u.bytes_sent;
  bytes_received += u.bytes_received;
  credit += credit_for_flops(u.flops);
}

void LedgerSums::add(const LedgerSums& s) {
  units += s.units;
  samples += s.samples;
  flops += s.flops;
  seconds += s.seconds;
  bytes_sent += s.bytes_sent;
  bytes_received += s.bytes_received;
  credit += s.credit;
}

double LedgerTotals::rac_at(std::int64_t now_unix_ms) const {
  return decay_average(rac, rac_unix_ms / 1000.0, now_unix_ms / 1000.0, kRacHalfLifeSeconds);
}

// --- Ledger ---

Ledger::Ledger(Database& db, std::chrono::hours unit_retention)
    : db_(db), retention_(unit_retention) {
  if (db_.schema_version() < 2)
    throw StoreError("the state database has no contribution ledger (schema < 2)");
}

void Ledger::append(const std::vector<LedgerUnit>& units) {
  if (units.empty()) return;
  for (const auto& u : units) {
    if (!LedgerWriter::valid(u)) {
      throw StoreError("ledger: refusing a unit with negative or non-finite amounts (flops " +
                       std::to_string(u.flops) + ", seconds " + std::to_string(u.seconds) +
                       ", samples " + std::to_string(u.samples) + ")");
    }
  }
  LedgerSums batch;
  std::int64_t newest = units.front().finished_unix_ms;
  for (const auto& u : units) {
    batch.add(u);
    newest = std::max(newest, u.finished_unix_ms);
  }
  const auto& first = units.front();
  const double work_start = first.finished_unix_ms / 1000.0 - first.seconds;

  db_.transaction([&](Database& db) {
    auto insert = db.prepare(
        "INSERT INTO ledger_units (finished_unix_ms, job_id, samples, flops, seconds, bytes_sent, "
        "bytes_received, credit)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    for (const auto& u : units) {
      insert.bind(1, u.finished_unix_ms)
          .bind(2, u.job_id)
          .bind(3, u.samples)
          .bind_real(4, u.flops)
          .bind_real(5, u.seconds)
          .bind(6, i64(u.bytes_sent))
          .bind(7, i64(u.bytes_received))
          .bind_real(8, credit_for_flops(u.flops));
      insert.step();
      insert.reset();
    }
    // Quarter-hour sums: one upsert per quarter the batch touches.
    std::vector<std::pair<std::int64_t, LedgerSums>> quarters;
    for (const auto& u : units) {
      const auto q = quarter_of(u.finished_unix_ms);
      auto it = std::find_if(quarters.begin(), quarters.end(),
                             [q](const auto& p) { return p.first == q; });
      if (it == quarters.end()) {
        quarters.emplace_back(q, LedgerSums{});
        it = std::prev(quarters.end());
      }
      it->second.add(u);
    }
    auto upsert = db.prepare(
        "INSERT INTO ledger_quarters (start_unix_s, units, samples, flops, seconds, bytes_sent, "
        "bytes_received, credit)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(start_unix_s) DO UPDATE SET"
        " units = units + excluded.units, samples = samples + excluded.samples, flops = flops + "
        "excluded.flops,"
        " seconds = seconds + excluded.seconds, bytes_sent = bytes_sent + excluded.bytes_sent,"
        " bytes_received = bytes_received + excluded.bytes_received, credit = credit + "
        "excluded.credit");
    for (const auto& [q, s] : quarters) {
      upsert.bind(1, q)
          .bind(2, s.units)
          .bind(3, s.samples)
          .bind_real(4, s.flops)
          .bind_real(5, s.seconds)
          .bind(6, i64(s.bytes_sent))
          .bind(7, i64(s.bytes_received))
          .bind_real(8, s.credit);
      upsert.step();
      upsert.reset();
    }
    // Totals and the RAC: the batch is one grant, made when its newest unit finished.
    auto t = totals();
    double rac = t.rac;
    double rac_time = t.rac_unix_ms / 1000.0;
    if (batch.credit > 0) {
      update_average(newest / 1000.0, work_start, batch.credit, kRacHalfLifeSeconds, rac, rac_time);
    }
    db.prepare(
          "UPDATE ledger_totals SET units = units + ?, samples = samples + ?, flops = flops + ?, "
          "seconds = seconds + ?,"
          " bytes_sent = bytes_sent + ?, bytes_received = bytes_received + ?, credit = credit + ?, "
          "rac = ?,"
          " rac_unix_ms = ?, first_unix_ms = CASE WHEN first_unix_ms = 0 THEN ? ELSE first_unix_ms "
          "END,"
          " last_unix_ms = MAX(last_unix_ms, ?) WHERE id = 1")
        .bind(1, batch.units)
        .bind(2, batch.samples)
        .bind_real(3, batch.flops)
        .bind_real(4, batch.seconds)
        .bind(5, i64(batch.bytes_sent))
        .bind(6, i64(batch.bytes_received))
        .bind_real(7, batch.credit)
        .bind_real(8, rac)
        .bind(9, static_cast<std::int64_t>(std::llround(rac_time * 1000.0)))
        .bind(10, first.finished_unix_ms)
        .bind(11, newest)
        .step();
    const auto horizon =
        newest - std::chrono::duration_cast<std::chrono::milliseconds>(retention_).count();
    db.prepare("DELETE FROM ledger_units WHERE finished_unix_ms < ?").bind(1, horizon).step();
  });
}

LedgerTotals Ledger::totals() {
  auto s = db_.prepare(
      "SELECT units, samples, flops, seconds, bytes_sent, bytes_received, credit, rac, "
      "rac_unix_ms, first_unix_ms,"
      " last_unix_ms FROM ledger_totals WHERE id = 1");
  LedgerTotals t;
  if (!s.step()) throw StoreError("the ledger's totals row is missing from " + db_.path().string());
  static_cast<LedgerSums&>(t) = read_sums(s, 0);
  t.rac = s.real(7);
  t.rac_unix_ms = s.integer(8);
  t.first_unix_ms = s.integer(9);
  t.last_unix_ms = s.integer(10);
  return t;
}

std::vector<LedgerPeriod> Ledger::history(LedgerPeriodKind kind, int count,
                                          std::int64_t now_unix_ms) {
  std::vector<LedgerPeriod> periods;
  if (count <= 0) return periods;
  const std::int64_t now_s = now_unix_ms / 1000;
  // Period starts in local time, oldest first, and the end of the newest.
  std::vector<std::int64_t> starts;
  std::int64_t end = 0;
  if (kind == LedgerPeriodKind::Hour) {
    std::tm tm = local_tm(now_s);
    tm.tm_min = 0;
    tm.tm_sec = 0;
    const std::int64_t current = static_cast<std::int64_t>(std::mktime(&tm));
    for (int i = count - 1; i >= 0; --i) starts.push_back(current - std::int64_t{3600} * i);
    end = current + 3600;
  } else {
    const std::tm today = local_tm(now_s);
    auto day_start = [&](int offset) {
      std::tm tm = today;
      tm.tm_hour = 0;
      tm.tm_min = 0;
      tm.tm_sec = 0;
      tm.tm_mday += offset;
      tm.tm_isdst = -1;  // whichever applies on that day
      return static_cast<std::int64_t>(std::mktime(&tm));
    };
    for (int i = count - 1; i >= 0; --i) starts.push_back(day_start(-i));
    end = day_start(1);
  }
  for (std::size_t i = 0; i < starts.size(); ++i) {
    LedgerPeriod p;
    p.start_unix_ms = starts[i] * 1000;
    p.end_unix_ms = (i + 1 < starts.size() ? starts[i + 1] : end) * 1000;
    periods.push_back(p);
  }
  auto s = db_.prepare(
      "SELECT start_unix_s, units, samples, flops, seconds, bytes_sent, bytes_received, credit "
      "FROM ledger_quarters"
      " WHERE start_unix_s >= ? AND start_unix_s < ? ORDER BY start_unix_s");
  s.bind(1, starts.front()).bind(2, end);
  std::size_t at = 0;
  while (s.step()) {
    const std::int64_t q_ms = s.integer(0) * 1000;
    while (at < periods.size() && q_ms >= periods[at].end_unix_ms) ++at;
    if (at == periods.size()) break;
    if (q_ms >= periods[at].start_unix_ms) periods[at].add(read_sums(s, 1));
  }
  return periods;
}

std::vector<LedgerUnit> Ledger::units(std::int64_t since_unix_ms) {
  std::vector<LedgerUnit> out;
  auto s = db_.prepare(
      "SELECT finished_unix_ms, job_id, samples, flops, seconds, bytes_sent, bytes_received FROM "
      "ledger_units"
      " WHERE finished_unix_ms >= ? ORDER BY id");
  s.bind(1, since_unix_ms);
  while (s.step()) {
    LedgerUnit u;
    u.finished_unix_ms = s.integer(0);
    u.job_id = s.text(1);
    u.samples = s.integer(2);
    u.flops = s.real(3);
    u.seconds = s.real(4);
    u.bytes_sent = u64(s.integer(5));
    u.bytes_received = u64(s.integer(6));
    out.push_back(std::move(u));
  }
  return out;
}

// --- LedgerWriter ---

LedgerWriter::LedgerWriter(Database& db, std::chrono::milliseconds flush_interval)
    : ledger_(db),
      interval_(flush_interval),
      totals_(ledger_.totals()),
      last_flush_(Clock::now()) {}

bool LedgerWriter::valid(const LedgerUnit& u) {
  return std::isfinite(u.flops) && std::isfinite(u.seconds) && u.flops >= 0 && u.seconds >= 0 &&
         u.samples >= 0;
}

bool LedgerWriter::record(LedgerUnit unit) {
  if (!valid(unit)) {
    spdlog::error(
        "ledger: dropping a unit with impossible amounts (flops {}, seconds {}, samples {})",
        unit.flops, unit.seconds, unit.samples);
    return false;
  }
  std::lock_guard lock(mutex_);
  if (pending_.size() >= kMaxPending) {
    // The disk has refused our writes for a long time: keep the sums, drop the detail.
    LedgerUnit folded = pending_.back();
    folded.seconds = folded.flops = 0;
    folded.samples = 0;
    folded.bytes_sent = folded.bytes_received = 0;
    for (const auto& u : pending_) {
      folded.seconds += u.seconds;
      folded.flops += u.flops;
      folded.samples += u.samples;
      folded.bytes_sent += u.bytes_sent;
      folded.bytes_received += u.bytes_received;
    }
    pending_.assign(1, std::move(folded));
  }
  pending_.push_back(std::move(unit));
  return true;
}

bool LedgerWriter::flush_if_due(Clock::time_point now) {
  {
    std::lock_guard lock(mutex_);
    if (now - last_flush_ < interval_) return last_error_.empty();
  }
  return write(now);
}

bool LedgerWriter::flush() { return write(Clock::now()); }

bool LedgerWriter::write(Clock::time_point now) {
  std::lock_guard one_writer(write_mutex_);
  std::vector<LedgerUnit> batch;
  {
    std::lock_guard lock(mutex_);
    last_flush_ = now;
    batch.swap(pending_);
  }
  if (batch.empty()) return true;
  try {
    ledger_.append(batch);
    const auto t = ledger_.totals();
    std::lock_guard lock(mutex_);
    totals_ = t;
    ++batches_;
    if (!last_error_.empty()) {
      spdlog::info("ledger: written again ({} units had waited)", batch.size());
      last_error_.clear();
    }
    return true;
  } catch (const std::exception& e) {
    std::lock_guard lock(mutex_);
    // Nothing of the batch was written: it goes back in front of what came since.
    batch.insert(batch.end(), std::make_move_iterator(pending_.begin()),
                 std::make_move_iterator(pending_.end()));
    pending_ = std::move(batch);
    const bool changed = last_error_ != e.what();
    last_error_ = e.what();
    const auto logged = Clock::now();
    if (changed || logged - last_error_logged_ > std::chrono::minutes(1)) {
      spdlog::error("ledger: cannot record {} unit(s) of work, kept in memory to retry: {}",
                    pending_.size(), e.what());
      last_error_logged_ = logged;
    }
    return false;
  }
}

LedgerTotals LedgerWriter::totals() const {
  std::lock_guard lock(mutex_);
  return totals_;
}

std::size_t LedgerWriter::pending() const {
  std::lock_guard lock(mutex_);
  return pending_.size();
}

std::string LedgerWriter::last_error() const {
  std::lock_guard lock(mutex_);
  return last_error_;
}

std::uint64_t LedgerWriter::batches_written() const {
  std::lock_guard lock(mutex_);
  return batches_;
}

}  // namespace rookery::store
