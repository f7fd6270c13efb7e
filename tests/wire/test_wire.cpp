// Framing: every message type and dtype round-trips; every kind of malformed input is refused
// with its own error, never a crash.
#include <QTest>

#include <cstring>
#include <numeric>
#include <random>

#include "wire/message.hpp"

using namespace rookery::wire;
using Kind = DecodeError::Kind;
Q_DECLARE_METATYPE(Kind)

namespace {

std::vector<zmq::message_t> clone(const std::vector<zmq::message_t>& frames) {
  std::vector<zmq::message_t> out;
  for (const auto& f : frames) out.emplace_back(f.data(), f.size());
  return out;
}

// A valid two-tensor message, re-encoded by each malformed case with one thing broken.
pb::Envelope sample_header() {
  pb::Envelope h;
  h.set_job_id("demo");
  h.set_request_id(42);
  h.mutable_ping()->set_sent_unix_us(1234);
  return h;
}

std::vector<OutgoingTensor> sample_tensors() {
  std::vector<float> v(12);
  std::iota(v.begin(), v.end(), 0.f);
  std::vector<OutgoingTensor> t;
  t.push_back(OutgoingTensor::encode("act", {3, 4}, v));
  t.push_back(OutgoingTensor::encode("grad", {12}, v, Codec::Int8Block, 8));
  return t;
}

// Re-serialises the header of `frames` after `edit`, keeping the tensor frames.
template <typename Edit>
std::vector<zmq::message_t> with_header(std::vector<zmq::message_t> frames, Edit edit) {
  pb::Envelope h;
  h.ParseFromArray(frames[0].data(), static_cast<int>(frames[0].size()));
  edit(h);
  const auto s = h.SerializeAsString();
  frames[0] = zmq::message_t(s.data(), s.size());
  return frames;
}

}  // namespace

class TestWire : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everyMessageTypeRoundTrips_data() {
    QTest::addColumn<int>("bodyCase");
    QTest::newRow("ping") << int(pb::Envelope::kPing);
    QTest::newRow("pong") << int(pb::Envelope::kPong);
    QTest::newRow("error") << int(pb::Envelope::kError);
    QTest::newRow("control_request") << int(pb::Envelope::kControlRequest);
    QTest::newRow("control_reply") << int(pb::Envelope::kControlReply);
    QTest::newRow("control_event") << int(pb::Envelope::kControlEvent);
  }
  void everyMessageTypeRoundTrips() {
    QFETCH(int, bodyCase);
    pb::Envelope h;
    h.set_job_id("job-1");
    h.set_request_id(7);
    switch (bodyCase) {
      case pb::Envelope::kPing:
        h.mutable_ping()->set_sent_unix_us(99);
        break;
      case pb::Envelope::kPong:
        h.mutable_pong()->set_version("0.1.0");
        h.mutable_pong()->set_role("coordinator");
        break;
      case pb::Envelope::kError:
        h.mutable_error()->set_message("nope");
        break;
      case pb::Envelope::kControlRequest:
        h.mutable_control_request()->set_kind(pb::ControlRequest::PAUSE);
        break;
      case pb::Envelope::kControlReply: {
        auto* r = h.mutable_control_reply();
        r->set_ok(true);
        r->mutable_snapshot()->set_state(pb::CONTRIBUTING);
        r->mutable_snapshot()->mutable_device()->add_gpus()->set_name("H200");
        break;
      }
      case pb::Envelope::kControlEvent: {
        auto* e = h.mutable_control_event();
        e->set_seq(5);
        e->set_kind(pb::ControlEvent::TELEMETRY);
        e->mutable_snapshot()->mutable_work()->set_flops(1e12);
        break;
      }
    }
    const std::string before = h.SerializeAsString();
    auto decoded = decode(encode(h));
    QVERIFY2(decoded.ok(), decoded.ok() ? "" : decoded.error().what.c_str());
    auto& m = decoded.message();
    QCOMPARE(int(m.header.body_case()), bodyCase);
    QCOMPARE(m.header.version(), kProtocolVersion);
    m.header.clear_version();
    QCOMPARE(m.header.SerializeAsString(), before);
  }

  void everyDTypeRoundTrips_data() {
    QTest::addColumn<int>("dtype");
    for (auto d : {DType::F32, DType::F16, DType::BF16, DType::I64, DType::I32, DType::U16,
                   DType::U8, DType::I8}) {
      QTest::newRow(std::string(dtype_name(d)).c_str()) << int(d);
    }
  }
  void everyDTypeRoundTrips() {
    QFETCH(int, dtype);
    const auto d = static_cast<DType>(dtype);
    const std::vector<std::int64_t> shape{2, 3, 5};
    std::vector<std::byte> bytes(30 * dtype_size(d));
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::byte>(i * 31 + 7);
    std::vector<OutgoingTensor> t;
    t.push_back(OutgoingTensor::raw("x", d, shape, Payload::copy_of(bytes)));
    auto decoded = decode(encode(sample_header(), std::move(t)));
    QVERIFY(decoded.ok());
    const auto& x = decoded.message().tensors.at(0);
    QCOMPARE(int(x.dtype()), dtype);
    QCOMPARE(x.shape(), shape);
    QCOMPARE(x.numel(), 30);
    QVERIFY(std::equal(bytes.begin(), bytes.end(), x.bytes().begin(), x.bytes().end()));
  }

  void codecTensorsDecode() {
    auto decoded = decode(encode(sample_header(), sample_tensors()));
    QVERIFY(decoded.ok());
    auto& m = decoded.message();
    QCOMPARE(m.tensors.size(), std::size_t{2});
    const auto act = m.tensor("act")->to_f32();
    QCOMPARE(act[11], 11.f);
    const auto grad = m.tensor("grad")->to_f32();
    for (int i = 0; i < 12; ++i) QVERIFY(std::fabs(grad[i] - float(i)) <= 15.f / 254.f + 1e-5f);
    QVERIFY(m.tensor("missing") == nullptr);
  }

  // On a channel that authenticates its frames (CURVE) neither end checksums: the sender
  // writes none, the receiver checks none, and every other check still applies.
  void authenticatedChannelsCarryNoChecksums() {
    const auto bare = encode(sample_header(), sample_tensors(), /*checksums=*/false);
    pb::Envelope h;
    QVERIFY(h.ParseFromArray(bare[0].data(), static_cast<int>(bare[0].size())));
    for (const auto& m : h.tensors()) QCOMPARE(m.checksum(), std::uint64_t{0});

    Limits authenticated;
    authenticated.checksums = false;
    auto decoded = decode(clone(bare), authenticated);
    QVERIFY(decoded.ok());
    QCOMPARE(decoded.message().tensor("act")->to_f32()[11], 11.f);

    // A receiver that wants checksums refuses frames without one.
    auto refused = decode(clone(bare));
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().kind, Kind::BadChecksum);

    // Without checksums, a frame whose size lies is still refused.
    auto frames = clone(bare);
    frames[1] = zmq::message_t(frames[1].data(), frames[1].size() - 4);
    auto short_frame = decode(std::move(frames), authenticated);
    QVERIFY(!short_frame.ok());
    QCOMPARE(short_frame.error().kind, Kind::SizeMismatch);
  }

  void zeroCopySendKeepsOwnerAlive() {
    auto owner = std::make_shared<std::vector<float>>(1000, 2.5f);
    std::weak_ptr<std::vector<float>> watch = owner;
    Payload p{owner->data(), owner->size() * sizeof(float), owner};
    owner.reset();
    std::vector<OutgoingTensor> t;
    t.push_back(OutgoingTensor::raw("w", DType::F32, {1000}, std::move(p)));
    auto frames = encode(sample_header(), std::move(t));
    QVERIFY(!watch.expired());  // the frame still refers to the caller's buffer
    QCOMPARE(frames[1].data(), static_cast<void*>(watch.lock()->data()));  // no copy was made
    frames.clear();
    QVERIFY(watch.expired());  // released once ZeroMQ let go of the frame
  }

  void malformedInputIsRefused_data() {
    QTest::addColumn<int>("caseId");
    QTest::addColumn<Kind>("expected");
    QTest::newRow("no frames") << 0 << Kind::NoFrames;
    QTest::newRow("too many frames") << 1 << Kind::TooManyFrames;
    QTest::newRow("header is garbage") << 2 << Kind::BadHeader;
    QTest::newRow("header truncated") << 3 << Kind::BadHeader;
    QTest::newRow("header too large") << 4 << Kind::HeaderTooLarge;
    QTest::newRow("wrong version") << 5 << Kind::BadVersion;
    QTest::newRow("missing tensor frame") << 6 << Kind::FrameCountMismatch;
    QTest::newRow("extra frame") << 7 << Kind::FrameCountMismatch;
    QTest::newRow("unknown dtype") << 8 << Kind::BadDType;
    QTest::newRow("unknown codec") << 9 << Kind::BadCodec;
    QTest::newRow("codec on integers") << 10 << Kind::BadCodec;
    QTest::newRow("int8 block size 0") << 11 << Kind::BadCodec;
    QTest::newRow("negative dimension") << 12 << Kind::BadShape;
    QTest::newRow("rank too high") << 13 << Kind::BadShape;
    QTest::newRow("huge declared shape") << 14 << Kind::TooLarge;
    QTest::newRow("overflowing shape") << 15 << Kind::TooLarge;
    QTest::newRow("frame shorter than shape") << 16 << Kind::SizeMismatch;
    QTest::newRow("header size lies") << 17 << Kind::SizeMismatch;
    QTest::newRow("bad checksum") << 18 << Kind::BadChecksum;
    QTest::newRow("flipped payload bit") << 19 << Kind::BadChecksum;
    QTest::newRow("total over limit") << 20 << Kind::TooLarge;
  }
  void malformedInputIsRefused() {
    QFETCH(int, caseId);
    QFETCH(Kind, expected);
    const auto good = encode(sample_header(), sample_tensors());
    Limits limits;
    std::vector<zmq::message_t> frames;
    auto edit_meta = [&](auto fn) {
      frames = with_header(clone(good), [&](pb::Envelope& h) { fn(*h.mutable_tensors(0)); });
    };
    switch (caseId) {
      case 0:
        break;
      case 1:
        for (int i = 0; i < 100; ++i) frames.emplace_back();
        break;
      case 2:
        frames.emplace_back("\xff\xff\xff\xff garbage", 13);
        break;
      case 3:
        frames = clone(good);
        frames[0] = zmq::message_t(frames[0].data(), frames[0].size() / 2);
        break;
      case 4:
        frames.emplace_back(std::string(300 * 1024, 'x').data(), 300 * 1024);
        break;
      case 5:
        frames = with_header(clone(good), [](pb::Envelope& h) { h.set_version(99); });
        break;
      case 6:
        frames = clone(good);
        frames.pop_back();
        break;
      case 7:
        frames = clone(good);
        frames.emplace_back("x", 1);
        break;
      case 8:
        edit_meta([](pb::TensorMeta& m) { m.set_dtype(static_cast<pb::DType>(77)); });
        break;
      case 9:
        edit_meta([](pb::TensorMeta& m) { m.set_codec(static_cast<pb::Codec>(9)); });
        break;
      case 10:
        edit_meta([](pb::TensorMeta& m) {
          m.set_dtype(pb::I32);
          m.set_codec(pb::CODEC_FP16);
        });
        break;
      case 11:
        frames = with_header(clone(good),
                             [](pb::Envelope& h) { h.mutable_tensors(1)->set_block_size(0); });
        break;
      case 12:
        edit_meta([](pb::TensorMeta& m) { m.set_shape(0, -3); });
        break;
      case 13:
        edit_meta([](pb::TensorMeta& m) {
          for (int i = 0; i < 10; ++i) m.add_shape(1);
        });
        break;
      case 14:
        edit_meta([](pb::TensorMeta& m) { m.set_shape(0, 1LL << 40); });
        break;
      case 15:
        edit_meta([](pb::TensorMeta& m) {
          m.clear_shape();
          for (int i = 0; i < 4; ++i) m.add_shape(1LL << 20);
        });
        break;
      case 16:
        frames = clone(good);
        frames[1] = zmq::message_t(frames[1].data(), frames[1].size() - 4);
        break;
      case 17:
        edit_meta([](pb::TensorMeta& m) { m.set_frame_bytes(m.frame_bytes() + 4); });
        break;
      case 18:
        edit_meta([](pb::TensorMeta& m) { m.set_checksum(m.checksum() ^ 1); });
        break;
      case 19:
        frames = clone(good);
        static_cast<unsigned char*>(frames[2].data())[3] ^= 0x10;
        break;
      case 20:
        frames = clone(good);
        limits.max_total_bytes = 60;
        break;
    }
    auto r = decode(std::move(frames), limits);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, expected);
    QVERIFY(!r.error().what.empty());
  }

  // Random corruption of valid messages: decode must refuse or accept, never crash or hang.
  void randomCorruptionNeverCrashes() {
    const auto good = encode(sample_header(), sample_tensors());
    std::mt19937 rng(7);
    int refused = 0;
    for (int trial = 0; trial < 3000; ++trial) {
      auto frames = clone(good);
      auto& f = frames[rng() % frames.size()];
      if (f.size() == 0) continue;
      auto* p = static_cast<unsigned char*>(f.data());
      for (int k = 0; k < 1 + int(rng() % 4); ++k)
        p[rng() % f.size()] ^= static_cast<unsigned char>(1u << (rng() % 8));
      if (!decode(std::move(frames)).ok()) ++refused;
    }
    QVERIFY(refused > 2500);  // nearly every corruption is caught (the rest hit unused header bits)
  }
};

QTEST_APPLESS_MAIN(TestWire)
#include "test_wire.moc"
