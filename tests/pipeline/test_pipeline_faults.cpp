// Faults: a stage killed with SIGKILL and restarted resumes from its checkpoint and the
// pipeline trains on; a corrupted checkpoint is refused; malformed messages to a stage are
// rejected and the stage keeps training; a paused stage first finishes the micro-batches it
// started, so its neighbours lose none.
#include "reference_training.hpp"

#include <QTest>

#include <signal.h>

#include "net/rpc.hpp"
#include "pipeline/signed_work.hpp"
#include "support/pipeline_harness.hpp"

using namespace rookery;
namespace pb = rookery::wire::pb;

class TestPipelineFaults : public QObject {
  Q_OBJECT

  static bool wait_for(const std::function<bool()>& cond, int timeout_ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeout_ms) {
      if (cond()) return true;
      QTest::qWait(100);
    }
    return cond();
  }

 private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  void killedStageResumesFromItsCheckpoint() {
    testing::PipelineHarness h;
    QVERIFY(h.prepare(testing::gpt_job_json("faults", 2, "none"), {{0, 2}, {2, 4}}));
    const QStringList opts{"--checkpoint-interval", "1", "--micro-batch-timeout-ms", "1500"};
    QVERIFY(h.start_all({}, opts));
    const auto ckpt = h.checkpoint(1, "faults");
    QVERIFY(wait_for(
        [&] {
          return h.snapshot(1).stage().micro_batches() >= 30 && std::filesystem::exists(ckpt);
        },
        60000));
    QVERIFY(wait_for([&] { return h.snapshot(1).stage().checkpoints() >= 2; }, 10000));

    ::kill(static_cast<pid_t>(h.nodes[1]->processId()), SIGKILL);
    QVERIFY(h.nodes[1]->waitForFinished(5000));
    pipeline::CheckpointCounters saved;
    pipeline::read_checkpoint_parameters(ckpt, &saved);
    QVERIFY(saved.micro_batches > 0);

    // While stage 1 is down, the micro-batches stage 0 had in flight cannot come back: they
    // are dropped and counted after the timeout, not waited for forever.
    QVERIFY(wait_for([&] { return h.snapshot(0).stage().dropped() >= 1; }, 15000));
    const auto first_before = h.snapshot(0).stage().micro_batches();
    QVERIFY(first_before > 0);
    QVERIFY(h.start(1, opts));
    // It resumes from the checkpoint (not from scratch) ...
    pb::NodeSnapshot s;
    QVERIFY(wait_for(
        [&] {
          s = h.snapshot(1);
          return s.has_stage();
        },
        20000));
    QVERIFY2(s.stage().micro_batches() >= saved.micro_batches,
             qPrintable(QString("restarted at %1 micro-batches, checkpoint had %2")
                            .arg(s.stage().micro_batches())
                            .arg(saved.micro_batches)));
    QVERIFY(s.stage().optimizer_steps() >= saved.micro_batches);
    // ... and the pipeline trains on.
    QVERIFY(wait_for([&] { return h.snapshot(0).stage().micro_batches() >= first_before + 20; },
                     60000));
    QVERIFY(h.quit_all());
  }

  void corruptCheckpointIsRefused() {
    testing::PipelineHarness h;
    QVERIFY(h.prepare(testing::gpt_job_json("corrupt", 1, "none"), {{0, 4}}));
    QVERIFY(h.start(0, {"--max-micro-batches", "5"}));
    QVERIFY(h.wait_finished(60000));
    QVERIFY(h.quit_all());
    const auto ckpt = h.checkpoint(0, "corrupt");
    QVERIFY(std::filesystem::exists(ckpt));
    {
      std::fstream f(ckpt, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(200);
      f.put('\x7f');
    }
    h.nodes[0] = std::make_unique<QProcess>();
    h.nodes[0]->setProcessChannelMode(QProcess::MergedChannels);
    h.nodes[0]->start(testing::node_bin(),
                      {"--data-dir", h.stage_dir(0), "--runtime-dir", h.runtime_dir(0), "--plan",
                       h.plan_path, "--stage", "0", "--contribute", "--benchmark-seconds", "0.05"});
    QVERIFY(h.nodes[0]->waitForFinished(30000));
    const QString out = QString::fromUtf8(h.nodes[0]->readAll());
    QCOMPARE(h.nodes[0]->exitCode(), 4);
    QVERIFY2(out.contains("is corrupt: checksum mismatch"), qPrintable(out));
    QVERIFY(std::filesystem::exists(ckpt));  // left in place for the user to inspect
  }

  // Pausing the first stage (the user's Pause, or the governor) drains: no new micro-batch
  // starts, the ones in flight come back, then it stops. Without the preference it stops at
  // once, which shows the test has teeth: with micro-batches in flight, unless the pause fell
  // just after the stage took two gradients in a row, so it is tried up to five times.
  void pausedStageFinishesItsMicroBatchesFirst() {
    for (const bool finish : {true, false}) {
      testing::PipelineHarness h;
      QVERIFY(h.prepare(testing::gpt_job_json("drain", 2, "none"), {{0, 2}, {2, 4}}));
      const QString pref =
          QString("finish_micro_batches_before_pause=%1").arg(finish ? "true" : "false");
      QVERIFY(h.start_all({"--preference", pref}));
      QVERIFY(wait_for([&] { return h.snapshot(1).stage().micro_batches() >= 10; }, 60000));
      auto c0 = h.client(0);
      bool stopped_mid_flight = false;
      for (int attempt = 1; attempt <= (finish ? 1 : 5) && !stopped_mid_flight; ++attempt) {
        QVERIFY(c0.request(pb::ControlRequest::PAUSE).ok);
        // Paused once its work units stop advancing (unchanged for 0.5 s).
        std::uint64_t units = 0;
        int still = 0;
        QVERIFY(wait_for(
            [&] {
              const auto u = h.snapshot(0).work().work_units();
              still = u == units ? still + 1 : 0;
              units = u;
              return still >= 5;
            },
            15000));
        const auto s0 = h.snapshot(0);
        qInfo("finish before pause %s: stage 0 paused with %lld micro-batch(es) in flight",
              finish ? "on" : "off", static_cast<long long>(s0.stage().in_flight()));
        stopped_mid_flight = s0.stage().in_flight() > 0;
        if (finish) {
          QCOMPARE(s0.stage().in_flight(), std::int64_t{0});
          QCOMPARE(s0.stage().dropped(), std::int64_t{0});
          QCOMPARE(h.snapshot(1).stage().dropped(), std::int64_t{0});
        }
        // Contribute again: training goes on.
        const auto before = h.snapshot(1).stage().micro_batches();
        QVERIFY(c0.request(pb::ControlRequest::CONTRIBUTE).ok);
        QVERIFY(
            wait_for([&] { return h.snapshot(1).stage().micro_batches() >= before + 10; }, 60000));
      }
      if (!finish)
        QVERIFY2(stopped_mid_flight,
                 "without the preference, five pauses all found nothing in flight");
    }
  }

  void malformedMessagesAreRejectedAndTheStageTrainsOn() {
    testing::PipelineHarness h;
    QVERIFY(h.prepare(testing::gpt_job_json("malformed", 2, "none"), {{0, 2}, {2, 4}}));
    QVERIFY(h.start_all({}));
    QVERIFY(wait_for([&] { return h.snapshot(1).stage().micro_batches() >= 5; }, 60000));
    // Speak to stage 1 as stage 0 would (same key), but send nonsense.
    net::SecureContext ctx;
    const auto stage0 = net::CurveKeyPair::load_or_create(
        std::filesystem::path(h.stage_dir(0).toStdString()) / "keys", "node");
    const std::string stage1_key = h.snapshot(1).node_key();
    const std::string endpoint = "tcp://127.0.0.1:" + std::to_string(h.ports[1]);
    auto sock =
        net::connect_curve_client(ctx, zmq::socket_type::dealer, endpoint, stage0, stage1_key);
    auto send = [&](std::vector<zmq::message_t> frames) {
      for (std::size_t i = 0; i < frames.size(); ++i) {
        sock.send(frames[i],
                  i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
      }
    };
    const auto before = h.snapshot(1).stage().rejected();
    // 1. Not an envelope at all: refused by the decoder (it never reaches the stage's counters).
    std::vector<zmq::message_t> garbage;
    garbage.emplace_back("\x01\x02garbage", 9);
    send(std::move(garbage));
    // Stage 0's signature, as every forward carries one (pipeline/signed_work.hpp): the
    // malformed ones below are signed, so that their shapes, not their signatures, are what
    // the stage refuses.
    const auto sign = [&](pb::Envelope& e, const std::vector<wire::OutgoingTensor>& tensors) {
      e.mutable_forward()->set_signature(pipeline::sign_work(
          stage0, {"malformed", 0, e.forward().micro_batch(), stage1_key}, tensors));
    };
    // 2. A forward whose activations have the wrong width.
    pb::Envelope h2;
    h2.set_job_id("malformed");
    auto* f = h2.mutable_forward();
    f->set_micro_batch(1);
    f->set_samples(2);
    f->mutable_return_to()->set_endpoint("tcp://127.0.0.1:" + std::to_string(h.ports[0]));
    f->mutable_return_to()->set_key(stage0.public_key);
    std::vector<float> wrong(2 * 32 * 5, 1.f);
    std::vector<std::int64_t> targets(2 * 32, 3);
    std::vector<wire::OutgoingTensor> t;
    t.push_back(wire::OutgoingTensor::encode("activations", {2, 32, 5}, wrong));
    t.push_back(
        wire::OutgoingTensor::raw("targets", wire::DType::I64, {2, 32},
                                  wire::Payload::copy_of(std::as_bytes(std::span(targets)))));
    // 2a. ... unsigned first: refused for that alone.
    send(wire::encode(h2, t));
    sign(h2, t);
    send(wire::encode(h2, std::move(t)));
    // 2b. ... and one with the wrong number of dimensions, which the blocks' own input checks
    // refuse (std::invalid_argument, not a LibTorch error: it once stopped the node's work).
    pb::Envelope h5 = h2;
    h5.mutable_forward()->set_micro_batch(2);
    std::vector<wire::OutgoingTensor> t5;
    t5.push_back(wire::OutgoingTensor::encode("activations", {2, 32 * 5}, wrong));
    t5.push_back(
        wire::OutgoingTensor::raw("targets", wire::DType::I64, {2, 32},
                                  wire::Payload::copy_of(std::as_bytes(std::span(targets)))));
    sign(h5, t5);
    send(wire::encode(h5, std::move(t5)));
    // 3. A gradient for a micro-batch that was never in flight, and one for another job.
    pb::Envelope h3;
    h3.set_job_id("malformed");
    h3.mutable_backward()->set_micro_batch(12345);
    // (stage 1 is the last stage: it takes no gradients at all)
    std::vector<float> g(10, 0.f);
    std::vector<wire::OutgoingTensor> t3;
    t3.push_back(wire::OutgoingTensor::encode("grad", {10}, g));
    send(wire::encode(h3, std::move(t3)));
    pb::Envelope h4 = h2;
    h4.set_job_id("some-other-job");
    std::vector<wire::OutgoingTensor> t4;
    t4.push_back(wire::OutgoingTensor::encode("activations", {2, 32, 5}, wrong));
    send(wire::encode(h4, std::move(t4)));

    QVERIFY(wait_for([&] { return h.snapshot(1).stage().rejected() >= before + 5; }, 10000));
    const auto mbs = h.snapshot(1).stage().micro_batches();
    QVERIFY(wait_for([&] { return h.snapshot(1).stage().micro_batches() >= mbs + 10; }, 30000));
    QCOMPARE(h.nodes[1]->state(), QProcess::Running);
    QVERIFY(h.quit_all());
  }
};

QTEST_GUILESS_MAIN(TestPipelineFaults)
#include "test_pipeline_faults.moc"
