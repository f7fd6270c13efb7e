// Learning as well as one big machine, with more than one pipeline: the same job on real text
// (the demo job: Debian's English fortunes, 5% held out) trained
//   - in one process, synchronously (the reference);
//   - in one asynchronous pipeline of 3 stages (weight prediction, the job's staleness);
//   - in 2 and 4 such pipelines that average as the swarm does (outer steps on the job's
//     codec's pseudo-gradients in Ravnest's rings over ZeroMQ, every --interval-ms), at equal
//     samples: each of P pipelines trains N / P micro-batches, then every stage applies two
//     more rounds so the replicas meet; with each averaging codec of --codecs, and with the
//     job's aggregator (CenteredClip, the swarm's defence) and the plain mean; and, beside each
//     such one ring across the pipelines, in Moshpit groups of at most B pipelines for each B
//     of --groups (job.averaging_max_group; "B/S" also sets outer.anchor_sync_every to S,
//     which in groups counts sweeps of d rounds: S 1 averages the anchors in every round);
// and prints each one's held-out loss (pipeline 0's replica), its ratio to the reference, to
// one process stepping on the same global batch as the P pipelines, and to the one pipeline, and the bytes sent per trained sample across stage boundaries and in
// the averaging rings.
//
// Then the wall clock, side by side in this run: one pipeline trains N micro-batches and
// --wall-pipelines pipelines N each, every --sample-every seconds their weights are copied
// (pauses off the clock) and evaluated afterwards, and it prints the seconds each took to
// reach the reference's final held-out loss and the one pipeline's ("-": not within its N
// micro-batches). More pipelines only help when there are cores for their stages: one pipeline
// keeps 3 busy, so the comparison means something on a machine with 3 x --wall-pipelines
// cores; the core count is printed. Not a timed test: nothing is asserted about speed.
//
// Measured after 600 micro-batches on 16 cores (held-out loss, ratio to one process): one
// process 2.546; 1 pipeline 2.564 (1.007); at equal samples 2 pipelines 2.653-2.672
// (1.042-1.049), 4 pipelines 2.803-2.825 (1.101-1.109), int8 or not, CenteredClip or the mean;
// int8 rings send 2.5-3.2x fewer bytes than f32 ones (anchor syncs stay f32). Wall clock: 4
// pipelines reached the one pipeline's final loss in 22.4 s against its 22.7 s, and the
// reference's in 24.1 s, which one pipeline did not reach in its 600 micro-batches.
//
// Beside the reference, one big machine with P pipelines' throughput: one process stepping on
// the global batch P pipelines train on (P micro-batches a step, N / P steps), the comparison
// data parallelism is held to. Measured on the shared 2-core machine, 600 micro-batches, int8
// rings, CenteredClip, one run each: batch 2 x 16 2.606 (1.023 of the reference), batch 4 x 16
// 2.747 (1.079); 2 pipelines 2.654, 1.018 of their big machine; 4 pipelines 2.808, 1.022 (31
// rounds in 36 s of 12 stages on 2 cores), and with averaging every 250 ms 2.851, 1.038 (25
// rounds: the rings starve the stages of CPU).
//
// Groups against one ring, measured on the shared 2-core machine (others building beside it),
// 400 micro-batches, 4 pipelines, int8, held-out loss ratio to one process, one run each, the
// pairs side by side in one run: CenteredClip, one ring 1.138 and 1.144, groups of 2 1.133 and
// 1.135; the mean, one ring 1.108 and 1.139, groups of 2 1.129 and 1.124. The groups converge
// as the ring does within the spread of the runs (the ring alone spans 1.108-1.144), with
// 0.45-0.55x the ring's averaging bytes per sample under CenteredClip (0.87-0.88x with the
// mean) and more rounds (46-63 against 29-52: a 2-member round ends sooner). Anchors in every round
// (groups "2/1") did worse, 1.147 and 1.179: their f32 rounds outlast the interval, so fewer
// happen (18 and 13).
//
// DiLoCo's outer momentum (--job with "outer": {"lr": 0.7, "momentum": 0.9}), 4 pipelines, int8,
// CenteredClip, 600 micro-batches, the 2-core machine, one run each, against the big machine:
// with rounds every 2000 ms 1.020x (the plain average 1.024x in the same setting), nobody
// excluded; every 500 ms 1.147x with 3 honest partners excluded: there, sync rounds of three
// verified rings (pseudo-gradient, anchor, momentum) mostly miss their 83 ms waits, so
// members that sat out a round are not brought back (StageAveraging's header says why that
// matters with momentum).
//
//   bench_convergence [--micro-batches N] [--interval-ms I] [--sample-every S] [--codecs LIST]
//                     [--pipelines LIST] [--aggregators LIST] [--groups LIST] [--wall-pipelines W]
//                     [--job FILE]
//       N: 600; I: 500; S: 2.0 (0: no wall-clock comparison); LIST: none,int8, 2,4,
//       centered_clip,mean and 0,2 (0: one ring; a bound of P or more is one ring, not run); W: 4;
//       FILE: the demo job (resources/demo/demo-job.json).
#include "../../pipeline/reference_training.hpp"
#include "averaging_pipelines.hpp"
#include "bench_args.hpp"

#include <QCoreApplication>
#include <QStringList>

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <thread>

using namespace rookery;

namespace {

// When the loss curve (seconds, loss) first reaches `target`, between two points linearly.
std::optional<double> seconds_to_reach(const std::vector<std::pair<double, double>>& curve,
                                       double target) {
  for (std::size_t i = 0; i < curve.size(); ++i) {
    const auto [t, loss] = curve[i];
    if (loss > target) continue;
    if (i == 0) return t;
    const auto [t0, l0] = curve[i - 1];
    return t0 + (t - t0) * (l0 - target) / (l0 - loss);
  }
  return std::nullopt;
}

std::string show_seconds(std::optional<double> s) {
  if (!s) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", *s);
  return buf;
}

// The held-out curve of a timed run, from the initial weights' loss at 0 s.
std::vector<std::pair<double, double>> held_out_curve(const job::JobSpec& job,
                                                      const testing::AveragingRun& run,
                                                      double initial) {
  std::vector<std::pair<double, double>> out{{0.0, initial}};
  for (const auto& p : run.curve) out.emplace_back(p.seconds, testing::evaluate(job, p.params));
  return out;
}

// One pipeline against `pipelines` averaging ones, each training N micro-batches: the
// seconds each takes to reach the reference's and the one pipeline's final held-out loss.
void wall_clock(const job::JobSpec& job, const std::vector<std::pair<int, int>>& stages,
                const testing::AveragingRun& single, double reference, double one_pipeline,
                std::int64_t micro_batches, std::chrono::milliseconds interval, double sample_every,
                int pipelines) {
  testing::AveragingOptions o;
  o.pipelines = pipelines;
  o.micro_batches = micro_batches;
  o.interval = interval;
  o.sample_every = sample_every;
  const auto many = testing::train_averaging_pipelines(job, stages, o);
  const double initial = testing::evaluate(job, testing::initial_parameters(job));
  const auto a = held_out_curve(job, single, initial);
  const auto b = held_out_curve(job, many, initial);
  std::printf(
      "wall clock (weights copied every %.1f s of training, pauses off the clock; %s codec):\n",
      sample_every, std::string(job::to_string(job.codec)).c_str());
  std::printf("  %-24s %10s %10s %14s %22s %22s\n", "", "trained s", "samples", "final held-out",
              "s to reference's loss", "s to 1 pipeline's loss");
  std::printf("  %-24s %10s %10s %14s %22.4f %22.4f\n", "(target)", "", "", "", reference,
              one_pipeline);
  auto line = [&](const std::string& name, const testing::AveragingRun& r,
                  const std::vector<std::pair<double, double>>& curve) {
    std::printf("  %-24s %10.1f %10lld %14.4f %22s %22s\n", name.c_str(),
                r.seconds + r.settle_seconds, static_cast<long long>(r.samples),
                curve.back().second, show_seconds(seconds_to_reach(curve, reference)).c_str(),
                show_seconds(seconds_to_reach(curve, one_pipeline)).c_str());
  };
  line("1 pipeline", single, a);
  line(std::to_string(pipelines) + " pipelines averaging", many, b);
  const auto sa = seconds_to_reach(a, one_pipeline), sb = seconds_to_reach(b, one_pipeline);
  if (sa && sb)
    std::printf("  %d pipelines reach the 1 pipeline's final loss %.2fx as fast\n", pipelines,
                *sa / *sb);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  const QStringList args = app.arguments();
  using bench::arg;
  const auto micro_batches = arg(args, "--micro-batches", "600").toLongLong();
  const auto interval = std::chrono::milliseconds(arg(args, "--interval-ms", "500").toLongLong());
  const double sample_every = arg(args, "--sample-every", "2.0").toDouble();
  const auto codecs = arg(args, "--codecs", "none,int8").split(',');
  const auto counts = arg(args, "--pipelines", "2,4").split(',');
  const auto aggregators = arg(args, "--aggregators", "centered_clip,mean").split(',');
  const auto group_bounds = arg(args, "--groups", "0,2").split(',');
  const int wall_pipelines = arg(args, "--wall-pipelines", "4").toInt();
  const auto path = arg(args, "--job", ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
  torch::set_num_threads(1);
  spdlog::set_level(spdlog::level::warn);  // the rings log every round
  job::JobSpec base;
  try {
    base = job::load_job_spec(path.toStdString());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_convergence: %s\n", e.what());
    return 2;
  }
  const auto stages = bench::three_stages(base);
  std::printf(
      "job %s: %lld micro-batches of %lld, staleness %lld, weight prediction %s, averaging "
      "every %lld ms (outer lr %g, momentum %g), %u cores, stages",
      base.id.c_str(), static_cast<long long>(micro_batches),
      static_cast<long long>(base.micro_batch_size), static_cast<long long>(base.staleness),
      base.weight_prediction ? "on" : "off", static_cast<long long>(interval.count()),
      base.outer.lr, base.outer.momentum, std::thread::hardware_concurrency());
  for (const auto& [first, last] : stages) std::printf(" [%d, %d)", first, last);
  std::printf("\n");

  const double per_sample = 1.0 / double(micro_batches * base.micro_batch_size);
  double reference = 0, one_pipeline = 0;
  testing::AveragingRun single;
  try {
    auto t0 = std::chrono::steady_clock::now();
    reference = testing::evaluate(base, testing::train_in_one_process(base, micro_batches));
    const double ref_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%-50s %9s %8s %9s %9s %8s %8s %8s %12s %12s %7s\n", "variant", "samples",
                "held-out", "vs ref", "vs batch", "vs 1 pipe", "train s", "settle s",
                "boundary B/s", "averaging B/s", "rounds");
    std::printf("%-50s %9lld %8.4f %9.3f %9s %8s %8.1f %8s %12s %12s %7s\n",
                "one process (reference)",
                static_cast<long long>(micro_batches * base.micro_batch_size), reference, 1.0, "-",
                "-", ref_seconds, "-", "-", "-", "-");
    // One big machine with P pipelines' throughput: one process stepping on the global batch
    // they train on between them (P micro-batches a step), so N / P steps on the same samples.
    // Data parallelism is held to this (DiLoCo's "DDP-level loss"); the reference above takes
    // P times more steps on batches P times smaller.
    std::map<int, double> big_batch;
    for (const auto& count : counts) {
      const int p = count.toInt();
      if (p < 2 || big_batch.count(p)) continue;
      auto big = base;
      big.micro_batch_size = base.micro_batch_size * p;
      t0 = std::chrono::steady_clock::now();
      big_batch[p] = testing::evaluate(base, testing::train_in_one_process(big, micro_batches / p));
      const std::string name = "one process, batch " + std::to_string(p) + " x " +
                               std::to_string(base.micro_batch_size) + " (" + std::to_string(p) +
                               " pipelines' step)";
      std::printf("%-50s %9lld %8.4f %9.3f %9.3f %8s %8.1f %8s %12s %12s %7s\n", name.c_str(),
                  static_cast<long long>(micro_batches / p * big.micro_batch_size), big_batch[p],
                  big_batch[p] / reference, 1.0, "-",
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), "-",
                  "-", "-", "-");
    }
    std::fflush(stdout);
    double batch_reference = 0;  // the big machine for the rows' pipeline count (0: none)
    auto row = [&](const char* name, const testing::AveragingRun& r) {
      const double loss = testing::evaluate(base, r.params);
      if (one_pipeline == 0) one_pipeline = loss;
      char rounds[24] = "-", vs_batch[24] = "-";
      if (r.rounds > 0) std::snprintf(rounds, sizeof rounds, "%lld", (long long)r.rounds);
      if (batch_reference > 0)
        std::snprintf(vs_batch, sizeof vs_batch, "%.3f", loss / batch_reference);
      std::printf("%-50s %9lld %8.4f %9.3f %9s %8.3f %8.1f %8.1f %12.0f %12.0f %7s\n", name,
                  static_cast<long long>(r.samples), loss, loss / reference, vs_batch,
                  loss / one_pipeline, r.seconds, r.settle_seconds,
                  double(r.boundary_bytes) * per_sample, double(r.averaging_bytes) * per_sample,
                  rounds);
      std::fflush(stdout);
    };
    testing::AveragingOptions one;
    one.micro_batches = micro_batches;
    one.sample_every = sample_every;
    single = testing::train_averaging_pipelines(base, stages, one);
    row("1 pipeline (3 stages)", single);
    for (const auto& count : counts) {
      for (const auto& aggregator : aggregators) {
        for (const auto& codec : codecs) {
          auto job = base;
          const auto c = bench::codec_named(codec);
          if (!c) throw std::runtime_error("no codec named " + codec.toStdString());
          job.codec = *c;
          if (aggregator == "mean") {
            job.aggregator.kind = job::AggregatorKind::mean;
          } else if (aggregator != "centered_clip") {
            throw std::runtime_error("no aggregator named " + aggregator.toStdString());
          }
          testing::AveragingOptions o;
          o.pipelines = count.toInt();
          o.micro_batches = micro_batches / o.pipelines;
          batch_reference = big_batch.count(o.pipelines) ? big_batch[o.pipelines] : 0;
          o.interval = interval;
          for (const auto& groups : group_bounds) {
            const auto bound = groups.section('/', 0, 0).toLongLong();
            if (bound >= o.pipelines || (bound == 0 && groups.contains('/'))) continue;
            auto grouped = job;
            grouped.averaging_max_group = bound;
            if (groups.contains('/'))
              grouped.outer.anchor_sync_every = groups.section('/', 1, 1).toLongLong();
            job::validate(grouped);
            QString name = QString("%1 pipelines, %2%3")
                               .arg(count, codec, aggregator == "mean" ? ", mean" : "");
            if (bound > 0) {
              name += QString(", groups of %1, anchors /%2 sweeps")
                          .arg(bound)
                          .arg(grouped.outer.anchor_sync_every);
            } else if (group_bounds.size() > 1) {
              name += ", one ring";
            }
            row(name.toStdString().c_str(), testing::train_averaging_pipelines(grouped, stages, o));
          }
        }
      }
    }
    if (sample_every > 0 && wall_pipelines >= 2)
      wall_clock(base, stages, single, reference, one_pipeline, micro_batches, interval,
                 sample_every, wall_pipelines);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_convergence: %s\n", e.what());
    return 1;
  }
  return 0;
}
