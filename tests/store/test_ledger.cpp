// The contribution ledger: BOINC's credit and recent average credit (the formula, halving
// after a half-life, the steady state), batched writes (many units, few transactions), the
// history per hour and per day in local time, the migration from schema 1 with the settings
// kept, and a full disk (nothing committed lost, nothing pending lost, writing resumes).
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdlib>
#include <ctime>

#include "store/database.hpp"
#include "store/ledger.hpp"
#include "store/settings.hpp"

using namespace rookery;
using store::LedgerUnit;

namespace {
constexpr double kDay = 86400;
constexpr double kWeek = 7 * kDay;

// 2026-11-21 10:30:00 UTC
constexpr std::int64_t kNowMs = 1'795'257'000'000;

LedgerUnit unit(std::int64_t finished_unix_ms, double flops, std::int64_t samples = 16,
                double seconds = 0.01) {
  LedgerUnit u;
  u.finished_unix_ms = finished_unix_ms;
  u.flops = flops;
  u.samples = samples;
  u.seconds = seconds;
  u.bytes_sent = 1000;
  u.bytes_received = 2000;
  u.job_id = "job";
  return u;
}

bool near(double a, double b, double rel = 1e-9) {
  return std::abs(a - b) <= rel * std::max({1.0, std::abs(a), std::abs(b)});
}

void set_tz(const char* tz) {
  ::setenv("TZ", tz, 1);
  ::tzset();
}

std::int64_t count(store::Database& db, const char* sql) {
  auto s = db.prepare(sql);
  return s.step() ? s.integer(0) : -1;
}
}  // namespace

class TestLedger : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::filesystem::path file(const char* name) {
    return std::filesystem::path(dir_.path().toStdString()) / name;
  }

 private Q_SLOTS:
  void cleanup() { set_tz("UTC"); }

  void creditIsBoincsCobblestone() {
    QVERIFY(near(store::credit_for_flops(432e9), 1.0));
    // A device that sustains 1 GFLOP/s for a day earns 200 credits.
    QVERIFY(near(store::credit_for_flops(1e9 * kDay), 200.0));
    QCOMPARE(store::kRacHalfLifeSeconds, kWeek);
  }

  void racFollowsBoincsUpdateAverage() {
    // The first grant: the rate of that work, per day.
    double avg = 0, avg_time = 0;
    store::update_average(1000, 900, 10, kWeek, avg, avg_time);
    QVERIFY(near(avg, 10 / (100 / kDay)));
    QCOMPARE(avg_time, 1000.0);
    // A grant an hour later: the weighted mean of the old average and the hour's rate.
    const double before = avg;
    store::update_average(4600, 0, 5, kWeek, avg, avg_time);
    const double w = std::exp(-3600 * std::log(2.0) / kWeek);
    QVERIFY(near(avg, before * w + (1 - w) * 5 / (3600 / kDay)));
    // A grant right after the previous one: BOINC's first-order limit, no division by ~0.
    const double b2 = avg;
    store::update_average(4600.1, 0, 3, kWeek, avg, avg_time);
    const double w2 = std::exp(-0.1 * std::log(2.0) / kWeek);
    QVERIFY(near(avg, b2 * w2 + std::log(2.0) * 3 * kDay / kWeek));
    QVERIFY(std::isfinite(avg));
  }

  void racHalvesAfterAHalfLifeWithoutCredit() {
    QVERIFY(near(store::decay_average(120, 5000, 5000 + kWeek, kWeek), 60));
    QVERIFY(near(store::decay_average(120, 5000, 5000 + 2 * kWeek, kWeek), 30));
    QVERIFY(near(store::decay_average(120, 5000, 5000, kWeek), 120));
    // BOINC's update with no work decays the same way.
    double avg = 80, avg_time = 10;
    store::update_average(10 + kWeek, 0, 0, kWeek, avg, avg_time);
    QVERIFY(near(avg, 40));
  }

  void racSettlesAtTheSteadyDailyRate() {
    // 2 credits every hour for ten weeks: the RAC approaches 48 credits a day.
    double avg = 0, avg_time = 0;
    double t = 3600;
    store::update_average(t, 0, 2, kWeek, avg, avg_time);
    for (int h = 1; h < 24 * 70; ++h) {
      t += 3600;
      store::update_average(t, 0, 2, kWeek, avg, avg_time);
    }
    QVERIFY2(std::abs(avg - 48) < 0.5, qPrintable(QString::number(avg)));
  }

  void ledgerGrantsCreditAndRacPerBatch() {
    store::Database db(file("grants.db"));
    store::Ledger ledger(db);
    QCOMPARE(ledger.totals().units, std::int64_t{0});
    QCOMPARE(ledger.totals().rac_unix_ms, std::int64_t{0});
    // Batch 1: two units finishing at t and t+1 s; the first began 0.5 s before t.
    const std::int64_t t = kNowMs - 3 * 3600 * 1000;
    ledger.append({unit(t, 2e12, 16, 0.5), unit(t + 1000, 3e12, 16, 0.5)});
    double avg = 0, avg_time = 0;
    store::update_average((t + 1000) / 1000.0, t / 1000.0 - 0.5, store::credit_for_flops(5e12),
                          kWeek, avg, avg_time);
    auto totals = ledger.totals();
    QCOMPARE(totals.units, std::int64_t{2});
    QCOMPARE(totals.samples, std::int64_t{32});
    QVERIFY(near(totals.flops, 5e12));
    QVERIFY(near(totals.credit, 5e12 / 432e9));
    QCOMPARE(totals.bytes_sent, std::uint64_t{2000});
    QCOMPARE(totals.bytes_received, std::uint64_t{4000});
    QVERIFY(near(totals.rac, avg));
    QCOMPARE(totals.rac_unix_ms, t + 1000);
    QCOMPARE(totals.first_unix_ms, t);
    QCOMPARE(totals.last_unix_ms, t + 1000);
    // Batch 2, an hour later.
    ledger.append({unit(t + 3601 * 1000, 1e12)});
    store::update_average((t + 3601 * 1000) / 1000.0, 0, store::credit_for_flops(1e12), kWeek, avg,
                          avg_time);
    totals = ledger.totals();
    QVERIFY(near(totals.rac, avg));
    QVERIFY(near(totals.credit, 6e12 / 432e9));
    // Shown a week after the last grant: half.
    QVERIFY(near(totals.rac_at(totals.rac_unix_ms + 7LL * 86400 * 1000), avg / 2));
    // Nonsense is refused with the reason, and nothing changes.
    try {
      ledger.append({unit(t + 4000 * 1000, 1e12), unit(t + 4001 * 1000, std::nan(""))});
      QFAIL("a NaN unit was accepted");
    } catch (const store::StoreError& e) {
      QVERIFY2(std::string(e.what()).find("non-finite") != std::string::npos, e.what());
    }
    QCOMPARE(ledger.totals().units, std::int64_t{3});
    QCOMPARE(count(db, "SELECT COUNT(*) FROM ledger_units"), std::int64_t{3});
  }

  void manyUnitsAreWrittenInFewTransactions() {
    store::Database db(file("batching.db"));
    store::LedgerWriter writer(db, std::chrono::seconds(5));
    const auto t0 = store::LedgerWriter::Clock::now();
    const auto commits_before = db.commits();
    // 1200 units over 12 simulated seconds, the node's event loop asking every 10 ms.
    for (int i = 0; i < 1200; ++i) {
      QVERIFY(writer.record(unit(kNowMs + i * 10, 1e9)));
      writer.flush_if_due(t0 + std::chrono::milliseconds(10 * (i + 1)));
    }
    QCOMPARE(db.commits() - commits_before, std::uint64_t{2});  // at 5 s and at 10 s
    QVERIFY(writer.pending() > 0);
    QVERIFY(writer.flush());  // the stop
    QCOMPARE(db.commits() - commits_before, std::uint64_t{3});
    QCOMPARE(writer.batches_written(), std::uint64_t{3});
    QCOMPARE(writer.pending(), std::size_t{0});
    QCOMPARE(count(db, "SELECT COUNT(*) FROM ledger_units"), std::int64_t{1200});
    const auto totals = writer.ledger().totals();
    QCOMPARE(writer.totals().units, std::int64_t{1200});
    QCOMPARE(totals.units, std::int64_t{1200});
    QVERIFY(near(totals.flops, 1200e9));
    QCOMPARE(count(db, "SELECT SUM(units) FROM ledger_quarters"), std::int64_t{1200});
    // Nothing to write: no transaction.
    QVERIFY(writer.flush());
    QCOMPARE(db.commits() - commits_before, std::uint64_t{3});
    // A unit that could never be written is dropped, not kept to block the others.
    QVERIFY(!writer.record(unit(kNowMs, -1)));
    QCOMPARE(writer.pending(), std::size_t{0});
  }

  void historyPerHourAndPerDayInLocalTime() {
    set_tz("UTC");
    store::Database db(file("history.db"));
    store::Ledger ledger(db);
    const std::int64_t h = 3600 * 1000;
    const std::int64_t hour10 = kNowMs - 30 * 60 * 1000;  // 10:00 UTC today
    ledger.append({unit(hour10 - 14 * h + 60'000, 4e12),  // yesterday 20:01
                   unit(hour10 - 2 * h, 1e12),            // 08:00:00 exactly
                   unit(hour10 - 1, 2e12),                // 09:59:59.999
                   unit(hour10 + 5 * 60'000, 3e12),       // 10:05
                   unit(hour10 + 15 * 60'000, 5e12)});    // 10:15
    auto hours = ledger.history(store::LedgerPeriodKind::Hour, 3, kNowMs);
    QCOMPARE(hours.size(), std::size_t{3});
    QCOMPARE(hours[0].start_unix_ms, hour10 - 2 * h);
    QCOMPARE(hours[2].end_unix_ms, hour10 + h);
    QCOMPARE(hours[0].units, std::int64_t{1});
    QVERIFY(near(hours[0].flops, 1e12));
    QVERIFY(near(hours[1].flops, 2e12));
    QCOMPARE(hours[2].units, std::int64_t{2});
    QVERIFY(near(hours[2].flops, 8e12));
    QVERIFY(near(hours[2].credit, 8e12 / 432e9));
    QCOMPARE(hours[2].samples, std::int64_t{32});
    auto days = ledger.history(store::LedgerPeriodKind::Day, 3, kNowMs);
    QCOMPARE(days.size(), std::size_t{3});
    const std::int64_t midnight = hour10 - 10 * h;
    QCOMPARE(days[2].start_unix_ms, midnight);
    QCOMPARE(days[1].start_unix_ms, midnight - 24 * h);
    QCOMPARE(days[0].units, std::int64_t{0});
    QVERIFY(near(days[1].flops, 4e12));
    QCOMPARE(days[2].units, std::int64_t{4});
    QVERIFY(near(days[2].flops, 11e12));

    // India is UTC+5:30: its midnight is 18:30 UTC, a quarter-hour boundary, not an hour's.
    if (!std::filesystem::exists("/usr/share/zoneinfo/Asia/Kolkata")) {
      qWarning("no tzdata for Asia/Kolkata: the half-hour time zone is not checked");
      return;
    }
    set_tz("Asia/Kolkata");
    const std::int64_t ist_midnight =
        midnight + 18 * h + 30 * 60'000;  // today 18:30 UTC = tomorrow 00:00 IST
    store::Database db2(file("history-ist.db"));
    store::Ledger ist(db2);
    ist.append({unit(ist_midnight - 10 * 60'000, 1e12), unit(ist_midnight + 10 * 60'000, 2e12)});
    days = ist.history(store::LedgerPeriodKind::Day, 2, ist_midnight + 3600'000);
    QCOMPARE(days[1].start_unix_ms, ist_midnight);
    QVERIFY(near(days[0].flops, 1e12));
    QVERIFY(near(days[1].flops, 2e12));
    hours = ist.history(store::LedgerPeriodKind::Hour, 2, ist_midnight + 20 * 60'000);
    QCOMPARE(hours[1].start_unix_ms, ist_midnight);
    QVERIFY(near(hours[0].flops, 1e12));
    QVERIFY(near(hours[1].flops, 2e12));
  }

  void oldUnitRowsArePrunedButTotalsKept() {
    store::Database db(file("retention.db"));
    store::Ledger ledger(db, std::chrono::hours(48));
    const std::int64_t day = 24 * 3600 * 1000LL;
    ledger.append({unit(kNowMs - 3 * day, 1e12)});
    ledger.append({unit(kNowMs - 2 * day, 2e12)});
    QCOMPARE(ledger.units().size(), std::size_t{2});
    ledger.append({unit(kNowMs, 3e12)});  // the first is now more than 48 h older than the newest
    const auto kept = ledger.units();
    QCOMPARE(kept.size(), std::size_t{2});
    QCOMPARE(kept.front().finished_unix_ms, kNowMs - 2 * day);
    QCOMPARE(ledger.totals().units, std::int64_t{3});
    QVERIFY(near(ledger.totals().flops, 6e12));
    QCOMPARE(count(db, "SELECT SUM(units) FROM ledger_quarters"), std::int64_t{3});
  }

  void migratesFromSchemaOneKeepingTheSettings() {
    const auto path = file("from-v1.db");
    {
      // The file as the previous Rookery left it: schema 1, with a setting.
      store::Database v1(path, {store::schema_migrations().front()});
      QCOMPARE(v1.schema_version(), 1);
      store::Settings(v1).set({{"governor.in_use.cpu_time_percent", "40"},
                               {"governor.state.snoozed_until_unix_ms", "123"}});
      QVERIFY_THROWS_EXCEPTION(store::StoreError, store::Ledger{v1});
    }
    {
      store::Database db(path);
      QCOMPARE(db.schema_version(), 2);
      store::Settings settings(db);
      QCOMPARE(*settings.get("governor.in_use.cpu_time_percent"), std::string("40"));
      QCOMPARE(*settings.get("governor.state.snoozed_until_unix_ms"), std::string("123"));
      QCOMPARE(settings.all().size(), std::size_t{2});
      store::Ledger ledger(db);
      QCOMPARE(ledger.totals().units, std::int64_t{0});
      ledger.append({unit(kNowMs, 1e12)});
    }
    // And it stays: reopened, the ledger and the settings are both there.
    store::Database db(path);
    QCOMPARE(store::Ledger(db).totals().units, std::int64_t{1});
    QCOMPARE(*store::Settings(db).get("governor.in_use.cpu_time_percent"), std::string("40"));
  }

  void aFullDiskLosesNothing() {
    store::Database db(file("full.db"));
    store::LedgerWriter writer(db, std::chrono::seconds(5));
    for (int i = 0; i < 10; ++i) writer.record(unit(kNowMs + i, 1e12));
    QVERIFY(writer.flush());
    // The disk is full: the file may not grow by a single page.
    const auto pages = count(db, "PRAGMA page_count");
    db.prepare("PRAGMA max_page_count = " + std::to_string(pages)).step();
    for (int i = 0; i < 5000; ++i) writer.record(unit(kNowMs + 1000 + i, 1e12));
    QVERIFY(!writer.flush());
    QVERIFY2(writer.last_error().find("full") != std::string::npos, writer.last_error().c_str());
    QCOMPARE(writer.pending(), std::size_t{5000});
    QCOMPARE(writer.totals().units, std::int64_t{10});           // what was committed before
    QCOMPARE(writer.ledger().totals().units, std::int64_t{10});  // untouched in the file
    QCOMPARE(count(db, "SELECT COUNT(*) FROM ledger_units"), std::int64_t{10});
    writer.record(unit(kNowMs + 9000, 1e12));  // work goes on meanwhile
    QVERIFY(!writer.flush());
    QCOMPARE(writer.pending(), std::size_t{5001});
    // Space again: everything pending is written, in order, once.
    db.prepare("PRAGMA max_page_count = 1073741823").step();
    QVERIFY(writer.flush());
    QVERIFY(writer.last_error().empty());
    QCOMPARE(writer.pending(), std::size_t{0});
    QCOMPARE(writer.ledger().totals().units, std::int64_t{5011});
    QCOMPARE(count(db, "SELECT COUNT(*) FROM ledger_units"), std::int64_t{5011});
    QCOMPARE(writer.ledger().totals().last_unix_ms, kNowMs + 9000);
  }
};

QTEST_GUILESS_MAIN(TestLedger)
#include "test_ledger.moc"
