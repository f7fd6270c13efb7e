// A volunteer's swarm checkpoint on disk (node/swarm_checkpoint): its shard, the optimizer's
// buffers and each block's moment step come back exactly, marked restored, and a file that is
// not exactly what was written is refused with the reason: another job's, a flipped byte, cut
// short, another kind of checkpoint, values that are not finite, a buffer that is not laid out
// like the parameters. A failed write (no room for the folder) keeps the previous file.
// Then the parts a shard server hands out: a range's moment step is its own blocks'.
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "node/swarm_checkpoint.hpp"
#include "pipeline/checkpoint.hpp"

using namespace rookery;

namespace {

node::ShardSnapshot shard() {
  node::ShardSnapshot s;
  s.first_block = 2;
  s.last_block = 5;  // blocks 2, 3, 4 of 4, 2 and 3 parameters
  s.optimizer_steps = 1234;
  s.plan_version = 17;
  for (int i = 0; i < 9; ++i) s.values.push_back(0.25f * float(i) - 1.0f);
  s.state.moment_step = 900;
  std::vector<float> m(9), v(9);
  for (int i = 0; i < 9; ++i) {
    m[std::size_t(i)] = 0.01f * float(i);
    v[std::size_t(i)] = 1e-4f * float(i + 1);
  }
  s.state.buffers = {{"adamw.exp_avg", m}, {"adamw.exp_avg_sq", v}};
  s.block_moment_steps = {900, 12, 900};  // block 3 restarted a while ago
  return s;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

}  // namespace

class TestSwarmCheckpointFile : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  std::filesystem::path path(const char* name) const {
    return std::filesystem::path(dir_.path().toStdString()) / name;
  }

 private Q_SLOTS:
  void comesBackExactly() {
    const auto p = node::swarm_checkpoint_path(dir_.path().toStdString(), "job/../x y");
    QCOMPARE(QString::fromStdString(p.filename().string()), QString("swarm-job_.._x_y.ckpt"));
    node::save_swarm_checkpoint(p, "job/../x y", shard());
    const auto back = node::load_swarm_checkpoint(p, "job/../x y");
    const auto want = shard();
    QVERIFY(back.restored);
    QCOMPARE(back.first_block, want.first_block);
    QCOMPARE(back.last_block, want.last_block);
    QCOMPARE(back.optimizer_steps, want.optimizer_steps);
    QCOMPARE(back.plan_version, want.plan_version);
    QCOMPARE(back.values, want.values);
    QCOMPARE(back.state.moment_step, want.state.moment_step);
    QCOMPARE(back.state.buffers, want.state.buffers);
    QCOMPARE(back.block_moment_steps, want.block_moment_steps);
  }

  void whatIsNotWhatWasWrittenIsRefused_data() {
    QTest::addColumn<int>("damage");
    QTest::addColumn<QString>("reason");
    QTest::newRow("another job's") << 0 << "belongs to job 'j', not 'k'";
    QTest::newRow("a flipped byte") << 1 << "checksum mismatch";
    QTest::newRow("cut short") << 2 << "truncated or padded";
    QTest::newRow("a stage checkpoint") << 3 << "not a Rookery checkpoint of this kind";
    QTest::newRow("a parameter not finite") << 4 << "holds values that are not finite";
    QTest::newRow("a buffer laid out otherwise") << 5 << "is not laid out like the parameters";
    QTest::newRow("a step per block missing") << 6 << "a moment step for each block is missing";
    QTest::newRow("no such file") << 7 << "cannot be read";
  }

  void whatIsNotWhatWasWrittenIsRefused() {
    QFETCH(int, damage);
    QFETCH(QString, reason);
    const auto p = path("damaged.ckpt");
    std::filesystem::remove(p);
    auto s = shard();
    if (damage == 4) s.values[3] = std::numeric_limits<float>::quiet_NaN();
    if (damage == 5) s.state.buffers[1].second.pop_back();
    if (damage == 6) s.block_moment_steps.pop_back();
    if (damage != 7) node::save_swarm_checkpoint(p, "j", s);
    auto bytes = read(p);
    if (damage == 1) bytes[bytes.size() / 2] ^= 0x10;
    if (damage == 2) bytes.resize(bytes.size() - 5);
    if (damage == 3) bytes.replace(0, 8, "RKCKPT01");
    if (damage >= 1 && damage <= 3) write(p, bytes);
    try {
      node::load_swarm_checkpoint(p, damage == 0 ? "k" : "j");
      QFAIL("a damaged checkpoint was read");
    } catch (const pipeline::CheckpointError& e) {
      QVERIFY2(QString(e.what()).contains(reason), e.what());
    }
  }

  void aFailedWriteKeepsThePreviousFile() {
    const auto p = path("kept.ckpt");
    node::save_swarm_checkpoint(p, "j", shard());
    const auto before = read(p);
    // The temporary file cannot be made: a folder stands where it would go.
    std::filesystem::create_directory(p.string() + ".tmp");
    auto other = shard();
    other.values[0] = 42.0f;
    QVERIFY_THROWS_EXCEPTION(pipeline::CheckpointError, node::save_swarm_checkpoint(p, "j", other));
    QCOMPARE(read(p), before);
    QCOMPARE(node::load_swarm_checkpoint(p, "j").values, shard().values);
  }

  void aRangesMomentStepIsItsOwnBlocks() {
    const auto s = shard();
    QCOMPARE(s.moment_step_of(3, 4), std::int64_t{12});
    QCOMPARE(s.moment_step_of(2, 4), std::int64_t{900});
    const auto part = s.part(3, 4, 4, 2);
    QCOMPARE(part.values, std::vector<float>(s.values.begin() + 4, s.values.begin() + 6));
    QCOMPARE(part.state.moment_step, std::int64_t{12});
    QCOMPARE(part.block_moment_steps, std::vector<std::int64_t>{12});
    QCOMPARE(part.state.buffers[0].second.size(), std::size_t{2});
    auto whole = s;
    whole.block_moment_steps.clear();  // none kept per block: the shard's stands for each
    QCOMPARE(whole.moment_step_of(3, 4), std::int64_t{900});
  }
};

QTEST_GUILESS_MAIN(TestSwarmCheckpointFile)
#include "test_swarm_checkpoint_file.moc"
