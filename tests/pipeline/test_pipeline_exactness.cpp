// Exactness: with staleness 1 and fp32, a 3-stage pipeline in 3 processes computes the same
// parameters as the whole model trained in one process (max abs difference <= 1e-5), for the
// language model and the CNN, and with the language model clipped by its global gradient norm.
#include "reference_training.hpp"

#include <QTest>

#include "support/pipeline_harness.hpp"

using namespace rookery;

class TestPipelineExactness : public QObject {
  Q_OBJECT

  void check(const QString& job_json, std::vector<std::pair<int, int>> blocks) {
    constexpr int kSteps = 20;
    testing::PipelineHarness h;
    QVERIFY(h.prepare(job_json, blocks));
    const auto job = job::load_job_spec(h.job_path.toStdString());
    QVERIFY(h.start_all({"--max-micro-batches", QString::number(kSteps)}));
    QVERIFY(h.wait_finished(120000));
    QVERIFY(h.quit_all());
    std::vector<std::filesystem::path> ckpts;
    for (std::size_t i = 0; i < blocks.size(); ++i) ckpts.push_back(h.checkpoint(int(i), job.id));
    const auto piped = testing::read_stage_checkpoints(ckpts);
    const auto reference = testing::train_in_one_process(job, kSteps);
    const double diff = testing::max_abs_difference(piped, reference);
    const double moved = testing::max_abs_difference(reference, testing::initial_parameters(job));
    qInfo(
        "max |pipeline - one process| = %.3g over %zu tensors (training moved weights by up to "
        "%.3g)",
        diff, reference.size(), moved);
    QVERIFY(moved > 1e-2);  // the comparison is not between two untrained models
    QVERIFY2(diff <= 1e-5, qPrintable(QString("max abs difference %1").arg(diff)));
  }

 private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  void languageModelThreeStages() {
    check(testing::gpt_job_json("exact-gpt", 1, "none"), {{0, 1}, {1, 3}, {3, 4}});
  }

  // Clipped by the global gradient norm (low enough to clip every step): the stages, in three
  // processes over ZeroMQ, clip as one model, as one process does with clip_grad_norm_.
  void languageModelThreeStagesClipped() {
    auto json = testing::gpt_job_json("exact-gpt-clip", 1, "none");
    json.replace("\"seed\": 11", "\"seed\": 11, \"max_grad_norm\": 0.05");
    QVERIFY(json.contains("max_grad_norm"));
    check(json, {{0, 1}, {1, 3}, {3, 4}});
  }

  void cnnThreeStages() {
    QTemporaryDir data;
    const auto images = std::filesystem::path(data.filePath("img.idx").toStdString());
    const auto labels = std::filesystem::path(data.filePath("lab.idx").toStdString());
    testing::write_quadrant_images(images, labels, 512, 8);
    const QString job =
        QString(R"({"id": "exact-cnn", "model": {"kind": "cnn", "channels": 1, "image_size": 8,
      "classes": 4, "widths": [8, 8]},
      "dataset": {"kind": "images", "path": "%1", "labels": "%2"},
      "optimizer": {"kind": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": true},
      "micro_batch_size": 16, "staleness": 1, "codec": "none", "seed": 5})")
            .arg(QString::fromStdString(images.string()), QString::fromStdString(labels.string()));
    check(job, {{0, 1}, {1, 2}, {2, 3}});
  }
};

QTEST_GUILESS_MAIN(TestPipelineExactness)
#include "test_pipeline_exactness.moc"
