// Verified aggregation across real processes (reduce_member) over CURVE-encrypted ZeroMQ on
// loopback. A chunk owner that lies about its aggregate, and a member that alters the bytes it
// forwards: every honest member catches it in the first attempt, the round is committed without
// it (its chunk never: the result is the honest members' weighted mean), and the reports the
// honest members make are enough for the coordinator's ban vote; in the rounds after, it is
// left out from the start. Honest rounds with every segment delayed at random (reordered):
// committed in one attempt, nobody accused.
#include <QtTest/QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "coordinator/ban_vote.hpp"
#include "reduce_test_support.hpp"

using namespace rookery;
using namespace rookery::reduce;

namespace {
QString member_bin() { return QStringLiteral(ROOKERY_BINARY_DIR "/tests/reduce/reduce_member"); }

struct MemberResult {
  std::vector<int> ranks, caught;
  int attempts = 0;
  std::vector<float> values;
};

std::vector<int> ints_after(const std::string& line, std::size_t skip) {
  std::vector<int> out;
  std::istringstream in(line.size() > skip ? line.substr(skip) : std::string());
  for (int r; in >> r;) out.push_back(r);
  return out;
}

bool read_result(const QString& dir, int rank, std::size_t count, MemberResult& out) {
  std::ifstream in(QDir(dir).filePath(QString("member-%1.result").arg(rank)).toStdString());
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("ranks", 0) == 0) out.ranks = ints_after(line, 5);
    if (line.rfind("caught", 0) == 0) out.caught = ints_after(line, 6);
    if (line.rfind("attempts", 0) == 0) out.attempts = std::stoi(line.substr(9));
  }
  std::ifstream v(QDir(dir).filePath(QString("member-%1.values").arg(rank)).toStdString(),
                  std::ios::binary);
  out.values.resize(count);
  v.read(reinterpret_cast<char*>(out.values.data()), std::streamsize(count * sizeof(float)));
  return bool(v);
}
}  // namespace

class TestVerifiedAggregation : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void round_data() {
    QTest::addColumn<int>("world");
    QTest::addColumn<int>("attacker");  // -1: all honest
    QTest::addColumn<QString>("fault");
    QTest::addColumn<QString>("codec");
    QTest::addColumn<QString>("aggregator");
    QTest::addColumn<int>("delay_ms");  // every segment held back by 0..delay_ms, at random
    QTest::addColumn<int>("rounds");    // one after the other; the last one's result is checked
    QTest::newRow("honest-4-delayed") << 4 << -1 << ""
                                      << "none"
                                      << "weighted-mean" << 20 << 5;
    QTest::newRow("honest-5-int8-delayed") << 5 << -1 << ""
                                           << "int8"
                                           << "weighted-mean" << 20 << 5;
    QTest::newRow("honest-4-centered-clip-delayed") << 4 << -1 << ""
                                                    << "none"
                                                    << "centered-clip" << 20 << 5;
    QTest::newRow("lying-owner-4") << 4 << 2 << "lying-owner"
                                   << "none"
                                   << "weighted-mean" << 0 << 1;
    QTest::newRow("lying-owner-5-int8-centered-clip-delayed") << 5 << 0 << "lying-owner"
                                                              << "int8"
                                                              << "centered-clip" << 10 << 1;
    // A liar about its aggregate and about the input commitments it holds: blamed on the
    // commitment its partner signed, which contradicts its own signed claim.
    QTest::newRow("lying-owner-commitments-4") << 4 << 1 << "lying-owner-commitments"
                                               << "none"
                                               << "weighted-mean" << 0 << 1;
    QTest::newRow("lying-owner-commitments-5-int8-centered-clip-delayed")
        << 5 << 4 << "lying-owner-commitments"
        << "int8"
        << "centered-clip" << 10 << 1;
    QTest::newRow("altering-forwarder-4") << 4 << 1 << "altering-forwarder"
                                          << "none"
                                          << "weighted-mean" << 0 << 1;
    // A liar about its input only is CenteredClip's to bound, not verification's: nobody is
    // caught, and the round commits with everyone.
    QTest::newRow("sign-flip-input-4-centered-clip") << 4 << 1 << "sign-flip-input"
                                                     << "none"
                                                     << "centered-clip" << 10 << 1;
    // A forwarder caught in one round starts none of the next: the last of three commits in
    // its first attempt among the honest members.
    QTest::newRow("altering-forwarder-4-three-rounds") << 4 << 1 << "altering-forwarder"
                                                       << "none"
                                                       << "weighted-mean" << 0 << 3;
    QTest::newRow("altering-forwarder-5-int8-delayed") << 5 << 3 << "altering-forwarder"
                                                       << "int8"
                                                       << "weighted-mean" << 10 << 1;
  }
  void round() {
    QFETCH(int, world);
    QFETCH(int, attacker);
    QFETCH(QString, fault);
    QFETCH(QString, codec);
    QFETCH(QString, aggregator);
    QFETCH(int, delay_ms);
    QFETCH(int, rounds);
    constexpr std::size_t kCount = 300'007;  // not divisible by the ring sizes
    QTemporaryDir dir;
    std::vector<std::unique_ptr<QProcess>> procs;
    for (int r = 0; r < world; ++r) {
      auto p = std::make_unique<QProcess>();
      p->setProcessChannelMode(QProcess::ForwardedChannels);
      QStringList args{"--dir",        dir.path(),
                       "--rank",       QString::number(r),
                       "--world",      QString::number(world),
                       "--count",      QString::number(kCount),
                       "--timeout-ms", "3000",
                       "--codec",      codec,
                       "--verify",     "on",
                       "--aggregator", aggregator,
                       "--delay-ms",   QString::number(delay_ms),
                       "--rounds",     QString::number(rounds)};
      if (r == attacker) args << "--fault" << fault;
      p->start(member_bin(), args);
      QVERIFY(p->waitForStarted(5000));
      procs.push_back(std::move(p));
    }
    const bool attacks_aggregation = fault != "sign-flip-input";
    std::vector<int> honest;
    std::vector<std::vector<float>> inputs;
    std::vector<double> weights;
    for (int r = 0; r < world; ++r) {
      QVERIFY2(procs[std::size_t(r)]->waitForFinished(60000), "a member hangs");
      QCOMPARE(procs[std::size_t(r)]->exitCode(), 0);
      if (r == attacker && attacks_aggregation) continue;
      honest.push_back(r);
      inputs.push_back(testing::member_values(kCount, std::uint32_t(r)));
      weights.push_back(10 + 37 * r);
    }
    const bool caught = attacker >= 0 && attacks_aggregation;
    const std::vector<int> expected_caught =
        caught ? std::vector<int>{attacker} : std::vector<int>{};
    coordinator::BanWitnesses witnesses;
    coordinator::BanReports reports;
    std::vector<float> first;
    for (int r : honest) {
      MemberResult res;
      QVERIFY(read_result(dir.path(), r, kCount, res));
      QCOMPARE(res.caught, expected_caught);  // the attacker, with evidence; nobody honest
      QCOMPARE(res.ranks, honest);            // committed without it
      // The last round's: the liar caught in its first attempt, or left out from its start.
      QCOMPARE(res.attempts, caught && rounds == 1 ? 2 : 1);
      if (first.empty()) {
        first = res.values;
      } else {
        QVERIFY(std::memcmp(first.data(), res.values.data(), kCount * sizeof(float)) == 0);
      }
      witnesses.ring_partners.insert(std::to_string(r));
      if (!res.caught.empty()) reports.excluded_by.insert(std::to_string(r));
    }
    if (caught) {
      // The attacker's own round: nothing committed with anyone.
      MemberResult res;
      QVERIFY(read_result(dir.path(), attacker, kCount, res));
      QCOMPARE(res.ranks, std::vector<int>{attacker});
      // Every honest member reports it: the ban vote, counting ring partners, bans it.
      const auto verdict = coordinator::ban_vote(witnesses, reports);
      QVERIFY(verdict.ban);
      QCOMPARE(verdict.why.code(), wire::pb::Verdict::RING_PARTNERS_REJECT);
    } else {
      QVERIFY(!coordinator::ban_vote(witnesses, reports).ban);
    }
    if (aggregator != "weighted-mean") return;  // CenteredClip: no closed form to compare to
    // The honest members' weighted mean, within the codec's rounding (one encoding of the
    // result: the slices travel raw to their owner): no value of the attacker's in it.
    const auto expected = testing::weighted_mean(inputs, weights);
    const auto bounds =
        testing::error_bounds(inputs, weights, wire::codec_from_name(codec.toStdString()));
    for (std::size_t i = 0; i < kCount; ++i) {
      if (!(std::fabs(first[i] - expected[i]) <= bounds[i])) {
        QFAIL(qPrintable(QString("offset %1: %2 vs %3").arg(i).arg(first[i]).arg(expected[i])));
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestVerifiedAggregation)
#include "test_verified_aggregation.moc"
