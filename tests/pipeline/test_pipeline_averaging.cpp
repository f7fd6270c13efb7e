// Ravnest's parallel multi-ring all-reduce inside running pipelines: two pipelines of real
// rookery-node processes, cut at different block boundaries, train the same job on different
// data and average every few steps. Their replicas must stay together (the stages holding
// the same parameters in different pipelines meet in rings that span their overlaps), and
// the same run without averaging must drift apart, which shows the test has teeth. The
// same holds for the optimizer's moments (AdamW's exp_avg and exp_avg_sq), which ride in the
// same rings every job.average_optimizer_state_every-th round. The job's codec is int8: the
// rounds average int8 pseudo-gradients with error feedback (outer steps), never the weights,
// and every 8th round syncs the anchors in f32, so the replicas still become one model.
#include "reference_training.hpp"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

#include "reduce/shard_buffers.hpp"
#include "support/swarm_harness.hpp"

using namespace rookery;

class TestPipelineAveraging : public QObject {
  Q_OBJECT

  struct Run {
    std::vector<testing::Params>
        pipelines;  // each pipeline's whole model, from its stages' checkpoints
    std::vector<std::map<std::string, std::vector<float>>>
        moments;  // each pipeline's optimizer state, whole model
    job::JobSpec job;
    std::int64_t checks_passed = 0, checks_failed = 0, checks_incomparable = 0;
    std::vector<std::string> caught;  // stages a check caught (every stage here is honest)
  };

  static Run train(int averaging_interval_ms, int micro_batches) {
    testing::SwarmHarness h;
    QString json = testing::gpt_job_json("averaging", 2, "int8", 2, 64, 1e-3);
    // Moments every 4th round. Spot-checks at a fifth of the micro-batches: the pipelines are
    // cut differently, so each is checked by chains through the other's stages, and honest
    // replicas drift apart, far (0.9 to 1.06) in the run that never averages and early in
    // both. Nobody honest may be caught (pipeline/common_point.hpp).
    json.replace("\"seed\": 11",
                 "\"seed\": 11, \"average_optimizer_state_every\": 4, \"spot_checks\": "
                 "{\"rate\": 0.2, \"probation\": 3}");
    // Pipeline 0 cuts at block 2, pipeline 1 at block 1: three rings ([0,1), [1,2), [2,4)).
    const std::vector<testing::SwarmHarness::Blocks> plan{{{0, 2}, {2, 4}}, {{0, 1}, {1, 4}}};
    Run run;
    if (!h.prepare(json, plan, averaging_interval_ms)) return {};
    if (!h.start_all({"--max-micro-batches", QString::number(micro_batches)})) return {};
    if (!h.wait_finished(300000)) return {};
    // Every pipeline has finished; idle stages go on averaging, so after a few windows the
    // replicas are one model (when averaging works).
    QTest::qWait(12 * averaging_interval_ms < 10000 ? 12 * averaging_interval_ms : 0);
    // Each stage's ring partners (what the dashboard lists): the stages of the other
    // pipeline whose blocks overlap its own, with the parameters they share.
    const auto values =
        reduce::block_parameter_counts(job::parse_job_spec(json.toStdString()).model);
    auto shared = [&](std::int64_t a0, std::int64_t a1, std::int64_t b0, std::int64_t b1) {
      std::int64_t n = 0;
      for (auto b = std::max(a0, b0); b < std::min(a1, b1); ++b) n += values[std::size_t(b)];
      return n;
    };
    for (int p = 0; p < 2; ++p) {
      for (int st = 0; st < 2; ++st) {
        const auto a = h.snapshot(p, st).stage();
        qInfo(
            "pipeline %d stage %d: %lld ring(s), %lld round(s) averaged, %lld alone, %lld "
            "skipped; spot-checks %lld passed, %lld failed, %lld incomparable",
            p, st, static_cast<long long>(a.averaging_rings()),
            static_cast<long long>(a.averaging_rounds()),
            static_cast<long long>(a.averaging_alone()),
            static_cast<long long>(a.averaging_skipped()),
            static_cast<long long>(a.spot_checks_passed()),
            static_cast<long long>(a.spot_checks_failed()),
            static_cast<long long>(a.spot_checks_incomparable()));
        run.checks_passed += a.spot_checks_passed();
        run.checks_failed += a.spot_checks_failed();
        run.checks_incomparable += a.spot_checks_incomparable();
        for (const auto& k : a.caught_peers()) run.caught.push_back(k);
        const auto& mine = plan[std::size_t(p)][std::size_t(st)];
        std::vector<std::string> expected;  // their keys
        std::vector<std::size_t> stage_of;  // and their stages in the other pipeline
        for (int other = 0; other < 2; ++other) {
          const auto& theirs = plan[std::size_t(1 - p)][std::size_t(other)];
          if (shared(mine.first, mine.second, theirs.first, theirs.second) > 0) {
            expected.push_back(h.keys[std::size_t(h.index(1 - p, other))].toStdString());
            stage_of.push_back(std::size_t(other));
          }
        }
        if (a.ring_partners_size() != int(expected.size())) {
          qWarning("pipeline %d stage %d lists %d ring partners, expected %zu", p, st,
                   a.ring_partners_size(), expected.size());
          return {};
        }
        for (int i = 0; i < a.ring_partners_size(); ++i) {
          const auto& partner = a.ring_partners(i);
          const auto other = std::size_t(
              std::find(expected.begin(), expected.end(), partner.key()) - expected.begin());
          if (other == expected.size() || partner.pipeline() != std::uint32_t(1 - p) ||
              partner.endpoint().rfind("tcp://", 0) != 0) {
            qWarning("pipeline %d stage %d: unexpected ring partner %s", p, st,
                     partner.key().c_str());
            return {};
          }
          const auto& theirs = plan[std::size_t(1 - p)][stage_of[other]];
          if (partner.shared_values() !=
              shared(mine.first, mine.second, theirs.first, theirs.second)) {
            qWarning("pipeline %d stage %d: shares %lld values with %s", p, st,
                     static_cast<long long>(partner.shared_values()), partner.key().c_str());
            return {};
          }
        }
      }
    }
    if (!h.quit_all()) return {};
    run.job = job::load_job_spec(h.job_path.toStdString());
    for (int p = 0; p < 2; ++p) {
      std::vector<std::filesystem::path> ckpts;
      for (int s = 0; s < 2; ++s) ckpts.push_back(h.checkpoint(p, s, run.job.id));
      run.pipelines.push_back(testing::read_stage_checkpoints(ckpts));
      run.moments.push_back(read_moments(run.job, ckpts));
    }
    return run;
  }

  // A pipeline's optimizer state for the whole model, from its stages' checkpoints (block order).
  static std::map<std::string, std::vector<float>> read_moments(
      const job::JobSpec& job, const std::vector<std::filesystem::path>& ckpts) {
    std::map<std::string, std::vector<float>> out;
    const auto chain = model::BlockChain::from_job(job);
    for (const auto& path : ckpts) {
      pipeline::CheckpointCounters c;
      pipeline::read_checkpoint_parameters(path, &c);
      auto shard = chain.shard(c.blocks);
      auto optimizer = model::make_optimizer(job.optimizer, shard.parameters());
      pipeline::load_checkpoint(path, shard, optimizer, job.id, c.blocks);
      for (const auto& name : optimizer.state_buffer_names()) {
        const auto v = optimizer.state_buffer(name);
        out[name].insert(out[name].end(), v.begin(), v.end());
      }
    }
    return out;
  }

  // ||a - b|| / ||a||, in double.
  static double relative_gap(const std::vector<float>& a, const std::vector<float>& b) {
    double gap = 0, norm = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      gap += (double(a[i]) - double(b[i])) * (double(a[i]) - double(b[i]));
      norm += double(a[i]) * double(a[i]);
    }
    return a.size() == b.size() && norm > 0 ? std::sqrt(gap / norm)
                                            : std::numeric_limits<double>::infinity();
  }

  // ||a - b|| / ||a - init||: how far apart the replicas are, relative to how far they trained.
  static double relative_gap(const testing::Params& a, const testing::Params& b,
                             const testing::Params& init) {
    double gap = 0, moved = 0;
    for (const auto& [name, t] : a) {
      gap += (t - b.at(name)).pow(2).sum().item<double>();
      moved += (t - init.at(name)).pow(2).sum().item<double>();
    }
    return std::sqrt(gap / moved);
  }

 private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  void replicasStayTogetherOnlyWhenAveraged() {
    constexpr int kMicroBatches = 400;
    const auto averaged = train(250, kMicroBatches);
    QVERIFY(averaged.pipelines.size() == 2 && !averaged.pipelines[0].empty() &&
            !averaged.pipelines[1].empty());
    const auto alone = train(86'400'000, kMicroBatches);  // once a day: never within this run
    QVERIFY(alone.pipelines.size() == 2 && !alone.pipelines[0].empty() &&
            !alone.pipelines[1].empty());

    const auto init = testing::initial_parameters(averaged.job);
    const double gap_averaged = relative_gap(averaged.pipelines[0], averaged.pipelines[1], init);
    const double gap_alone = relative_gap(alone.pipelines[0], alone.pipelines[1], init);
    const double start = testing::evaluate(averaged.job, init);
    const double loss_averaged = testing::evaluate(averaged.job, averaged.pipelines[0]);
    const double loss_alone = testing::evaluate(alone.job, alone.pipelines[0]);
    qInfo(
        "replica gap |p0 - p1| / |p0 - init| at the end: averaged every 0.25 s %.6f, never "
        "averaged %.4f (ratio %.4f)",
        gap_averaged, gap_alone, gap_averaged / gap_alone);
    qInfo("held-out loss of pipeline 0: start %.4f, averaged %.4f, alone %.4f", start,
          loss_averaged, loss_alone);
    // Spot-checks: every stage here is honest, so none may fail, in either run; the averaged
    // run's replicas met often enough for checks to be judged.
    for (const auto* r : {&averaged, &alone}) {
      qInfo("spot-checks %s: %lld passed, %lld failed, %lld incomparable, %zu stage(s) caught",
            r == &averaged ? "averaged" : "alone", static_cast<long long>(r->checks_passed),
            static_cast<long long>(r->checks_failed),
            static_cast<long long>(r->checks_incomparable), r->caught.size());
      QVERIFY2(r->caught.empty(), "an honest stage was caught by a spot-check");
      QCOMPARE(r->checks_failed, std::int64_t{0});
    }
    QVERIFY2(averaged.checks_passed > 0, "no spot-check of the averaged run was judged");
    QVERIFY(loss_averaged < 0.8 * start);  // averaging did not stop training
    QVERIFY(gap_alone > 0.2);              // without averaging, different data drives them apart
    // Idle after training, the averaged replicas met in the last rounds: one model, up to
    // float rounding in the rings.
    QVERIFY2(gap_averaged < 0.01 * gap_alone, "the replicas did not become one model");
    // Data parallelism across pipelines: each replica learned from both pipelines' samples.
    QVERIFY2(loss_averaged < loss_alone, "averaging did not make training more sample-efficient");
    // The optimizer state: every 4th round carried it, so the idle replicas' moments became
    // one too, while without averaging different data gave each pipeline its own.
    QCOMPARE(averaged.job.average_optimizer_state_every, std::int64_t{4});
    for (const char* name : {"adamw.exp_avg", "adamw.exp_avg_sq"}) {
      const auto& a = averaged.moments[0].at(name);
      const double moments_averaged = relative_gap(a, averaged.moments[1].at(name));
      const double moments_alone =
          relative_gap(alone.moments[0].at(name), alone.moments[1].at(name));
      qInfo("%s gap between the pipelines |m0 - m1| / |m0|: averaged %.3g, never averaged %.3g",
            name, moments_averaged, moments_alone);
      QVERIFY2(moments_alone > 0.05,
               "without averaging the pipelines' moments did not differ: the test has no teeth");
      QVERIFY2(moments_averaged < 0.01 * moments_alone,
               "the replicas' optimizer moments were not averaged");
    }
  }
};

QTEST_GUILESS_MAIN(TestPipelineAveraging)
#include "test_pipeline_averaging.moc"
