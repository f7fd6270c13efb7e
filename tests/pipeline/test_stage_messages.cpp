// stage_messages without sockets: records and tensors survive encoding and decoding, and a
// message a stage cannot take is refused with a MessageError that says why.
#include <torch/torch.h>

#include <QTest>

#include <cmath>
#include <cstring>
#include <variant>

#include "net/identity.hpp"
#include "pipeline/stage_messages.hpp"

using namespace rookery;
using pipeline::MessageError;
using pipeline::MessageRules;

namespace {
const std::string kJob = "job-1";

wire::Message decoded(std::vector<zmq::message_t> frames) {
  auto r = wire::decode(std::move(frames));
  if (!r) throw std::runtime_error(r.error().what);
  return std::move(r.message());
}

MessageRules middle_stage() { return {kJob, 0, false, false, false, {}, {}}; }

// Why a stage under `rules` refuses a message from `from` ("taken" when it does not).
std::string refusal(std::vector<zmq::message_t> frames, const std::string& from,
                    const MessageRules& rules) {
  try {
    pipeline::decode_pipeline_message(decoded(std::move(frames)), from, rules, torch::kCPU);
    return "taken";
  } catch (const MessageError& e) {
    return e.what();
  }
}

net::PeerAddress sender_address() {
  static const auto key = net::CurveKeyPair::generate().public_key;
  return {"tcp://127.0.0.1:5555", key};
}

pipeline::ForwardRecord record(std::int64_t samples) {
  return {0, 0x42, 100, samples, sender_address()};
}

torch::Tensor activations(std::int64_t samples) { return torch::randn({samples, 3}); }
torch::Tensor targets(std::int64_t samples) { return torch::arange(samples, torch::kInt64); }

// The malformed messages of malformedMessagesAreRefused, by row.
enum class Malformed {
  OtherJob,
  OtherPipeline,
  ActivationsToFirstStage,
  NoTargets,
  WrongSampleCount,
  BadReturnAddress,
  FloatTargets,
  GradientToLastStage,
  NoGradient,
  NotAPipelineMessage,
};

wire::Message malformed(Malformed kind, MessageRules& rules) {
  switch (kind) {
    case Malformed::OtherJob:
      return decoded(pipeline::encode_forward("job-2", record(2), activations(2), targets(2),
                                              wire::Codec::None));
    case Malformed::OtherPipeline: {
      auto r = record(2);
      r.pipeline = 3;
      return decoded(
          pipeline::encode_forward(kJob, r, activations(2), targets(2), wire::Codec::None));
    }
    case Malformed::ActivationsToFirstStage:
      rules.first = true;
      return decoded(
          pipeline::encode_forward(kJob, record(2), activations(2), targets(2), wire::Codec::None));
    case Malformed::NoTargets: {
      wire::pb::Envelope h;
      h.set_job_id(kJob);
      h.mutable_forward()->set_samples(2);
      return decoded(
          pipeline::encode_with_tensors(std::move(h), {{"activations", activations(2)}}));
    }
    case Malformed::WrongSampleCount:
      return decoded(
          pipeline::encode_forward(kJob, record(3), activations(2), targets(2), wire::Codec::None));
    case Malformed::BadReturnAddress: {
      auto r = record(2);
      r.return_to.endpoint = "ipc:///tmp/stage";
      return decoded(
          pipeline::encode_forward(kJob, r, activations(2), targets(2), wire::Codec::None));
    }
    case Malformed::FloatTargets:
      return decoded(pipeline::encode_forward(kJob, record(2), activations(2), activations(2),
                                              wire::Codec::None));
    case Malformed::GradientToLastStage:
      rules.last = true;
      return decoded(
          pipeline::encode_backward(kJob, {0, 0x42, 2, 1.5}, activations(2), wire::Codec::None));
    case Malformed::NoGradient: {
      wire::pb::Envelope h;
      h.set_job_id(kJob);
      h.mutable_backward()->set_micro_batch(0x42);
      return decoded(wire::encode(std::move(h)));
    }
    case Malformed::NotAPipelineMessage: {
      wire::pb::Envelope h;
      h.set_job_id(kJob);
      return decoded(wire::encode(std::move(h)));
    }
  }
  throw std::logic_error("unknown case");
}
}  // namespace

class TestStageMessages : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void forwardRoundTrip_data() {
    QTest::addColumn<int>("codec");
    QTest::newRow("none") << int(wire::Codec::None);
    QTest::newRow("bf16") << int(wire::Codec::Bf16);
  }
  void forwardRoundTrip() {
    QFETCH(int, codec);
    torch::manual_seed(3);
    const auto act = activations(2), tgt = targets(2);
    auto r = record(2);
    r.averaging_round = 7123456;  // the common point the forward ran on
    const auto msg =
        decoded(pipeline::encode_forward(kJob, r, act, tgt, static_cast<wire::Codec>(codec)));
    QVERIFY(!pipeline::is_spot_check_message(msg));
    const auto in = pipeline::decode_pipeline_message(msg, "peer", middle_stage(), torch::kCPU);
    QVERIFY(!in.backward);
    QCOMPARE(in.micro_batch, std::uint64_t{0x42});
    QCOMPARE(in.first_sample, std::int64_t{100});
    QCOMPARE(in.samples, std::int64_t{2});
    QCOMPARE(in.sender, std::string("peer"));
    QCOMPARE(in.return_to.endpoint, sender_address().endpoint);
    QCOMPARE(in.return_to.key, sender_address().key);
    QCOMPARE(in.averaging_round, std::uint64_t{7123456});
    QVERIFY(torch::equal(in.targets, tgt));
    QVERIFY(torch::allclose(in.tensor, act, 1e-2, 1e-2));
  }

  // A forward is signed by its sender for its receiver, which refuses one that is not, and
  // keeps the signed tensors to show when its own activations are checked: the signature binds
  // the job, pipeline, micro-batch, receiver and every byte, and fails if any differs.
  void forwardsAreSignedForTheirReceiver() {
    const auto sender = net::CurveKeyPair::generate();
    const auto receiver = net::CurveKeyPair::generate();
    auto rules = middle_stage();
    rules.own_key = receiver.public_key;
    const auto act = activations(2);
    const auto encode = [&](const std::string& to, const net::CurveKeyPair* signer) {
      return pipeline::encode_forward(kJob, record(2), act, targets(2), wire::Codec::Int8Block, {},
                                      signer, to);
    };
    const auto in = pipeline::decode_pipeline_message(decoded(encode(receiver.public_key, &sender)),
                                                      sender.public_key, rules, torch::kCPU);
    QVERIFY(in.signed_by_sender);
    QCOMPARE(in.signed_by_sender->from, sender.public_key);
    QCOMPARE(in.signed_by_sender->tensors.size(), std::size_t(2));  // activations and targets
    QCOMPARE(in.signed_by_sender->signature.size(), pipeline::kWorkSignatureBytes);

    // What a checker does with the tensors the receiver shows: the signature holds over them
    // exactly, for this receiver only, and they decode to what the receiver computed from.
    wire::pb::Envelope shown;
    shown.set_job_id(kJob);
    const auto again = decoded(wire::encode(shown, in.signed_by_sender->tensors));
    const pipeline::WorkParty party{kJob, 0, 0x42, receiver.public_key};
    QVERIFY(pipeline::work_signed_by(sender.public_key, in.signed_by_sender->signature, party,
                                     again.tensors));
    QVERIFY(torch::equal(pipeline::decode_shown(again, wire::pb::CHECKED_ACTIVATIONS, 2, {}),
                         in.tensor));
    auto other = party;
    other.to = sender.public_key;
    QVERIFY(!pipeline::work_signed_by(sender.public_key, in.signed_by_sender->signature, other,
                                      again.tensors));
    other = party;
    other.micro_batch = 0x43;
    QVERIFY(!pipeline::work_signed_by(sender.public_key, in.signed_by_sender->signature, other,
                                      again.tensors));
    QVERIFY(!pipeline::work_signed_by(receiver.public_key, in.signed_by_sender->signature, party,
                                      again.tensors));
    auto altered = in.signed_by_sender->tensors;
    std::vector<std::byte> bytes(altered[0].bytes.size);
    std::memcpy(bytes.data(), altered[0].bytes.data, bytes.size());
    bytes.back() ^= std::byte{1};
    altered[0].bytes = wire::Payload::own(std::move(bytes));
    const auto tampered = decoded(wire::encode(shown, altered));
    QVERIFY(!pipeline::work_signed_by(sender.public_key, in.signed_by_sender->signature, party,
                                      tampered.tensors));

    const auto refused = [&](std::vector<zmq::message_t> frames, const std::string& from) {
      return refusal(std::move(frames), from, rules);
    };
    const std::string reason = "forward without its sender's valid signature";
    QCOMPARE(refused(encode(receiver.public_key, nullptr), sender.public_key), reason);
    QCOMPARE(refused(encode(sender.public_key, &sender), sender.public_key), reason);  // not ours
    QCOMPARE(refused(encode(receiver.public_key, &sender), receiver.public_key), reason);

    auto last = rules;
    last.last = true;  // its activations go nowhere, so nobody checks them: nothing kept
    QVERIFY(!pipeline::decode_pipeline_message(decoded(encode(receiver.public_key, &sender)),
                                               sender.public_key, last, torch::kCPU)
                 .signed_by_sender);
  }

  // A gradient likewise, signed as a gradient: a forward's signature over the same bytes is not
  // one (nor the other way round), so a stage cannot show a forward it got for a gradient.
  void gradientsAreSignedForTheirReceiver() {
    const auto sender = net::CurveKeyPair::generate();
    const auto receiver = net::CurveKeyPair::generate();
    auto rules = middle_stage();
    rules.own_key = receiver.public_key;
    const auto grad = activations(2);
    const auto encode = [&](const std::string& to, const net::CurveKeyPair* signer) {
      return pipeline::encode_backward(kJob, {0, 0x42, 2, 1.5}, grad, wire::Codec::Int8Block, {},
                                       signer, to);
    };
    const auto in = pipeline::decode_pipeline_message(decoded(encode(receiver.public_key, &sender)),
                                                      sender.public_key, rules, torch::kCPU);
    QVERIFY(in.backward);
    QVERIFY(in.signed_by_sender);
    QCOMPARE(in.signed_by_sender->from, sender.public_key);
    QCOMPARE(in.signed_by_sender->tensors.size(), std::size_t(1));

    wire::pb::Envelope shown;
    shown.set_job_id(kJob);
    const auto again = decoded(wire::encode(shown, in.signed_by_sender->tensors));
    pipeline::WorkParty party{kJob, 0, 0x42, receiver.public_key, true};
    QVERIFY(pipeline::work_signed_by(sender.public_key, in.signed_by_sender->signature, party,
                                     again.tensors));
    QVERIFY(
        torch::equal(pipeline::decode_shown(again, wire::pb::CHECKED_GRADIENTS, 2, {}), in.tensor));
    party.gradient = false;  // the same bytes as a forward
    QVERIFY(!pipeline::work_signed_by(sender.public_key, in.signed_by_sender->signature, party,
                                      again.tensors));

    const auto refused = [&](std::vector<zmq::message_t> frames, const std::string& from) {
      return refusal(std::move(frames), from, rules);
    };
    const std::string reason = "gradient without its sender's valid signature";
    QCOMPARE(refused(encode(receiver.public_key, nullptr), sender.public_key), reason);
    QCOMPARE(refused(encode(sender.public_key, &sender), sender.public_key), reason);
    QCOMPARE(refused(encode(receiver.public_key, &sender), receiver.public_key), reason);
    // A forward's signature on a gradient's bytes.
    auto frames = encode(receiver.public_key, nullptr);
    auto msg = decoded(std::move(frames));
    std::vector<wire::OutgoingTensor> t = pipeline::copy_tensors(msg.tensors);
    msg.header.mutable_backward()->set_signature(
        pipeline::sign_work(sender, {kJob, 0, 0x42, receiver.public_key}, t));
    QCOMPARE(refused(wire::encode(msg.header, std::move(t)), sender.public_key), reason);

    auto first = rules;
    first.first = true;  // it sends no gradient, so nobody checks one: nothing kept
    QVERIFY(!pipeline::decode_pipeline_message(decoded(encode(receiver.public_key, &sender)),
                                               sender.public_key, first, torch::kCPU)
                 .signed_by_sender);
  }

  void backwardRoundTrip() {
    const auto grad = activations(2);
    const auto msg = decoded(
        pipeline::encode_backward(kJob, {1, 0x42, 2, 1.5, 0, 7123456}, grad, wire::Codec::None));
    auto rules = middle_stage();
    rules.cross_pipeline = true;  // pipeline 1's gradient, welcome here
    const auto in = pipeline::decode_pipeline_message(msg, "peer", rules, torch::kCPU);
    QVERIFY(in.backward);
    QCOMPARE(in.micro_batch, std::uint64_t{0x42});
    QCOMPARE(in.samples, std::int64_t{2});
    QCOMPARE(in.loss, 1.5);
    QCOMPARE(in.averaging_round, std::uint64_t{7123456});
    QVERIFY(torch::equal(in.tensor, grad));
  }

  // Global-norm clipping's two numbers: the later stages' squared norm going up with a
  // gradient, the whole model's going down on its own; a stage refuses ones it cannot use.
  void gradientNormsRoundTripAndMalformedOnesAreRefused() {
    const auto grad = activations(2);
    auto in = pipeline::decode_pipeline_message(
        decoded(pipeline::encode_backward(kJob, {0, 0x42, 2, 1.5, 2.5}, grad, wire::Codec::None)),
        "peer", middle_stage(), torch::kCPU);
    QCOMPARE(in.downstream_grad_sq_norm, 2.5);
    wire::pb::Envelope h;
    h.set_job_id(kJob);
    h.mutable_backward()->set_micro_batch(0x42);
    h.mutable_backward()->set_samples(2);
    h.mutable_backward()->set_downstream_grad_sq_norm(std::nan(""));
    std::vector<wire::OutgoingTensor> tensors;
    tensors.push_back(wire::OutgoingTensor::encode("grad", {2, 3}, std::vector<float>(6, 1.f)));
    QVERIFY_THROWS_EXCEPTION(MessageError, pipeline::decode_pipeline_message(
                                               decoded(wire::encode(h, std::move(tensors))), "peer",
                                               middle_stage(), torch::kCPU));

    const auto total = pipeline::decode_grad_norm_total(
        decoded(pipeline::encode_grad_norm_total(kJob, {0, 0x42, 7.25})), middle_stage());
    QCOMPARE(total.micro_batch, std::uint64_t{0x42});
    QCOMPARE(total.total_sq_norm, 7.25);
    auto refused = [](const pipeline::GradNormTotal& t, const MessageRules& rules) {
      try {
        pipeline::decode_grad_norm_total(decoded(pipeline::encode_grad_norm_total(kJob, t)), rules);
        return std::string("taken");
      } catch (const MessageError& e) {
        return std::string(e.what());
      }
    };
    auto first = middle_stage();
    first.first = true;
    QCOMPARE(refused({0, 1, 1.0}, first), std::string("the first stage takes no gradient norms"));
    QCOMPARE(refused({3, 1, 1.0}, middle_stage()), std::string("gradient norm for pipeline 3"));
    QCOMPARE(refused({0, 1, -1.0}, middle_stage()),
             std::string("gradient norm that is not a finite number >= 0"));
    QCOMPARE(refused({0, 1, INFINITY}, middle_stage()),
             std::string("gradient norm that is not a finite number >= 0"));
  }

  // A stage that will not use a micro-batch's activations says so instead of a gradient: the
  // sender reads it as a discard of that micro-batch; malformed ones are refused.
  void aDroppedMicroBatchDecodesAsADiscard() {
    const auto in = pipeline::decode_pipeline_message(
        decoded(pipeline::encode_dropped(kJob, 0, 0x42)), "peer", middle_stage(), torch::kCPU);
    QVERIFY(in.backward);
    QVERIFY(in.discard);
    QCOMPARE(in.micro_batch, std::uint64_t{0x42});
    QCOMPARE(in.sender, std::string("peer"));
    QVERIFY(!in.tensor.defined());
    auto refused = [](std::vector<zmq::message_t> frames, const MessageRules& rules) {
      return refusal(std::move(frames), "peer", rules);
    };
    auto last = middle_stage();
    last.last = true;
    QCOMPARE(refused(pipeline::encode_dropped(kJob, 0, 1), last),
             std::string("the last stage sends no activations to be dropped"));
    QCOMPARE(refused(pipeline::encode_dropped(kJob, 3, 1), middle_stage()),
             std::string("dropped micro-batch for pipeline 3"));
    QCOMPARE(refused(pipeline::encode_dropped("job-2", 0, 1), middle_stage()),
             std::string("message for job 'job-2'"));
    wire::pb::Envelope h;
    h.set_job_id(kJob);
    h.mutable_dropped()->set_micro_batch(1);
    std::vector<wire::OutgoingTensor> tensors;
    tensors.push_back(wire::OutgoingTensor::encode("grad", {2, 3}, std::vector<float>(6, 1.f)));
    QCOMPARE(refused(wire::encode(h, std::move(tensors)), middle_stage()),
             std::string("dropped micro-batch with tensors"));
  }

  void malformedMessagesAreRefused_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("reason");
    QTest::newRow("other job") << int(Malformed::OtherJob) << "message for job 'job-2'";
    QTest::newRow("other pipeline") << int(Malformed::OtherPipeline) << "forward for pipeline 3";
    QTest::newRow("activations to a first stage")
        << int(Malformed::ActivationsToFirstStage) << "the first stage takes no activations";
    QTest::newRow("no targets") << int(Malformed::NoTargets)
                                << "forward without activations or targets";
    QTest::newRow("wrong sample count")
        << int(Malformed::WrongSampleCount) << "forward's tensors do not hold 3 samples";
    QTest::newRow("bad return address")
        << int(Malformed::BadReturnAddress) << "forward without a valid return address";
    QTest::newRow("float targets")
        << int(Malformed::FloatTargets) << "activations must be f32 and targets int64";
    QTest::newRow("gradient to a last stage")
        << int(Malformed::GradientToLastStage) << "the last stage takes no gradients";
    QTest::newRow("no gradient") << int(Malformed::NoGradient) << "backward without a gradient";
    QTest::newRow("not a pipeline message")
        << int(Malformed::NotAPipelineMessage) << "not a pipeline message";
  }
  void malformedMessagesAreRefused() {
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

  void recomputeRequestNamesItsSender() {
    const auto me = sender_address();
    const model::BlockRange blocks{2, 4};
    constexpr std::int64_t kModelBlocks = 6;
    auto request = [&](model::BlockRange asked,
                       pipeline::CheckedWork work = wire::pb::CHECKED_ACTIVATIONS,
                       bool forward_only = false, bool grad = false) {
      auto h = pipeline::recompute_request(7, work, asked, me, "the checked stage", forward_only);
      h.set_job_id(kJob);
      pipeline::NamedTensors t{{"input", activations(2)}};
      if (grad) t.emplace_back("grad_output", activations(2));
      return decoded(pipeline::encode_with_tensors(std::move(h), std::move(t)));
    };
    // From another sender than the one it names: refused outright.
    QVERIFY_THROWS_EXCEPTION(
        MessageError, pipeline::decode_recompute_request(request(blocks), "someone else", blocks,
                                                         kModelBlocks, torch::kCPU));
    // For other blocks, or reaching past its own: a reason to send back.
    for (const model::BlockRange asked :
         {model::BlockRange{0, 2}, model::BlockRange{3, 5}, model::BlockRange{3, 3}}) {
      const auto other = pipeline::decode_recompute_request(request(asked), me.key, blocks,
                                                            kModelBlocks, torch::kCPU);
      QCOMPARE(std::get<std::string>(other), std::string("this stage holds other blocks"));
    }
    // A job for the compute thread: all its blocks, or a part of them (a chain's link).
    const auto job = pipeline::decode_recompute_request(request(blocks), me.key, blocks,
                                                        kModelBlocks, torch::kCPU);
    const auto& r = std::get<pipeline::Recompute>(job);
    QCOMPARE(r.micro_batch, std::uint64_t{7});
    QCOMPARE(r.return_to.key, me.key);
    QCOMPARE(r.checked, std::string("the checked stage"));  // so it can say if it averaged with it
    QCOMPARE(r.input.size(0), std::int64_t{2});
    QVERIFY(r.blocks == blocks);
    const auto part = pipeline::decode_recompute_request(request({3, 4}), me.key, blocks,
                                                         kModelBlocks, torch::kCPU);
    QVERIFY((std::get<pipeline::Recompute>(part).blocks == model::BlockRange{3, 4}));
    // A gradient link on the way there needs no output gradient; one run backward does.
    const auto there =
        pipeline::decode_recompute_request(request({2, 3}, wire::pb::CHECKED_GRADIENTS, true),
                                           me.key, blocks, kModelBlocks, torch::kCPU);
    QVERIFY(std::get<pipeline::Recompute>(there).forward_only);
    const auto no_grad = pipeline::decode_recompute_request(
        request({2, 3}, wire::pb::CHECKED_GRADIENTS), me.key, blocks, kModelBlocks, torch::kCPU);
    QCOMPARE(std::get<std::string>(no_grad), std::string("no input or output gradient"));
    const auto back = pipeline::decode_recompute_request(
        request({2, 3}, wire::pb::CHECKED_GRADIENTS, false, true), me.key, blocks, kModelBlocks,
        torch::kCPU);
    QVERIFY(std::get<pipeline::Recompute>(back).grad_output.defined());
  }
};

QTEST_GUILESS_MAIN(TestStageMessages)
#include "test_stage_messages.moc"
