// Units of the stage runtime: codecs on LibTorch equal the wire's reference bytes;
// checkpoints round-trip and refuse anything damaged or foreign; plans are validated.
#include <torch/torch.h>

#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <limits>

#include "model/block_chain.hpp"
#include "model/cost.hpp"
#include "model/optimizer.hpp"
#include "net/identity.hpp"
#include "pipeline/checkpoint.hpp"
#include "pipeline/stage_plan.hpp"
#include "pipeline/stage_runtime.hpp"
#include "pipeline/tensor_codec.hpp"
#include "reference_training.hpp"

using namespace rookery;

class TestStageUnits : public QObject {
  Q_OBJECT

  static job::JobSpec small_job() {
    return job::parse_job_spec(testing::gpt_job_json("units", 2, "none").toStdString());
  }

  static std::vector<std::int64_t> reduce_counts(const job::JobSpec& job) {
    std::vector<std::int64_t> out;
    for (const auto& c : model::block_costs(job.model)) out.push_back(c.params);
    return out;
  }

 private Q_SLOTS:
  void torchCodecsMatchWireBytes_data() {
    QTest::addColumn<int>("codec");
    QTest::newRow("none") << int(wire::Codec::None);
    QTest::newRow("fp16") << int(wire::Codec::Fp16);
    QTest::newRow("bf16") << int(wire::Codec::Bf16);
    QTest::newRow("int8") << int(wire::Codec::Int8Block);
  }
  void torchCodecsMatchWireBytes() {
    QFETCH(int, codec);
    const auto c = static_cast<wire::Codec>(codec);
    torch::manual_seed(1);
    auto t = torch::randn({3, 7, 29}) * 4;  // 609 values: the last int8 block is partial
    t[0][0][0] = 0.f;
    auto out = pipeline::encode_tensor("x", t, c);
    std::vector<float> values(t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
    std::vector<std::byte> ref(wire::encoded_bytes(c, values.size()));
    wire::encode_f32(c, values, ref);
    QCOMPARE(out.bytes.size, ref.size());
    QVERIFY(std::memcmp(out.bytes.data, ref.data(), ref.size()) == 0);

    std::vector<zmq::message_t> frames = wire::encode(wire::pb::Envelope(), {out});
    auto decoded = wire::decode(std::move(frames));
    QVERIFY(decoded.ok());
    auto back = pipeline::decode_tensor(decoded.message().tensors[0], torch::kCPU);
    QCOMPARE(back.sizes().vec(), t.sizes().vec());
    std::vector<float> ref_values(values.size());
    wire::decode_f32(c, ref, ref_values);
    for (std::size_t i = 0; i < ref_values.size(); ++i)
      QCOMPARE(back.view({-1})[static_cast<long>(i)].item<float>(), ref_values[i]);
  }

  void int64TensorsTravelRawAndZeroCopy() {
    auto ids = torch::arange(0, 100, torch::kInt64).view({4, 25});
    auto out =
        pipeline::encode_tensor("targets", ids, wire::Codec::Int8Block);  // codec ignored for ids
    QCOMPARE(out.codec, wire::Codec::None);
    QCOMPARE(out.bytes.data, static_cast<const void*>(ids.data_ptr()));
    auto decoded = wire::decode(wire::encode(wire::pb::Envelope(), {out}));
    QVERIFY(torch::equal(pipeline::decode_tensor(decoded.message().tensors[0], torch::kCPU), ids));
  }

  // Issue 5: blocks handed over with their optimizer state take it (moments and their
  // bias-correction step); without it they start from fresh moments; malformed state is
  // refused whole and changes neither the parameters nor the moments.
  void loadBlocksTakesTheHandedOverOptimizerState() {
    const auto job = small_job();
    const auto blocks = model::BlockChain::from_job(job).block_count();
    net::SecureContext ctx(1);
    const auto id = net::CurveKeyPair::generate();
    pipeline::StageConfig config;
    config.job = job;
    config.blocks = {0, blocks};  // one stage: it feeds and steps by itself
    pipeline::StageRuntime holder(ctx, id, config);
    while (holder.optimizer_steps() < 3) holder.run_once(std::chrono::milliseconds(100));
    const auto given = holder.optimizer_state();
    QCOMPARE(given.moment_step, holder.optimizer_steps());
    QCOMPARE(int(given.buffers.size()), 2);
    const auto params = holder.parameters();

    // Block 1's values: [offset, offset + size) of the shard's flat layout.
    const auto counts = reduce_counts(job);
    const std::int64_t offset = counts[0], size = counts[1];
    auto slice = [&](const std::vector<float>& v) {
      return std::vector<float>(v.begin() + offset, v.begin() + offset + size);
    };
    pipeline::OptimizerState part;
    part.moment_step = given.moment_step;
    for (const auto& [name, v] : given.buffers) part.buffers.emplace_back(name, slice(v));
    const auto part_params = slice(params);

    pipeline::StageRuntime taker(ctx, id, config);
    const auto params_before = taker.parameters();
    const auto state_before = taker.optimizer_state();
    auto refused = [&](pipeline::OptimizerState bad, const char* why) {
      try {
        taker.load_blocks(1, 2, part_params, 3, &bad);
        QFAIL(qPrintable(QString("took optimizer state with ") + why));
      } catch (const std::invalid_argument& e) {
        qInfo("refused (%s): %s", why, e.what());
      }
      QCOMPARE(taker.parameters(), params_before);
      const auto now = taker.optimizer_state();
      for (std::size_t i = 0; i < now.buffers.size(); ++i)
        QCOMPARE(now.buffers[i].second, state_before.buffers[i].second);
      QCOMPARE(taker.optimizer_steps(), std::int64_t{0});
    };
    auto nan = part;
    nan.buffers[0].second[5] = std::numeric_limits<float>::infinity();
    refused(nan, "an infinite first moment");
    auto negative = part;
    negative.buffers[1].second[7] = -1e-12f;
    refused(negative, "a negative second moment");
    auto missing = part;
    missing.buffers.pop_back();
    refused(missing, "a buffer missing");
    auto extra = part;
    extra.buffers.emplace_back("sgd.momentum", slice(given.buffers[0].second));
    refused(extra, "another optimizer's buffer");
    auto short_one = part;
    short_one.buffers[0].second.pop_back();
    refused(short_one, "a buffer one value short");
    auto bad_step = part;
    bad_step.moment_step = -1;
    refused(bad_step, "a negative moment step");

    taker.load_blocks(1, 2, part_params, 3, &part);
    const auto took = taker.optimizer_state();
    QCOMPARE(took.moment_step, given.moment_step);
    for (std::size_t i = 0; i < took.buffers.size(); ++i) {
      const auto& v = took.buffers[i].second;
      QCOMPARE(slice(v), part.buffers[i].second);
      QVERIFY(std::all_of(v.begin(), v.begin() + offset,
                          [](float x) { return x == 0.0f; }));  // block 0: not handed over
    }
    QCOMPARE(slice(taker.parameters()), part_params);
    QCOMPARE(taker.optimizer_steps(), std::int64_t{3});

    // The same blocks without state: fresh moments (what a holder without them leads to).
    taker.load_blocks(1, 2, part_params, 3, nullptr);
    for (const auto& [name, v] : taker.optimizer_state().buffers) {
      const auto s = slice(v);
      QVERIFY2(std::all_of(s.begin(), s.end(), [](float x) { return x == 0.0f; }), name.c_str());
    }
  }

  void checkpointRoundTrip() {
    QTemporaryDir dir;
    const auto path = std::filesystem::path(dir.filePath("s.ckpt").toStdString());
    const auto job = small_job();
    auto chain = model::BlockChain::from_job(job);
    auto shard = chain.shard({1, 3});
    auto opt = model::make_optimizer(job.optimizer, shard.parameters());
    auto loss = shard.forward(torch::randn({2, 32, 64})).pow(2).mean();
    loss.backward();
    opt.step();
    pipeline::CheckpointCounters c{job.id, 0, {1, 3}, 7, 112, 128};
    pipeline::save_checkpoint(path, shard, opt, c);

    auto fresh = chain.shard({1, 3});
    auto fresh_opt = model::make_optimizer(job.optimizer, fresh.parameters());
    auto got = pipeline::load_checkpoint(path, fresh, fresh_opt, job.id, {1, 3});
    QCOMPARE(got.micro_batches, std::int64_t{7});
    QCOMPARE(got.samples, std::int64_t{112});
    QCOMPARE(got.next_sample, std::int64_t{128});
    QCOMPARE(fresh_opt.steps_taken(), std::int64_t{1});
    const auto a = shard.parameters(), b = fresh.parameters();
    for (std::size_t i = 0; i < a.size(); ++i) QVERIFY(torch::equal(a[i].tensor, b[i].tensor));
    // The optimizer state came along: the same gradient moves both copies identically.
    auto step_with_ones = [](model::Shard& s, model::Optimizer& o) {
      for (auto& p : s.parameters()) p.tensor.mutable_grad() = torch::ones_like(p.tensor);
      o.step();
    };
    step_with_ones(shard, opt);
    step_with_ones(fresh, fresh_opt);
    const auto a2 = shard.parameters(), b2 = fresh.parameters();
    for (std::size_t i = 0; i < a2.size(); ++i) QVERIFY(torch::equal(a2[i].tensor, b2[i].tensor));
  }

  void damagedCheckpointIsRefused_data() {
    QTest::addColumn<int>("damage");
    QTest::addColumn<QString>("expected");
    QTest::newRow("flipped byte") << 0 << "checksum mismatch";
    QTest::newRow("truncated") << 1 << "truncated";
    QTest::newRow("not a checkpoint") << 2 << "not a Rookery checkpoint";
    QTest::newRow("empty") << 3 << "too short";
    QTest::newRow("other job") << 4 << "belongs to job";
    QTest::newRow("other blocks") << 5 << "holds blocks";
  }
  void damagedCheckpointIsRefused() {
    QFETCH(int, damage);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const auto path = std::filesystem::path(dir.filePath("s.ckpt").toStdString());
    const auto job = small_job();
    auto chain = model::BlockChain::from_job(job);
    auto shard = chain.shard({0, 2});
    auto opt = model::make_optimizer(job.optimizer, shard.parameters());
    pipeline::save_checkpoint(path, shard, opt, {job.id, 0, {0, 2}, 0, 0, 0});
    std::string bytes;
    {
      std::ifstream in(path, std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    std::string expect_job = job.id;
    model::BlockRange expect_blocks{0, 2};
    switch (damage) {
      case 0:
        bytes[bytes.size() / 2] ^= 0x40;
        break;
      case 1:
        bytes.resize(bytes.size() - 100);
        break;
      case 2:
        bytes.replace(0, 8, "GARBAGE!");
        break;
      case 3:
        bytes.clear();
        break;
      case 4:
        expect_job = "another-job";
        break;
      case 5:
        expect_blocks = {0, 3};
        break;
    }
    { std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes; }
    auto target = chain.shard(expect_blocks);
    auto target_opt = model::make_optimizer(job.optimizer, target.parameters());
    const auto before = target.parameters()[0].tensor.clone();
    try {
      pipeline::load_checkpoint(path, target, target_opt, expect_job, expect_blocks);
      QFAIL("a damaged checkpoint was accepted");
    } catch (const pipeline::CheckpointError& e) {
      QVERIFY2(QString(e.what()).contains(expected), e.what());
    }
    QVERIFY(torch::equal(before, target.parameters()[0].tensor));  // untouched
  }

  // A full disk, as the file-size limit makes it: the write fails with a clear error and the
  // previous checkpoint is still there, whole.
  void failedWriteKeepsThePreviousCheckpoint() {
    QTemporaryDir dir;
    const auto path = std::filesystem::path(dir.filePath("s.ckpt").toStdString());
    const auto job = small_job();
    auto chain = model::BlockChain::from_job(job);
    auto shard = chain.shard({0, 2});
    auto opt = model::make_optimizer(job.optimizer, shard.parameters());
    pipeline::save_checkpoint(path, shard, opt, {job.id, 0, {0, 2}, 1, 0, 0});
    struct rlimit old {};
    ::getrlimit(RLIMIT_FSIZE, &old);
    ::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = old;
    small.rlim_cur = 4096;
    QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
    try {
      pipeline::save_checkpoint(path, shard, opt, {job.id, 0, {0, 2}, 2, 0, 0});
      ::setrlimit(RLIMIT_FSIZE, &old);
      QFAIL("writing past the size limit succeeded");
    } catch (const pipeline::CheckpointError& e) {
      ::setrlimit(RLIMIT_FSIZE, &old);
      QVERIFY2(QString(e.what()).contains("previous checkpoint is kept"), e.what());
    }
    pipeline::CheckpointCounters c;
    pipeline::read_checkpoint_parameters(path, &c);
    QCOMPARE(c.micro_batches, std::int64_t{1});
    QVERIFY(!std::filesystem::exists(path.string() + ".tmp"));
    // A folder that cannot be created is an error of the same kind.
    QVERIFY_THROWS_EXCEPTION(pipeline::CheckpointError,
                             pipeline::save_checkpoint("/dev/null/sub/s.ckpt", shard, opt,
                                                       {job.id, 0, {0, 2}, 0, 0, 0}));
  }

  void planIsValidated_data() {
    QTest::addColumn<QString>("stages");
    QTest::addColumn<QString>("expected");
    const QString key = QString::fromStdString(net::CurveKeyPair::generate().public_key);
    auto st = [&](int a, int b, const QString& ep = "tcp://127.0.0.1:1",
                  const QString& k = QString()) {
      return QString(R"({"blocks":[%1,%2],"endpoint":"%3","key":"%4"})")
          .arg(a)
          .arg(b)
          .arg(ep, k.isEmpty() ? key : k);
    };
    QTest::newRow("gap") << st(0, 1) + "," + st(2, 4) << "starts at block 2, expected 1";
    QTest::newRow("short") << st(0, 3) << "cover blocks [0, 3) but the model has 4";
    QTest::newRow("empty range") << st(0, 0) + "," + st(0, 4) << "empty range";
    QTest::newRow("bad key") << st(0, 4, "tcp://127.0.0.1:1", "nope") << "not a 40-character Z85";
    QTest::newRow("bad endpoint") << st(0, 4, "ipc:///tmp/x") << "must be tcp://";
    QTest::newRow("no stages") << QString() << "at least one stage";
  }
  void planIsValidated() {
    QFETCH(QString, stages);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QFile f(dir.filePath("job.json"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(testing::gpt_job_json("plan", 1, "none").toUtf8());
    f.close();
    const auto text = QString(R"({"job": "job.json", "stages": [%1]})").arg(stages).toStdString();
    try {
      auto plan = pipeline::parse_stage_plan(text, dir.path().toStdString());
      plan.validate(4);
      QFAIL("an invalid plan was accepted");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).contains(expected), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestStageUnits)
#include "test_stage_units.moc"
