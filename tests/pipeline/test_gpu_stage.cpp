// The GPU path: codecs run as LibTorch ops on the device and produce the CPU reference's bytes;
// a shard on cuda:0 computes what it does on the CPU (fp32 within 1e-3 relative; bf16 autocast
// and bf16 weights within 2% of the loss, bf16 weights' gradients within 15%); a one-stage job trains on cuda:0 and its loss falls; three GPU nodes
// on loopback train a pipeline; the governor's temperature cap pauses a node that computes on
// the GPU. Exits 77 (CTest: skipped) where LibTorch sees no CUDA device.
#include <torch/torch.h>

#include <QTest>

#include "model/compute_device.hpp"
#include "net/identity.hpp"
#include "pipeline/stage_runtime.hpp"
#include "pipeline/tensor_codec.hpp"
#include "governor/governor_harness.hpp"
#include "model/block_chain.hpp"
#include "reference_training.hpp"
#include "support/pipeline_harness.hpp"

using namespace rookery;

namespace {
struct Pass {
  double loss = 0;
  std::vector<torch::Tensor> grads;  // on the CPU
};

enum class Arithmetic { fp32, bf16_autocast, bf16_weights };

Pass pass(const job::JobSpec& job, const torch::Device& dev, Arithmetic arithmetic) {
  auto shard = model::BlockChain::from_job(job).whole();
  shard.to(dev);
  if (arithmetic == Arithmetic::bf16_autocast) shard.set_autocast(at::kBFloat16);
  if (arithmetic == Arithmetic::bf16_weights) shard.set_weight_dtype(at::kBFloat16);
  torch::manual_seed(5);
  const auto& gpt = std::get<job::GptSpec>(job.model.arch);
  const auto x = torch::randint(0, gpt.vocab, {4, gpt.context}).to(dev);
  const auto y = torch::randint(0, gpt.vocab, {4, gpt.context}).to(dev);
  auto loss = shard.loss(shard.forward(x), y);
  loss.backward();
  Pass r;
  r.loss = loss.item<double>();
  for (auto& p : shard.parameters())
    r.grads.push_back(p.tensor.grad().to(torch::kCPU, torch::kFloat32));
  return r;
}

// Nodes on cuda:0 that may use it while the owner is present: by default the GPU is off while
// the PC is in use, and on a GPU test machine the terminal that started the tests had input
// moments ago (with no desktop session, the governor counts terminal input as the owner's).
const QStringList kOnTheGpuWhileInUse{"--device", "cuda:0", "--preference", "in_use.use_gpu=true"};
}  // namespace

class TestGpuStage : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // Tolerances: fp32 on the GPU differs from the CPU by summation order only (TF32 is off for
  // matmuls, LibTorch's default): 1e-3 of each gradient's largest value. bf16 keeps 8 bits.
  void shardOnTheGpuMatchesTheCpu() {
    const auto job =
        job::parse_job_spec(testing::gpt_job_json("gpu-match", 1, "none").toStdString());
    const auto cpu = pass(job, torch::kCPU, Arithmetic::fp32);
    const auto gpu = pass(job, torch::Device("cuda:0"), Arithmetic::fp32);
    QVERIFY(std::abs(gpu.loss - cpu.loss) <= 1e-4 * cpu.loss);
    for (std::size_t i = 0; i < cpu.grads.size(); ++i) {
      const double scale = std::max(cpu.grads[i].abs().max().item<double>(), 1e-12);
      const double diff = (gpu.grads[i] - cpu.grads[i]).abs().max().item<double>() / scale;
      QVERIFY2(diff <= 1e-3, qPrintable(QString("gradient %1 differs by %2").arg(i).arg(diff)));
    }
    const auto bf16 = pass(job, torch::Device("cuda:0"), Arithmetic::bf16_autocast);
    const auto weights = pass(job, torch::Device("cuda:0"), Arithmetic::bf16_weights);
    qInfo("loss: cpu fp32 %.5f, gpu fp32 %.5f, gpu bf16 autocast %.5f, gpu bf16 weights %.5f",
          cpu.loss, gpu.loss, bf16.loss, weights.loss);
    QVERIFY(std::abs(bf16.loss - cpu.loss) <= 0.02 * cpu.loss);
    QVERIFY(std::abs(weights.loss - cpu.loss) <= 0.02 * cpu.loss);
    // bf16 keeps 8 bits of mantissa: the gradients agree with fp32's to a few percent.
    double worst = 0;
    for (std::size_t i = 0; i < cpu.grads.size(); ++i) {
      const double scale = std::max(cpu.grads[i].abs().max().item<double>(), 1e-12);
      worst = std::max(worst, (weights.grads[i] - cpu.grads[i]).abs().max().item<double>() / scale);
    }
    qInfo("bf16 weights: gradients within %.4f of fp32's largest values", worst);
    QVERIFY2(worst < 0.15, qPrintable(QString("bf16 gradients differ by %1").arg(worst)));
  }

  // Three rookery-node processes on loopback, each computing on cuda:0 in bf16 autocast.
  void threeGpuNodesTrainAPipeline() {
    testing::PipelineHarness h;
    QString json = testing::gpt_job_json("gpu-pipeline", 3, "none", 2, 64, 3e-4);
    json.replace("\"codec\": \"none\"", "\"codec\": \"none\", \"precision\": \"bf16\"");
    QVERIFY(json.contains("bf16"));
    QVERIFY(h.prepare(json, {{0, 2}, {2, 3}, {3, 4}}));
    QVERIFY(h.start_all({"--max-micro-batches", "120"}, kOnTheGpuWhileInUse));
    QVERIFY(h.wait_finished(300000));
    const auto s = h.snapshot(1);
    QCOMPARE(QString::fromStdString(s.device().compute_device()), QStringLiteral("cuda:0"));
    QVERIFY(h.quit_all());
    const auto job = job::load_job_spec(h.job_path.toStdString());
    std::vector<std::filesystem::path> ckpts;
    for (int i = 0; i < 3; ++i) ckpts.push_back(h.checkpoint(i, job.id));
    const auto trained = testing::read_stage_checkpoints(ckpts);
    const double start = testing::evaluate(job, testing::initial_parameters(job));
    const double end = testing::evaluate(job, trained);
    qInfo("three GPU nodes: held-out loss %.4f -> %.4f", start, end);
    QVERIFY(end < 0.8 * start);
  }

  // The governor's GPU rule acts on a GPU that computes: a temperature cap below the card's
  // temperature pauses the node, lifting it lets it run again.
  void governorsTemperatureCapPausesTheGpu() {
    testing::PipelineHarness h;
    QVERIFY(h.prepare(testing::gpt_job_json("gpu-governed", 1, "none"), {{0, 4}}));
    QVERIFY(h.start_all({}, kOnTheGpuWhileInUse));
    auto c = h.client(0);
    QTRY_VERIFY_WITH_TIMEOUT(h.snapshot(0).device().compute_device() == "cuda:0", 60000);
    QVERIFY(testing::set_preferences(c, {{"gpu_max_temperature_c", "1"}}).ok);
    QTRY_COMPARE_WITH_TIMEOUT(h.snapshot(0).governor().decision(),
                              wire::pb::GovernorSnapshot::PAUSED, 20000);
    qInfo("paused: %s", h.snapshot(0).governor().reason().c_str());
    QCOMPARE(h.snapshot(0).governor().why().code(), wire::pb::GOVERNOR_GPU_HOT);
    QVERIFY(testing::set_preferences(c, {{"gpu_max_temperature_c", "0"}}).ok);
    QTRY_VERIFY_WITH_TIMEOUT(
        h.snapshot(0).governor().decision() != wire::pb::GovernorSnapshot::PAUSED, 20000);
    QVERIFY(h.quit_all());
  }

  // The governor's other GPU rule, at its default: the GPU computes only while the PC is idle.
  // The owner's input (the window's presence report) pauses a node computing on the GPU at its
  // next unit, and their absence lets it run again.
  void governorKeepsTheGpuOffWhileThePcIsInUse() {
    testing::PipelineHarness h;
    QVERIFY(h.prepare(testing::gpt_job_json("gpu-in-use", 1, "none"), {{0, 4}}));
    QVERIFY(h.start_all({}, {"--device", "cuda:0"}));
    auto c = h.client(0);
    const auto units = [&] { return h.snapshot(0).work().work_units(); };
    QTRY_VERIFY_WITH_TIMEOUT(h.snapshot(0).device().compute_device() == "cuda:0", 60000);
    QVERIFY(testing::report_presence(c, 3600).ok);  // the owner is away
    QTRY_VERIFY_WITH_TIMEOUT(units() >= 3, 60000);

    const auto back = testing::report_presence(c, 0);  // and back
    QVERIFY(back.ok);
    QCOMPARE(back.snapshot.governor().decision(), wire::pb::GovernorSnapshot::PAUSED);
    QCOMPARE(back.snapshot.governor().why().code(), wire::pb::GOVERNOR_GPU_IN_USE_OFF);
    QTest::qWait(600);  // the unit in progress has finished by now
    const auto held = units();
    QTest::qWait(1000);
    QCOMPARE(units(), held);

    QVERIFY(testing::report_presence(c, 3600).ok);
    QTRY_VERIFY_WITH_TIMEOUT(units() >= held + 2, 30000);
    QVERIFY(h.quit_all());
  }

  void codecsOnTheGpuMatchTheCpuBytes() {
    torch::manual_seed(4);
    auto cpu = torch::randn({5, 333}) * 3;
    for (auto c :
         {wire::Codec::None, wire::Codec::Fp16, wire::Codec::Bf16, wire::Codec::Int8Block}) {
      auto on_cpu = pipeline::encode_tensor("x", cpu, c);
      auto on_gpu = pipeline::encode_tensor("x", cpu.to(torch::kCUDA), c);
      QCOMPARE(on_gpu.bytes.size, on_cpu.bytes.size);
      QVERIFY(std::memcmp(on_gpu.bytes.data, on_cpu.bytes.data, on_cpu.bytes.size) == 0);
      auto decoded = wire::decode(wire::encode(wire::pb::Envelope(), {on_gpu}));
      QVERIFY(decoded.ok());
      auto back = pipeline::decode_tensor(decoded.message().tensors[0], torch::kCUDA);
      QVERIFY(back.is_cuda());
    }
  }

  void oneStageJobTrainsOnTheGpu() {
    net::SecureContext ctx;
    const auto id = net::CurveKeyPair::generate();
    pipeline::StageConfig c;
    c.job = job::parse_job_spec(testing::gpt_job_json("gpu", 1, "none", 2, 64, 3e-4).toStdString());
    c.blocks = {0, 4};
    c.device = "cuda:0";
    c.max_micro_batches = 60;
    c.peer_keys = {id.public_key};
    pipeline::StageRuntime stage(ctx, id, c);
    double first = -1, last = -1;
    while (!stage.finished()) {
      const auto w = stage.run_once(std::chrono::milliseconds(100));
      if (w.loss > 0 && first < 0) first = w.loss;
      if (w.loss > 0) last = w.loss;
    }
    qInfo("loss on cuda:0: %.3f -> %.3f", first, last);
    QVERIFY(last < first - 0.5);
  }
};

int main(int argc, char** argv) {
  // LibTorch's CUDA part is loaded first, as a node loads it (model/cuda_backend).
  const auto compute = rookery::model::detect_compute_device();
  if (!compute.cuda_available) {
    std::printf("no CUDA device visible to LibTorch (%s): GPU tests skipped\n",
                compute.no_cuda_why.c_str());
    return 77;
  }
  TestGpuStage t;
  return QTest::qExec(&t, argc, argv);
}
#include "test_gpu_stage.moc"
