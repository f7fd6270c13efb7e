// What asynchrony costs in learning, and what corrects it, measured side by side in one run:
// the same job trained on the same micro-batches
//   - in one process, synchronously (the reference: what one big machine learns);
//   - in a 3-stage asynchronous pipeline (stages on threads over in-process links, the job's
//     staleness; the delays are the pipeline's own, set by its 1F1B bounds) with
//       no correction, weight prediction alone (the default), weight prediction with
//       PipeMare's learning-rate rescheduling, with global-norm clipping, and with both;
//   - in one process with the same clipping (what clipping does without asynchrony).
// Each prints its loss on the job's held-out windows (testing::evaluate; the demo job holds out
// 5% of Debian's English fortunes) and its ratio to the reference, beside its training loss
// (the final model on the last 512 samples it trained on, forward only).
// Not a timed test: wall seconds are printed for information only.
//
//   bench_staleness [--micro-batches N] [--anneal-steps K] [--max-grad-norm C] [--job FILE]
//       N: 600 (the demo job's figure); K: PipeMare's anneal, N / 4 by default; C: 1.0;
//       FILE: the demo job (resources/demo/demo-job.json).
#include "../../pipeline/local_swarm.hpp"
#include "../../pipeline/reference_training.hpp"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>

using namespace rookery;

namespace {

QString arg(const QStringList& args, const QString& name, const QString& fallback) {
  const int i = args.indexOf(name);
  return i >= 0 && i + 1 < args.size() ? args[i + 1] : fallback;
}

// Three stages of nearly equal block counts.
std::vector<std::pair<int, int>> three_stages(const job::JobSpec& job) {
  const int blocks = static_cast<int>(model::BlockChain::from_job(job).block_count());
  std::vector<std::pair<int, int>> out;
  for (int i = 0; i < 3; ++i) out.emplace_back(blocks * i / 3, blocks * (i + 1) / 3);
  return out;
}

struct Variant {
  const char* name;
  bool pipelined;
  std::function<void(job::JobSpec&)> set;
};

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  const QStringList args = app.arguments();
  const auto micro_batches = arg(args, "--micro-batches", "600").toLongLong();
  const auto anneal = arg(args, "--anneal-steps", QString::number(micro_batches / 4)).toLongLong();
  const double clip = arg(args, "--max-grad-norm", "1.0").toDouble();
  const auto path = arg(args, "--job", ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
  torch::set_num_threads(1);
  job::JobSpec base;
  try {
    base = job::load_job_spec(path.toStdString());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_staleness: %s\n", e.what());
    return 2;
  }
  base.weight_prediction = false;
  base.staleness_lr_anneal_steps = 0;
  base.max_grad_norm = 0;
  const auto stages = three_stages(base);
  std::printf("job %s: %lld micro-batches of %lld, staleness %lld, stages", base.id.c_str(),
              static_cast<long long>(micro_batches), static_cast<long long>(base.micro_batch_size),
              static_cast<long long>(base.staleness));
  for (const auto& [first, last] : stages) std::printf(" [%d, %d)", first, last);
  std::printf("\n");

  const std::vector<Variant> variants{
      {"one process (reference)", false, [](job::JobSpec&) {}},
      {"3 stages, no correction", true, [](job::JobSpec&) {}},
      {"3 stages, weight prediction", true, [](job::JobSpec& j) { j.weight_prediction = true; }},
      {"3 stages, prediction + PipeMare lr", true,
       [&](job::JobSpec& j) {
         j.weight_prediction = true;
         j.staleness_lr_anneal_steps = anneal;
       }},
      {"3 stages, prediction + clipping", true,
       [&](job::JobSpec& j) {
         j.weight_prediction = true;
         j.max_grad_norm = clip;
       }},
      {"3 stages, prediction + PipeMare + clip", true,
       [&](job::JobSpec& j) {
         j.weight_prediction = true;
         j.staleness_lr_anneal_steps = anneal;
         j.max_grad_norm = clip;
       }},
      {"one process, clipping", false, [&](job::JobSpec& j) { j.max_grad_norm = clip; }},
  };
  std::printf("%-38s %8s %9s %8s %8s %10s\n", "variant", "train", "held-out", "ratio", "wall s",
              "estimated");
  const std::int64_t trained = micro_batches * base.micro_batch_size;
  const std::int64_t last_trained = std::min<std::int64_t>(512, trained);
  double reference = 0;
  for (const auto& v : variants) {
    auto job = base;
    v.set(job);
    const auto t0 = std::chrono::steady_clock::now();
    testing::Params params;
    std::int64_t estimated = 0;
    try {
      if (v.pipelined) {
        std::vector<pipeline::StageStats> stats;
        params = testing::train_in_pipeline(job, stages, micro_batches, &stats);
        for (const auto& s : stats) estimated += s.clip_estimated_steps;
      } else {
        params = testing::train_in_one_process(job, micro_batches);
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", v.name, e.what());
      return 1;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double train = testing::training_loss(job, params, trained - last_trained, last_trained);
    const double loss = testing::evaluate(job, params);
    if (reference == 0) reference = loss;
    std::printf("%-38s %8.4f %9.4f %8.3f %8.1f %10lld\n", v.name, train, loss, loss / reference,
                seconds, static_cast<long long>(estimated));
    std::fflush(stdout);
  }
  std::printf(
      "(train: on the last %lld samples trained; held-out: on the job's held-out windows; "
      "estimated: steps of later stages clipped with an estimated global norm)\n",
      static_cast<long long>(last_trained));
  return 0;
}
