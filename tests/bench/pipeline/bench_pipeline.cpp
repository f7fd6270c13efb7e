// Benchmarks of the asynchronous pipeline, each printing ratios measured side by side in one
// run (these machines are noisy; absolute numbers mean little):
//
//   bench_pipeline overhead [--steps N] [--rounds R]
//       a 1-stage job (StageRuntime: weight versions, queues, threads) against a plain LibTorch
//       training loop of the same model, data and thread count, rounds interleaved.
//   bench_pipeline bubble [--micro-batches N]
//       a 2-stage pipeline in 2 processes (one thread each), split where the cost model balances
//       it: each stage's busy share of wall time in steady state, and throughput against
//       GPipe's synchronous schedule (flush after every 4 micro-batches) on the same split.
//   bench_pipeline links --hosts A,B --netns NS_A,NS_B [--micro-batches N]
//       run by links_bench.sh: two stages in two network namespaces on a shaped link; samples/s
//       with 8-bit activations and gradients against fp32.
#include <torch/torch.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <cstdio>
#include <memory>
#include <numeric>

#include "control/control_client.hpp"
#include "data/batch.hpp"
#include "data/open_dataset.hpp"
#include "model/block_chain.hpp"
#include "model/optimizer.hpp"
#include "net/identity.hpp"
#include "net/secure_context.hpp"
#include "pipeline/stage_runtime.hpp"
#include "support/pipeline_harness.hpp"

using namespace rookery;
using Clock = std::chrono::steady_clock;
namespace pb = rookery::wire::pb;

namespace {

QString arg(const QStringList& args, const QString& name, const QString& fallback) {
  const int i = args.indexOf(name);
  return i >= 0 && i + 1 < args.size() ? args[i + 1] : fallback;
}

QString demo_json(int context, int width, int depth, const QString& codec, int staleness,
                  int accumulation) {
  return QString(
             R"({"id": "bench", "model": {"kind": "gpt", "vocab": 256, "context": %1, "width": %2, "depth": %3,
    "heads": 4, "mlp_ratio": 4, "dropout": 0.0},
    "dataset": {"kind": "text", "path": "%4", "format": "fortune", "held_out": 0.05},
    "optimizer": {"kind": "adamw", "lr": 0.0003, "schedule": {"warmup_steps": 10, "decay": "constant"}},
    "micro_batch_size": 16, "grad_accumulation": %7, "staleness": %6, "codec": "%5", "seed": 3})")
      .arg(context)
      .arg(width)
      .arg(depth)
      .arg(QString("/usr/share/games/fortunes"), codec)  // the demo job's corpus
      .arg(staleness)
      .arg(accumulation);
}

// ---- overhead --------------------------------------------------------------------------
double plain_loop_seconds(const job::JobSpec& job, int steps) {
  auto shard = model::BlockChain::from_job(job).whole();
  shard.set_training(true);
  auto opt = model::make_optimizer(job.optimizer, shard.parameters());
  auto data = data::open_dataset(job);
  const auto t0 = Clock::now();
  for (int k = 0; k < steps; ++k) {
    auto b = data::make_batch(*data, k * job.micro_batch_size, job.micro_batch_size);
    opt.zero_grad();
    shard.loss(shard.forward(b.inputs), b.targets).backward();
    opt.step();
  }
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double stage_runtime_seconds(const job::JobSpec& job, int steps) {
  net::SecureContext ctx;
  const auto id = net::CurveKeyPair::generate();
  pipeline::StageConfig c;
  c.job = job;
  c.blocks = {0, model::BlockChain::from_job(job).block_count()};
  c.max_micro_batches = steps;
  c.peer_keys = {id.public_key};
  pipeline::StageRuntime stage(ctx, id, c);
  const auto t0 = Clock::now();
  while (!stage.finished()) stage.run_once(std::chrono::milliseconds(100));
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

int overhead(const QStringList& args) {
  const int steps = arg(args, "--steps", "60").toInt();
  const int rounds = arg(args, "--rounds", "3").toInt();
  torch::set_num_threads(1);
  const auto job = job::parse_job_spec(demo_json(64, 128, 4, "none", 1, 1).toStdString());
  plain_loop_seconds(job, 5);  // warm-up: allocator, kernels
  double plain = 0, runtime = 0;
  std::printf("runtime overhead: demo GPT, %d steps per round, 1 thread, rounds interleaved\n",
              steps);
  for (int r = 0; r < rounds; ++r) {
    const double a = plain_loop_seconds(job, steps);
    const double b = stage_runtime_seconds(job, steps);
    plain += a;
    runtime += b;
    std::printf("  round %d: plain loop %.2f s, 1-stage StageRuntime %.2f s\n", r + 1, a, b);
  }
  std::printf("RESULT overhead: StageRuntime / plain loop = %.3f (goal <= 1.05)\n",
              runtime / plain);
  return 0;
}

// ---- the bubble --------------------------------------------------------------------------
struct Window {
  double samples_per_s = 0;
  std::vector<double> busy_share;
};

// Measures from micro-batch `warmup` to `total` at the first stage.
Window measure(testing::PipelineHarness& h, int warmup, int total) {
  auto wait_mb = [&](int n) {
    while (h.snapshot(0).stage().micro_batches() < n) QTest::qWait(20);
  };
  wait_mb(warmup);
  std::vector<pb::NodeSnapshot> a;
  for (std::size_t i = 0; i < h.nodes.size(); ++i) a.push_back(h.snapshot(int(i)));
  const auto t0 = Clock::now();
  wait_mb(total);
  const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
  Window w;
  for (std::size_t i = 0; i < h.nodes.size(); ++i) {
    const auto b = h.snapshot(int(i));
    w.busy_share.push_back((b.work().busy_seconds() - a[i].work().busy_seconds()) / dt);
    if (i == 0) w.samples_per_s = double(b.work().samples() - a[i].work().samples()) / dt;
  }
  return w;
}

// Where to cut the model so both stages take the same time: measured forward + backward time
// per block on this machine (FLOPs alone miss the embedding, norms and the softmax).
std::pair<int, int> balanced_split(const job::JobSpec& job) {
  torch::set_num_threads(1);
  auto chain = model::BlockChain::from_job(job);
  auto data = data::open_dataset(job);
  auto batch = data::make_batch(*data, 0, job.micro_batch_size);
  std::vector<double> seconds(static_cast<std::size_t>(chain.block_count()), 0.0);
  for (int rep = 0; rep < 6; ++rep) {
    torch::Tensor x = batch.inputs;
    for (std::int64_t b = 0; b < chain.block_count(); ++b) {
      auto shard = chain.shard({b, b + 1});
      auto in = b == 0 ? x : x.detach().requires_grad_(true);
      const auto t0 = Clock::now();
      auto out = shard.forward(in);
      auto loss = b + 1 == chain.block_count() ? shard.loss(out, batch.targets) : out.pow(2).mean();
      loss.backward();
      if (rep > 0)
        seconds[static_cast<std::size_t>(b)] +=
            std::chrono::duration<double>(Clock::now() - t0).count();
      x = out.detach();
    }
  }
  const double total = std::accumulate(seconds.begin(), seconds.end(), 0.0);
  double prefix = 0, best = 1e300;
  int split = 1;
  for (std::size_t k = 0; k + 1 < seconds.size(); ++k) {
    prefix += seconds[k];
    const double worst = std::max(prefix, total - prefix);
    if (worst < best) best = worst, split = int(k) + 1;
  }
  std::printf("  per-block time (ms):");
  for (double t : seconds) std::printf(" %.1f", 1000 * t / 5);
  std::printf("; stages take %.0f%% / %.0f%%\n", 100 * (total - (total - best)) / total,
              100 * (total - best) / total);
  return {split, int(seconds.size())};
}

int bubble(const QStringList& args) {
  const int n = arg(args, "--micro-batches", "80").toInt();
  const int rounds = arg(args, "--rounds", "2").toInt();
  const int warmup = n / 4;
  // A 6-layer model (8 blocks) can be cut into two stages of nearly equal time. Both
  // schedules keep up to 4 micro-batches in flight and step once per 4: the same arithmetic,
  // only the schedule differs.
  const QString async_json = demo_json(64, 128, 6, "none", 4, 4);
  const QString gpipe_json = demo_json(64, 128, 6, "none", 4, 4);
  const auto job = job::parse_job_spec(async_json.toStdString());
  const auto [split, blocks] = balanced_split(job);
  std::printf(
      "no bubble: GPT (6 layers) split at block %d of %d (measured time), 2 processes x 1 thread, "
      "%d rounds interleaved\n",
      split, blocks, rounds);
  auto run = [&, split = split, blocks = blocks](const QString& json,
                                                 const QStringList& first_extra) {
    testing::PipelineHarness h;
    h.prepare(json, {{0, split}, {split, blocks}});
    h.start_all(QStringList{"--max-micro-batches", QString::number(n)} + first_extra);
    const auto w = measure(h, warmup, n);
    h.quit_all();
    return w;
  };
  double zb_rate = 0, gp_rate = 0, zb_busy0 = 0, zb_busy1 = 0, gp_busy0 = 0, gp_busy1 = 0;
  for (int r = 0; r < rounds; ++r) {
    const auto zb = run(async_json, {});
    const auto gp = run(gpipe_json, {"--flush-every", "4"});
    std::printf(
        "  round %d: asynchronous %.1f samples/s (busy %.0f%% / %.0f%%), GPipe %.1f samples/s "
        "(busy %.0f%% / %.0f%%)\n",
        r + 1, zb.samples_per_s, 100 * zb.busy_share[0], 100 * zb.busy_share[1], gp.samples_per_s,
        100 * gp.busy_share[0], 100 * gp.busy_share[1]);
    zb_rate += zb.samples_per_s / rounds, gp_rate += gp.samples_per_s / rounds;
    zb_busy0 += zb.busy_share[0] / rounds, zb_busy1 += zb.busy_share[1] / rounds;
    gp_busy0 += gp.busy_share[0] / rounds, gp_busy1 += gp.busy_share[1] / rounds;
  }
  std::printf(
      "RESULT bubble: asynchronous stages busy %.2f / %.2f of wall time (goal >= 0.90), GPipe %.2f "
      "/ %.2f; "
      "asynchronous / GPipe throughput = %.3f (GPipe's bubble with 2 stages and 4 micro-batches is "
      "1/5)\n",
      zb_busy0, zb_busy1, gp_busy0, gp_busy1, zb_rate / gp_rate);
  return 0;
}

// ---- slow links ---------------------------------------------------------------------------
int links(const QStringList& args) {
  const QStringList hosts = arg(args, "--hosts", "").split(',');
  const QStringList netns = arg(args, "--netns", "").split(',');
  const int n = arg(args, "--micro-batches", "24").toInt();
  if (hosts.size() != 2 || netns.size() != 2) {
    std::fprintf(stderr, "links needs --hosts A,B and --netns NS_A,NS_B (run links_bench.sh)\n");
    return 2;
  }
  auto run = [&](const QString& codec) {
    testing::PipelineHarness h;
    // Activations large next to the compute (2 MiB per micro-batch each way, ~2 GFLOP), as
    // over a home uplink: the embedding on one host, the layer and the head on the other.
    h.prepare(demo_json(256, 128, 1, codec, 4, 1), {{0, 1}, {1, 3}});
    // Rewrite the plan's endpoints onto the namespaces' addresses.
    QFile f(h.plan_path);
    f.open(QIODevice::ReadOnly);
    QString plan = QString::fromUtf8(f.readAll());
    f.close();
    for (int i = 0; i < 2; ++i) {
      plan.replace(QString("tcp://127.0.0.1:%1").arg(h.ports[i]),
                   QString("tcp://%1:%2").arg(hosts[i]).arg(7700 + i));
    }
    f.open(QIODevice::WriteOnly | QIODevice::Truncate);
    f.write(plan.toUtf8());
    f.close();
    for (int i = 1; i >= 0; --i) {
      h.nodes[i] = std::make_unique<QProcess>();
      h.nodes[i]->setProcessChannelMode(QProcess::ForwardedErrorChannel);
      h.nodes[i]->start("ip", {"netns", "exec", netns[i], testing::node_bin(), "--data-dir",
                               h.stage_dir(i), "--runtime-dir", h.runtime_dir(i), "--plan",
                               h.plan_path, "--stage", QString::number(i),
                               // stage 0 only embeds: the stage that computes gets both cores
                               "--contribute", "--threads", i == 1 ? "2" : "1",
                               "--benchmark-seconds", "0.05", "--telemetry-ms", "200",
                               "--max-micro-batches", QString::number(n), "--log-level", "warn"});
      h.nodes[i]->waitForStarted(5000);
    }
    const auto w = measure(h, n / 4, n);
    h.quit_all();
    return w.samples_per_s;
  };
  const double fp32 = run("none");
  const double int8 = run("int8");
  std::printf(
      "  fp32 activations and gradients: %.2f samples/s\n  int8 blockwise: %.2f samples/s\n", fp32,
      int8);
  std::printf("RESULT links: int8 / fp32 throughput = %.2f (goal >= 3 when communication-bound)\n",
              int8 / fp32);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  const QStringList args = app.arguments();
  const QString mode = args.size() > 1 ? args[1] : QString();
  if (mode == "overhead") return overhead(args);
  if (mode == "bubble") return bubble(args);
  if (mode == "links") return links(args);
  std::fprintf(stderr,
               "usage: bench_pipeline overhead|bubble|links [options]  (see the top of "
               "bench_pipeline.cpp)\n");
  return 2;
}
