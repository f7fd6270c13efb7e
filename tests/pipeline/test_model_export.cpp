// Export (issue 21): the model as safetensors + config.json that PyTorch loads without
// Rookery. Rookery's own reader reads back what it wrote and refuses malformed files;
// `rookery-coordinator export` assembles a model from stage checkpoints; and where Python's
// torch is installed, scripts/rookery_model.py computes the same logits as Rookery.
#include <torch/torch.h>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "model/block_chain.hpp"
#include "model/model_export.hpp"
#include "model/optimizer.hpp"
#include "model/safetensors.hpp"
#include "pipeline/checkpoint.hpp"
#include "support/processes.hpp"
#include "support/source_tree.hpp"

using namespace rookery;

namespace {

job::JobSpec gpt_job() {
  job::JobSpec j;
  j.id = "export-test";
  j.model = {job::GptSpec{.vocab = 256, .context = 16, .width = 32, .depth = 3, .heads = 4,
                          .mlp_ratio = 4, .dropout = 0.0}};
  j.seed = 21;
  return j;
}

const std::vector<int64_t> kTokens{72, 101, 108, 108, 111, 44, 32, 119, 111, 114, 108, 100};

torch::Tensor logits_of(model::Shard& shard) {
  torch::NoGradGuard no_grad;
  shard.set_training(false);
  return shard.forward(torch::tensor(kTokens).unsqueeze(0));
}

// Raw bytes of a safetensors file with `header` (JSON) and `data` bytes.
void write_raw(const QString& path, const std::string& header, const std::string& data,
               std::uint64_t claimed = 0) {
  std::ofstream f(path.toStdString(), std::ios::binary);
  const std::uint64_t n = claimed ? claimed : header.size();
  f.write(reinterpret_cast<const char*>(&n), 8);
  f << header << data;
}

}  // namespace

class TestModelExport : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

 private Q_SLOTS:
  void safetensorsRoundTrips() {
    torch::manual_seed(1);
    const std::vector<model::NamedTensor> ts{{"a.weight", torch::randn({3, 5})},
                                             {"b", torch::randn({7})},
                                             {"scalar", torch::tensor(2.5f).reshape({})},
                                             {"empty", torch::zeros({0, 4})}};
    const auto path = dir_.filePath("rt.safetensors").toStdString();
    model::write_safetensors(path, ts, {{"job", "x"}});
    const auto back = model::read_safetensors(path);
    QCOMPARE(back.tensors.size(), ts.size());
    for (size_t i = 0; i < ts.size(); ++i) {
      QCOMPARE(QString::fromStdString(back.tensors[i].name), QString::fromStdString(ts[i].name));
      QVERIFY(torch::equal(back.tensors[i].tensor, ts[i].tensor));
    }
    QCOMPARE(QString::fromStdString(back.metadata.at("job")), QString("x"));
    QVERIFY_THROWS_EXCEPTION(model::SafetensorsError,
                             model::write_safetensors(path, {{"a", torch::ones({1})},
                                                             {"a", torch::ones({1})}}));
    QVERIFY(torch::equal(model::read_safetensors(path).tensors[0].tensor, ts[0].tensor));
  }

  void halfPrecisionTensorsReadAsF32() {
    // As other writers store them (the spec's F16 and BF16): 1.5 and -2 in each.
    const std::string header =
        R"({"h":{"dtype":"F16","shape":[2],"data_offsets":[0,4]},"b":{"dtype":"BF16","shape":[2],"data_offsets":[4,8]}})";
    const std::string data("\x00\x3e\x00\xc0\xc0\x3f\x00\xc0", 8);
    const auto path = dir_.filePath("half.safetensors");
    write_raw(path, header, data);
    const auto back = model::read_safetensors(path.toStdString());
    QCOMPARE(back.tensors[0].tensor[0].item<float>(), 1.5f);
    QCOMPARE(back.tensors[0].tensor[1].item<float>(), -2.0f);
    QCOMPARE(back.tensors[1].tensor[0].item<float>(), 1.5f);
    QCOMPARE(back.tensors[1].tensor[1].item<float>(), -2.0f);
  }

  void malformedFilesAreRefused_data() {
    QTest::addColumn<QString>("header");
    QTest::addColumn<int>("data_bytes");
    QTest::addColumn<qulonglong>("claimed");
    QTest::addColumn<QString>("error");
    const QString ok = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
    QTest::newRow("truncated data") << ok << 4 << 0ull << "past the file";
    QTest::newRow("trailing bytes") << ok << 12 << 0ull << "after the last tensor";
    QTest::newRow("header longer than the file") << ok << 8 << 1000000ull << "the header claims";
    QTest::newRow("not JSON") << "{\"a\": [" << 8 << 0ull << "not JSON";
    QTest::newRow("not an object") << "[1, 2]" << 8 << 0ull << "not a JSON object";
    QTest::newRow("unknown dtype")
        << R"({"a":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}})" << 8 << 0ull
        << "is not F32, F16 or BF16";
    QTest::newRow("shape and bytes differ")
        << R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})" << 8 << 0ull
        << "8 bytes for 3 F32 values";
    QTest::newRow("overlap")
        << R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})"
        << 8 << 0ull << "overlap another tensor or leave a gap";
    QTest::newRow("missing field") << R"({"a":{"dtype":"F32","shape":[2]}})" << 8 << 0ull
                                   << "data_offsets";
    QTest::newRow("shape overflow")
        << R"({"a":{"dtype":"F32","shape":[4611686018427387904, 8],"data_offsets":[0,8]}})" << 8
        << 0ull << "overflows";
  }

  void malformedFilesAreRefused() {
    QFETCH(QString, header);
    QFETCH(int, data_bytes);
    QFETCH(qulonglong, claimed);
    QFETCH(QString, error);
    const auto path = dir_.filePath("bad.safetensors");
    write_raw(path, header.toStdString(), std::string(std::size_t(data_bytes), '\0'), claimed);
    try {
      (void)model::read_safetensors(path.toStdString());
      QFAIL("a malformed file was read");
    } catch (const model::SafetensorsError& e) {
      QVERIFY2(QString(e.what()).contains(error), e.what());
    }
  }

  void exportLoadsBackWithTheSameLogits() {
    const auto job = gpt_job();
    auto whole = model::BlockChain(job.model, job.seed).whole();
    const auto out = dir_.filePath("export").toStdString();
    model::export_model(job, whole.parameters(), out, {"a test", 1234});
    auto loaded = model::load_export(out);
    QCOMPARE(loaded.samples, int64_t{1234});
    QVERIFY(loaded.model == job.model);
    QVERIFY(torch::equal(logits_of(loaded.shard), logits_of(whole)));
    // The config says what PyTorch needs to build the model.
    std::ifstream config(out + "/config.json");
    const std::string text((std::istreambuf_iterator<char>(config)), {});
    for (const char* key : {"\"architecture\": \"gpt\"", "\"width\": 32", "\"depth\": 3",
                            "\"heads\": 4", "\"blocks\": 5"})
      QVERIFY2(text.find(key) != std::string::npos, key);
  }

  void exportRefusesWhatIsNotTheModel() {
    const auto job = gpt_job();
    auto params = model::BlockChain(job.model, job.seed).whole().parameters();
    const auto out = dir_.filePath("refused").toStdString();
    auto missing = params;
    missing.pop_back();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model::export_model(job, missing, out, {}));
    auto misshapen = params;
    misshapen[0].tensor = torch::zeros({3, 3});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model::export_model(job, misshapen, out, {}));
    job::JobSpec mlp = job;
    mlp.model = {job::MlpSpec{.input = 4, .hidden = {8}, .output = 2}};
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        model::export_model(mlp, model::BlockChain(mlp.model, 1).whole().parameters(), out, {}));
    QVERIFY(!QFileInfo::exists(QString::fromStdString(out) + "/model.safetensors"));
  }

  void coordinatorExportsFromCheckpoints() {
    const auto job = gpt_job();
    QDir().mkpath(dir_.filePath("ckpt"));
    const QString job_path = dir_.filePath("job.json");
    {
      std::ofstream f(job_path.toStdString());
      f << R"({"id": "export-test", "seed": 21,
        "model": {"kind": "gpt", "vocab": 256, "context": 16, "width": 32, "depth": 3,
                  "heads": 4, "mlp_ratio": 4, "dropout": 0.0},
        "dataset": {"kind": "tokens", "path": "none.bin"}, "optimizer": {"lr": 0.001}})";
    }
    const model::BlockChain chain(job.model, job.seed);
    // Two pipelines' stages: [0, 2) twice (the second trained on more samples and moved
    // away from the initial weights), and [2, 5) once.
    auto save = [&](const char* name, model::BlockRange r, int64_t samples, float shift) {
      auto shard = chain.shard(r);
      {
        torch::NoGradGuard no_grad;
        for (auto& p : shard.parameters()) p.tensor.add_(shift);
      }
      auto opt = model::make_optimizer(job.optimizer, shard.parameters());
      pipeline::save_checkpoint(dir_.filePath(QString("ckpt/") + name).toStdString(), shard, opt,
                                {job.id, 0, r, samples / 8, samples, samples});
      return shard;
    };
    (void)save("a-b0-2.ckpt", {0, 2}, 800, 0.0f);
    auto newer = save("b-b0-2.ckpt", {0, 2}, 1600, 0.25f);
    auto tail = save("a-b2-5.ckpt", {2, 5}, 800, -0.5f);

    QProcess p;
    const QString out = dir_.filePath("from-ckpt");
    p.start(testing::coordinator_bin(),
            {"--job", job_path, "export", "--from", dir_.filePath("ckpt"), "--out", out});
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QVERIFY(QString(p.readAllStandardOutput()).contains("2 checkpoint(s) of job export-test"));
    const auto loaded = model::load_export(out.toStdString());
    QCOMPARE(loaded.samples, int64_t{800});  // the fewest of the two chosen
    std::map<std::string, torch::Tensor> expected;
    for (const auto& t : newer.parameters()) expected[t.name] = t.tensor;
    for (const auto& t : tail.parameters()) expected[t.name] = t.tensor;
    for (const auto& t : loaded.shard.parameters())
      QVERIFY2(torch::equal(t.tensor, expected.at(t.name)), t.name.c_str());

    // Without the last stage's checkpoint the model is not whole: an error, nothing written.
    QFile::remove(dir_.filePath("ckpt/a-b2-5.ckpt"));
    p.start(testing::coordinator_bin(), {"--job", job_path, "export", "--from",
                                         dir_.filePath("ckpt"), "--out", dir_.filePath("partial")});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 2);
    QVERIFY(QString(p.readAllStandardError()).contains("no checkpoint holds block 2"));
    QVERIFY(!QFileInfo::exists(dir_.filePath("partial/model.safetensors")));
  }

  // The export without Rookery: Python's torch builds the model from scripts/rookery_model.py
  // and the same tokens give the same logits. Where Python has no torch, the C++ reader's
  // round trip (exportLoadsBackWithTheSameLogits) is the check.
  void pytorchComputesTheSameLogits() {
    QProcess probe;
    probe.start("python3", {"-c", "import torch"});
    if (!probe.waitForFinished(120000) || probe.exitStatus() != QProcess::NormalExit ||
        probe.exitCode() != 0)
      QSKIP("Python's torch is not installed here: Rookery's own reader checked the export");
    const auto job = gpt_job();
    auto whole = model::BlockChain(job.model, job.seed).whole();
    const QString out = dir_.filePath("for-python");
    model::export_model(job, whole.parameters(), out.toStdString(), {"a test", 0});
    QStringList tokens;
    for (auto t : kTokens) tokens << QString::number(t);
    QProcess py;
    const QString logits_path = dir_.filePath("python-logits.f32");
    const auto script = QString::fromStdString(testing::source_file("scripts/rookery_model.py"));
    py.start("python3", {script, out, "--tokens", tokens.join(','), "--logits", logits_path});
    QVERIFY(py.waitForFinished(120000));
    QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
    qInfo("%s", py.readAllStandardOutput().trimmed().constData());
    const auto mine = logits_of(whole).contiguous();
    QFile f(logits_path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    QCOMPARE(bytes.size(), qsizetype(mine.numel() * 4));
    auto theirs = torch::empty_like(mine);
    std::memcpy(theirs.data_ptr<float>(), bytes.constData(), std::size_t(bytes.size()));
    const double diff = (theirs - mine).abs().max().item<double>();
    qInfo("PyTorch's logits against Rookery's: max |difference| %.3g", diff);
    QVERIFY2(diff < 1e-4, qPrintable(QString("logits differ by %1").arg(diff)));
  }
};

QTEST_GUILESS_MAIN(TestModelExport)
#include "test_model_export.moc"
