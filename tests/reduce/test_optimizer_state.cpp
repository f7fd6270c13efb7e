// Optimizer state as flat buffers: AdamW's moments and SGD's momentum laid
// out like the parameters, so they can ride in the parameters' rings and travel with a shard.
//
// - Handed over whole (moments and bias-correction step), a fresh optimizer continues exactly
//   as the one it came from would have; with fresh moments it does not (the test has teeth).
// - Malformed state (a negative second moment, NaN, a range off the parameter boundaries, a
//   buffer another optimizer keeps) is refused with the reason and changes nothing.
// - Three replicas with different moments average them in one multi-ring round, parameters
//   and moments at once: afterwards all hold the same moments, the weighted mean of theirs
//   (WeightedMean), or one robust aggregate (CenteredClip, the default).
// - The cost: a round with AdamW's moments moves 3x the bytes of a parameters-only round;
//   both measured over CURVE-encrypted ZeroMQ on loopback (figures printed).
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>

#include "data/batch.hpp"
#include "data/open_dataset.hpp"
#include "model/block_chain.hpp"
#include "model/optimizer.hpp"
#include "net/identity.hpp"
#include "net/secure_context.hpp"
#include "reduce/averager.hpp"
#include "reduce/centered_clip.hpp"
#include "reduce/local_transport.hpp"
#include "reduce/shard_buffers.hpp"
#include "reduce/zmq_transport.hpp"
#include "reduce_test_support.hpp"

using namespace rookery;
using namespace std::chrono_literals;

namespace {

job::JobSpec demo_job() {
  return job::load_job_spec(ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
}

job::JobSpec sgd_job() {
  auto job = demo_job();
  job.optimizer.kind = job::OptimizerKind::sgd;
  job.optimizer.lr = 0.05;
  job.optimizer.momentum = 0.9;
  return job;
}

struct Replica {
  model::Shard shard;
  model::Optimizer optimizer;
};

Replica make_replica(const job::JobSpec& job) {
  auto shard = model::BlockChain::from_job(job).whole();
  shard.set_training(true);
  auto optimizer = model::make_optimizer(job.optimizer, shard.parameters());
  return {std::move(shard), std::move(optimizer)};
}

void train(Replica& r, const data::Dataset& dataset, std::int64_t first_sample, int steps,
           std::int64_t batch) {
  for (int s = 0; s < steps; ++s) {
    r.optimizer.zero_grad();
    const auto b = data::make_batch(dataset, first_sample + s * batch, batch);
    r.shard.loss(r.shard.forward(b.inputs), b.targets).backward();
    r.optimizer.step();
  }
}

double max_abs_diff(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::abs(double(a[i]) - double(b[i])));
  return worst;
}

double max_abs(const std::vector<float>& a) {
  double m = 0;
  for (const float x : a) m = std::max(m, double(std::abs(x)));
  return m;
}

// Copies `from`'s parameters, moments and step counts into `to`.
void hand_over(const Replica& from, Replica& to) {
  reduce::write_parameters(to.shard, reduce::flatten_parameters(from.shard));
  for (const auto& name : from.optimizer.state_buffer_names()) {
    to.optimizer.write_state_buffer(name, 0, from.optimizer.state_buffer(name),
                                    from.optimizer.moment_step());
  }
  to.optimizer.set_steps_taken(from.optimizer.steps_taken());
}

// What a stage does with a finished round's moments (StageRuntime's apply_optimizer_state).
void apply_state(const reduce::AveragingResult& result, model::Optimizer& optimizer) {
  for (const auto& name : optimizer.state_buffer_names()) {
    auto current = optimizer.state_buffer(name);
    result.apply_to(name, current);
    if (name.ends_with("_sq")) {
      for (auto& v : current) v = std::max(v, 0.0f);
    }
    optimizer.write_state_buffer(name, 0, current, optimizer.moment_step());
  }
}

}  // namespace

class TestOptimizerState : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  void handedOverStateContinuesExactly_data() {
    QTest::addColumn<bool>("sgd");
    QTest::newRow("adamw") << false;
    QTest::newRow("sgd momentum") << true;
  }
  void handedOverStateContinuesExactly() {
    QFETCH(bool, sgd);
    const auto job = sgd ? sgd_job() : demo_job();
    const auto dataset = data::open_dataset(job);
    const auto batch = job.micro_batch_size;
    auto source = make_replica(job);
    train(source, *dataset, 0, 6, batch);
    const auto names = source.optimizer.state_buffer_names();
    const std::vector<std::string> want_names =
        sgd ? std::vector<std::string>{"sgd.momentum"}
            : std::vector<std::string>{"adamw.exp_avg", "adamw.exp_avg_sq"};
    QCOMPARE(names, want_names);
    QCOMPARE(source.optimizer.parameter_count(), source.shard.parameter_count());
    for (const auto& name : names)
      QVERIFY2(max_abs(source.optimizer.state_buffer(name)) > 0, name.c_str());
    QCOMPARE(source.optimizer.moment_step(), sgd ? 0 : 6);

    auto taker = make_replica(job);  // a node that takes the blocks over: a fresh optimizer
    hand_over(source, taker);
    for (const auto& name : names)
      QCOMPARE(taker.optimizer.state_buffer(name), source.optimizer.state_buffer(name));
    QCOMPARE(taker.optimizer.moment_step(), source.optimizer.moment_step());
    auto fresh = make_replica(job);  // the same weights, fresh moments (what happened before)
    reduce::write_parameters(fresh.shard, reduce::flatten_parameters(source.shard));
    fresh.optimizer.set_steps_taken(source.optimizer.steps_taken());

    train(source, *dataset, 1000, 3, batch);
    train(taker, *dataset, 1000, 3, batch);
    train(fresh, *dataset, 1000, 3, batch);
    const auto want = reduce::flatten_parameters(source.shard);
    const double taken = max_abs_diff(reduce::flatten_parameters(taker.shard), want);
    const double restarted = max_abs_diff(reduce::flatten_parameters(fresh.shard), want);
    qInfo("%s, 3 steps after the hand-over: |taker - source| = %g, with fresh moments %g",
          sgd ? "sgd" : "adamw", taken, restarted);
    QCOMPARE(taken, 0.0);       // bit for bit the steps the source took
    QVERIFY(restarted > 1e-4);  // fresh moments step elsewhere
  }

  void partialWriteAndResetFollowParameterBoundaries() {
    const auto job = demo_job();
    const auto dataset = data::open_dataset(job);
    auto r = make_replica(job);
    train(r, *dataset, 0, 2, job.micro_batch_size);
    const auto counts = reduce::block_parameter_counts(job.model);
    const std::int64_t first = counts[0], size = counts[1];  // block 1
    const auto before = r.optimizer.state_buffer("adamw.exp_avg");
    std::vector<float> sevens(static_cast<std::size_t>(size), 7.0f);
    r.optimizer.write_state_buffer("adamw.exp_avg", first, sevens, 2);
    auto after = r.optimizer.state_buffer("adamw.exp_avg");
    for (std::int64_t i = 0; i < std::int64_t(after.size()); ++i) {
      const bool inside = i >= first && i < first + size;
      if (after[std::size_t(i)] != (inside ? 7.0f : before[std::size_t(i)]))
        QFAIL("write outside its range");
    }
    QCOMPARE(r.optimizer.moment_step(first, size), std::int64_t{2});
    r.optimizer.reset_state(first, size);
    after = r.optimizer.state_buffer("adamw.exp_avg");
    for (std::int64_t i = first; i < first + size; ++i) QCOMPARE(after[std::size_t(i)], 0.0f);
    QCOMPARE(after[0], before[0]);
    // A block's moment step is its own: block 1 restarted, block 0 trained on.
    QCOMPARE(r.optimizer.moment_step(first, size), std::int64_t{0});
    QCOMPARE(r.optimizer.moment_step(0, counts[0]), std::int64_t{2});
    QCOMPARE(r.optimizer.moment_step(), std::int64_t{2});
    r.optimizer.write_state_buffer("adamw.exp_avg", first, sevens, 41);  // handed over
    QCOMPARE(r.optimizer.moment_step(first, size), std::int64_t{41});
    QCOMPARE(r.optimizer.moment_step(0, counts[0]), std::int64_t{2});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, r.optimizer.moment_step(first + 1, size));
  }

  void malformedStateIsRefusedAndChangesNothing() {
    const auto job = demo_job();
    const auto dataset = data::open_dataset(job);
    auto r = make_replica(job);
    train(r, *dataset, 0, 2, job.micro_batch_size);
    const auto avg = r.optimizer.state_buffer("adamw.exp_avg");
    const auto sq = r.optimizer.state_buffer("adamw.exp_avg_sq");
    auto expect_refusal = [&](const std::function<void()>& f, const char* words) {
      try {
        f();
        QFAIL("accepted malformed optimizer state");
      } catch (const std::invalid_argument& e) {
        qInfo("refused: %s", e.what());
        QVERIFY2(std::string(e.what()).find(words) != std::string::npos, e.what());
      }
      QCOMPARE(r.optimizer.state_buffer("adamw.exp_avg"), avg);
      QCOMPARE(r.optimizer.state_buffer("adamw.exp_avg_sq"), sq);
    };
    auto negative = sq;
    negative.back() = -1e-9f;
    expect_refusal([&] { r.optimizer.write_state_buffer("adamw.exp_avg_sq", 0, negative, 2); },
                   "negative");
    auto nan = avg;
    nan[nan.size() / 2] = std::numeric_limits<float>::quiet_NaN();
    expect_refusal([&] { r.optimizer.write_state_buffer("adamw.exp_avg", 0, nan, 2); },
                   "not finite");
    expect_refusal([&] { r.optimizer.write_state_buffer("sgd.momentum", 0, avg, 2); },
                   "keeps no state buffer");
    std::vector<float> three(3, 0.5f);
    expect_refusal([&] { r.optimizer.write_state_buffer("adamw.exp_avg", 1, three, 2); },
                   "parameter boundaries");
    expect_refusal(
        [&] {
          r.optimizer.write_state_buffer("adamw.exp_avg", std::int64_t(avg.size()) - 1, three, 2);
        },
        "outside");
    expect_refusal([&] { r.optimizer.reset_state(1, 5); }, "parameter boundaries");
  }

  // Three pipelines of one stage each (three replicas of the whole model) trained on
  // different data for different numbers of steps; one multi-ring round over parameters and
  // moments, weighted by samples.
  void averagedMomentsAreTheWeightedMean_data() {
    QTest::addColumn<bool>("clip");
    QTest::newRow("weighted mean") << false;
    QTest::newRow("centered clip") << true;
  }
  void averagedMomentsAreTheWeightedMean() {
    QFETCH(bool, clip);
    const auto job = demo_job();
    const auto dataset = data::open_dataset(job);
    const auto batch = job.micro_batch_size;
    const std::vector<int> steps{3, 5, 8};
    std::vector<Replica> replicas;
    for (std::size_t k = 0; k < steps.size(); ++k) {
      replicas.push_back(make_replica(job));
      train(replicas.back(), *dataset, std::int64_t(k) * 100000, steps[k], batch);
    }
    const auto names = replicas[0].optimizer.state_buffer_names();
    std::map<std::string, std::vector<std::vector<float>>> before;
    for (const auto& name : names) {
      for (auto& r : replicas) before[name].push_back(r.optimizer.state_buffer(name));
    }
    QVERIFY(max_abs_diff(before["adamw.exp_avg_sq"][0], before["adamw.exp_avg_sq"][1]) > 0);

    const auto block_values = reduce::block_parameter_counts(job.model);
    const auto blocks = std::int64_t(block_values.size());
    std::vector<reduce::PipelinePartition> partitions;
    for (std::size_t k = 0; k < replicas.size(); ++k)
      partitions.push_back({{0, blocks}, {"node" + std::to_string(k)}});
    const reduce::MultiRingPlan plan(block_values, partitions);
    reduce::LocalFabric fabric;
    reduce::RingOptions options;
    options.timeout = 5000ms;
    auto tally = std::make_shared<reduce::AggregationTally>();
    if (clip) options.aggregator = reduce::make_aggregator(job::AggregatorSpec{}, tally);
    std::vector<std::unique_ptr<reduce::Averager>> averagers;
    for (std::size_t k = 0; k < replicas.size(); ++k) {
      const auto id = "node" + std::to_string(k);
      averagers.push_back(std::make_unique<reduce::Averager>(
          fabric.join(id), reduce::AveragerConfig{plan.for_node(id), options, {}, {}}));
    }
    for (std::size_t k = 0; k < replicas.size(); ++k) {
      std::vector<reduce::FlatBuffer> buffers{
          {"params", reduce::flatten_parameters(replicas[k].shard)}};
      for (const auto& name : names)
        buffers.push_back({name, replicas[k].optimizer.state_buffer(name)});
      averagers[k]->start(1, std::move(buffers), steps[k] * batch);
    }
    std::map<std::string, std::vector<float>> ring_result;  // member 0's averaged buffers
    for (std::size_t k = 0; k < replicas.size(); ++k) {
      auto result = averagers[k]->wait(30s);
      QVERIFY(result.has_value());
      for (const auto& ring : result->rings)
        QCOMPARE(ring.outcome.contributors.size(), replicas.size());
      for (const auto& name : names) {
        const auto* avg = result->find(name);
        QVERIFY(avg);
        if (k == 0) ring_result[name] = avg->values;
        QCOMPARE(avg->values,
                 ring_result[name]);  // the rings' results: bit-identical on every member
      }
      apply_state(*result, replicas[k].optimizer);
    }
    std::vector<double> weights;
    for (const int s : steps) weights.push_back(double(s * batch));
    for (const auto& name : names) {
      const auto first = replicas[0].optimizer.state_buffer(name);
      const auto mean = reduce::testing::weighted_mean(before[name], weights);
      double worst = 0, scale = 0;
      for (std::size_t i = 0; i < mean.size(); ++i) {
        worst = std::max(worst, std::abs(double(first[i]) - mean[i]));
        scale = std::max(scale, std::abs(mean[i]));
      }
      // Applied as current + (average - snapshot): the same up to the rounding of that sum.
      for (std::size_t k = 1; k < replicas.size(); ++k) {
        QVERIFY(max_abs_diff(replicas[k].optimizer.state_buffer(name), first) <= 1e-6 * scale);
      }
      double spread = 0;  // how far the replicas were apart: what averaging had to close
      for (std::size_t k = 1; k < replicas.size(); ++k)
        spread = std::max(spread, max_abs_diff(before[name][k], before[name][0]));
      qInfo(
          "%s %s: |result - weighted mean| <= %.3g (largest value %.3g, replicas were up to %.3g "
          "apart)",
          clip ? "centered clip" : "weighted mean", name.c_str(), worst, scale, spread);
      if (clip) {
        // A robust aggregate, not the mean, but one the replicas share, inside their spread.
        QVERIFY(worst < spread);
      } else {
        QVERIFY2(worst <= 1e-6 * scale, "the averaged moments are not the weighted mean");
      }
      if (name.ends_with("_sq")) QVERIFY(*std::min_element(first.begin(), first.end()) >= 0.0f);
    }
    if (clip) QVERIFY(tally->calls() > 0);
  }

  // A liar among four replicas hands the rings wild moments (its first moment sign-flipped
  // x30, its second moment x30: under the norm rejection's 100x, so clipped, not rejected):
  // CenteredClip keeps the honest replicas' moments near their own mean (within their
  // spread), as it does for parameters.
  void aLiarsMomentsAreClipped() {
    const auto job = demo_job();
    const auto dataset = data::open_dataset(job);
    const auto batch = job.micro_batch_size;
    std::vector<Replica> replicas;
    for (int k = 0; k < 4; ++k) {
      replicas.push_back(make_replica(job));
      train(replicas.back(), *dataset, std::int64_t(k) * 100000, 4, batch);
    }
    const auto names = replicas[0].optimizer.state_buffer_names();
    std::map<std::string, std::vector<std::vector<float>>> sent;
    for (const auto& name : names) {
      for (int k = 0; k < 4; ++k) {
        auto v = replicas[std::size_t(k)].optimizer.state_buffer(name);
        if (k == 3) {
          for (auto& x : v) x = name.ends_with("_sq") ? 30.0f * x : -30.0f * x;
        }
        sent[name].push_back(std::move(v));
      }
    }
    const auto block_values = reduce::block_parameter_counts(job.model);
    const auto blocks = std::int64_t(block_values.size());
    std::vector<reduce::PipelinePartition> partitions;
    for (int k = 0; k < 4; ++k) partitions.push_back({{0, blocks}, {"node" + std::to_string(k)}});
    const reduce::MultiRingPlan plan(block_values, partitions);
    reduce::LocalFabric fabric;
    reduce::RingOptions options;
    options.timeout = 5000ms;
    options.aggregator = reduce::make_aggregator(job::AggregatorSpec{});
    std::vector<std::unique_ptr<reduce::Averager>> averagers;
    for (int k = 0; k < 4; ++k) {
      const auto id = "node" + std::to_string(k);
      averagers.push_back(std::make_unique<reduce::Averager>(
          fabric.join(id), reduce::AveragerConfig{plan.for_node(id), options, {}, {}}));
    }
    for (int k = 0; k < 4; ++k) {
      std::vector<reduce::FlatBuffer> buffers;
      for (const auto& name : names) buffers.push_back({name, sent[name][std::size_t(k)]});
      averagers[std::size_t(k)]->start(1, std::move(buffers), batch);
    }
    std::vector<std::optional<reduce::AveragingResult>> results;
    for (int k = 0; k < 4; ++k) results.push_back(averagers[std::size_t(k)]->wait(30s));
    for (const auto& name : names) {
      const std::vector<std::vector<float>> honest(sent[name].begin(), sent[name].begin() + 3);
      const auto mean = reduce::testing::weighted_mean(honest, {1, 1, 1});
      auto dist = [&](const std::vector<float>& v) {
        double d = 0;
        for (std::size_t i = 0; i < v.size(); ++i)
          d += (double(v[i]) - mean[i]) * (double(v[i]) - mean[i]);
        return std::sqrt(d);
      };
      double spread = 0, norm = 0;
      for (const auto& h : honest) spread = std::max(spread, dist(h));
      for (const double m : mean) norm += m * m;
      QVERIFY(results[0].has_value());
      const double off = dist(results[0]->find(name)->values);
      qInfo(
          "%s with a liar: |aggregate - honest mean| = %.3g; honest spread %.3g; |honest mean| "
          "%.3g",
          name.c_str(), off, spread, std::sqrt(norm));
      QVERIFY2(off <= spread,
               "the liar's moments dragged the aggregate out of the honest replicas' spread");
    }
  }

  // The bandwidth of the moments: the same multi-ring round over CURVE-encrypted ZeroMQ on
  // loopback, parameters only and parameters + AdamW's two moments, bytes and seconds.
  void costOfAveragingTheMoments() {
    const auto job = demo_job();
    const auto dataset = data::open_dataset(job);
    std::vector<Replica> replicas;
    for (int k = 0; k < 2; ++k) {
      replicas.push_back(make_replica(job));
      train(replicas.back(), *dataset, k * 100000, 2, job.micro_batch_size);
    }
    const auto block_values = reduce::block_parameter_counts(job.model);
    const auto blocks = std::int64_t(block_values.size());
    std::vector<std::unique_ptr<net::SecureContext>> ctx;
    std::vector<net::CurveKeyPair> ids;
    std::vector<std::unique_ptr<reduce::ZmqTransport>> transports;
    for (int k = 0; k < 2; ++k) {
      ctx.push_back(std::make_unique<net::SecureContext>());
      ids.push_back(net::CurveKeyPair::generate());
    }
    std::vector<reduce::PipelinePartition> partitions;
    for (int k = 0; k < 2; ++k)
      partitions.push_back({{0, blocks}, {ids[std::size_t(k)].public_key}});
    const reduce::MultiRingPlan keyed(block_values, partitions);
    for (int k = 0; k < 2; ++k) {
      reduce::ZmqTransportConfig tc;
      tc.send_timeout = 10s;
      transports.push_back(
          std::make_unique<reduce::ZmqTransport>(*ctx[std::size_t(k)], ids[std::size_t(k)], tc));
    }
    transports[0]->add_peer(ids[1].public_key, transports[1]->endpoint());
    transports[1]->add_peer(ids[0].public_key, transports[0]->endpoint());
    reduce::RingOptions options;
    options.timeout = 10s;
    std::vector<std::unique_ptr<reduce::Averager>> averagers;
    for (int k = 0; k < 2; ++k) {
      averagers.push_back(std::make_unique<reduce::Averager>(
          *transports[std::size_t(k)],
          reduce::AveragerConfig{keyed.for_node(ids[std::size_t(k)].public_key), options, {}, {}}));
    }
    auto round = [&](std::uint64_t number, bool with_state, double& seconds, std::uint64_t& bytes) {
      const auto sent_before = transports[0]->bytes_sent() + transports[1]->bytes_sent();
      for (int k = 0; k < 2; ++k) {
        auto& r = replicas[std::size_t(k)];
        std::vector<reduce::FlatBuffer> buffers{{"params", reduce::flatten_parameters(r.shard)}};
        if (with_state) {
          for (const auto& name : r.optimizer.state_buffer_names())
            buffers.push_back({name, r.optimizer.state_buffer(name)});
        }
        averagers[std::size_t(k)]->start(number, std::move(buffers), 1);
      }
      seconds = 0;
      for (int k = 0; k < 2; ++k) {
        auto result = averagers[std::size_t(k)]->wait(60s);
        QVERIFY(result.has_value());
        for (const auto& ring : result->rings) QVERIFY(ring.outcome.averaged());
        seconds = std::max(seconds, result->seconds);
      }
      bytes = transports[0]->bytes_sent() + transports[1]->bytes_sent() - sent_before;
    };
    const auto values = keyed.total_values();
    double warm = 0, params_s = 0, state_s = 0;
    std::uint64_t warm_bytes = 0, params_bytes = 0, state_bytes = 0;
    round(1, false, warm, warm_bytes);  // connections set up
    std::vector<double> p, s;
    for (std::uint64_t n = 2; n < 8; n += 2) {
      round(n, false, params_s, params_bytes);
      p.push_back(params_s);
      round(n + 1, true, state_s, state_bytes);
      s.push_back(state_s);
    }
    std::sort(p.begin(), p.end());
    std::sort(s.begin(), s.end());
    const double ratio_bytes = double(state_bytes) / double(params_bytes);
    qInfo(
        "demo model, %llu values, 2 members over CURVE/ZeroMQ on loopback: parameters only %.2f MB "
        "sent in %.1f ms "
        "(median of 3); with AdamW's moments %.2f MB in %.1f ms: %.2fx the bytes, %.2fx the time; "
        "averaging the "
        "moments every 4th round (job.average_optimizer_state_every = 4) costs %.2fx a "
        "parameters-only round's bytes on average",
        static_cast<unsigned long long>(values), params_bytes / 1e6, p[1] * 1e3, state_bytes / 1e6,
        s[1] * 1e3, ratio_bytes, s[1] / p[1],
        (3.0 * double(params_bytes) + double(state_bytes)) / (4.0 * double(params_bytes)));
    // Every value crosses once per direction of the 2-member ring (plus framing).
    QVERIFY(params_bytes >= 2 * values * sizeof(float));
    QVERIFY(ratio_bytes > 2.9 && ratio_bytes < 3.1);
  }
};

QTEST_GUILESS_MAIN(TestOptimizerState)
#include "test_optimizer_state.moc"
