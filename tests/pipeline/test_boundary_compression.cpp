// Low-rank boundary compression (pipeline/boundary_compression.hpp) without sockets: the
// factors survive the wire forward and backward, a tensor of the compression's rank comes
// back within int8 noise, the demo's micro-batch shrinks at least 16x, and a malformed
// compressed message is refused with a MessageError that says why.
#include <torch/torch.h>

#include <QTest>

#include <cmath>
#include <cstdio>
#include <limits>

#include "net/identity.hpp"
#include "pipeline/boundary_compression.hpp"
#include "pipeline/stage_messages.hpp"

using namespace rookery;
using pipeline::BoundaryShape;
using pipeline::MessageError;
using pipeline::MessageRules;

namespace {
const std::string kJob = "job-1";
constexpr BoundaryShape kShape{8, 16, 32};  // rank, tokens, width
constexpr std::int64_t kSamples = 4;

wire::Message decoded(std::vector<zmq::message_t> frames) {
  auto r = wire::decode(std::move(frames));
  if (!r) throw std::runtime_error(r.error().what);
  return std::move(r.message());
}

MessageRules middle_stage(BoundaryShape shape = kShape) {
  return {kJob, 0, false, false, false, shape, {}};
}

net::PeerAddress sender_address() {
  static const auto key = net::CurveKeyPair::generate().public_key;
  return {"tcp://127.0.0.1:5555", key};
}

pipeline::ForwardRecord record(std::int64_t samples) {
  return {0, 0x42, 100, samples, sender_address()};
}

torch::Tensor activations(std::int64_t samples, const BoundaryShape& s = kShape) {
  return torch::randn({samples, s.tokens, s.width});
}
torch::Tensor targets(std::int64_t samples, std::int64_t tokens = kShape.tokens) {
  return torch::zeros({samples, tokens}, torch::kInt64);
}

// A tensor of exactly rank `rank`, [samples, tokens, width].
torch::Tensor of_rank(std::int64_t rank, std::int64_t samples, const BoundaryShape& s) {
  return torch::randn({samples * s.tokens, rank})
      .matmul(torch::randn({rank, s.width}))
      .view({samples, s.tokens, s.width});
}

double relative_error(const torch::Tensor& a, const torch::Tensor& b) {
  return ((a - b).norm() / b.norm()).item<double>();
}

std::size_t wire_bytes(const std::vector<zmq::message_t>& frames) {
  std::size_t n = 0;
  for (const auto& f : frames) n += f.size();
  return n;
}

// A forward header for hand-made tensors.
wire::pb::Envelope forward_header(std::int64_t samples) {
  wire::pb::Envelope h;
  h.set_job_id(kJob);
  auto* f = h.mutable_forward();
  f->set_micro_batch(0x42);
  f->set_samples(static_cast<std::int32_t>(samples));
  f->mutable_return_to()->set_endpoint(sender_address().endpoint);
  f->mutable_return_to()->set_key(sender_address().key);
  return h;
}

wire::OutgoingTensor int8(std::string name, const torch::Tensor& t, std::uint32_t block) {
  auto c = t.contiguous();
  return wire::OutgoingTensor::encode(std::move(name), {c.sizes().begin(), c.sizes().end()},
                                      {c.data_ptr<float>(), static_cast<std::size_t>(c.numel())},
                                      wire::Codec::Int8Block, block);
}

wire::OutgoingTensor raw_targets(std::int64_t samples) {
  auto t = targets(samples);
  auto owner = std::make_shared<torch::Tensor>(t);
  wire::Payload p;
  p.data = owner->data_ptr();
  p.size = static_cast<std::size_t>(owner->nbytes());
  p.owner = std::shared_ptr<const void>(owner, owner.get());
  return wire::OutgoingTensor::raw("targets", wire::DType::I64, {samples, kShape.tokens}, p);
}

// A forward holding these factors (and targets for `samples`).
wire::Message forward_with(std::int64_t samples, const torch::Tensor& p, const torch::Tensor& q,
                           std::uint32_t p_block = wire::kDefaultInt8Block,
                           std::uint32_t q_block = kShape.width) {
  std::vector<wire::OutgoingTensor> t;
  t.push_back(int8("activations.p", p, p_block));
  t.push_back(int8("activations.q", q, q_block));
  t.push_back(raw_targets(samples));
  return decoded(wire::encode(forward_header(samples), std::move(t)));
}

enum class Malformed {
  WrongRank,
  MoreRowsThanSamples,
  WrongWidth,
  MissingQ,
  WholeInLowrankJob,
  FactorsInPlainJob,
  NotInt8,
  WrongBlock,
  NanScale,
  NanGradient,
};

wire::Message malformed(Malformed kind, MessageRules& rules) {
  const auto rows = kSamples * kShape.tokens;
  switch (kind) {
    case Malformed::WrongRank:
      return decoded(pipeline::encode_forward(kJob, record(kSamples), activations(kSamples),
                                              targets(kSamples), wire::Codec::None,
                                              {4, kShape.tokens, kShape.width}));
    case Malformed::MoreRowsThanSamples:
      return forward_with(kSamples - 1, torch::randn({rows, kShape.rank}),
                          torch::randn({kShape.rank, kShape.width}));
    case Malformed::WrongWidth:
      return forward_with(kSamples, torch::randn({rows, kShape.rank}),
                          torch::randn({kShape.rank, kShape.width + 1}));
    case Malformed::MissingQ: {
      std::vector<wire::OutgoingTensor> t;
      t.push_back(int8("activations.p", torch::randn({rows, kShape.rank}), 256));
      t.push_back(raw_targets(kSamples));
      return decoded(wire::encode(forward_header(kSamples), std::move(t)));
    }
    case Malformed::WholeInLowrankJob:
      return decoded(pipeline::encode_forward(kJob, record(kSamples), activations(kSamples),
                                              targets(kSamples), wire::Codec::Int8Block));
    case Malformed::FactorsInPlainJob:
      rules.boundary = {};
      return decoded(pipeline::encode_forward(kJob, record(kSamples), activations(kSamples),
                                              targets(kSamples), wire::Codec::None, kShape));
    case Malformed::NotInt8: {
      auto h = forward_header(kSamples);
      return decoded(pipeline::encode_with_tensors(
          std::move(h), {{"activations.p", torch::randn({rows, kShape.rank})},
                         {"activations.q", torch::randn({kShape.rank, kShape.width})},
                         {"targets", targets(kSamples)}}));
    }
    case Malformed::WrongBlock:
      return forward_with(kSamples, torch::randn({rows, kShape.rank}),
                          torch::randn({kShape.rank, kShape.width}), 256, 64);
    case Malformed::NanScale: {
      auto p = torch::randn({rows, kShape.rank});
      p[3][1] = std::numeric_limits<float>::quiet_NaN();  // int8 encodes its block's scale NaN
      return forward_with(kSamples, p, torch::randn({kShape.rank, kShape.width}));
    }
    case Malformed::NanGradient: {
      auto g = activations(kSamples);
      g[1][2][3] = std::numeric_limits<float>::infinity();
      return decoded(
          pipeline::encode_backward(kJob, {0, 0x42, kSamples, 1.5}, g, wire::Codec::None, kShape));
    }
  }
  throw std::logic_error("unknown kind");
}
}  // namespace

class TestBoundaryCompression : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void forwardRoundTripsShapesAndDtypes() {
    const auto act = of_rank(kShape.rank, kSamples, kShape);
    auto tgt = targets(kSamples);
    tgt[1][2] = 7;
    const auto msg = decoded(
        pipeline::encode_forward(kJob, record(kSamples), act, tgt, wire::Codec::None, kShape));
    QVERIFY(!msg.tensor("activations"));  // the factors only
    QCOMPARE(msg.tensor("activations.p")->shape(),
             (std::vector<std::int64_t>{kSamples * kShape.tokens, kShape.rank}));
    QCOMPARE(msg.tensor("activations.q")->shape(),
             (std::vector<std::int64_t>{kShape.rank, kShape.width}));
    const auto in = pipeline::decode_pipeline_message(msg, "peer", middle_stage(), torch::kCPU);
    QCOMPARE(in.tensor.sizes().vec(), act.sizes().vec());
    QVERIFY(in.tensor.scalar_type() == torch::kFloat32);
    QVERIFY(torch::equal(in.targets, tgt));
    QCOMPARE(in.samples, kSamples);
    QVERIFY(relative_error(in.tensor, act) < 0.02);
  }

  void backwardRoundTripsShapesAndDtypes() {
    // Gradients are small; int8 blocks are relative, so their scale does not matter.
    const auto grad = of_rank(3, kSamples, kShape) * 1e-6;
    auto rules = middle_stage();
    rules.first = true;
    const auto msg = decoded(pipeline::encode_backward(kJob, {0, 0x42, kSamples, 1.5, 2.5}, grad,
                                                       wire::Codec::None, kShape));
    QVERIFY(!msg.tensor("grad"));
    const auto in = pipeline::decode_pipeline_message(msg, "peer", rules, torch::kCPU);
    QVERIFY(in.backward);
    QCOMPARE(in.tensor.sizes().vec(), grad.sizes().vec());
    QVERIFY(in.tensor.scalar_type() == torch::kFloat32);
    QCOMPARE(in.downstream_grad_sq_norm, 2.5);
    QVERIFY(relative_error(in.tensor, grad) < 0.02);
  }

  void knownRankComesBackWithinInt8Noise_data() {
    QTest::addColumn<int>("rank");
    QTest::addColumn<int>("tokens");
    QTest::addColumn<int>("width");
    QTest::newRow("rank 8 of 32") << 8 << 16 << 32;
    QTest::newRow("rank 24 of the demo's 128") << 24 << 64 << 128;
    QTest::newRow("rank 8 of the demo's 128") << 8 << 64 << 128;
  }
  void knownRankComesBackWithinInt8Noise() {
    QFETCH(int, rank);
    QFETCH(int, tokens);
    QFETCH(int, width);
    const BoundaryShape shape{rank, tokens, width};
    torch::manual_seed(3);
    const auto x = of_rank(rank, 16, shape);
    const auto exact = pipeline::factorize(x, rank);
    QVERIFY(relative_error(pipeline::reconstruct(exact, x.sizes()), x) < 1e-4);
    const auto msg = decoded(pipeline::encode_forward(kJob, record(16), x, targets(16, tokens),
                                                      wire::Codec::None, shape));
    const auto in =
        pipeline::decode_pipeline_message(msg, "peer", middle_stage(shape), torch::kCPU);
    const double err = relative_error(in.tensor, x);
    std::printf("rank %d: relative error after the wire %.4f\n", rank, err);
    QVERIFY2(err < 0.02, std::to_string(err).c_str());  // int8: about 0.5% per factor
  }

  void findsNearlyTheBestApproximationOfAFullRankTensor() {
    // A decaying spectrum, like activations': the randomized factors must be close to the
    // truncated SVD (the best rank-r approximation there is).
    torch::manual_seed(5);
    const auto u = std::get<0>(torch::linalg_qr(torch::randn({1024, 128})));
    const auto v = std::get<0>(torch::linalg_qr(torch::randn({128, 128})));
    const auto s = torch::pow(torch::arange(1, 129, torch::kFloat32), -0.7);
    const auto x = (u * s).matmul(v.t());
    const std::int64_t rank = 16;
    const auto best = s.narrow(0, rank, 128 - rank).norm() / s.norm();
    const auto f = pipeline::factorize(x, rank);
    const double err = relative_error(pipeline::reconstruct(f, x.sizes()), x);
    std::printf("rank %lld: error %.4f, best possible %.4f\n", static_cast<long long>(rank), err,
                best.item<double>());
    QVERIFY(err < 1.05 * best.item<double>());
  }

  void asReceivedIsWhatTheWireDelivers() {
    // What a spot-check compares a compressed tensor with: the same compression of an exact
    // recomputation. For a full-rank tensor (no structure for rank 8 of 32 to keep) the exact
    // one is far off (0.69 here, on top of the up to 0.7 by which honest replicas differ,
    // against a tolerance of 1), while as_received gives what the receiver decoded within the
    // int8 rounding; and a tensor flipped x-10 stays as far from it as the lie is from the truth.
    torch::manual_seed(7);
    const auto x = activations(kSamples);
    const auto msg = decoded(pipeline::encode_forward(kJob, record(kSamples), x, targets(kSamples),
                                                      wire::Codec::None, kShape));
    const auto in = pipeline::decode_pipeline_message(msg, "peer", middle_stage(), torch::kCPU);
    const auto expected = pipeline::as_received(x, kShape);
    const double to_exact = relative_error(in.tensor, x);
    const double to_expected = relative_error(in.tensor, expected);
    const double lie = relative_error(pipeline::as_received(x * -10, kShape), expected);
    std::printf("received vs exact %.3f, vs as_received %.4f; a x-10 lie vs as_received %.3f\n",
                to_exact, to_expected, lie);
    QVERIFY(to_exact > 0.5);
    QVERIFY(to_expected < 0.02);
    QVERIFY(lie > 1.0);
    QCOMPARE(expected.sizes().vec(), x.sizes().vec());
    // Uncompressed boundaries: the tensor itself.
    QVERIFY(pipeline::as_received(x, BoundaryShape{}).is_same(x));
  }

  void demoMicroBatchShrinksAtLeast16x_data() {
    QTest::addColumn<int>("rank");
    QTest::newRow("rank 24") << 24;
    QTest::newRow("rank 8") << 8;
  }
  void demoMicroBatchShrinksAtLeast16x() {
    QFETCH(int, rank);
    // The demo job: micro-batches of 16 samples of 64 tokens, width 128.
    const BoundaryShape shape{rank, 64, 128};
    const std::int64_t samples = 16;
    const auto x = activations(samples, shape);
    const double fp32 = 4.0 * static_cast<double>(x.numel());
    const auto factors = static_cast<double>(pipeline::factor_bytes(shape, samples));
    const auto grad_frames =
        pipeline::encode_backward(kJob, {0, 1, samples, 1.0}, x, wire::Codec::None, shape);
    const auto int8_frames =
        pipeline::encode_backward(kJob, {0, 1, samples, 1.0}, x, wire::Codec::Int8Block);
    const auto plain_frames =
        pipeline::encode_backward(kJob, {0, 1, samples, 1.0}, x, wire::Codec::None);
    std::printf(
        "rank %d: factors %.0f bytes vs fp32 %.0f (%.1fx); backward message %zu bytes vs "
        "fp32 %zu (%.1fx), int8 %zu (%.1fx)\n",
        rank, factors, fp32, fp32 / factors, wire_bytes(grad_frames), wire_bytes(plain_frames),
        double(wire_bytes(plain_frames)) / double(wire_bytes(grad_frames)), wire_bytes(int8_frames),
        double(wire_bytes(int8_frames)) / double(wire_bytes(grad_frames)));
    QVERIFY(fp32 / factors >= 16);
    QVERIFY(double(wire_bytes(plain_frames)) / double(wire_bytes(grad_frames)) >= 16);
  }

  void malformedFramesAreRefused_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("reason");
    QTest::newRow("wrong rank") << int(Malformed::WrongRank)
                                << "'activations.p' has shape [64, 4], expected [64, 8]";
    QTest::newRow("more rows than samples")
        << int(Malformed::MoreRowsThanSamples)
        << "'activations.p' has shape [64, 8], expected [48, 8]";
    QTest::newRow("wrong width") << int(Malformed::WrongWidth)
                                 << "'activations.q' has shape [8, 33], expected [8, 32]";
    QTest::newRow("missing q") << int(Malformed::MissingQ)
                               << "compressed message without 'activations.q'";
    QTest::newRow("whole tensor in a lowrank job")
        << int(Malformed::WholeInLowrankJob) << "'activations' uncompressed in a lowrank job";
    QTest::newRow("factors in a plain job")
        << int(Malformed::FactorsInPlainJob) << "forward without activations or targets";
    QTest::newRow("factors not int8")
        << int(Malformed::NotInt8) << "'activations.p' is not f32 in int8 blocks of 256";
    QTest::newRow("wrong block size")
        << int(Malformed::WrongBlock) << "'activations.q' is not f32 in int8 blocks of 32";
    QTest::newRow("NaN scale") << int(Malformed::NanScale)
                               << "'activations.p' holds values that are not finite";
    QTest::newRow("infinite gradient")
        << int(Malformed::NanGradient) << "'grad.p' holds values that are not finite";
  }
  void malformedFramesAreRefused() {
    QFETCH(int, kind);
    QFETCH(QString, reason);
    auto rules = middle_stage();
    const auto msg = malformed(static_cast<Malformed>(kind), rules);
    try {
      pipeline::decode_pipeline_message(msg, "peer", rules, torch::kCPU);
      QFAIL("a malformed message was taken");
    } catch (const MessageError& e) {
      QCOMPARE(QString::fromStdString(e.what()), reason);
    }
  }

  void truncatedFactorIsRefusedByTheWire() {
    auto frames = pipeline::encode_forward(kJob, record(kSamples), activations(kSamples),
                                           targets(kSamples), wire::Codec::None, kShape);
    // Frame 0 is the header; 1 is P. Cut P short.
    zmq::message_t cut(frames[1].data(), frames[1].size() - 5);
    frames[1] = std::move(cut);
    const auto r = wire::decode(std::move(frames));
    QVERIFY(!r);
  }
};

QTEST_GUILESS_MAIN(TestBoundaryCompression)
#include "test_boundary_compression.moc"
