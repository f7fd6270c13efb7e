// The coordinator's SQLite state: what a restarted coordinator finds again, contribution
// totals across node restarts, receipts (the work peers confirm), the loss curve, the run's
// result (archive snapshots, their evaluations as the validation curve, blocks restored from
// them), a file of the previous schema migrated, and a corrupt file refused untouched.
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

#include "coordinator/coordinator_state.hpp"
#include "coordinator/verdicts.hpp"

using namespace rookery;
using coordinator::Assignment;
using coordinator::CoordinatorState;

namespace {
std::string key_of(char c) { return std::string(40, c); }
}  // namespace

class TestCoordinatorState : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void aRestartFindsMembersPlansAndTotals() {
    QTemporaryDir dir;
    const auto path = std::filesystem::path(dir.path().toStdString()) / "coordinator.db";
    Assignment a;
    a.version = 1;
    a.pipelines = {{{key_of('a'), 0, 3}, {key_of('b'), 3, 6}}};
    Assignment b = a;
    b.version = 2;
    b.pipelines = {{{key_of('b'), 0, 6}}};
    {
      CoordinatorState s(path);
      coordinator::Member m;
      m.key = key_of('a');
      m.profile.flops_per_s = 1.5e10;
      m.profile.free_memory_bytes = 1 << 30;
      m.profile.upload_bytes_per_s = 1.25e8;
      m.profile.download_bytes_per_s = 2.5e8;
      m.profile.rtt_s = 0.012;
      m.stage_endpoint = "tcp://10.0.0.1:5000";
      m.reduce_endpoint = "tcp://10.0.0.1:5001";
      m.shard_endpoint = "tcp://10.0.0.1:5002";
      s.save_member(m, 1000);
      m.profile.flops_per_s = 2e10;  // a second join updates the profile
      s.save_member(m, 2000);
      s.save_plan(a, 1000);
      s.save_plan(b, 2000);
      s.record_progress(key_of('a'), 100, 10, 1e12, 1000);
      s.record_progress(key_of('a'), 250, 25, 2.5e12, 2000);
      s.record_progress(key_of('a'), 40, 4, 4e11,
                        3000);  // the node restarted: its counters start over
      s.ban(key_of('x'),
            coordinator::verdict::counted(wire::pb::Verdict::RING_PARTNERS_REJECT, 3, 3), 4000);
      s.add_loss(1000, 5.5);
      s.add_loss(2000, 4.25);
    }
    CoordinatorState s(path);
    const auto members = s.members();
    QCOMPARE(members.size(), std::size_t(1));
    QCOMPARE(members[0].profile.flops_per_s, 2e10);
    QCOMPARE(members[0].profile.rtt_s, 0.012);
    QCOMPARE(members[0].shard_endpoint, std::string("tcp://10.0.0.1:5002"));
    const auto [current, previous] = s.latest_plans();
    QCOMPARE(current.version, std::uint64_t(2));
    QVERIFY(current.same_layout(b));
    QCOMPARE(previous.version, std::uint64_t(1));
    QVERIFY(previous.same_layout(a));
    const auto totals = s.contributions();
    QCOMPARE(totals.at(key_of('a')).samples, std::int64_t(290));
    QCOMPARE(totals.at(key_of('a')).micro_batches, std::int64_t(29));
    QCOMPARE(totals.at(key_of('a')).flops, 2.9e12);
    const auto banned = s.banned();
    QCOMPARE(banned.size(), std::size_t(1));
    QCOMPARE(banned.at(key_of('x')).unix_ms, std::int64_t(4000));
    QCOMPARE(banned.at(key_of('x')).why.code(), wire::pb::Verdict::RING_PARTNERS_REJECT);
    QCOMPARE(banned.at(key_of('x')).why.limit(), 3.0);
    QCOMPARE(banned.at(key_of('x')).reason,
             std::string("3 of its 3 ring partners reject its averaging contributions"));
    const auto loss = s.loss_curve(10);
    QCOMPARE(loss.size(), std::size_t(2));
    QCOMPARE(loss[1].loss, 4.25);
  }

  void theLossCurveIsThinnedEvenly() {
    QTemporaryDir dir;
    CoordinatorState s(std::filesystem::path(dir.path().toStdString()) / "c.db");
    for (int i = 0; i < 1000; ++i) s.add_loss(i, 10.0 - i * 0.01);
    const auto curve = s.loss_curve(100);
    QVERIFY(curve.size() <= 100 && curve.size() >= 90);
    QCOMPARE(curve.front().unix_ms, std::int64_t(0));
    for (std::size_t i = 1; i < curve.size(); ++i) QVERIFY(curve[i].unix_ms > curve[i - 1].unix_ms);
  }

  // Receipts: a volunteer is credited with the work its consumers confirm, never
  // more than it claims; a consumer's totals are cumulative per process (lower: it restarted);
  // a receipt a node writes for itself is ignored; the totals survive a restart.
  void receiptsConfirmWhatAVolunteerClaims() {
    QTemporaryDir dir;
    const auto path = std::filesystem::path(dir.path().toStdString()) / "coordinator.db";
    const auto liar = key_of('l'), next = key_of('n'), previous = key_of('p');
    {
      CoordinatorState s(path);
      // It claims 1000 samples; the stage after it consumed 96 of its activations, the stage
      // before it 88 of its gradients (one heartbeat, then totals that grew).
      auto c = s.record_progress(liar, 1000, 125, 1e12, 1000);
      QCOMPARE(c.confirmed_samples(), std::int64_t(0));
      auto t = s.record_receipts(next, {{liar, 64, 0}}, 1100);
      QCOMPARE(t.at(liar).confirmed_forward_samples, std::int64_t(64));
      t = s.record_receipts(next, {{liar, 96, 0}}, 1200);
      QCOMPARE(t.at(liar).confirmed_forward_samples, std::int64_t(96));
      t = s.record_receipts(previous, {{liar, 0, 88}}, 1200);
      QCOMPARE(t.at(liar).confirmed_backward_samples, std::int64_t(88));
      QCOMPARE(t.at(liar).confirmed_samples(), std::int64_t(96));
      QVERIFY(std::abs(t.at(liar).confirmed_flops() - 1e12 * 96 / 1000) < 1);
      // Its own receipt for itself counts nothing; negative totals are refused.
      t = s.record_receipts(liar, {{liar, 5000, 5000}, {next, -1, 0}}, 1300);
      QVERIFY(t.empty());
      // The consumer restarted: its totals count from 0 again, and all of them are new.
      t = s.record_receipts(next, {{liar, 16, 0}}, 1400);
      QCOMPARE(t.at(liar).confirmed_forward_samples, std::int64_t(112));
      // Never more than it claims: an honest node's claim is at least what was consumed.
      t = s.record_receipts(next, {{liar, 2016, 0}}, 1500);
      QCOMPARE(t.at(liar).confirmed_samples(), std::int64_t(1000));
      // A new progress report keeps what the receipts confirmed.
      c = s.record_progress(liar, 3000, 375, 3e12, 1600);
      QCOMPARE(c.confirmed_forward_samples, std::int64_t(2112));
      QCOMPARE(c.confirmed_samples(), std::int64_t(2112));
    }
    CoordinatorState again(path);
    const auto all = again.contributions();
    QCOMPARE(all.at(liar).samples, std::int64_t(3000));
    QCOMPARE(all.at(liar).confirmed_forward_samples, std::int64_t(2112));
    QCOMPARE(all.at(liar).confirmed_backward_samples, std::int64_t(88));
    // Receipts go on from the stored totals: the consumer's 2016 is not counted twice.
    const auto t = again.record_receipts(next, {{liar, 2048, 0}}, 1700);
    QCOMPARE(t.at(liar).confirmed_forward_samples, std::int64_t(2144));
  }

  // A coordinator's state file from before receipts (schema 2) opens, keeps its totals, and
  // takes receipts from then on.
  void aSchemaTwoFileIsMigrated() {
    QTemporaryDir dir;
    const auto path = std::filesystem::path(dir.path().toStdString()) / "coordinator.db";
    const auto& all = coordinator::coordinator_migrations();
    QVERIFY(all.size() >= 3 && all[1].version == 2);
    {
      store::Database old(path, {all[0], all[1]});
      QCOMPARE(old.schema_version(), 2);
      old.execute("INSERT INTO contributions VALUES ('" + key_of('o') +
                  "', 640, 80, '1.5e11', 64, 8, '1.5e10', 1, 2)");
    }
    CoordinatorState s(path);
    const auto before = s.contributions();
    QCOMPARE(before.at(key_of('o')).samples, std::int64_t(640));
    QCOMPARE(before.at(key_of('o')).confirmed_samples(), std::int64_t(0));
    const auto t = s.record_receipts(key_of('n'), {{key_of('o'), 320, 0}}, 3);
    QCOMPARE(t.at(key_of('o')).confirmed_samples(), std::int64_t(320));
    QCOMPARE(t.at(key_of('o')).samples, std::int64_t(640));
  }

  // A ban recorded before bans had codes (schema 4) keeps its English and refuses as before.
  void aBanFromBeforeCodesIsKept() {
    QTemporaryDir dir;
    const auto path = std::filesystem::path(dir.path().toStdString()) / "coordinator.db";
    const auto& all = coordinator::coordinator_migrations();
    QVERIFY(all.size() >= 5 && all[3].version == 4);
    {
      store::Database old(path, {all[0], all[1], all[2], all[3]});
      old.execute("INSERT INTO banned VALUES ('" + key_of('l') + "', 'an old reason', 5)");
    }
    CoordinatorState s(path);
    const auto banned = s.banned();
    QCOMPARE(banned.size(), std::size_t(1));
    QCOMPARE(banned.at(key_of('l')).reason, std::string("an old reason"));
    QCOMPARE(banned.at(key_of('l')).why.code(), wire::pb::Verdict::NONE);
    // A damaged verdict leaves the ban with its English, not lost.
    s.ban(key_of('m'), coordinator::verdict::make(wire::pb::Verdict::RING_PARTNERS_REJECT), 6);
    {
      store::Database db(path, coordinator::coordinator_migrations());
      db.execute("UPDATE banned SET verdict = x'ffff' WHERE key = '" + key_of('m') + "'");
    }
    CoordinatorState again(path);
    QCOMPARE(again.banned().size(), std::size_t(2));
    QVERIFY(!again.banned().at(key_of('m')).reason.empty());
  }

  // What the model archive did and what its snapshots are worth outlives the coordinator.
  void theRunsResultIsKept() {
    QTemporaryDir dir;
    const auto path = std::filesystem::path(dir.path().toStdString()) / "coordinator.db";
    {
      // A file of the schema before the archive (5) takes the new tables.
      const auto& all = coordinator::coordinator_migrations();
      store::Database old(path, std::vector<store::Migration>(all.begin(), all.begin() + 5));
      QCOMPARE(old.schema_version(), 5);
    }
    {
      CoordinatorState s(path);
      QVERIFY(!s.latest_snapshot());
      QVERIFY(!s.latest_evaluation());
      QVERIFY(s.validation_curve(10).empty());
      QVERIFY(s.restorations(10).empty());
      s.add_snapshot({1, 1000, 3});
      s.add_snapshot({2, 2000, 4});
      for (int i = 0; i < 30; ++i) {
        wire::pb::Evaluation e;
        e.set_unix_ms(1000 + i * 100);
        e.set_snapshot(static_cast<std::uint64_t>(i + 1));
        e.set_validation_loss(5.0 - i * 0.1);
        e.set_held_out_samples(256);
        e.set_prompt("Q: Why did the");
        e.set_text(" chicken cross the road? \xc3\xa9 " + std::to_string(i));
        s.add_evaluation(e);
      }
      for (int i = 0; i < 20; ++i) {
        wire::pb::Restoration r;
        r.set_unix_ms(5000 + i);
        r.set_first_block(i);
        r.set_last_block(i + 2);
        r.set_snapshot(2);
        s.add_restoration(r);
      }
    }
    CoordinatorState s(path);
    const auto snap = s.latest_snapshot();
    QVERIFY(snap);
    QCOMPARE(snap->seq, std::uint64_t(2));
    QCOMPARE(snap->unix_ms, std::int64_t(2000));
    QCOMPARE(snap->plan_version, std::uint64_t(4));
    const auto e = s.latest_evaluation();
    QVERIFY(e);
    QCOMPARE(e->snapshot(), std::uint64_t(30));
    QCOMPARE(e->text(), std::string(" chicken cross the road? \xc3\xa9 29"));
    QCOMPARE(e->validation_loss(), 5.0 - 29 * 0.1);
    const auto curve = s.validation_curve(10);
    QCOMPARE(curve.size(), std::size_t(10));  // every third of 30
    QCOMPARE(curve.front().loss, 5.0);
    QCOMPARE(curve.back().unix_ms, std::int64_t(1000 + 27 * 100));
    const auto restored = s.restorations(4);  // the latest four, oldest first
    QCOMPARE(restored.size(), std::size_t(4));
    QCOMPARE(restored.front().first_block(), std::int64_t(16));
    QCOMPARE(restored.back().first_block(), std::int64_t(19));
    QCOMPARE(restored.back().last_block(), std::int64_t(21));
  }

  void aCorruptFileIsRefusedAndLeftAlone() {
    QTemporaryDir dir;
    const auto path = std::filesystem::path(dir.path().toStdString()) / "coordinator.db";
    { std::ofstream(path) << "this is not a database, and it must not be overwritten"; }
    const auto before = std::filesystem::file_size(path);
    QVERIFY_THROWS_EXCEPTION(store::StoreError, CoordinatorState{path});
    QCOMPARE(std::filesystem::file_size(path), before);
  }

  void aStoredPlanThatIsNotJsonIsAnError() {
    QVERIFY_THROWS_EXCEPTION(store::StoreError,
                             coordinator::assignment_from_json("{\"version\": 1}"));
    QVERIFY_THROWS_EXCEPTION(store::StoreError, coordinator::assignment_from_json("not json"));
    Assignment a;
    a.version = 7;
    a.pipelines = {{{key_of('z'), 0, 2}}};
    QVERIFY(coordinator::assignment_from_json(coordinator::assignment_to_json(a)).same_layout(a));
  }
};

QTEST_GUILESS_MAIN(TestCoordinatorState)
#include "test_coordinator_state.moc"
