// The coordinator's check of the proofs its volunteers send (coordinator/aggregation_proofs):
// a proof the real verified ring made against a lying owner holds, once, and its verdict is
// remembered; it proves nothing from a reporter outside the ring, or bent; a reporter gets one
// new proof checked every 2 s (the rest are answered "retry"); a report without the proof's
// tensor is answered, not thrown on. The job's aggregator decides: the same proof checked with
// CenteredClip, as the ring's members ran it.
#include <QtTest/QtTest>

#include "coordinator/aggregation_proofs.hpp"
#include "reduce/ring_proof.hpp"
#include "reduce/centered_clip.hpp"
#include "reduce/verified_round.hpp"

using namespace rookery;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {
struct Proofs {
  std::vector<std::vector<std::byte>> bytes;  // by honest validators
  std::string liar;
  std::vector<std::string> members;
};

// A ring of four with identities, member 1 a lying owner, with `aggregator` (the job's).
Proofs made(const job::AggregatorSpec& aggregator) {
  auto run = reduce::testing::verified_round(4, 9'001, wire::Codec::Int8Block, false, 1,
                                             reduce::RingOptions::Fault::lying_owner, true,
                                             reduce::make_aggregator(aggregator));
  Proofs out;
  out.liar = run.outcomes[1].contributors.at(0);
  for (std::size_t m = 0; m < 4; ++m) {
    if (m != 1) {
      for (auto& p : run.outcomes[m].proofs) out.bytes.push_back(std::move(p.proof));
    }
  }
  out.members = reduce::decode_ring_proof(out.bytes.at(0))->view();
  return out;
}

job::JobSpec job_with(job::AggregatorKind kind) {
  job::JobSpec job;
  job.aggregator.kind = kind;
  return job;
}

std::string reporter_of(const Proofs& p, std::size_t proof) {
  // Any member but the owner: the first proof's reporter is one of the honest three.
  const auto decoded = reduce::decode_ring_proof(p.bytes.at(proof));
  for (const auto& m : decoded->view()) {
    if (m != p.liar) return m;
  }
  return {};
}
}  // namespace

class TestAggregationProofs : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void aTrueProofHoldsOnceAndIsRemembered_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("mean") << int(job::AggregatorKind::mean);
    QTest::newRow("centered clip") << int(job::AggregatorKind::centered_clip);
  }
  void aTrueProofHoldsOnceAndIsRemembered() {
    QFETCH(int, kind);
    const auto job = job_with(job::AggregatorKind(kind));
    const auto p = made(job.aggregator);
    QVERIFY(!p.bytes.empty());
    coordinator::AggregationProofs proofs(job);
    const auto now = Clock::now();
    const auto reporter = reporter_of(p, 0);
    const auto a = proofs.check(reporter, p.bytes[0], now);
    QVERIFY2(a.proves, a.why.c_str());
    QCOMPARE(a.owner, p.liar);
    // Remembered: the same answer at once, even where a new proof would wait.
    const auto again = proofs.check(reporter, p.bytes[0], now + 1ms);
    QVERIFY(again.proves && !again.retry);
    QCOMPARE(again.owner, p.liar);
  }

  void aReporterOutsideTheRingOrABentProofProvesNothing() {
    const auto job = job_with(job::AggregatorKind::centered_clip);
    const auto p = made(job.aggregator);
    coordinator::AggregationProofs proofs(job);
    auto t = Clock::now();
    const auto outsider = net::CurveKeyPair::generate().public_key;
    const auto a = proofs.check(outsider, p.bytes[0], t);
    QVERIFY(!a.proves && !a.retry);
    QVERIFY2(a.why.find("not in") != std::string::npos, a.why.c_str());
    auto bent = p.bytes[0];
    bent[bent.size() - 3] ^= std::byte{4};  // in the owner's result bytes
    const auto b = proofs.check(reporter_of(p, 0), bent, t += 3s);
    QVERIFY(!b.proves && !b.retry);
    qInfo("bent: %s", b.why.c_str());
    const auto c = proofs.check(reporter_of(p, 0), std::vector<std::byte>(100), t += 3s);
    QVERIFY(!c.proves && !c.retry);
    QCOMPARE(c.why, std::string("the proof does not decode"));
  }

  void aReporterGetsOneNewProofCheckedEveryTwoSeconds() {
    const auto job = job_with(job::AggregatorKind::centered_clip);
    const auto p = made(job.aggregator);
    coordinator::AggregationProofs proofs(job);
    const auto reporter = reporter_of(p, 0);
    const auto t = Clock::now();
    QVERIFY(proofs.check(reporter, std::vector<std::byte>(10), t).why.find("decode") !=
            std::string::npos);
    const auto waits = proofs.check(reporter, p.bytes[0], t + 1s);
    QVERIFY(waits.retry && !waits.proves);
    // Another reporter is not held up by this one.
    std::string other;
    for (const auto& m : p.members) {
      if (m != reporter && m != p.liar) other = m;
    }
    QVERIFY(proofs.check(other, p.bytes[0], t + 1s).proves);
    QVERIFY(proofs.check(reporter, p.bytes[0], t + 3s).proves);  // remembered by now
  }

  void aReportWithoutItsTensorIsAnswered() {
    const auto job = job_with(job::AggregatorKind::centered_clip);
    coordinator::AggregationProofs proofs(job);
    wire::Message m;
    m.header.mutable_proof_report();
    wire::pb::AggregationProofReply out;
    QVERIFY(proofs.answer("someone", m, out).empty());
    QVERIFY(!out.proves() && !out.retry());
    QVERIFY(out.why().find("no proof") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(TestAggregationProofs)
#include "test_aggregation_proofs.moc"
