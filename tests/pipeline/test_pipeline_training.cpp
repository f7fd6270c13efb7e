// Training quality of the asynchronous pipeline, against synchronous training in one process:
// with staleness = number of stages the final loss is within 5% after the same samples; with
// 8-bit activations and gradients the final loss is within 5% of fp32's.
#include "reference_training.hpp"

#include <QTest>

#include "support/pipeline_harness.hpp"

using namespace rookery;

class TestPipelineTraining : public QObject {
  Q_OBJECT

  static testing::Params train_pipeline(const QString& job_json,
                                        std::vector<std::pair<int, int>> blocks, int micro_batches,
                                        std::string* job_id) {
    testing::PipelineHarness h;
    if (!h.prepare(job_json, blocks)) return {};
    const auto job = job::load_job_spec(h.job_path.toStdString());
    *job_id = job.id;
    if (!h.start_all({"--max-micro-batches", QString::number(micro_batches)})) return {};
    if (!h.wait_finished(400000) || !h.quit_all()) return {};
    std::vector<std::filesystem::path> ckpts;
    for (std::size_t i = 0; i < blocks.size(); ++i) ckpts.push_back(h.checkpoint(int(i), job.id));
    return testing::read_stage_checkpoints(ckpts);
  }

 private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  // The demo job as shipped (staleness 3 = its 3 stages here), against the same job trained
  // synchronously in one process on the same samples; the loss is on its held-out windows.
  void asynchronousPipelineMatchesSynchronousLoss() {
    constexpr int kMicroBatches = 150;
    QFile demo(ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
    QVERIFY(demo.open(QIODevice::ReadOnly));
    const QString json = QString::fromUtf8(demo.readAll());  // its text's path is absolute
    const auto job = job::parse_job_spec(json.toStdString());
    QCOMPARE(job.staleness, std::int64_t{3});
    std::string id;
    const auto piped = train_pipeline(json, {{0, 2}, {2, 4}, {4, 6}}, kMicroBatches, &id);
    QVERIFY(!piped.empty());
    const double async_loss = testing::evaluate(job, piped);
    const double sync_loss =
        testing::evaluate(job, testing::train_in_one_process(job, kMicroBatches));
    const double start_loss = testing::evaluate(job, testing::initial_parameters(job));
    qInfo(
        "demo job, held-out loss: start %.4f, synchronous %.4f, asynchronous (staleness 3, 3 "
        "stages) %.4f (%+.2f%%)",
        start_loss, sync_loss, async_loss, 100.0 * (async_loss - sync_loss) / sync_loss);
    QVERIFY(sync_loss < 0.7 * start_loss);  // both really trained
    QVERIFY(std::abs(async_loss - sync_loss) <= 0.05 * sync_loss);
  }

  void eightBitActivationsAndGradientsMatchFp32() {
    constexpr int kMicroBatches = 120;
    std::string id;
    // At the demo's learning rate (3e-4): see asynchronousPipelineMatchesSynchronousLoss.
    const QString fp32_json = testing::gpt_job_json("codec-fp32", 2, "none", 2, 64, 3e-4);
    const QString int8_json = testing::gpt_job_json("codec-int8", 2, "int8", 2, 64, 3e-4);
    const auto fp32 = train_pipeline(fp32_json, {{0, 2}, {2, 4}}, kMicroBatches, &id);
    const auto int8 = train_pipeline(int8_json, {{0, 2}, {2, 4}}, kMicroBatches, &id);
    QVERIFY(!fp32.empty() && !int8.empty());
    const auto job = job::parse_job_spec(fp32_json.toStdString());
    const double l32 = testing::evaluate(job, fp32), l8 = testing::evaluate(job, int8);
    const double start = testing::evaluate(job, testing::initial_parameters(job));
    qInfo("held-out loss: start %.4f, fp32 %.4f, int8 %.4f (%+.2f%%)", start, l32, l8,
          100.0 * (l8 - l32) / l32);
    QVERIFY(l32 < 0.7 * start);
    QVERIFY(std::abs(l8 - l32) <= 0.05 * l32);
  }

  // Mixed precision as a GPU runs it, on the CPU: bf16 autocast with activations recomputed in
  // the backward pass, against fp32, after the same samples (both stages are real processes).
  void bf16WithCheckpointingMatchesFp32() {
    constexpr int kMicroBatches = 120;
    std::string id;
    const QString fp32_json = testing::gpt_job_json("amp-fp32", 2, "none", 2, 64, 3e-4);
    QString bf16_json = testing::gpt_job_json("amp-bf16", 2, "none", 2, 64, 3e-4);
    bf16_json.replace("\"codec\": \"none\"",
                      "\"codec\": \"none\", \"precision\": \"bf16\", \"activation_checkpointing\": true");
    const auto bf16_job = job::parse_job_spec(bf16_json.toStdString());
    QCOMPARE(bf16_job.precision, job::Precision::bf16);
    QVERIFY(bf16_job.activation_checkpointing);
    const auto fp32 = train_pipeline(fp32_json, {{0, 2}, {2, 4}}, kMicroBatches, &id);
    const auto bf16 = train_pipeline(bf16_json, {{0, 2}, {2, 4}}, kMicroBatches, &id);
    QVERIFY(!fp32.empty() && !bf16.empty());
    const auto job = job::parse_job_spec(fp32_json.toStdString());
    const double l32 = testing::evaluate(job, fp32), l16 = testing::evaluate(job, bf16);
    const double start = testing::evaluate(job, testing::initial_parameters(job));
    qInfo("held-out loss: start %.4f, fp32 %.4f, bf16 + checkpointing %.4f (%+.2f%%)", start, l32,
          l16, 100.0 * (l16 - l32) / l32);
    QVERIFY(l16 < 0.7 * start);
    QVERIFY(std::abs(l16 - l32) <= 0.05 * l32);
  }
};

QTEST_GUILESS_MAIN(TestPipelineTraining)
#include "test_pipeline_training.moc"
