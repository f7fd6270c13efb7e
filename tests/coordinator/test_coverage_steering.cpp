// Steering `ours` toward check coverage (cluster/coverage_steering.hpp): on random unlike swarms
// the steered plan fits every volunteer's memory, seats everyone or says why, predicts at least
// (1 - margin) of the unsteered plan and has at least as many seats with an exact replica; an
// alignment that costs too much is left, and bad options are refused.
#include <QTest>

#include <map>
#include <random>
#include <set>

#include "cluster/check_coverage.hpp"
#include "cluster/coverage_steering.hpp"
#include "coordinator/swarm_planner.hpp"
#include "planner_fixtures.hpp"

using namespace rookery;
using coordinator::Member;
using testing::by_key;
using testing::demo_job;
using testing::key_of;

namespace {

// `n` volunteers of varied speed (1-8x), memory (30-120% of the whole model) and bandwidth.
std::vector<Member> unlike_swarm(int n, unsigned seed) {
  const auto job = demo_job();
  const double model = static_cast<double>(cluster::model_memory_bytes(
      coordinator::block_profiles(job), coordinator::training_settings(job)));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> speed(1.0, 8.0), share(0.3, 1.2), link(0.5, 1.5);
  std::vector<Member> out;
  for (int i = 0; i < n; ++i) {
    Member m;
    m.key = key_of(i);
    m.profile.flops_per_s = 50e9 * speed(rng);
    m.profile.free_memory_bytes = static_cast<std::int64_t>(model * share(rng));
    m.profile.upload_bytes_per_s = m.profile.download_bytes_per_s = 50e6 * link(rng);
    m.profile.rtt_s = 0.02;
    out.push_back(m);
  }
  return out;
}

// The planner's input: profiles named by key, in key order (as plan_swarm sorts them).
std::vector<cluster::NodeProfile> profiles(std::vector<Member> m) {
  std::sort(m.begin(), m.end(), [](const Member& a, const Member& b) { return a.key < b.key; });
  std::vector<cluster::NodeProfile> out;
  for (const auto& x : m) {
    out.push_back(x.profile);
    out.back().id = x.key;
  }
  return out;
}

// A node of `speed` x 50 GFLOP/s with room for the whole model.
cluster::NodeProfile node(const std::string& id, double speed) {
  const auto job = demo_job();
  cluster::NodeProfile n;
  n.id = id;
  n.flops_per_s = 50e9 * speed;
  n.free_memory_bytes = 2 * cluster::model_memory_bytes(coordinator::block_profiles(job),
                                                        coordinator::training_settings(job));
  n.upload_bytes_per_s = n.download_bytes_per_s = 1e9;
  n.rtt_s = 1e-3;
  return n;
}

}  // namespace

class TestCoverageSteering : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void randomSwarmsKeepTheirRateAndGainExactSeats_data() {
    QTest::addColumn<int>("volunteers");
    QTest::newRow("6") << 6;
    QTest::newRow("12") << 12;
    QTest::newRow("24") << 24;
  }
  void randomSwarmsKeepTheirRateAndGainExactSeats() {
    QFETCH(int, volunteers);
    const auto job = demo_job();
    const auto blocks = coordinator::block_profiles(job);
    const auto settings = coordinator::training_settings(job);
    constexpr int kSwarms = 8;
    long seats = 0, exact_before = 0, exact_after = 0, aligned = 0;
    double rate_before = 0, rate_after = 0, worst = 1;
    for (int seed = 1; seed <= kSwarms; ++seed) {
      const auto m = unlike_swarm(volunteers, static_cast<unsigned>(1000 * volunteers + seed));
      const auto nodes = profiles(m);
      const auto unsteered = cluster::form_pipelines(nodes, blocks, settings);
      cluster::SteeringReport report;
      const auto steered =
          cluster::steer_for_coverage(unsteered, nodes, blocks, settings, {}, &report);
      const auto plan = coordinator::plan_swarm(m, job);
      QCOMPARE(plan.infeasible.code(), wire::pb::Verdict::NONE);
      // plan_swarm's plan is the steered one, and the time model agrees with its prediction.
      QCOMPARE(plan.predicted_samples_per_s, steered.samples_per_s);
      QCOMPARE(coordinator::predicted_rate(plan, by_key(m), job), plan.predicted_samples_per_s);
      // Never over memory.
      const auto members = by_key(m);
      for (const auto& p : plan.pipelines) {
        for (const auto& s : p) {
          const auto need = cluster::shard_memory_bytes(blocks, static_cast<int>(s.first_block),
                                                        static_cast<int>(s.last_block), settings);
          QVERIFY2(need <= members.at(s.key).profile.free_memory_bytes, s.key.c_str());
        }
      }
      // Everyone seated once, or unseated with a reason.
      std::map<std::string, int> seen;
      for (const auto& p : plan.pipelines)
        for (const auto& s : p) ++seen[s.key];
      for (const auto& u : plan.unassigned) {
        ++seen[u.node_id];
        QVERIFY(!cluster::describe(u).empty());
        if (u.why == cluster::Unseated::NoPipelineHoldsModel) QVERIFY(!u.detail.empty());
      }
      QCOMPARE(seen.size(), m.size());
      for (const auto& [key, n] : seen) QCOMPARE(n, 1);
      // Within the margin, and no fewer exact seats.
      QVERIFY2(steered.samples_per_s >=
                   (1 - cluster::kCoverageRateMargin) * unsteered.samples_per_s * (1 - 1e-12),
               qPrintable(QStringLiteral("%1 vs %2 unsteered")
                              .arg(steered.samples_per_s)
                              .arg(unsteered.samples_per_s)));
      const auto before = cluster::check_coverage(unsteered);
      QVERIFY(plan.coverage);
      QVERIFY2(plan.coverage->exact >= before.exact,
               qPrintable(QStringLiteral("%1 exact seats, %2 unsteered")
                              .arg(plan.coverage->exact)
                              .arg(before.exact)));
      QCOMPARE(plan.coverage->unchecked, before.unchecked);
      seats += static_cast<long>(before.stages.size());
      exact_before += before.exact;
      exact_after += plan.coverage->exact;
      aligned += report.aligned_pipelines;
      rate_before += unsteered.samples_per_s;
      rate_after += steered.samples_per_s;
      if (unsteered.samples_per_s > 0)
        worst = std::min(worst, steered.samples_per_s / unsteered.samples_per_s);
    }
    qInfo(
        "%d swarms of %d: exact seats %.2f -> %.2f of %ld, %ld pipelines aligned, samples/s "
        "%.1f -> %.1f (x%.3f, worst swarm x%.3f)",
        kSwarms, volunteers, double(exact_before) / double(seats),
        double(exact_after) / double(seats), seats, aligned, rate_before / kSwarms,
        rate_after / kSwarms, rate_after / rate_before, worst);
  }

  void steeringGivesSomeSwarmsMoreExactSeats() {
    // Over the random swarms above, steering must do something: more exact seats in all.
    const auto job = demo_job();
    const auto blocks = coordinator::block_profiles(job);
    const auto settings = coordinator::training_settings(job);
    long before = 0, after = 0;
    for (const int n : {6, 12, 24}) {
      for (int seed = 1; seed <= 8; ++seed) {
        const auto m = unlike_swarm(n, static_cast<unsigned>(1000 * n + seed));
        before +=
            cluster::check_coverage(cluster::form_pipelines(profiles(m), blocks, settings)).exact;
        after += coordinator::plan_swarm(m, job).coverage->exact;
      }
    }
    qInfo("exact seats over 24 swarms: %ld unsteered, %ld steered", before, after);
    QVERIFY(after > before);
  }

  void anAlignmentThatCostsTooMuchIsRejected() {
    // Two pipelines of two stages, fast then slow and slow then fast: each is cut to put most
    // blocks on its fast node, and one shared cut would starve one of them.
    const auto job = demo_job();
    const auto blocks = coordinator::block_profiles(job);
    const auto settings = coordinator::training_settings(job);
    const std::vector<cluster::NodeProfile> nodes{node("a", 8), node("b", 1), node("c", 1),
                                                  node("d", 8)};
    cluster::ClusterPlan plan;
    for (const auto& order : {std::vector<int>{0, 1}, std::vector<int>{2, 3}}) {
      std::vector<cluster::NodeProfile> chain;
      for (const auto i : order) chain.push_back(nodes[static_cast<std::size_t>(i)]);
      auto cut = cluster::partition_pipeline(chain, blocks, settings, {false, 7, 50});
      QVERIFY(cut.ok());
      auto bounds = cut.plan->boundaries();
      auto timed = cluster::evaluate_plan(nodes, order, bounds, blocks, settings);
      QVERIFY(timed.ok());
      plan.samples_per_s += timed.plan->samples_per_s;
      plan.pipelines.push_back(*timed.plan);
    }
    QVERIFY(plan.pipelines[0].boundaries() != plan.pipelines[1].boundaries());
    cluster::SteeringReport report;
    const auto steered = cluster::steer_for_coverage(plan, nodes, blocks, settings, {}, &report);
    QCOMPARE(report.aligned_sets, 0);
    QVERIFY(report.rejected >= 1);
    QCOMPARE(steered.samples_per_s, plan.samples_per_s);
    for (std::size_t p = 0; p < 2; ++p)
      QCOMPARE(steered.pipelines[p].boundaries(), plan.pipelines[p].boundaries());
    // What it would have cost: with the margins opened up, the shared cut is taken.
    cluster::SteeringOptions open;
    open.margin = open.set_margin = 0.9;
    cluster::SteeringReport costly;
    const auto aligned = cluster::steer_for_coverage(plan, nodes, blocks, settings, open, &costly);
    QCOMPARE(costly.aligned_sets, 1);
    QCOMPARE(aligned.pipelines[0].boundaries(), aligned.pipelines[1].boundaries());
    QCOMPARE(cluster::check_coverage(aligned).exact, 4);
    const double kept = aligned.samples_per_s / plan.samples_per_s;
    qInfo("shared cuts would keep %.1f%% of %.1f samples/s (the margin allows %.0f%% loss)",
          100 * kept, plan.samples_per_s, 100 * cluster::kCoverageRateMargin);
    QVERIFY(kept < 1 - cluster::kCoverageRateMargin);
  }

  void frozenPipelinesKeepTheirCutsAndLendThem() {
    // Two pipelines of like volunteers, the first frozen with its best cuts, the second cut one
    // block off them: the second takes the frozen cuts (it loses nothing), the first moves not.
    const auto job = demo_job();
    const auto blocks = coordinator::block_profiles(job);
    const auto settings = coordinator::training_settings(job);
    const std::vector<cluster::NodeProfile> nodes{node("a", 4), node("b", 1), node("c", 4),
                                                  node("d", 1)};
    const auto best =
        cluster::partition_pipeline({nodes[0], nodes[1]}, blocks, settings, {false, 7, 50});
    QVERIFY(best.ok());
    const auto cuts = best.plan->boundaries();
    auto other = cuts;
    other[1] += other[1] + 1 < other[2] ? 1 : -1;
    cluster::ClusterPlan plan;
    for (const auto& [order, bounds] :
         {std::pair{std::vector<int>{0, 1}, cuts}, std::pair{std::vector<int>{2, 3}, other}}) {
      auto timed = cluster::evaluate_plan(nodes, order, bounds, blocks, settings);
      QVERIFY(timed.ok());
      plan.samples_per_s += timed.plan->samples_per_s;
      plan.pipelines.push_back(*timed.plan);
    }
    cluster::SteeringOptions frozen;
    frozen.frozen = {true, false};
    cluster::SteeringReport report;
    const auto steered =
        cluster::steer_for_coverage(plan, nodes, blocks, settings, frozen, &report);
    QCOMPARE(steered.pipelines[0].boundaries(), cuts);
    QCOMPARE(steered.pipelines[1].boundaries(), cuts);
    QCOMPARE(report.aligned_sets, 1);
    QVERIFY(steered.samples_per_s >= plan.samples_per_s);
    // Both frozen: nothing is even tried.
    frozen.frozen = {true, true};
    const auto kept = cluster::steer_for_coverage(plan, nodes, blocks, settings, frozen, &report);
    QCOMPARE(report.evaluated, 0);
    QCOMPARE(kept.pipelines[0].boundaries(), cuts);
    QCOMPARE(kept.pipelines[1].boundaries(), other);
  }

  void badOptionsAreRefused() {
    const auto job = demo_job();
    const auto blocks = coordinator::block_profiles(job);
    const auto settings = coordinator::training_settings(job);
    const std::vector<cluster::NodeProfile> nodes{node("a", 1), node("b", 1)};
    const auto plan = cluster::form_pipelines(nodes, blocks, settings);
    cluster::SteeringOptions o;
    o.margin = 1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             cluster::steer_for_coverage(plan, nodes, blocks, settings, o));
    o = {};
    o.set_margin = -0.1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             cluster::steer_for_coverage(plan, nodes, blocks, settings, o));
    o = {};
    o.frozen = std::vector<bool>(plan.pipelines.size() + 1, false);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             cluster::steer_for_coverage(plan, nodes, blocks, settings, o));
    o = {};
    o.max_aligned = 1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             cluster::steer_for_coverage(plan, nodes, blocks, settings, o));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             cluster::steer_for_coverage(plan, {}, blocks, settings));
  }
};

QTEST_GUILESS_MAIN(TestCoverageSteering)
#include "test_coverage_steering.moc"
