// The optimizer state that travels with a shard, on the wire: what a holder's shard
// server adds to its reply comes out of the decoder and verify_shard_state unchanged, and
// whatever a broken or lying holder sends instead (a buffer missing or foreign, too short,
// not f32, NaN, a negative second moment, a negative moment step) is refused with the
// reason, so the taker keeps the verified parameters and starts those blocks from fresh
// moments. A flipped byte in a state frame never gets that far: the frame's checksum fails.
// The reply as a whole (verify_shard_reply, what a node taking over blocks and the coordinator's
// archive both read): other blocks than asked, the wrong size or type of parameters, values
// that are not finite, or an error instead are refused; a reply whose state alone is broken
// still gives its parameters.
#include <QTest>

#include <cmath>
#include <functional>
#include <limits>

#include "pipeline/shard_state.hpp"
#include "wire/message.hpp"

using namespace rookery;
namespace pb = wire::pb;

namespace {

const std::vector<std::string> kAdam{"adamw.exp_avg", "adamw.exp_avg_sq"};

pipeline::OptimizerState holder_state(std::size_t n) {
  pipeline::OptimizerState s;
  s.moment_step = 41;
  std::vector<float> m(n), v(n);
  for (std::size_t i = 0; i < n; ++i) {
    m[i] = 0.01f * std::sin(float(i));
    v[i] = 1e-6f * float(i % 7);
  }
  s.buffers = {{"adamw.exp_avg", m}, {"adamw.exp_avg_sq", v}};
  return s;
}

// A shard reply as the holder sends it, for values [offset, offset + size) of its shard.
std::vector<zmq::message_t> reply_frames(
    const pipeline::OptimizerState& state, std::int64_t offset, std::int64_t size,
    const std::function<void(pb::Envelope&, std::vector<wire::OutgoingTensor>&)>& tamper = {}) {
  pb::Envelope h;
  auto* r = h.mutable_shard_reply();
  r->set_first_block(1);
  r->set_last_block(2);
  r->set_optimizer_steps(41);
  std::vector<float> params(static_cast<std::size_t>(size), 0.5f);
  std::vector<wire::OutgoingTensor> t;
  t.push_back(wire::OutgoingTensor::encode("parameters", {size}, params));
  pipeline::add_shard_state(state, offset, size, *r, t);
  if (tamper) tamper(h, t);
  return wire::encode(std::move(h), std::move(t));
}

}  // namespace

class TestShardHandover : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void stateTravelsWithTheParameters() {
    const auto state = holder_state(100);
    auto decoded = wire::decode(reply_frames(state, 30, 50));
    QVERIFY(decoded.ok());
    std::string error;
    const auto got = pipeline::verify_shard_state(kAdam, decoded.message(), 50, error);
    QVERIFY2(got.has_value(), error.c_str());
    QCOMPARE(got->moment_step, std::int64_t{41});
    QCOMPARE(int(got->buffers.size()), 2);
    for (std::size_t b = 0; b < 2; ++b) {
      QCOMPARE(got->buffers[b].first, state.buffers[b].first);
      const auto& want = state.buffers[b].second;
      QCOMPARE(got->buffers[b].second, std::vector<float>(want.begin() + 30, want.begin() + 80));
    }
    // An optimizer that keeps no state (SGD without momentum) takes a reply without any.
    auto plain = wire::decode(reply_frames(pipeline::OptimizerState{}, 0, 50));
    QVERIFY(plain.ok());
    const auto none = pipeline::verify_shard_state({}, plain.message(), 50, error);
    QVERIFY(none.has_value() && none->buffers.empty());
  }

  void lyingOrBrokenHoldersAreRefused_data() {
    QTest::addColumn<int>("lie");
    QTest::addColumn<QString>("reason");
    QTest::newRow("no state at all") << 0 << "no 'adamw.exp_avg'";
    QTest::newRow("a buffer missing") << 1 << "no 'adamw.exp_avg_sq'";
    QTest::newRow("a foreign buffer") << 2 << "does not keep";
    QTest::newRow("one value short") << 3 << "is not 50 f32 values";
    QTest::newRow("not f32") << 4 << "is not 50 f32 values";
    QTest::newRow("NaN moment") << 5 << "not finite";
    QTest::newRow("negative second moment") << 6 << "a second moment is finite and >= 0";
    QTest::newRow("infinite second moment") << 7 << "a second moment is finite and >= 0";
    QTest::newRow("negative moment step") << 8 << "negative moment step";
  }
  void lyingOrBrokenHoldersAreRefused() {
    QFETCH(int, lie);
    QFETCH(QString, reason);
    auto state = holder_state(50);
    auto tamper = [&](pb::Envelope& h, std::vector<wire::OutgoingTensor>& t) {
      switch (lie) {
        case 0:
          t.resize(1);
          break;
        case 1:
          t.pop_back();
          break;
        case 2: {
          const std::vector<float> m(50, 0.1f);
          t.push_back(wire::OutgoingTensor::encode("sgd.momentum", {50}, m));
          break;
        }
        case 3: {
          const std::vector<float> short_one(49, 0.0f);
          t[1] = wire::OutgoingTensor::encode("adamw.exp_avg", {49}, short_one);
          break;
        }
        case 4: {
          std::vector<std::byte> bytes(50 * 8);
          t[1] = wire::OutgoingTensor::raw("adamw.exp_avg", wire::DType::I64, {50},
                                           wire::Payload::own(std::move(bytes)));
          break;
        }
        case 8:
          h.mutable_shard_reply()->set_moment_step(-5);
          break;
        default:
          break;
      }
    };
    if (lie == 5) state.buffers[0].second[17] = std::numeric_limits<float>::quiet_NaN();
    if (lie == 6) state.buffers[1].second[3] = -1e-12f;
    if (lie == 7) state.buffers[1].second[3] = std::numeric_limits<float>::infinity();
    auto decoded = wire::decode(reply_frames(state, 0, 50, tamper));
    QVERIFY2(decoded.ok(), decoded.ok() ? "" : decoded.error().what.c_str());
    std::string error;
    const auto got = pipeline::verify_shard_state(kAdam, decoded.message(), 50, error);
    QVERIFY(!got.has_value());
    qInfo("refused: %s", error.c_str());
    QVERIFY2(QString::fromStdString(error).contains(reason), error.c_str());
  }

  void aReplyIsCheckedAsAWhole_data() {
    QTest::addColumn<int>("lie");
    QTest::addColumn<QString>("reason");
    QTest::newRow("honest") << 0 << "";
    QTest::newRow("other blocks") << 1 << "parameters of blocks [1, 2)";
    QTest::newRow("one value short") << 2 << "50 f32 parameters";
    QTest::newRow("not f32") << 3 << "50 f32 parameters";
    QTest::newRow("NaN parameter") << 4 << "not all finite";
    QTest::newRow("an error instead") << 5 << "no such blocks here";
    QTest::newRow("a broken state only") << 6 << "";
  }
  void aReplyIsCheckedAsAWhole() {
    QFETCH(int, lie);
    QFETCH(QString, reason);
    auto tamper = [&](pb::Envelope& h, std::vector<wire::OutgoingTensor>& t) {
      switch (lie) {
        case 1:
          h.mutable_shard_reply()->set_last_block(3);
          break;
        case 2:
          t[0] = wire::OutgoingTensor::encode("parameters", {49}, std::vector<float>(49, 0.5f));
          break;
        case 3:
          t[0] = wire::OutgoingTensor::raw("parameters", wire::DType::I64, {50},
                                           wire::Payload::own(std::vector<std::byte>(50 * 8)));
          break;
        case 4: {
          std::vector<float> p(50, 0.5f);
          p[9] = std::numeric_limits<float>::infinity();
          t[0] = wire::OutgoingTensor::encode("parameters", {50}, p);
          break;
        }
        case 5:
          h.clear_shard_reply();
          h.mutable_error()->set_message("no such blocks here");
          break;
        case 6:
          t.pop_back();
          break;
        default:
          break;
      }
    };
    auto decoded = wire::decode(reply_frames(holder_state(50), 0, 50, tamper));
    QVERIFY(decoded.ok());
    std::string error;
    const auto got = pipeline::verify_shard_reply(decoded.message(), 1, 2, 50, kAdam, error);
    if (reason.isEmpty()) {
      QVERIFY2(got, error.c_str());
      QCOMPARE(got->values.size(), std::size_t(50));
      QCOMPARE(got->optimizer_steps, std::int64_t(41));
      QCOMPARE(got->state.has_value(), lie == 0);
      if (lie == 6) QVERIFY(got->state_error.find("adamw.exp_avg_sq") != std::string::npos);
    } else {
      QVERIFY(!got);
      QVERIFY2(QString::fromStdString(error).contains(reason), error.c_str());
    }
  }

  void aCorruptedStateFrameFailsItsChecksum() {
    auto frames = reply_frames(holder_state(50), 0, 50);
    QCOMPARE(int(frames.size()), 4);  // header, parameters, exp_avg, exp_avg_sq
    static_cast<std::byte*>(frames[3].data())[17] ^= std::byte{0x40};
    auto decoded = wire::decode(std::move(frames));
    QVERIFY(!decoded.ok());
    QVERIFY(decoded.error().kind == wire::DecodeError::Kind::BadChecksum);
  }
};

QTEST_GUILESS_MAIN(TestShardHandover)
#include "test_shard_handover.moc"
