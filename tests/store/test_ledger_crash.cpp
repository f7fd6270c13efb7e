// kill -9 while the ledger is being written. First a child process that does nothing but
// write batches of 50 units back to back (so the kill nearly always lands inside a
// transaction): after each kill the file is intact and holds whole batches only. Then a real
// rookery-node training a one-stage pipeline, writing its ledger every 50 ms: after each kill
// the totals, the unit rows and the quarter-hour sums agree, nothing the node had reported as
// written is gone, and a restarted node reports the same history. Last, a node whose files
// may not grow (a full disk): the ledger's writes fail, the node says so and trains on with the
// units in memory, and once there is room again they are all written.
#include <QCoreApplication>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "store/database.hpp"
#include "store/ledger.hpp"
#include "store/one_stage_node.hpp"

using namespace rookery;
namespace pb = rookery::wire::pb;

namespace {
constexpr int kBatch = 50;

// The child: batches of kBatch units, one transaction each, forever.
int writeForever(const char* path) {
  store::Database db(path);
  store::Ledger ledger(db);
  std::int64_t t = 1'795'257'000'000;
  for (long n = 0;; ++n) {
    std::vector<store::LedgerUnit> batch;
    for (int i = 0; i < kBatch; ++i) {
      store::LedgerUnit u;
      u.finished_unix_ms = t++;
      u.flops = 1e9;
      u.samples = 4;
      u.seconds = 0.001;
      u.bytes_sent = 100;
      u.bytes_received = 200;
      u.job_id = "crash";
      batch.push_back(u);
    }
    ledger.append(batch);
    if (n == 0) {
      std::printf("written\n");
      std::fflush(stdout);
    }
  }
}

std::int64_t scalar(store::Database& db, const char* sql) {
  auto s = db.prepare(sql);
  return s.step() ? s.integer(0) : -1;
}

double real(store::Database& db, const char* sql) {
  auto s = db.prepare(sql);
  return s.step() ? s.real(0) : -1;
}

bool near(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

// The file after a crash: intact, and its three views of the work agree.
struct Checked {
  bool ok = false;
  std::string why;
  store::LedgerTotals totals;
};

Checked check(const std::filesystem::path& path) {
  Checked c;
  try {
    store::Database db(path);
    auto integrity = db.prepare("PRAGMA integrity_check");
    if (!integrity.step() || integrity.text(0) != "ok") {
      c.why = "integrity_check: " + integrity.text(0);
      return c;
    }
    c.totals = store::Ledger(db).totals();
    const auto rows = scalar(db, "SELECT COUNT(*) FROM ledger_units");
    const auto quarter_units = scalar(db, "SELECT COALESCE(SUM(units), 0) FROM ledger_quarters");
    const auto row_samples = scalar(db, "SELECT COALESCE(SUM(samples), 0) FROM ledger_units");
    const double row_flops = real(db, "SELECT COALESCE(SUM(flops), 0) FROM ledger_units");
    const double quarter_credit = real(db, "SELECT COALESCE(SUM(credit), 0) FROM ledger_quarters");
    if (rows != c.totals.units || quarter_units != c.totals.units) {
      c.why = "units: totals " + std::to_string(c.totals.units) + ", rows " + std::to_string(rows) +
              ", quarters " + std::to_string(quarter_units);
      return c;
    }
    if (row_samples != c.totals.samples || !near(row_flops, c.totals.flops) ||
        !near(quarter_credit, c.totals.credit) ||
        !near(store::credit_for_flops(c.totals.flops), c.totals.credit)) {
      c.why = "samples, FLOPs or credit disagree between the totals, the rows and the quarters";
      return c;
    }
    c.ok = true;
  } catch (const std::exception& e) {
    c.why = e.what();
  }
  return c;
}
}  // namespace

class TestLedgerCrash : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void killedWriterLeavesWholeBatchesOnly() {
    QTemporaryDir dir;
    const auto path = std::filesystem::path(dir.filePath(QStringLiteral("crash.db")).toStdString());
    std::int64_t before = 0;
    for (int round = 0; round < 6; ++round) {
      QProcess child;
      child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
      child.start(QCoreApplication::applicationFilePath(),
                  {QStringLiteral("--write-ledger"), QString::fromStdString(path.string())});
      QVERIFY(child.waitForStarted(5000));
      QVERIFY(child.waitForReadyRead(20000));
      QTest::qWait(20 + static_cast<int>(QRandomGenerator::global()->bounded(200)));
      child.kill();
      QVERIFY(child.waitForFinished(5000));
      QCOMPARE(child.exitStatus(), QProcess::CrashExit);
      const auto c = check(path);
      QVERIFY2(c.ok, c.why.c_str());
      QCOMPARE(c.totals.units % kBatch, std::int64_t{0});  // no part of a batch
      QVERIFY2(c.totals.units > before,
               qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(c.totals.units)));
      QCOMPARE(c.totals.samples, c.totals.units * 4);
      QCOMPARE(c.totals.bytes_received, static_cast<std::uint64_t>(c.totals.units) * 200);
      qInfo("round %d: %lld units after the kill", round, static_cast<long long>(c.totals.units));
      before = c.totals.units;
    }
  }

  void killedNodeKeepsWhatItWrote() {
    QTemporaryDir dir;
    ledger_test::OneStageNode node(dir.path());
    QVERIFY(node.prepare());
    std::int64_t before = 0;
    for (int round = 0; round < 3; ++round) {
      QVERIFY(node.start(/*contribute=*/true));
      QVERIFY2(node.waitReady(), "the node did not come up with its stage");
      // Wait until this run has written some units of its own.
      std::uint64_t written = 0;
      QVERIFY(QTest::qWaitFor(
          [&] {
            const auto a = node.ask();
            written = a.ok ? a.snapshot.ledger().total().work_units() : 0;
            return written > static_cast<std::uint64_t>(before) + 5;
          },
          60000));
      QVERIFY(node.ask().snapshot.ledger().available());
      QVERIFY(node.ask().snapshot.ledger().error().empty());
      QTest::qWait(static_cast<int>(QRandomGenerator::global()->bounded(250)));
      node.kill9();
      QCOMPARE(node.process().exitStatus(), QProcess::CrashExit);
      const auto c = check(node.stateDb());
      QVERIFY2(c.ok, c.why.c_str());
      QVERIFY2(c.totals.units >= static_cast<std::int64_t>(written),
               qPrintable(QStringLiteral("the node reported %1 units written, the file holds %2")
                              .arg(written)
                              .arg(c.totals.units)));
      QVERIFY(c.totals.samples > 0);
      QVERIFY(c.totals.flops > 0);
      QVERIFY(c.totals.credit > 0);
      QVERIFY(c.totals.rac > 0);
      qInfo("round %d: %lld units, %lld samples, %.3f credits after the kill", round,
            static_cast<long long>(c.totals.units), static_cast<long long>(c.totals.samples),
            c.totals.credit);
      before = c.totals.units;
    }
    // A restarted node reports the history it finds, and keeps it through a clean stop.
    const auto c = check(node.stateDb());
    QVERIFY(c.ok);
    QVERIFY(node.start(/*contribute=*/false));
    QVERIFY(node.waitReady());
    const auto l = node.ask().snapshot.ledger();
    QCOMPARE(l.total().work_units(), static_cast<std::uint64_t>(c.totals.units));
    QCOMPARE(l.total().samples(), static_cast<std::uint64_t>(c.totals.samples));
    QVERIFY(near(l.total().flops(), c.totals.flops));
    QVERIFY(near(l.total().credit(), c.totals.credit));
    QCOMPARE(l.last_unix_ms(), c.totals.last_unix_ms);
    QVERIFY(l.rac() > 0 && l.rac() <= c.totals.rac);  // decayed a little since the last grant
    // Its history per hour adds up to the same.
    control::ControlClient client(control::ControlEndpoints::in(node.runtimeDir()));
    pb::ControlRequest r;
    r.set_kind(pb::ControlRequest::LEDGER_HISTORY);
    r.mutable_history()->set_period(pb::LedgerHistoryQuery::HOURS);
    r.mutable_history()->set_count(24);
    pb::ControlReply reply;
    QVERIFY(client.request(r, std::chrono::seconds(2), &reply).ok);
    QCOMPARE(reply.ledger_history_size(), 24);
    std::uint64_t units = 0;
    for (const auto& p : reply.ledger_history()) units += p.sums().work_units();
    QCOMPARE(units, static_cast<std::uint64_t>(c.totals.units));
    // A bad query is refused with the reason.
    r.mutable_history()->set_count(0);
    const auto bad = client.request(r, std::chrono::seconds(2));
    QVERIFY(!bad.ok);
    QVERIFY2(bad.error.find("count 1-1000") != std::string::npos, bad.error.c_str());
    QVERIFY(node.quit());
    QCOMPARE(check(node.stateDb()).totals.units, c.totals.units);
  }

  void fullDiskKeepsTheNodeRunningAndLosesNothing() {
    QTemporaryDir dir;
    ledger_test::OneStageNode node(dir.path());
    QVERIFY(node.prepare());
    // Some history, written with room to spare.
    QVERIFY(node.start(/*contribute=*/true));
    QVERIFY(node.waitReady());
    QVERIFY(QTest::qWaitFor([&] { return node.ask().snapshot.ledger().total().work_units() >= 20; },
                            60000));
    QVERIFY(node.quit());
    const auto before = check(node.stateDb());
    QVERIFY2(before.ok, before.why.c_str());

    // Now no file may grow past the database's size and a little: the ledger's writes fail.
    const auto limit_kib = static_cast<int>(std::filesystem::file_size(node.stateDb()) / 1024) + 96;
    QVERIFY(node.start(/*contribute=*/true, /*flush_ms=*/1, limit_kib));
    QVERIFY(node.waitReady());
    pb::LedgerTotals failing;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   failing = node.ask().snapshot.ledger();
                   return !failing.error().empty();
                 },
                 60000),
             "the ledger never failed to write");
    qInfo("the ledger reports: %s", failing.error().c_str());
    QVERIFY(failing.total().work_units() >= static_cast<std::uint64_t>(before.totals.units));
    // The node runs on: it answers, trains, and keeps what it could not write.
    QTest::qWait(600);
    auto a = node.ask();
    QVERIFY(a.ok);
    QCOMPARE(a.snapshot.state(), pb::CONTRIBUTING);
    QVERIFY(!a.snapshot.ledger().error().empty());
    QVERIFY2(a.snapshot.ledger().pending_units() > failing.pending_units(),
             qPrintable(QStringLiteral("%1 -> %2")
                            .arg(failing.pending_units())
                            .arg(a.snapshot.ledger().pending_units())));
    QCOMPARE(a.snapshot.ledger().total().work_units(),
             failing.total().work_units());  // committed stays as it was

    // Space again: everything waiting is written, and nothing was lost.
    QCOMPARE(QProcess::execute(QStringLiteral("prlimit"),
                               {QStringLiteral("--pid"), QString::number(node.pid()),
                                QStringLiteral("--fsize=unlimited:")}),
             0);
    control::ControlClient client(control::ControlEndpoints::in(node.runtimeDir()));
    QVERIFY(client.request(pb::ControlRequest::PAUSE).ok);
    pb::NodeSnapshot settled;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   const auto s = node.ask().snapshot;
                   const bool done = s.ledger().error().empty() &&
                                     s.ledger().pending_units() == 0 &&
                                     s.work().work_units() == settled.work().work_units();
                   settled = s;
                   QTest::qWait(150);
                   return done;
                 },
                 30000),
             settled.ledger().error().c_str());
    QCOMPARE(settled.ledger().total().work_units(),
             static_cast<std::uint64_t>(before.totals.units) + settled.work().work_units());
    QVERIFY(node.quit());
    const auto after = check(node.stateDb());
    QVERIFY2(after.ok, after.why.c_str());
    QCOMPARE(static_cast<std::uint64_t>(after.totals.units), settled.ledger().total().work_units());
  }
};

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--write-ledger") return writeForever(argv[2]);
  QCoreApplication app(argc, argv);
  TestLedgerCrash test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_ledger_crash.moc"
