// Verified aggregation's judging, row by row: commitments and receipts survive their encoding and
// nothing else does; evidence holds only with both signatures from this attempt; who an
// attempt's verdicts blame, set aside or clear; validators drawn per chunk; input commitments
// signed by their author's CURVE identity, an owner whose signed claims no signed commitment
// backs blamed (only then). Then whole verified rounds on the in-process transport: exact for
// 2-5 members and every codec; with a lying owner in a ring of two (one validator: nobody can
// be blamed) nothing is committed; an owner lying about its result and the commitments it holds
// is caught by every honest member where members have identities, and only set aside without.
#include <QtTest/QtTest>

#include <limits>
#include <set>
#include <thread>

#include "reduce/aggregate_verification.hpp"
#include "reduce/ring_all_reduce.hpp"
#include "reduce_test_support.hpp"
#include "verified_round.hpp"

using namespace rookery;
using namespace rookery::reduce;
using rookery::reduce::testing::Run;
using rookery::reduce::testing::verified_round;

namespace {
const AttemptContext kCtx{11, 7, 99, 0};

ResultCommitment commitment(const SigningKey& owner, std::uint32_t chunk, float value) {
  ResultCommitment c;
  c.chunk = chunk;
  c.left_out.assign(4, 0);
  const std::vector<float> result(8, value);
  c.digests = {digest_of(result), digest_of(result)};
  c.sign(kCtx, owner);
  return c;
}

ForwardReceipt receipt(const SigningKey& forwarder, std::uint32_t chunk, float value,
                       const AttemptContext& ctx = kCtx) {
  const std::vector<float> bytes(8, value);
  ForwardReceipt r{chunk, 1, digest_of(bytes), {}};
  r.sign(ctx, forwarder);
  return r;
}

VerdictMessage verdict(std::vector<ChunkVerdict> chunks, Digest table = Digest{std::byte{1}}) {
  VerdictMessage v;
  v.table = table;
  v.chunks = std::move(chunks);
  return v;
}

// Four members with identities, each with an input commitment signed by it, and the result
// commitment of chunk 0 (owned by member 3) claiming them all.
struct World {
  std::vector<net::CurveKeyPair> identities;
  std::vector<SigningKey> fresh = std::vector<SigningKey>(4);
  std::vector<InputCommitment> inputs;
  HeldCommitments held;
  World() {
    held.bound = true;
    for (std::size_t m = 0; m < 4; ++m) {
      identities.push_back(net::CurveKeyPair::generate());
      held.members.push_back(identities[m].public_key);
      inputs.push_back(input(m, 10.0 + double(m)));
      held.inputs.push_back(inputs[m]);
      held.keys.push_back(fresh[m].public_key());
    }
    held.results.resize(4);
    held.results[0] = result(inputs);
  }
  InputCommitment input(std::size_t m, double weight) const {
    InputCommitment c;
    c.key = fresh[m].public_key();
    c.weight = weight;
    c.digests = {digest_of(std::vector<float>(4, float(m)))};
    c.sign(kCtx, fresh[m], held.bound ? &identities[m].secret_key : nullptr);
    return c;
  }
  ResultCommitment result(const std::vector<InputCommitment>& claimed) const {
    ResultCommitment r = commitment(fresh[3], 0, 1.f);
    for (const auto& c : claimed) r.inputs.push_back(c.id(kCtx));
    r.sign(kCtx, fresh[3]);
    return r;
  }
  VerdictMessage says(ChunkVerdict chunk0, const std::vector<InputCommitment>& shown) const {
    std::vector<ChunkVerdict> chunks(4, ChunkVerdict::none);
    chunks[0] = chunk0;
    auto v = verdict(chunks);
    for (const auto& c : shown) v.inputs.push_back(c.encode());
    return v;
  }
};
}  // namespace

class TestAggregateVerification : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void commitmentsSurviveTheirEncodingAndNothingElse() {
    const SigningKey key;
    InputCommitment in{key.public_key(), 42.5, {digest_of(std::vector<float>{1.f, 2.f})}, {}};
    const auto bytes = in.encode();
    const auto back = InputCommitment::decode(bytes);
    QVERIFY(back);
    QCOMPARE(back->weight, 42.5);
    QVERIFY(back->key == key.public_key() && back->digests == in.digests);
    for (std::size_t cut = 0; cut < bytes.size(); cut += 7)
      QVERIFY(!InputCommitment::decode(std::span(bytes).first(cut)));
    auto longer = bytes;
    longer.push_back(std::byte{0});
    QVERIFY(!InputCommitment::decode(longer));

    const auto c = commitment(key, 2, 1.f);
    const auto c_back = ResultCommitment::decode(c.encode());
    QVERIFY(c_back && *c_back == c && c_back->valid(kCtx, key.public_key()));
    VerdictMessage v = verdict({ChunkVerdict::accepted, ChunkVerdict::rejected});
    v.disputes = {3};
    v.evidence.push_back({1, 1, receipt(key, 2, 5.f), c});
    const auto v_back = VerdictMessage::decode(v.encode());
    QVERIFY(v_back);
    QCOMPARE(v_back->chunks.size(), std::size_t(2));
    QCOMPARE(v_back->disputes, std::vector<std::uint32_t>{3});
    QCOMPARE(v_back->evidence.size(), std::size_t(1));
    const auto v_bytes = v.encode();
    QVERIFY(!VerdictMessage::decode(std::span(v_bytes).first(20)));
  }

  void inputCommitmentsAreSignedByTheirAuthor() {
    const auto alice = net::CurveKeyPair::generate(), bob = net::CurveKeyPair::generate();
    const SigningKey key;
    InputCommitment c{key.public_key(), 3.0, {digest_of(std::vector<float>{1.f})}, {}};
    c.sign(kCtx, key, &alice.secret_key);
    const auto back = InputCommitment::decode(c.encode());
    QVERIFY(back && back->signature == c.signature);
    QVERIFY(back->valid(kCtx, true, alice.public_key, {}));
    QVERIFY(!back->valid(kCtx, true, bob.public_key, {}));        // not Bob's
    QVERIFY(!back->valid(kCtx, false, alice.public_key, c.key));  // not a fresh-key signature
    AttemptContext other = kCtx;
    other.attempt = 1;
    QVERIFY(!back->valid(other, true, alice.public_key, {}));  // not replayable
    auto changed = *back;
    changed.weight = 6.0;
    QVERIFY(!changed.valid(kCtx, true, alice.public_key, {}));
    QVERIFY(changed.id(kCtx) != back->id(kCtx));
    // Unbound: the fresh key signs, and it verifies only with the key the checker holds.
    c.sign(kCtx, key, nullptr);
    QVERIFY(c.valid(kCtx, false, "whoever", key.public_key()));
    QVERIFY(!c.valid(kCtx, false, "whoever", SigningKey().public_key()));
    QVERIFY(!c.valid(kCtx, true, alice.public_key, key.public_key()));
    // The identity signature over many keys (both signs of the Edwards point occur).
    for (int i = 0; i < 64; ++i) {
      const auto k = net::CurveKeyPair::generate();
      const std::vector<std::byte> m(static_cast<std::size_t>(i), static_cast<std::byte>(i));
      const auto sig = identity_sign(k.secret_key, m);
      QVERIFY(identity_signature_valid(k.public_key, m, sig));
      QVERIFY(!identity_signature_valid(alice.public_key, m, sig));
      auto flipped = sig;
      flipped.edwards[31] ^= std::byte{0x80};
      QVERIFY(!identity_signature_valid(k.public_key, m, flipped));
    }
  }

  void judgementOfOwnersClaims() {
    // Chunk 0 is owned by member 3 and validated by members 0 and 1.
    const std::vector<std::vector<std::size_t>> validators{{0, 1}, {2, 3}, {0, 3}, {1, 2}};
    using V = ChunkVerdict;
    World w;
    const auto& in = w.inputs;
    std::vector<std::optional<VerdictMessage>> all{w.says(V::accepted, in), w.says(V::accepted, in),
                                                   w.says(V::none, in), w.says(V::none, in)};
    auto j = judge_attempt(kCtx, all, validators, w.held);
    QVERIFY(j.commit && j.blamed.empty() && j.sit_out.empty());

    // Both validators reject and show the very commitments the owner signed for: caught.
    all[0] = w.says(V::rejected, in);
    all[1] = w.says(V::rejected, in);
    j = judge_attempt(kCtx, all, validators, w.held);
    QVERIFY(!j.commit);
    QCOMPARE(j.blamed.size(), std::size_t(1));
    QCOMPARE(j.blamed.begin()->first, std::size_t(3));

    // One validator lies: nobody blamed, the owner and its accuser sit out.
    all[1] = w.says(V::accepted, in);
    j = judge_attempt(kCtx, all, validators, w.held);
    QVERIFY(!j.commit && j.blamed.empty());
    QCOMPARE(j.sit_out, (std::set<std::size_t>{0, 3}));

    // The owner lies about its result and about what member 2 committed: its signed result
    // claims a commitment member 2 never signed (and its verdict shows that forgery). Member 2's
    // signed commitment contradicts it: the owner is blamed, whatever the validators say.
    auto forged = in;
    forged[2].weight = 99;
    w.held.results[0] = w.result(forged);
    all = {w.says(V::rejected, in), w.says(V::rejected, in), w.says(V::none, in),
           w.says(V::none, forged)};
    j = judge_attempt(kCtx, all, validators, w.held);
    QVERIFY(!j.commit);
    QCOMPARE(j.blamed.size(), std::size_t(1));
    QCOMPARE(j.blamed.begin()->first, std::size_t(3));
    QVERIFY2(j.blamed.begin()->second.find("never signed") != std::string::npos,
             j.blamed.begin()->second.c_str());
    QVERIFY(j.sit_out.empty());        // the validators were right
    all[1] = w.says(V::accepted, in);  // a lying validator changes nothing
    QCOMPARE(judge_attempt(kCtx, all, validators, w.held).blamed.begin()->first, std::size_t(3));
    // Its verdict never came: it could not show what it holds, so it only sits out.
    all[3] = std::nullopt;
    j = judge_attempt(kCtx, all, validators, w.held);
    QVERIFY(j.blamed.empty() && j.sit_out.count(3));

    // Member 2 signed two commitments, one to the owner, one to the validators: member 2 is
    // blamed (both carry its identity's signature), the honest owner is not, nobody sits out.
    auto second = in;
    second[2] = w.input(2, 55.0);
    w.held.results[0] = w.result(second);
    all = {w.says(V::rejected, in), w.says(V::rejected, in), w.says(V::none, in),
           w.says(V::none, second)};
    j = judge_attempt(kCtx, all, validators, w.held);
    QVERIFY(!j.commit);
    QCOMPARE(j.blamed.size(), std::size_t(1));
    QCOMPARE(j.blamed.begin()->first, std::size_t(2));
    QVERIFY(j.sit_out.empty());

    // Without identities a fresh key binds only for who got it directly (member 2 may have
    // given the owner another key): the contradicting owner sits out, unblamed.
    World u;
    u.held.bound = false;
    for (std::size_t m = 0; m < 4; ++m) u.held.inputs[m] = u.inputs[m] = u.input(m, 10.0 + m);
    auto unbound_forged = u.inputs;
    unbound_forged[2].weight = 99;
    u.held.results[0] = u.result(unbound_forged);
    all = {u.says(V::rejected, u.inputs), u.says(V::rejected, u.inputs), u.says(V::none, u.inputs),
           u.says(V::none, unbound_forged)};
    j = judge_attempt(kCtx, all, validators, u.held);
    QVERIFY(!j.commit && j.blamed.empty());
    QCOMPARE(j.sit_out, std::set<std::size_t>{3});
  }

  void evidenceNeedsBothSignaturesOfThisAttempt() {
    const SigningKey owner, forwarder, other;
    const auto c = commitment(owner, 2, 1.f);
    // A forwarder's signed receipt of other bytes than the owner committed to: it altered them.
    ForwardEvidence e{1, 1, receipt(forwarder, 2, 5.f), c};
    QCOMPARE(e.check(kCtx, forwarder.public_key(), owner.public_key(), &c),
             ForwardEvidence::Proves::forwarder_altered);
    // The same bytes as committed: nothing.
    e.receipt = receipt(forwarder, 2, 1.f);
    QCOMPARE(e.check(kCtx, forwarder.public_key(), owner.public_key(), &c),
             ForwardEvidence::Proves::nothing);
    // A receipt the accuser made up (not the forwarder's key), or one of another attempt.
    e.receipt = receipt(other, 2, 5.f);
    QCOMPARE(e.check(kCtx, forwarder.public_key(), owner.public_key(), &c),
             ForwardEvidence::Proves::nothing);
    AttemptContext replay = kCtx;
    replay.attempt = 1;
    e.receipt = receipt(forwarder, 2, 5.f, replay);
    QCOMPARE(e.check(kCtx, forwarder.public_key(), owner.public_key(), &c),
             ForwardEvidence::Proves::nothing);
    // A commitment not signed by the owner proves nothing either.
    e.receipt = receipt(forwarder, 2, 5.f);
    e.commitment = commitment(other, 2, 1.f);
    QCOMPARE(e.check(kCtx, forwarder.public_key(), owner.public_key(), nullptr),
             ForwardEvidence::Proves::nothing);
    // Two results signed by the owner for one chunk: the owner equivocated.
    e.commitment = commitment(owner, 2, 3.f);
    QCOMPARE(e.check(kCtx, forwarder.public_key(), owner.public_key(), &c),
             ForwardEvidence::Proves::owner_equivocated);
  }

  void judgement() {
    // Four members; chunk 0 is owned by member 3 and validated by members 0 and 1.
    const std::vector<std::vector<std::size_t>> validators{{0, 1}, {2, 3}, {0, 3}, {1, 2}};
    HeldCommitments held;
    held.keys.resize(4);
    held.results.resize(4);
    using V = ChunkVerdict;
    const auto none = std::vector<V>(4, V::none);
    auto with = [&](std::size_t chunk, V v) {
      auto c = none;
      c[chunk] = v;
      return c;
    };
    std::vector<std::optional<VerdictMessage>> all{
        verdict(with(0, V::accepted)), verdict(with(0, V::accepted)), verdict(none), verdict(none)};
    auto j = judge_attempt(kCtx, all, validators, held);
    QVERIFY(j.commit && j.blamed.empty() && j.sit_out.empty());

    // Both reject, but nobody shows which commitments the owner aggregated: not blamed.
    all[0] = verdict(with(0, V::rejected));
    all[1] = verdict(with(0, V::rejected));
    j = judge_attempt(kCtx, all, validators, held);
    QVERIFY(!j.commit && j.blamed.empty());
    QCOMPARE(j.sit_out, (std::set<std::size_t>{0, 1, 3}));

    // A verdict missing, tables differing, or a dispute: not committed.
    all = {verdict(none), verdict(none), verdict(none), std::nullopt};
    QVERIFY(!judge_attempt(kCtx, all, validators, held).commit);
    all[3] = verdict(none, Digest{std::byte{9}});
    QVERIFY(!judge_attempt(kCtx, all, validators, held).commit);
    all[3] = verdict(none);
    all[2]->disputes = {1};
    j = judge_attempt(kCtx, all, validators, held);
    QVERIFY(!j.commit && j.blamed.empty());
    QCOMPARE(j.sit_out, (std::set<std::size_t>{1, 2}));

    // Evidence: blames the forwarder only when it checks out with the keys this member holds.
    const SigningKey owner_key, forwarder_key;
    held.keys[0] = owner_key.public_key();  // owner of chunk 1
    held.keys[1] = forwarder_key.public_key();
    held.results[1] = commitment(owner_key, 1, 1.f);
    all[2]->disputes.clear();
    all[2]->evidence = {{1, 0, receipt(forwarder_key, 1, 5.f), *held.results[1]}};
    // The forwarder's verdict does not say it held that commitment (the owner may have signed
    // it another): the two sit out, nobody is blamed.
    j = judge_attempt(kCtx, all, validators, held);
    QVERIFY(!j.commit && j.blamed.empty());
    QCOMPARE(j.sit_out, (std::set<std::size_t>{0, 1}));
    all[1]->results.assign(4, Digest{});
    all[1]->results[1] = digest_of(std::span<const std::byte>(held.results[1]->encode()));
    j = judge_attempt(kCtx, all, validators, held);
    QCOMPARE(j.blamed.size(), std::size_t(1));
    QCOMPARE(j.blamed.begin()->first, std::size_t(1));
    all[2]->evidence = {{1, 0, receipt(owner_key, 1, 5.f), *held.results[1]}};  // forged
    j = judge_attempt(kCtx, all, validators, held);
    QVERIFY(!j.commit && j.blamed.empty());
  }

  void validatorsAreDrawnPerChunk() {
    std::set<std::vector<std::size_t>> drawn;
    for (std::uint32_t c = 0; c < 8; ++c) {
      const auto v = validators_of(kCtx, c, 8, (c + 7) % 8, 2);
      QCOMPARE(v.size(), std::size_t(2));
      QVERIFY(std::is_sorted(v.begin(), v.end()) && v[0] != v[1]);
      QVERIFY(v[0] != (c + 7) % 8 && v[1] != (c + 7) % 8);
      QVERIFY(v == validators_of(kCtx, c, 8, (c + 7) % 8, 2));  // the same on every member
      drawn.insert(v);
    }
    QVERIFY(drawn.size() > 1);
    QCOMPARE(validators_of(kCtx, 0, 3, 2, 5), (std::vector<std::size_t>{0, 1}));
  }

  void resultsMatchWithinTheCodec() {
    const std::vector<float> exact{1.f, -2.f, 3.f};
    QVERIFY(result_matches(exact, exact, wire::Codec::None));
    QVERIFY(!result_matches(std::vector<float>{1.f, -2.f, 3.01f}, exact, wire::Codec::None));
    QVERIFY(result_matches(std::vector<float>{1.01f, -2.f, 3.f}, exact, wire::Codec::Int8Block));
    QVERIFY(!result_matches(std::vector<float>{-999.f, -2.f, 3.f}, exact, wire::Codec::Int8Block));
    QVERIFY(!result_matches(exact, std::vector<float>{1.f, NAN, 3.f}, wire::Codec::None));
  }

  void verifiedRoundsAreExact_data() {
    QTest::addColumn<int>("members");
    QTest::addColumn<QString>("codec");
    QTest::addColumn<bool>("inPlace");
    for (int n : {2, 3, 5}) {
      for (const char* codec : {"none", "int8", "bf16"}) {
        for (bool in_place : {false, true}) {
          QTest::addRow("%d-%s-%s", n, codec, in_place ? "in" : "out")
              << n << QString(codec) << in_place;
        }
      }
    }
  }
  void verifiedRoundsAreExact() {
    QFETCH(int, members);
    QFETCH(QString, codec);
    QFETCH(bool, inPlace);
    constexpr std::size_t kCount = 20'011;
    const auto c = wire::codec_from_name(codec.toStdString());
    const auto run = verified_round(members, kCount, c, inPlace);
    const auto expected = testing::weighted_mean(run.inputs, run.weights);
    const auto bounds = testing::error_bounds(run.inputs, run.weights, c);
    for (int m = 0; m < members; ++m) {
      const auto& o = run.outcomes[std::size_t(m)];
      QCOMPARE(o.contributors.size(), std::size_t(members));
      QCOMPARE(o.attempts, 1u);
      QVERIFY(o.caught.empty());
      QVERIFY(run.outputs[std::size_t(m)] == run.outputs[0]);  // bit-identical everywhere
    }
    for (std::size_t i = 0; i < kCount; ++i) {
      if (!(std::fabs(run.outputs[0][i] - expected[i]) <= bounds[i]))
        QFAIL(qPrintable(
            QString("offset %1: %2 vs %3").arg(i).arg(run.outputs[0][i]).arg(expected[i])));
    }
  }

  void anOwnerLyingAboutItsCommitmentsIsCaught_data() {
    QTest::addColumn<bool>("identities");
    QTest::newRow("identities") << true;
    QTest::newRow("unbound") << false;
  }
  void anOwnerLyingAboutItsCommitmentsIsCaught() {
    QFETCH(bool, identities);
    constexpr std::size_t kCount = 9'001;
    constexpr int kLiar = 1;
    const auto run = verified_round(4, kCount, wire::Codec::None, false, kLiar,
                                    RingOptions::Fault::lying_owner_commitments, identities);
    std::vector<std::vector<float>> honest_inputs;
    std::vector<double> honest_weights;
    for (int m = 0; m < 4; ++m) {
      const auto& o = run.outcomes[std::size_t(m)];
      if (m == kLiar) {
        QCOMPARE(o.contributors.size(), std::size_t(1));
        continue;
      }
      honest_inputs.push_back(run.inputs[std::size_t(m)]);
      honest_weights.push_back(run.weights[std::size_t(m)]);
      QCOMPARE(o.contributors.size(), std::size_t(3));  // committed without the liar
      QCOMPARE(o.attempts, 2u);
      // With identities its lie is evidence every honest member holds; without, it is only
      // set aside (its partner may have given it another key).
      QCOMPARE(o.caught.size(), std::size_t(identities ? 1 : 0));
      if (identities) {
        QCOMPARE(o.caught[0], run.outcomes[std::size_t(kLiar)].contributors[0]);
        QVERIFY2(o.evidence[0].find("never signed") != std::string::npos, o.evidence[0].c_str());
      }
    }
    const auto expected = testing::weighted_mean(honest_inputs, honest_weights);
    const auto bounds = testing::error_bounds(honest_inputs, honest_weights, wire::Codec::None);
    for (std::size_t i = 0; i < kCount; ++i) {
      if (!(std::fabs(run.outputs[0][i] - expected[i]) <= bounds[i]))
        QFAIL(qPrintable(
            QString("offset %1: %2 vs %3").arg(i).arg(run.outputs[0][i]).arg(expected[i])));
    }
  }

  void aLiarInARingOfTwoCommitsNothing() {
    constexpr std::size_t kCount = 5'000;
    const auto run = verified_round(2, kCount, wire::Codec::None, false, /*liar=*/1);
    for (int m = 0; m < 2; ++m) {
      const auto& o = run.outcomes[std::size_t(m)];
      QCOMPARE(o.contributors.size(), std::size_t(1));  // alone: its own values
      QVERIFY(o.caught.empty());                        // one validator's word blames nobody
      QVERIFY(run.outputs[std::size_t(m)] == run.inputs[std::size_t(m)]);
    }
  }
};

QTEST_APPLESS_MAIN(TestAggregateVerification)
#include "test_aggregate_verification.moc"
