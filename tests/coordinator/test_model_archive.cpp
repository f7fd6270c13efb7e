// The coordinator's model archive without processes (coordinator/model_archive):
//
// - Reconciling holders' copies of a block: one is taken as it is; two that agree are
//   averaged, two that disagree keep the block from the snapshot before; with three, a liar
//   (its copy x100) is left out by CenteredClip and the archive keeps the honest weights and
//   an honest holder's optimizer state.
// - Snapshots: stored, read back by a new archive (a restarted coordinator) exactly; a block
//   with no copy this round comes from the snapshot before; the newest three are kept; a
//   snapshot cut short by a kill mid-write (or damaged later) is reported and the one before
//   it is used, and a stray temporary file is ignored.
// - Served like a shard server: a member's ShardRequest gets the blocks' parameters, their
//   optimizer state and their own moment step; a range outside the model gets an error.
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "coordinator/model_archive.hpp"
#include "pipeline/shard_state.hpp"
#include "wire/message.hpp"

using namespace rookery;
using coordinator::BlockCopy;

namespace {

const std::vector<std::int64_t> kCounts{4, 3, 5};

BlockCopy copy(const std::string& holder, std::size_t n, float base, std::int64_t moment = 10) {
  BlockCopy c;
  c.holder = holder;
  for (std::size_t i = 0; i < n; ++i) c.values.push_back(base + 0.01f * float(i));
  pipeline::OptimizerState s;
  s.moment_step = moment;
  s.buffers = {{"adamw.exp_avg", std::vector<float>(n, base / 10)},
               {"adamw.exp_avg_sq", std::vector<float>(n, 1e-4f)}};
  c.state = s;
  c.optimizer_steps = moment + 5;
  return c;
}

std::vector<std::optional<BlockCopy>> whole_model(float base, std::int64_t moment = 10) {
  std::vector<std::optional<BlockCopy>> out;
  for (std::size_t b = 0; b < kCounts.size(); ++b)
    out.push_back(copy("h", std::size_t(kCounts[b]), base + float(b), moment + std::int64_t(b)));
  return out;
}

}  // namespace

class TestModelArchive : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void oneCopyIsTakenTwoMustAgree() {
    const std::vector<BlockCopy> one{copy("a", 8, 1.0f)};
    auto r = coordinator::reconcile_block(one);
    QVERIFY(r.block);
    QCOMPARE(r.block->values, one[0].values);
    QVERIFY(QString::fromStdString(r.how).contains("one holder"));

    std::vector<BlockCopy> two{copy("a", 8, 1.0f), copy("b", 8, 1.01f)};
    r = coordinator::reconcile_block(two);
    QVERIFY(r.block);
    QCOMPARE(r.block->values[0], 0.5f * (1.0f + 1.01f));
    QVERIFY(QString::fromStdString(r.how).contains("agree"));

    two[1].values[3] *= 100;  // one of two lies: nobody can tell which
    r = coordinator::reconcile_block(two);
    QVERIFY(!r.block);
    QVERIFY(QString::fromStdString(r.how).contains("disagree"));
  }

  void aLiarAmongThreeIsLeftOut() {
    std::vector<BlockCopy> three{copy("a", 64, 1.0f), copy("b", 64, 1.001f),
                                 copy("liar", 64, 1.0f)};
    for (auto& v : three[2].values) v *= 100;
    three[2].state->buffers[0].second.assign(64, 50.0f);
    const auto r = coordinator::reconcile_block(three);
    QVERIFY(r.block);
    QCOMPARE(r.outliers, std::vector<std::string>{"liar"});
    for (std::size_t i = 0; i < 64; ++i) {
      const float honest = 0.5f * (three[0].values[i] + three[1].values[i]);
      QVERIFY2(std::abs(r.block->values[i] - honest) < 0.01f,
               qPrintable(
                   QString("value %1: %2 against %3").arg(i).arg(r.block->values[i]).arg(honest)));
    }
    QVERIFY(r.block->holder == "a" || r.block->holder == "b");  // an honest holder's moments
    QVERIFY(r.block->state->buffers[0].second[0] < 1.0f);
  }

  void snapshotsAreKeptReadBackAndServed() {
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    {
      coordinator::ModelArchive a(root, "job", kCounts);
      QVERIFY(!a.latest());
      auto partial = whole_model(1.0f);
      partial[1].reset();
      QVERIFY(!a.store(partial, 3));  // block 1 has no copy anywhere yet: no snapshot
      QVERIFY(a.store(whole_model(1.0f), 4));
      auto next = whole_model(2.0f, 20);
      next[1].reset();  // no copy this round: kept from snapshot 1
      QVERIFY(a.store(next, 5));
      QCOMPARE(a.latest_seq(), std::uint64_t{2});
    }
    coordinator::ModelArchive again(root, "job", kCounts);  // a restarted coordinator
    const auto s = again.latest();
    QVERIFY(s);
    QCOMPARE(again.latest_seq(), std::uint64_t{2});
    QCOMPARE(s->plan_version, std::uint64_t{5});
    QCOMPARE(s->values.size(), std::size_t{12});
    QCOMPARE(s->values[0], 2.0f);  // block 0 from this round
    QCOMPARE(s->values[4], 2.0f);  // block 1 kept from the snapshot before (1.0 + 1)
    QCOMPARE(s->values[7], 4.0f);  // block 2 from this round (2.0 + 2)
    QCOMPARE(s->block_moment_steps, (std::vector<std::int64_t>{20, 11, 22}));

    // Served like a shard server: blocks [1, 3).
    wire::pb::ShardRequest q;
    q.set_first_block(1);
    q.set_last_block(3);
    net::Reply reply;
    again.serve(q, reply);
    QVERIFY(reply.header.has_shard_reply());
    QCOMPARE(reply.header.shard_reply().moment_step(), std::int64_t{22});
    auto decoded = wire::decode(wire::encode(std::move(reply.header), std::move(reply.tensors)));
    QVERIFY(decoded.ok());
    const auto* t = decoded.message().tensor("parameters");
    QVERIFY(t);
    QCOMPARE(t->numel(), std::int64_t{8});
    QCOMPARE(t->to_f32()[0], 2.0f);
    std::string error;
    const auto state = pipeline::verify_shard_state({"adamw.exp_avg", "adamw.exp_avg_sq"},
                                                    decoded.message(), 8, error);
    QVERIFY2(state, error.c_str());
    QCOMPARE(state->buffers[0].second[0], 0.2f);  // block 1's moments, kept with its weights
    q.set_last_block(4);
    net::Reply outside;
    again.serve(q, outside);
    QVERIFY(outside.header.has_error());
  }

  void aSnapshotCutShortLeavesTheOneBefore() {
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    {
      coordinator::ModelArchive a(root, "job", kCounts);
      for (int i = 0; i < 5; ++i) QVERIFY(a.store(whole_model(float(i)), std::uint64_t(i)));
    }
    // The newest three are kept.
    QVERIFY(!std::filesystem::exists(root / "snapshot-2.ckpt"));
    QVERIFY(std::filesystem::exists(root / "snapshot-3.ckpt"));
    // Snapshot 5 cut short, and a temporary file a kill left behind.
    std::filesystem::resize_file(root / "snapshot-5.ckpt", 100);
    std::ofstream(root / "snapshot-6.ckpt.tmp") << "half a snapshot";
    coordinator::ModelArchive again(root, "job", kCounts);
    QCOMPARE(again.latest_seq(), std::uint64_t{4});
    QCOMPARE(again.latest()->values[0], 3.0f);
    // Another job's snapshots are not this job's.
    coordinator::ModelArchive other(root, "another-job", kCounts);
    QVERIFY(!other.latest());
  }
};

QTEST_GUILESS_MAIN(TestModelArchive)
#include "test_model_archive.moc"
