// What asynchrony costs in learning, and what corrects it, measured side by side in one run:
// the same job trained on the same micro-batches
//   - in one process, synchronously (the reference: what one big machine learns);
//   - in a 3-stage asynchronous pipeline (stages on threads over in-process links, the job's
//     staleness; the delays are the pipeline's own, set by its 1F1B bounds) with
//       no correction, weight prediction alone (the default), Nesterov look-ahead (the
//       forward on the master moved on by the delay along the momentum of its updates),
//       weight prediction with PipeMare's learning-rate rescheduling, with
//       global-norm clipping, and with both;
//   - in one process with the same clipping (what clipping does without asynchrony);
//   - in the same pipeline (weight prediction) with the job's activations and gradients
//     int8 on the wire (4x), and as low-rank int8 factors (job.boundary: lowrank) at rank 24
//     (about 19x fewer bytes than fp32 on the demo's micro-batches) and rank 8 (about 56x).
// Each prints its loss on the job's held-out windows (testing::evaluate; the demo job holds out
// 5% of Debian's English fortunes) and its ratio to the reference, beside its training loss
// (the final model on the last 512 samples it trained on, forward only). Pipelined variants
// also print their held-out loss relative to the uncompressed pipeline (weight prediction),
// and the bytes their stages sent per micro-batch (both boundaries, forward and backward).
// Measured with --boundary-only after 600 micro-batches (held-out loss; ratio to one process,
// to the uncompressed pipeline; bytes per micro-batch): one process 2.546; the pipeline 2.562
// (1.006), 2.11 MB; int8 2.564 (1.007, 1.001), 549 kB; lowrank 24 2.573 (1.011, 1.004), 130 kB;
// lowrank 8 2.619 (1.029, 1.022), 55 kB, of which 16 kB are the targets (int64, raw).
// The Nesterov look-ahead, after 600 micro-batches (held-out ratio to one process): weight
// prediction 1.007; look-ahead with momentum 0.3 1.008, 0.5 1.010, 0.7 1.014, 0.9 1.023. AdamW's
// update already carries its first moment, so smoothing it again only makes the prediction lag.
// Not a timed test: wall seconds are printed for information only.
//
//   bench_staleness [--micro-batches N] [--anneal-steps K] [--max-grad-norm C] [--job FILE]
//                   [--boundary-only] [--lookahead G] [--only LIST]
//       N: 600 (the demo job's figure); K: PipeMare's anneal, N / 4 by default; C: 1.0;
//       FILE: the demo job (resources/demo/demo-job.json); --boundary-only: the reference,
//       the uncompressed pipeline and the compressed ones alone; G: the look-ahead's
//       momentum, 0.9; LIST: run only the reference and the variants whose names hold one
//       of these (comma-separated) words.
#include "../../pipeline/local_swarm.hpp"
#include "../../pipeline/reference_training.hpp"
#include "bench_args.hpp"
#include "pipeline/boundary_compression.hpp"
#include "pipeline/stage_messages.hpp"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>

using namespace rookery;

namespace {

struct Variant {
  const char* name;
  bool pipelined;
  std::function<void(job::JobSpec&)> set;
  bool boundary = false;  // run with --boundary-only
};

std::size_t frame_bytes(const std::vector<zmq::message_t>& frames) {
  std::size_t n = 0;
  for (const auto& f : frames) n += f.size();
  return n;
}

// One micro-batch's gradient message as the job's settings would send it (a gradient carries
// the same [samples, tokens, width] as the activations, and no targets).
std::size_t backward_bytes(const job::JobSpec& job, wire::Codec codec) {
  const auto shape = pipeline::boundary_shape(job);
  const auto* gpt = std::get_if<job::GptSpec>(&job.model.arch);
  if (!gpt) return 0;
  const auto x = torch::randn({job.micro_batch_size, gpt->context, gpt->width});
  return frame_bytes(
      pipeline::encode_backward(job.id, {0, 0, job.micro_batch_size, 1.0}, x, codec, shape));
}

// The wire bytes of one micro-batch's boundary tensor, fp32 and int8 against low-rank.
void print_boundary_bytes(const job::JobSpec& base) {
  if (!std::holds_alternative<job::GptSpec>(base.model.arch)) return;
  const auto fp32 = backward_bytes(base, wire::Codec::None);
  const auto int8 = backward_bytes(base, wire::Codec::Int8Block);
  std::printf(
      "one boundary tensor on the wire (backward message, header included): fp32 %zu B, "
      "int8 %zu B",
      fp32, int8);
  for (std::int64_t rank : {24, 8}) {
    auto job = base;
    job.boundary = {job::BoundaryKind::lowrank, rank};
    const auto bytes = backward_bytes(job, wire::Codec::None);
    std::printf(", lowrank %lld %zu B (%.1fx fp32, %.1fx int8)", static_cast<long long>(rank),
                bytes, double(fp32) / double(bytes), double(int8) / double(bytes));
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  const QStringList args = app.arguments();
  using bench::arg;
  using bench::no_spot_checks;
  const auto micro_batches = arg(args, "--micro-batches", "600").toLongLong();
  const auto anneal = arg(args, "--anneal-steps", QString::number(micro_batches / 4)).toLongLong();
  const double clip = arg(args, "--max-grad-norm", "1.0").toDouble();
  const auto path = arg(args, "--job", ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
  const bool boundary_only = args.contains("--boundary-only");
  const double lookahead = arg(args, "--lookahead", "0.9").toDouble();
  const auto only = arg(args, "--only", "").split(',', Qt::SkipEmptyParts);
  const auto lookahead_name =
      "3 stages, Nesterov look-ahead " + std::to_string(lookahead).substr(0, 4);
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
  base.nesterov_lookahead = 0;
  base.max_grad_norm = 0;
  const auto stages = bench::three_stages(base);
  std::printf("job %s: %lld micro-batches of %lld, staleness %lld, stages", base.id.c_str(),
              static_cast<long long>(micro_batches), static_cast<long long>(base.micro_batch_size),
              static_cast<long long>(base.staleness));
  for (const auto& [first, last] : stages) std::printf(" [%d, %d)", first, last);
  std::printf("\n");

  const std::vector<Variant> variants{
      {"one process (reference)", false, [](job::JobSpec&) {}, true},
      {"3 stages, no correction", true, [](job::JobSpec&) {}},
      {"3 stages, weight prediction", true, [](job::JobSpec& j) { j.weight_prediction = true; },
       true},
      {lookahead_name.c_str(), true, [&](job::JobSpec& j) { j.nesterov_lookahead = lookahead; }},
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
      {"3 stages, prediction, int8 wire", true,
       [](job::JobSpec& j) {
         j.weight_prediction = true;
         j.codec = job::Codec::int8;
       },
       true},
      {"3 stages, prediction, lowrank 24", true,
       [](job::JobSpec& j) {
         j.weight_prediction = true;
         j.boundary = {job::BoundaryKind::lowrank, 24};
         no_spot_checks(j);
       },
       true},
      {"3 stages, prediction, lowrank 8", true,
       [](job::JobSpec& j) {
         j.weight_prediction = true;
         j.boundary = {job::BoundaryKind::lowrank, 8};
         no_spot_checks(j);
       },
       true},
  };
  print_boundary_bytes(base);
  std::printf("%-38s %8s %9s %8s %8s %8s %10s %10s\n", "variant", "train", "held-out", "ratio",
              "vs pipe", "wall s", "estimated", "B/mb");
  const std::int64_t trained = micro_batches * base.micro_batch_size;
  const std::int64_t last_trained = std::min<std::int64_t>(512, trained);
  double reference = 0;
  double uncompressed_pipeline = 0;
  for (const auto& v : variants) {
    if (boundary_only && !v.boundary) continue;
    const bool named = std::any_of(only.begin(), only.end(),
                                   [&](const QString& o) { return QString(v.name).contains(o); });
    if (!only.isEmpty() && &v != &variants.front() && !named) continue;
    auto job = base;
    v.set(job);
    const auto t0 = std::chrono::steady_clock::now();
    testing::Params params;
    std::int64_t estimated = 0;
    std::uint64_t bytes_sent = 0;
    try {
      if (v.pipelined) {
        std::vector<pipeline::StageStats> stats;
        params = testing::train_in_pipeline(job, stages, micro_batches, &stats);
        for (const auto& s : stats) {
          estimated += s.clip_estimated_steps;
          bytes_sent += s.bytes_sent;
        }
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
    if (v.pipelined && uncompressed_pipeline == 0 && job.weight_prediction &&
        job.codec == job::Codec::none && job.boundary.kind == job::BoundaryKind::none &&
        job.max_grad_norm == 0 && job.staleness_lr_anneal_steps == 0 && job.nesterov_lookahead == 0)
      uncompressed_pipeline = loss;
    char vs_pipe[16] = "-", per_mb[24] = "-";
    if (v.pipelined && uncompressed_pipeline > 0)
      std::snprintf(vs_pipe, sizeof vs_pipe, "%.3f", loss / uncompressed_pipeline);
    if (v.pipelined)
      std::snprintf(per_mb, sizeof per_mb, "%.0f",
                    double(bytes_sent) / double(std::max<std::int64_t>(micro_batches, 1)));
    std::printf("%-38s %8.4f %9.4f %8.3f %8s %8.1f %10lld %10s\n", v.name, train, loss,
                loss / reference, vs_pipe, seconds, static_cast<long long>(estimated), per_mb);
    std::fflush(stdout);
  }
  std::printf(
      "(train: on the last %lld samples trained; held-out: on the job's held-out windows; "
      "estimated: steps of later stages clipped with an estimated global norm; vs pipe: held-out "
      "loss over the uncompressed pipeline's; B/mb: bytes all stages sent per micro-batch)\n",
      static_cast<long long>(last_trained));
  return 0;
}
