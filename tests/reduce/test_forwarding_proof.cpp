// Proofs of an altering forwarder that anyone can check (reduce/forwarding_proof.hpp), made by
// the real verified ring: every honest member holds one (the forwarder's next member caught it,
// the others judged its evidence), in rings of three and four, with and without a codec, and
// the check names the forwarder; an honest round makes none. The
// forwarder's own signatures decide: a receipt for the bytes the owner signed, or one naming
// another result commitment than the proof shows, proves nothing. A proof bent against an
// honest member proves nothing: another member named the forwarder, the forwarder's input
// commitment swapped for the owner's, the receipt or the result re-signed by a key no identity
// signed for, another round. Proofs travel tagged with their kind (reduce/ring_proof.hpp): an
// unknown kind, and every truncation, decode to nothing.
#include <QtTest/QtTest>

#include "net/identity.hpp"
#include "reduce/forwarding_proof.hpp"
#include "reduce/ring_proof.hpp"
#include "reduce/verified_round.hpp"

using namespace rookery;
using namespace rookery::reduce;

namespace {
const WeightedMean kMean;

// The forwarding proofs the honest members of `run` made against `liar`.
std::vector<ForwardingProof> proofs_of(const testing::Run& run, int liar) {
  std::vector<ForwardingProof> out;
  for (std::size_t m = 0; m < run.outcomes.size(); ++m) {
    if (int(m) == liar) continue;
    for (const auto& [member, bytes] : run.outcomes[m].proofs) {
      auto ring_proof = decode_ring_proof(bytes);
      if (!ring_proof) qFatal("a proof the ring made does not decode");
      auto* p = std::get_if<ForwardingProof>(&ring_proof->proof);
      if (!p) qFatal("a forwarder's ring made a proof of another kind");
      if (p->forwarder >= p->view.size() || p->view[p->forwarder] != member)
        qFatal("a proof the ring made names another forwarder than it says");
      // The generic check, as the coordinator runs it, agrees with the specific one.
      if (check_ring_proof(*ring_proof, kMean).proves != check_forwarding_proof(*p).proves)
        qFatal("check_ring_proof disagrees with check_forwarding_proof");
      out.push_back(std::move(*p));
    }
  }
  return out;
}

constexpr int kLiar = 1;

ForwardingProof a_proof() {
  const auto run = testing::verified_round(4, 9'001, wire::Codec::Int8Block, false, kLiar,
                                           RingOptions::Fault::altering_forwarder, true);
  auto proofs = proofs_of(run, kLiar);
  if (proofs.empty()) qFatal("no proof made");
  return proofs[0];
}

// Three members with identities and fresh keys, member 0 the owner of chunk 0 and member 1 its
// forwarder, signing what the test says.
struct Hand {
  AttemptContext ctx{21, 5, 77, 0};
  std::vector<net::CurveKeyPair> ids;
  std::vector<SigningKey> keys = std::vector<SigningKey>(3);
  ForwardingProof proof;
  ResultCommitment result;

  Hand() {
    proof.ctx = ctx;
    proof.owner = 0;
    proof.forwarder = 1;
    std::vector<std::vector<std::byte>> inputs;
    for (std::size_t m = 0; m < 3; ++m) {
      ids.push_back(net::CurveKeyPair::generate());
      proof.view.push_back(ids[m].public_key);
      InputCommitment c{keys[m].public_key(), 1.0, {digest_of(std::vector<float>(4, 1.f))}, {}};
      c.sign(ctx, keys[m], &ids[m].secret_key);
      inputs.push_back(c.encode());
      result.inputs.push_back(c.id(ctx));
    }
    proof.owner_input = inputs[0];
    proof.forwarder_input = inputs[1];
    result.chunk = 0;
    result.left_out = {0, 0, 0};
    result.digests = {digest_of(std::vector<float>(4, 2.f))};
    result.sign(ctx, keys[0]);
    proof.result = result.encode();
  }
  // The forwarder's receipt of `digest`, naming `held` as the result it checked it against.
  ForwardingProof with_receipt(const Digest& digest, const Digest& held) const {
    ForwardReceipt r{0, 0, digest, held, {}};
    r.sign(ctx, keys[1]);
    auto p = proof;
    p.receipt = r.encode();
    return p;
  }
};
}  // namespace

class TestForwardingProof : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everyHonestMemberProvesTheForwarder_data() {
    QTest::addColumn<int>("members");
    QTest::addColumn<int>("codec");
    QTest::newRow("ring of three") << 3 << int(wire::Codec::None);
    QTest::newRow("ring of four, int8") << 4 << int(wire::Codec::Int8Block);
  }
  void everyHonestMemberProvesTheForwarder() {
    QFETCH(int, members);
    QFETCH(int, codec);
    const auto run = testing::verified_round(members, 9'001, wire::Codec(codec), false, kLiar,
                                             RingOptions::Fault::altering_forwarder, true);
    const auto liar = run.outcomes[kLiar].contributors.at(0);
    const auto proofs = proofs_of(run, kLiar);
    for (int m = 0; m < members; ++m) {
      if (m != kLiar) QCOMPARE(run.outcomes[std::size_t(m)].proofs.size(), std::size_t(1));
    }
    QCOMPARE(int(proofs.size()), members - 1);
    for (const auto& p : proofs) {
      const auto check = check_forwarding_proof(p);
      QVERIFY2(check.proves, check.why.c_str());
      QCOMPARE(check.owner, liar);
      qInfo("%s (%zu bytes)", check.why.c_str(), p.encode().size());
      const auto again = ForwardingProof::decode(p.encode());
      QVERIFY(again);
      QVERIFY(check_forwarding_proof(*again).proves);
    }
  }

  void anHonestRoundMakesNone() {
    const auto run = testing::verified_round(4, 9'001, wire::Codec::Int8Block, false, -1,
                                             RingOptions::Fault::altering_forwarder, true);
    for (const auto& o : run.outcomes) QVERIFY(o.proofs.empty());
  }

  void theForwardersOwnSignaturesDecide() {
    const Hand h;
    const auto id = h.result.id(h.ctx);
    const auto altered = digest_of(std::vector<float>(4, 3.f));
    const auto check = check_forwarding_proof(h.with_receipt(altered, id));
    QVERIFY2(check.proves, check.why.c_str());
    QCOMPARE(check.owner, h.ids[1].public_key);
    // It sent on what the owner signed: nothing to prove, whatever else the proof says.
    QVERIFY(!check_forwarding_proof(h.with_receipt(h.result.digests[0], id)).proves);
    // It checked the bytes against another commitment (an owner that signed two results gave
    // it that one): the forwarder is not shown to have known.
    const auto other = digest_of(std::vector<float>(4, 4.f));
    const auto c = check_forwarding_proof(h.with_receipt(altered, other));
    QVERIFY(!c.proves);
    QVERIFY2(c.why.find("another result commitment") != std::string::npos, c.why.c_str());
  }

  void aBentProofProvesNothing() {
    const auto good = a_proof();
    QVERIFY(check_forwarding_proof(good).proves);
    const auto nothing = [&](const ForwardingProof& p, const char* what) {
      const auto check = check_forwarding_proof(p);
      QVERIFY2(!check.proves, what);
      QVERIFY2(check.owner.empty(), what);
      qInfo("%s: %s", what, check.why.c_str());
    };
    for (std::uint32_t other = 0; other < good.view.size(); ++other) {
      if (other == good.forwarder) continue;
      auto p = good;
      p.forwarder = other;  // blame another member with the liar's receipt
      nothing(p, "another member named the forwarder");
    }
    {
      auto p = good;
      p.forwarder_input = p.owner_input;
      nothing(p, "the owner's input commitment shown as the forwarder's");
    }
    {
      auto p = good;
      auto receipt = ForwardReceipt::decode(p.receipt);
      QVERIFY(receipt);
      receipt->sign(p.ctx, SigningKey{});
      p.receipt = receipt->encode();
      nothing(p, "the receipt re-signed by another key");
    }
    {
      auto p = good;
      auto result = ResultCommitment::decode(p.result);
      QVERIFY(result);
      result->sign(p.ctx, SigningKey{});
      p.result = result->encode();
      nothing(p, "the result re-signed by another key");
    }
    {
      auto p = good;
      p.ctx.round += 1;
      nothing(p, "another round named");
    }
  }

  void malformedBytesDecodeToNothing() {
    const auto bytes = a_proof().encode();
    for (std::size_t n = 0; n < bytes.size(); ++n)
      QVERIFY(!ForwardingProof::decode(std::span(bytes).first(n)));
    auto longer = bytes;
    longer.push_back(std::byte{0});
    QVERIFY(!ForwardingProof::decode(longer));
    const auto tagged = tag_proof(ProofKind::forwarding, bytes);
    QVERIFY(decode_ring_proof(tagged));
    QVERIFY(!decode_ring_proof({}));
    auto unknown = tagged;
    unknown[0] = std::byte{9};
    QVERIFY(!decode_ring_proof(unknown));
    auto as_aggregate = tagged;
    as_aggregate[0] = static_cast<std::byte>(ProofKind::aggregate);
    QVERIFY(!decode_ring_proof(as_aggregate));
  }
};

QTEST_APPLESS_MAIN(TestForwardingProof)
#include "test_forwarding_proof.moc"
