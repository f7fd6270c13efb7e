// Ring all-reduce across real processes over CURVE-encrypted ZeroMQ on loopback: exact
// results, and kill -9 of one member in the middle of the round (it has sent part of its
// data and stopped): the others finish within the timeouts, agree on the member set, and
// hold the weighted mean of the survivors.
#include <QtTest/QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <memory>
#include <thread>
#include <vector>

#include "reduce_test_support.hpp"

using namespace rookery;
using namespace rookery::reduce;

namespace {
QString member_bin() { return QStringLiteral(ROOKERY_BINARY_DIR "/tests/reduce/reduce_member"); }

struct MemberResult {
  std::vector<int> ranks;
  double weight = 0;
  int attempts = 0;
  long long finished_ms = 0;
  std::vector<float> values;
};

bool read_result(const QString& dir, int rank, std::size_t count, MemberResult& out) {
  std::ifstream in(QDir(dir).filePath(QString("member-%1.result").arg(rank)).toStdString());
  if (!in) return false;
  std::string line;
  std::getline(in, line);
  std::istringstream ranks(line.substr(5));
  for (int r; ranks >> r;) out.ranks.push_back(r);
  std::string key;
  in >> key >> out.weight >> key >> out.attempts >> key >> out.finished_ms;
  std::ifstream v(QDir(dir).filePath(QString("member-%1.values").arg(rank)).toStdString(),
                  std::ios::binary);
  out.values.resize(count);
  v.read(reinterpret_cast<char*>(out.values.data()), std::streamsize(count * sizeof(float)));
  return bool(v);
}

long long now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}
}  // namespace

class TestReduceProcesses : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void killOneMemberMidRound_data() {
    QTest::addColumn<int>("world");
    QTest::addColumn<int>("victim");  // -1: nobody dies
    QTest::addColumn<QString>("codec");
    QTest::addColumn<QString>("placement");  // out: as the Averager runs it
    QTest::newRow("4-all-deliver") << 4 << -1 << "none"
                                   << "out";
    QTest::newRow("4-kill-rank2") << 4 << 2 << "none"
                                  << "out";
    QTest::newRow("4-kill-rank2-in-place") << 4 << 2 << "none"
                                           << "in";
    QTest::newRow("3-kill-rank0-int8") << 3 << 0 << "int8"
                                       << "out";
    QTest::newRow("5-kill-rank4") << 5 << 4 << "none"
                                  << "out";
  }
  void killOneMemberMidRound() {
    QFETCH(int, world);
    QFETCH(int, victim);
    QFETCH(QString, codec);
    QFETCH(QString, placement);
    constexpr std::size_t kCount = 1'500'007;  // 6 MB of f32, not divisible by the ring sizes
    constexpr int kTimeoutMs = 3000;           // generous: five processes share two busy cores
    QTemporaryDir dir;
    std::vector<std::unique_ptr<QProcess>> procs;
    for (int r = 0; r < world; ++r) {
      auto p = std::make_unique<QProcess>();
      p->setProcessChannelMode(QProcess::ForwardedChannels);
      QStringList args{"--dir",        dir.path(),
                       "--rank",       QString::number(r),
                       "--world",      QString::number(world),
                       "--count",      QString::number(kCount),
                       "--timeout-ms", QString::number(kTimeoutMs),
                       "--codec",      codec,
                       "--placement",  placement};
      if (r == victim)
        args << "--hold-after-sends"
             << "3";
      p->start(member_bin(), args);
      QVERIFY(p->waitForStarted(5000));
      procs.push_back(std::move(p));
    }
    long long killed_ms = 0;
    if (victim >= 0) {
      const QString marker = QDir(dir.path()).filePath(QString("member-%1.holding").arg(victim));
      QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 30000);
      killed_ms = now_ms();
      procs[std::size_t(victim)]->kill();  // SIGKILL
      QVERIFY(procs[std::size_t(victim)]->waitForFinished(5000));
    }
    std::vector<int> survivors;
    std::vector<std::vector<float>> inputs;
    std::vector<double> weights;
    for (int r = 0; r < world; ++r) {
      if (r == victim) continue;
      survivors.push_back(r);
      inputs.push_back(testing::member_values(kCount, std::uint32_t(r)));
      weights.push_back(10 + 37 * r);
      QVERIFY2(procs[std::size_t(r)]->waitForFinished(60000), "a survivor hangs");
      QCOMPARE(procs[std::size_t(r)]->exitCode(), 0);
    }
    const auto expected = testing::weighted_mean(inputs, weights);
    const auto bounds =
        testing::error_bounds(inputs, weights, wire::codec_from_name(codec.toStdString()));
    double total = 0;
    for (auto w : weights) total += w;
    std::vector<float> first;
    for (int r : survivors) {
      MemberResult res;
      QVERIFY(read_result(dir.path(), r, kCount, res));
      QCOMPARE(res.ranks, survivors);  // everyone agrees on who delivered
      QCOMPARE(res.weight, total);
      if (victim >= 0) {
        const long long after = res.finished_ms - killed_ms;
        qInfo("rank %d finished %lld ms after the kill (%d attempts)", r, after, res.attempts);
        // The victim stalled before the kill, so the survivors' timeout started even earlier:
        // one timeout to notice, one to collect votes, then the retry among the survivors.
        QVERIFY2(after < 2 * kTimeoutMs + 3000, qPrintable(QString::number(after)));
      } else {
        QCOMPARE(res.attempts, 1);
      }
      if (first.empty()) {
        first = res.values;
      } else {
        QVERIFY(std::memcmp(first.data(), res.values.data(), kCount * sizeof(float)) == 0);
      }
    }
    for (std::size_t i = 0; i < kCount; ++i) {
      if (!(std::fabs(first[i] - expected[i]) <= bounds[i])) {
        QFAIL(qPrintable(QString("offset %1: %2 vs %3").arg(i).arg(first[i]).arg(expected[i])));
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestReduceProcesses)
#include "test_reduce_processes.moc"
