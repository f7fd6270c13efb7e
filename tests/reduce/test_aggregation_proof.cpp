// Proofs of a lying aggregator that anyone can check (reduce/aggregation_proof.hpp), made by the
// real verified ring: a lying owner's validators each hold one, in a ring of two (where no
// judgement can blame it) as in a ring of four, with and without a codec, and the check names
// the owner; an honest round makes none. Every way a reporter could bend a proof against an
// honest member proves nothing: another member named the owner, a result or a slice byte
// changed, identities swapped, the result re-signed by another key. An owner that signs a
// result leaving out half its ring is proved by its signature alone. Malformed bytes decode to
// nothing, at every length.
#include <QtTest/QtTest>

#include "reduce/aggregation_proof.hpp"
#include "reduce/ring_proof.hpp"
#include "reduce/aggregator.hpp"
#include "verified_round.hpp"

using namespace rookery;
using namespace rookery::reduce;

namespace {
const WeightedMean kMean;  // the aggregator verified_round's rings use

std::vector<AggregationProof> proofs_of(const testing::Run& run, int except) {
  std::vector<AggregationProof> out;
  for (std::size_t m = 0; m < run.outcomes.size(); ++m) {
    if (int(m) == except) continue;
    for (const auto& [owner, bytes] : run.outcomes[m].proofs) {
      auto ring_proof = decode_ring_proof(bytes);
      if (!ring_proof) qFatal("a proof the ring made does not decode");
      auto* p = std::get_if<AggregationProof>(&ring_proof->proof);
      if (!p) qFatal("a lying owner's ring made a proof of another kind");
      if (p->owner >= p->view.size() || p->view[p->owner] != owner)
        qFatal("a proof the ring made names another owner than it says");
      out.push_back(std::move(*p));
    }
  }
  return out;
}

// A proof that proves against the liar, from a ring of four with int8.
AggregationProof a_proof() {
  const auto run = testing::verified_round(4, 9'001, wire::Codec::Int8Block, false, /*liar=*/2,
                                           RingOptions::Fault::lying_owner, /*identities=*/true);
  auto proofs = proofs_of(run, 2);
  if (proofs.empty()) qFatal("no proof made");
  return proofs[0];
}
}  // namespace

class TestAggregationProof : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void aLyingOwnersValidatorsProveIt_data() {
    QTest::addColumn<int>("members");
    QTest::addColumn<int>("codec");
    for (int n : {2, 4}) {
      for (auto c : {wire::Codec::None, wire::Codec::Int8Block}) {
        QTest::addRow("%d members, %s", n, std::string(wire::codec_name(c)).c_str()) << n << int(c);
      }
    }
  }
  void aLyingOwnersValidatorsProveIt() {
    QFETCH(int, members);
    QFETCH(int, codec);
    constexpr int kLiar = 1;
    const auto run = testing::verified_round(members, 9'001, wire::Codec(codec), false, kLiar,
                                             RingOptions::Fault::lying_owner, true);
    const auto liar = run.outcomes[kLiar].contributors.at(0);
    const auto proofs = proofs_of(run, kLiar);
    QVERIFY2(!proofs.empty(), "no honest validator made a proof");
    for (const auto& p : proofs) {
      const auto check = check_aggregation_proof(p, kMean);
      QVERIFY2(check.proves, check.why.c_str());
      QCOMPARE(check.owner, liar);
      QVERIFY2(check.why.find("is not the aggregate") != std::string::npos, check.why.c_str());
      // It survives its encoding.
      const auto again = AggregationProof::decode(p.encode());
      QVERIFY(again);
      QVERIFY(check_aggregation_proof(*again, kMean).proves);
    }
  }

  void anHonestRoundMakesNone() {
    const auto run = testing::verified_round(4, 9'001, wire::Codec::Int8Block, false, -1,
                                             RingOptions::Fault::lying_owner, true);
    for (const auto& o : run.outcomes) QVERIFY(o.proofs.empty());
  }

  void aBentProofProvesNothing() {
    const auto good = a_proof();
    QVERIFY(check_aggregation_proof(good, kMean).proves);
    const auto nothing = [&](const AggregationProof& p, const char* what) {
      const auto check = check_aggregation_proof(p, kMean);
      QVERIFY2(!check.proves, what);
      QVERIFY2(check.owner.empty(), what);
      qInfo("%s: %s", what, check.why.c_str());
    };
    for (std::uint32_t other = 0; other < good.view.size(); ++other) {
      if (other == good.owner) continue;
      auto p = good;
      p.owner = other;  // blame another member with the liar's result
      nothing(p, "another member named the owner");
    }
    {
      auto p = good;
      p.claimed[p.claimed.size() / 2] ^= std::byte{1};
      nothing(p, "a result byte changed");
    }
    {
      auto p = good;
      p.slices[0][7] ^= std::byte{1};
      nothing(p, "a slice byte changed");
    }
    {
      auto p = good;
      std::swap(p.view[0], p.view[3]);
      nothing(p, "identities swapped");
    }
    {
      auto p = good;
      auto result = ResultCommitment::decode(p.result);
      QVERIFY(result);
      result->sign(p.ctx, SigningKey{});  // a key nobody's identity signed for
      p.result = result->encode();
      nothing(p, "the result re-signed by another key");
    }
    {
      auto p = good;
      p.ctx.round += 1;  // every signature names its attempt
      nothing(p, "another round named");
    }
  }

  void leavingOutHalfTheRingIsProvedByTheSignatureAlone() {
    auto p = a_proof();
    // The owner's own result, re-made to leave out two of four and signed with the owner's key:
    // the test holds no owner key, so it signs a fresh key and makes that the owner's, as the
    // owner's own input commitment would name it.
    std::vector<net::CurveKeyPair> ids;
    std::vector<SigningKey> keys(4);
    std::vector<InputCommitment> inputs;
    p.view.clear();
    p.inputs.clear();
    for (std::size_t m = 0; m < 4; ++m) {
      ids.push_back(net::CurveKeyPair::generate());
      p.view.push_back(ids[m].public_key);
      InputCommitment c{keys[m].public_key(), 1.0, {digest_of(std::vector<float>(4, 1.f))}, {}};
      c.sign(p.ctx, keys[m], &ids[m].secret_key);
      p.inputs.push_back(c.encode());
      inputs.push_back(c);
    }
    p.owner = 1;
    p.input_digest = 0;
    p.segment = 0;
    ResultCommitment r;
    r.chunk = 0;
    r.left_out = {1, 0, 0, 1};
    r.digests = {digest_of(std::vector<float>(4, 1.f))};
    for (const auto& c : inputs) r.inputs.push_back(c.id(p.ctx));
    r.sign(p.ctx, keys[1]);
    p.result = r.encode();
    p.slices.assign(4, {});
    p.claimed.clear();
    const auto check = check_aggregation_proof(p, kMean);
    QVERIFY2(check.proves, check.why.c_str());
    QCOMPARE(check.owner, ids[1].public_key);
    QVERIFY2(check.why.find("leaves out 2 of 4") != std::string::npos, check.why.c_str());
    r.left_out = {1, 0, 0, 0};  // a minority: allowed, and then the bytes decide
    r.sign(p.ctx, keys[1]);
    p.result = r.encode();
    QVERIFY(!check_aggregation_proof(p, kMean).proves);
  }

  void malformedBytesDecodeToNothing() {
    const auto bytes = a_proof().encode();
    for (std::size_t n = 0; n < bytes.size(); n += 1 + n / 64) {
      QVERIFY(!AggregationProof::decode(std::span(bytes).first(n)));
    }
    auto longer = bytes;
    longer.push_back(std::byte{0});
    QVERIFY(!AggregationProof::decode(longer));
    QVERIFY(AggregationProof::decode(bytes));
  }
};

QTEST_APPLESS_MAIN(TestAggregationProof)
#include "test_aggregation_proof.moc"
