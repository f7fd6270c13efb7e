// The GPU path of a stage: codecs run as LibTorch ops on the device and produce the CPU
// reference's bytes; a one-stage job trains on cuda:0 and its loss falls. Exits 77 (CTest:
// skipped) where LibTorch sees no CUDA device.
#include <torch/torch.h>

#include <QTest>

#include "net/identity.hpp"
#include "pipeline/stage_runtime.hpp"
#include "pipeline/tensor_codec.hpp"
#include "reference_training.hpp"

using namespace rookery;

class TestGpuStage : public QObject {
  Q_OBJECT
 private Q_SLOTS:
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
  if (!torch::cuda::is_available()) {
    std::printf("no CUDA device visible to LibTorch: GPU tests skipped\n");
    return 77;
  }
  TestGpuStage t;
  return QTest::qExec(&t, argc, argv);
}
#include "test_gpu_stage.moc"
