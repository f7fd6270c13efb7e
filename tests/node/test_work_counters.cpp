// Work is counted once, by the workload: the ledger's units, the window's totals and the
// heartbeat's totals all come from its counters' snapshots, so they agree with it (the
// heartbeat at the claim factor), the rates are those of the snapshots' differences, and a
// stage retired for a new plan keeps its totals and receipts.
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include "clock/clock.hpp"
#include "net/identity.hpp"
#include "net/secure_context.hpp"
#include "node/ledger_recorder.hpp"
#include "node/plan_follower.hpp"
#include "node/shard_handover.hpp"
#include "node/shard_server.hpp"
#include "node/work_report.hpp"
#include "reach/tcp.hpp"
#include "store/database.hpp"

using namespace rookery;
using namespace std::chrono_literals;
namespace pb = rookery::wire::pb;

namespace {

// A workload whose counters the test moves, as a stage's compute thread moves its own.
class CountedWork final : public node::Workload {
 public:
  std::string description() const override { return "counted"; }
  node::WorkUnitResult run_unit() override { return {}; }
  node::WorkCounters counters() const override { return counted; }
  void describe(pb::NodeSnapshot& s) const override { s.mutable_stage()->set_job_id("job"); }

  // A micro-batch's forward and backward (or, without samples, a forward alone).
  void unit(std::int64_t samples, double flops, double seconds, double loss = -1) {
    counted.samples += samples;
    if (samples > 0) ++counted.micro_batches;
    counted.flops += flops;
    counted.busy_seconds += seconds;
    if (loss >= 0) counted.loss = loss;
  }
  node::WorkCounters counted;
};

// The node's books on one workload: the ledger and window (LedgerRecorder) and the
// heartbeat (WorkReport), both reading its counters.
struct Books {
  Books(const QTemporaryDir& dir, node::WorkReport::Source counters, std::int64_t claim)
      : db(dir.filePath("state.db").toStdString()),
        ledger(clock),
        report(std::move(counters), claim) {
    ledger.open(db);
  }
  Books(const QTemporaryDir& dir, const node::Workload& work, std::int64_t claim)
      : Books(
            dir, [&work] { return work.counters(); }, claim) {}
  // The ledger, the window and the heartbeat show `c` (the heartbeat at `claim` times).
  void agree_with(const node::WorkCounters& c, std::int64_t claim = 1) {
    const auto h = heartbeat();
    QCOMPARE(h.samples(), claim * c.samples);
    QCOMPARE(h.micro_batches(), claim * c.micro_batches);
    QCOMPARE(h.flops(), static_cast<double>(claim) * c.flops);
    QCOMPARE(h.loss(), c.loss);
    const auto& window = ledger.work_locked();
    QCOMPARE(window.samples(), static_cast<std::uint64_t>(c.samples));
    QCOMPARE(window.flops(), c.flops);
    QCOMPARE(window.busy_seconds(), c.busy_seconds);
    if (c.loss >= 0) QCOMPARE(window.last_loss(), c.loss);
    const auto sums = ledger_sums();
    QCOMPARE(sums.samples(), static_cast<std::uint64_t>(c.samples));
    QCOMPARE(sums.flops(), c.flops);
    QCOMPARE(sums.busy_seconds(), c.busy_seconds);
  }
  pb::LedgerSums ledger_sums() {
    ledger.flush();
    pb::LedgerTotals t;
    ledger.describe_locked(t);
    return t.total();
  }
  pb::Heartbeat heartbeat() {
    pb::Heartbeat h;
    report.describe(h, clock.steady_now());
    return h;
  }

  clock::ManualClock clock;
  store::Database db;
  node::LedgerRecorder ledger;
  node::WorkReport report;
};

std::uint16_t free_port() {
  const auto fd = reach::listen_tcp("127.0.0.1", 0);
  return reach::local_port(fd.get());
}

// A one-stage plan with this node's key at a fresh port, its job in `jobs_dir`.
// Plan `version`: one stage holding the whole model, as the coordinator sends it.
node::PendingPlan one_stage_plan(std::uint64_t version, const std::string& key,
                                 const std::filesystem::path& jobs_dir) {
  node::PendingPlan p;
  p.version = version;
  p.job_path = jobs_dir / "job.json";
  auto* stage = p.plan.add_pipelines()->add_stages();
  stage->set_first_block(0);
  stage->set_last_block(3);
  stage->set_key(key);
  stage->set_endpoint("tcp://127.0.0.1:" + std::to_string(free_port()));
  return p;
}

void write_job(const std::filesystem::path& jobs_dir) {
  std::ofstream(jobs_dir / "job.json") << R"({"id": "counted", "model": {"kind": "gpt",
    "vocab": 256, "context": 16, "width": 32, "depth": 1, "heads": 2, "mlp_ratio": 2,
    "dropout": 0.0},
    "dataset": {"kind": "text", "path": ")" ROOKERY_SOURCE_DIR
                                          R"(/resources/demo/demo-text.txt", "stride": 1,
                "shuffle": true},
    "optimizer": {"kind": "adamw", "lr": 0.001, "betas": [0.9, 0.95], "eps": 1e-8,
                  "weight_decay": 0.1, "schedule": {"warmup_steps": 2, "decay": "constant"}},
    "micro_batch_size": 4, "grad_accumulation": 1, "staleness": 2, "codec": "none",
    "averaging_period": 50, "seed": 3})";
}

// A plan follower as the coordinated workload wires it, without a coordinator: the test
// hands it the plans.
class FollowedWork final : public node::Workload {
 public:
  explicit FollowedWork(node::WorkReport& report)
      : identity(net::CurveKeyPair::generate()),
        ctx(1),
        shards(ctx, identity, "127.0.0.1", [] { return nullptr; }),
        handover(ctx, identity, shards),
        plans(node::StageWorkloadOptions{}, identity, shards, handover, report) {}

  std::string description() const override { return plans.description().value_or("none"); }
  node::WorkUnitResult run_unit() override { return plans.run_unit(); }
  node::WorkCounters counters() const override { return plans.counters(); }
  void describe(pb::NodeSnapshot& s) const override { plans.describe(s); }

  net::CurveKeyPair identity;
  net::SecureContext ctx;
  node::ShardServer shards;
  node::ShardHandover handover;
  node::PlanFollower plans;
};

}  // namespace

class TestWorkCounters : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void ledgerHeartbeatAndWindowShowTheSnapshot_data() {
    QTest::addColumn<qint64>("claim");
    QTest::newRow("honest") << qint64{1};
    QTest::newRow("claims ten times its work") << qint64{10};
  }
  void ledgerHeartbeatAndWindowShowTheSnapshot() {
    QFETCH(qint64, claim);
    QTemporaryDir dir;
    CountedWork work;
    Books books(dir, work, claim);
    for (int i = 0; i < 12; ++i) {
      if (i % 3 == 0) {
        work.unit(0, 1e9, 0.125);  // a forward: FLOP, no samples
      } else {
        work.unit(16, 2e9, 0.25, 3.0 - 0.125 * i);
      }
      books.ledger.record_locked(work);
      books.clock.advance(200ms);
      books.agree_with(work.counted, claim);
      if (QTest::currentTestFailed()) return;
      QCOMPARE(books.ledger.work_locked().work_units(), static_cast<std::uint64_t>(i + 1));
    }
    // The ledger has a unit per unit, each the difference it made: in all, the snapshot.
    QCOMPARE(books.ledger_sums().work_units(), std::uint64_t{12});
    QCOMPARE(work.counted.samples, std::int64_t{8 * 16});
  }

  // Work done while the worker was not recording (a unit that said it did nothing) is in the
  // next unit's difference: nothing counted is lost, nothing is counted twice.
  void unrecordedWorkComesWithTheNextUnit() {
    QTemporaryDir dir;
    CountedWork work;
    Books books(dir, work, 1);
    work.unit(16, 2e9, 0.5);
    work.unit(16, 2e9, 0.5);
    books.ledger.record_locked(work);
    work.unit(8, 1e9, 0.25);
    books.ledger.record_locked(work);
    const auto sums = books.ledger_sums();
    QCOMPARE(sums.work_units(), std::uint64_t{2});
    QCOMPARE(sums.samples(), std::uint64_t{40});
    QCOMPARE(sums.flops(), 5e9);
    QCOMPARE(books.heartbeat().samples(), std::int64_t{40});
  }

  // The heartbeat's rates come from differences between snapshots: each covers the time
  // since the previous heartbeat, so the rate is right whatever the heartbeat period.
  void ratesFromSnapshotDifferences_data() {
    QTest::addColumn<int>("period_ms");
    QTest::newRow("twice a second") << 500;
    QTest::newRow("every two seconds") << 2000;
  }
  void ratesFromSnapshotDifferences() {
    QFETCH(int, period_ms);
    QTemporaryDir dir;
    CountedWork work;
    Books books(dir, work, 1);
    books.heartbeat();  // the first: nothing done yet
    pb::Heartbeat h;
    for (int i = 0; i < 10; ++i) {
      books.clock.advance(std::chrono::milliseconds(period_ms));
      // 8 samples per 250 ms, a FLOP per 4 ns of compute
      for (int u = 0; u < period_ms / 250; ++u) work.unit(8, 1e9, 0.25);
      h = books.heartbeat();
    }
    QCOMPARE(h.samples_per_s(), 32.0);
    QCOMPARE(h.flops_per_busy_s(), 4e9);
  }

  // Before three seconds of compute, no speed while computing is shown.
  void noBusySpeedBeforeThreeSeconds() {
    QTemporaryDir dir;
    CountedWork work;
    Books books(dir, work, 1);
    work.unit(8, 1e9, 2.0);
    books.clock.advance(2s);
    QCOMPARE(books.heartbeat().flops_per_busy_s(), 0.0);
  }

  // New blocks: the speed while computing is measured on the new blocks only, the totals
  // keep everything.
  void newBlocksRestartTheBusySpeed() {
    QTemporaryDir dir;
    CountedWork work;
    Books books(dir, work, 1);
    work.unit(8, 1e9, 4.0);  // slow old blocks
    books.clock.advance(1s);
    QCOMPARE(books.heartbeat().flops_per_busy_s(), 0.25e9);
    work.unit(8, 1e9, 1.0);  // done on the old blocks before the switch
    books.report.new_blocks();
    work.unit(8, 6e9, 3.0);
    books.clock.advance(1s);
    const auto h = books.heartbeat();
    QCOMPARE(h.flops_per_busy_s(), 2e9);
    QCOMPARE(h.flops(), 8e9);
    QCOMPARE(h.samples(), std::int64_t{24});
  }

  // A retired stage's receipts stay in every later heartbeat, added to the live stage's.
  void retiredReceiptsStay() {
    QTemporaryDir dir;
    CountedWork work;
    Books books(dir, work, 1);
    pipeline::StageStats first;
    first.receipts["peer-a"] = {16, 8};
    first.receipts["peer-b"] = {4, 0};
    books.report.stage_stats(first);
    books.report.stage_retired(first.receipts);
    pipeline::StageStats next;
    next.receipts["peer-a"] = {2, 2};
    next.receipts["peer-c"] = {1, 1};
    books.report.stage_stats(next);
    const auto h = books.heartbeat();
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> got;
    for (const auto& r : h.receipts()) got[r.key()] = {r.forward_samples(), r.backward_samples()};
    const std::map<std::string, std::pair<std::int64_t, std::int64_t>> want{
        {"peer-a", {18, 10}}, {"peer-b", {4, 0}}, {"peer-c", {1, 1}}};
    QCOMPARE(got, want);
  }

  // A real stage, followed across a new plan: the ledger's sums, the window's and the
  // heartbeat's totals are the plan follower's counters before and after, and the retired
  // stage's work stays in them.
  void stageRetiredForANewPlanKeepsItsWork() {
    QTemporaryDir dir;
    const std::filesystem::path jobs = dir.filePath("jobs").toStdString();
    std::filesystem::create_directories(jobs);
    write_job(jobs);
    const node::Workload* source = nullptr;
    Books books(
        dir, [&source] { return source ? source->counters() : node::WorkCounters{}; }, 1);
    FollowedWork work(books.report);
    source = &work;
    int recorded = 0;
    // Units until the counters show `batches` more micro-batches, recorded as the worker does.
    const auto train = [&](std::int64_t batches) {
      const auto until = work.counters().micro_batches + batches;
      for (int i = 0; i < 1000 && work.counters().micro_batches < until; ++i) {
        if (work.run_unit().did_work) {
          books.ledger.record_locked(work);
          ++recorded;
        }
        books.clock.advance(50ms);
      }
    };

    work.plans.offer(one_stage_plan(1, work.identity.public_key, jobs));
    work.run_unit();  // starts the stage, which feeds once its pipeline is ready
    QCOMPARE(work.plans.plan_version(), std::uint64_t{1});
    work.plans.pipeline_ready(1);
    train(3);
    const auto first = work.counters();
    QVERIFY(first.micro_batches >= 3);
    QCOMPARE(first.samples, 4 * first.micro_batches);
    QVERIFY(first.flops > 0 && first.busy_seconds > 0 && first.loss > 0);
    books.agree_with(first);
    if (QTest::currentTestFailed()) return;

    work.plans.offer(one_stage_plan(2, work.identity.public_key, jobs));
    if (work.run_unit().did_work) {  // retires the first stage and starts the second
      books.ledger.record_locked(work);
      ++recorded;
    }
    QCOMPARE(work.plans.plan_version(), std::uint64_t{2});
    const auto switched = work.counters();
    QCOMPARE(switched.samples, first.samples);
    QCOMPARE(switched.micro_batches, first.micro_batches);
    QCOMPARE(switched.flops, first.flops);
    work.plans.pipeline_ready(2);
    train(3);
    const auto both = work.counters();
    QVERIFY(both.micro_batches >= first.micro_batches + 3);
    QVERIFY(both.flops > first.flops);
    books.agree_with(both);
    QCOMPARE(books.ledger_sums().work_units(), static_cast<std::uint64_t>(recorded));
  }
};

QTEST_GUILESS_MAIN(TestWorkCounters)
#include "test_work_counters.moc"
