// The coordinator's assignment as pure functions: volunteers into pipelines (core/cluster's
// planner), the plan a node reads, and where each node fetches the blocks it did not hold.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

#include "cluster/coverage_steering.hpp"
#include "coordinator/shard_sources.hpp"
#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"
#include "planner_fixtures.hpp"
#include "pipeline/stage_plan.hpp"

using namespace rookery;
using coordinator::Assignment;
using coordinator::Member;
using testing::by_key;
using testing::demo_job;
using testing::key_of;

namespace {

std::vector<Member> members(int n, std::int64_t memory, double flops = 50e9) {
  std::vector<Member> out;
  for (int i = 0; i < n; ++i) {
    Member m;
    m.key = key_of(i);
    m.profile.flops_per_s = flops;
    m.profile.free_memory_bytes = memory;
    m.profile.upload_bytes_per_s = m.profile.download_bytes_per_s = 1e9;
    m.profile.rtt_s = 1e-4;
    m.stage_endpoint = "tcp://127.0.0.1:" + std::to_string(20000 + i);
    m.reduce_endpoint = "tcp://127.0.0.1:" + std::to_string(21000 + i);
    m.shard_endpoint = "tcp://127.0.0.1:" + std::to_string(22000 + i);
    out.push_back(m);
  }
  return out;
}

// Memory for each volunteer: `share` of what the whole model needs in one place.
std::int64_t share_of_model(double share) {
  const auto job = demo_job();
  return static_cast<std::int64_t>(
      share * static_cast<double>(cluster::model_memory_bytes(
                  coordinator::block_profiles(job), coordinator::training_settings(job))));
}

// `n` volunteers of mixed speed (1-8x), memory (30-120% of the model) and bandwidth.
std::vector<Member> mixed_swarm(int n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> speed(1.0, 8.0), share(0.3, 1.2);
  auto m = members(n, 0);
  for (auto& x : m) {
    x.profile.flops_per_s = 50e9 * speed(rng);
    x.profile.free_memory_bytes = share_of_model(share(rng));
    x.profile.upload_bytes_per_s = x.profile.download_bytes_per_s = 50e6 * share(rng);
    x.profile.rtt_s = 0.02;
  }
  return m;
}

void check_covers_model(const Assignment& a, std::int64_t blocks) {
  for (const auto& p : a.pipelines) {
    QVERIFY(!p.empty());
    QCOMPARE(p.front().first_block, 0);
    QCOMPARE(p.back().last_block, blocks);
    for (std::size_t s = 1; s < p.size(); ++s) QCOMPARE(p[s].first_block, p[s - 1].last_block);
  }
}

}  // namespace

class TestSwarmPlanner : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void sixSmallVolunteersFormTwoPipelinesOfThree() {
    const auto job = demo_job();
    const auto blocks = static_cast<std::int64_t>(coordinator::block_profiles(job).size());
    const auto plan = coordinator::plan_swarm(members(6, share_of_model(0.5)), job);
    QCOMPARE(plan.infeasible.code(), wire::pb::Verdict::NONE);
    QCOMPARE(plan.pipelines.size(), std::size_t(2));
    for (const auto& p : plan.pipelines) QCOMPARE(p.size(), std::size_t(3));
    check_covers_model(plan, blocks);
    std::set<std::string> seated;
    for (const auto& p : plan.pipelines) {
      for (const auto& s : p) QVERIFY(seated.insert(s.key).second);
    }
    QCOMPARE(seated.size(), std::size_t(6));
    QVERIFY(plan.predicted_samples_per_s > 0);
    // The plan comes with its check coverage: two pipelines, so every seat is checkable.
    QVERIFY(plan.coverage);
    QCOMPARE(plan.coverage->stages.size(), std::size_t(6));
    QVERIFY2(plan.coverage->complete(),
             coordinator::describe_coverage(*plan.coverage, true).c_str());
  }

  void theUniformPlannerGivesReplicasTheSameCuts() {
    const auto job = demo_job();
    const auto plan = coordinator::plan_swarm(members(6, share_of_model(0.5)), job,
                                              coordinator::Planner::uniform);
    QCOMPARE(plan.pipelines.size(), std::size_t(2));
    for (std::size_t s = 0; s < 3; ++s) {
      QCOMPARE(plan.pipelines[0][s].first_block, plan.pipelines[1][s].first_block);
      QCOMPARE(plan.pipelines[0][s].last_block, plan.pipelines[1][s].last_block);
    }
    check_covers_model(plan, static_cast<std::int64_t>(coordinator::block_profiles(job).size()));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, coordinator::parse_planner("fastest"));
  }

  void aVolunteerIsPlannedWithTheSpeedItShowsWhenMarkedlySlow() {
    using coordinator::planned_flops;
    QCOMPARE(planned_flops(40e9, 1.0), 40e9);
    QCOMPARE(planned_flops(40e9, 0.55), 40e9);  // above half: noise
    QCOMPARE(planned_flops(40e9, 0.2), 8e9);    // a fifth of its old self: what it shows
    QCOMPARE(planned_flops(40e9, 0.0), 40e9);   // unmeasured
    coordinator::SpeedHistory h;
    QCOMPARE(h.observe(2, 4, 0.3), 1.0);
    QCOMPARE(h.observe(2, 4, 0.25), 0.25 / 0.3);  // noise below its best
    QCOMPARE(h.observe(2, 4, 0.06), 0.2);         // its owner's programs took the cores
    // Moved onto other blocks while slow: it stays as slow as it came ...
    QCOMPARE(h.observe(0, 1, 0.01), 0.2);
    QCOMPARE(h.observe(0, 1, 0.01), 0.2);
    QCOMPARE(h.observe(0, 1, 0.025), 0.5);  // ... until it speeds up
    QCOMPARE(h.observe(0, 1, 0.05), 1.0);   // its old self again
    QCOMPARE(h.observe(0, 1, 0.04), 0.8);   // judged by its best there from now on
    QCOMPARE(h.observe(0, 1, 0.0), 0.8);    // no reading: unchanged
  }

  void aVolunteerThatSlowsDownMakesAFreshPlanWorthIt() {
    const auto job = demo_job();
    auto m = members(3, share_of_model(0.9));
    const auto plan = coordinator::plan_swarm(m, job);
    const double planned = coordinator::predicted_rate(plan, by_key(m), job);
    QVERIFY(std::abs(planned - plan.predicted_samples_per_s) < 1e-6 * planned);
    // Its owner now allows a quarter of the CPU time to the node with the widest shard.
    std::string widest;
    std::int64_t width = 0;
    for (const auto& s : plan.pipelines[0]) {
      if (s.last_block - s.first_block > width) {
        width = s.last_block - s.first_block;
        widest = s.key;
      }
    }
    for (auto& x : m) {
      if (x.key == widest) x.profile.flops_per_s *= 0.25;
    }
    const double now_rate = coordinator::predicted_rate(plan, by_key(m), job);
    const auto fresh = coordinator::plan_swarm(m, job);
    qInfo("current seats %.1f -> %.1f samples/s after the slowdown; a fresh plan %.1f", planned,
          now_rate, fresh.predicted_samples_per_s);
    QVERIFY(now_rate < planned);
    QVERIFY(coordinator::worth_replanning(now_rate, fresh.predicted_samples_per_s));
    QVERIFY(!coordinator::worth_replanning(planned, planned * 1.1));
    // A seat whose member is gone counts nothing.
    auto gone = by_key(m);
    gone.erase(widest);
    QCOMPARE(coordinator::predicted_rate(plan, gone, job), 0.0);
  }

  void theSameCrowdGetsTheSamePlanWhateverTheOrder() {
    const auto job = demo_job();
    auto m = members(6, share_of_model(0.5));
    const auto first = coordinator::plan_swarm(m, job);
    std::mt19937 rng(3);
    for (int i = 0; i < 5; ++i) {
      std::shuffle(m.begin(), m.end(), rng);
      QVERIFY(coordinator::plan_swarm(m, job).same_layout(first));
    }
  }

  void aVolunteerWhoCannotHoldTheModelAloneIsNotPlannedIntoOne() {
    const auto plan = coordinator::plan_swarm(members(1, share_of_model(0.5)), demo_job());
    QVERIFY(plan.empty());
    QCOMPARE(plan.infeasible.code(), wire::pb::Verdict::NO_PIPELINE_HOLDS_MODEL);
    QVERIFY(!plan.infeasible.detail().empty());  // the partitioner's why
    QCOMPARE(plan.unassigned.size(), std::size_t(1));
    QVERIFY(plan.unassigned.front().why == cluster::Unseated::NoPipelineHoldsModel);
  }

  void aDeadVolunteerIsPlannedAroundAndItsBlocksComeFromItsReplica() {
    const auto job = demo_job();
    const auto blocks = static_cast<std::int64_t>(coordinator::block_profiles(job).size());
    auto all = members(6, share_of_model(0.5));
    auto before = coordinator::plan_swarm(all, job);
    before.version = 1;
    // The middle stage of the first pipeline dies.
    const auto dead = before.pipelines[0][1].key;
    std::vector<Member> alive;
    for (const auto& m : all) {
      if (m.key != dead) alive.push_back(m);
    }
    auto after = coordinator::plan_swarm(alive, job);
    after.version = 2;
    QVERIFY(!after.empty());
    check_covers_model(after, blocks);
    QCOMPARE(after.find(dead).first, -1);
    // Every seat's blocks are either the node's own from before or offered by a live holder.
    const auto live = by_key(alive);
    for (const auto& p : after.pipelines) {
      for (const auto& seat : p) {
        const auto sources = coordinator::shard_sources(before, after, seat.key, live);
        const auto [op, os] = before.find(seat.key);
        for (auto b = seat.first_block; b < seat.last_block; ++b) {
          bool own = op >= 0 &&
                     before.pipelines[std::size_t(op)][std::size_t(os)].first_block <= b &&
                     b < before.pipelines[std::size_t(op)][std::size_t(os)].last_block;
          bool offered = std::any_of(sources.begin(), sources.end(), [&](const auto& s) {
            return s.first_block <= b && b < s.last_block;
          });
          QVERIFY2(
              own || offered,
              qPrintable(QString("block %1 of %2 has no holder").arg(b).arg(seat.key.c_str())));
        }
        for (const auto& s : sources) {
          QVERIFY(s.key != dead);
          QVERIFY(s.key != seat.key);
          QVERIFY(s.first_block >= seat.first_block && s.last_block <= seat.last_block &&
                  s.first_block < s.last_block);
          QCOMPARE(s.endpoint, live.at(s.key).shard_endpoint);
        }
      }
    }
  }

  void theNodesReadThePlanTheCoordinatorWrites() {
    const auto job = demo_job();
    const auto m = members(6, share_of_model(0.5));
    const auto plan = coordinator::plan_swarm(m, job);
    const auto message = coordinator::plan_message(plan, by_key(m), 2000);
    // The node's parser, with the job where the node keeps it.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    {
      QFile f(dir.filePath("demo.json"));
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray::fromStdString(job::to_json(job)));
    }
    const auto parsed = pipeline::stage_plan_from_message(
        message, std::filesystem::path(dir.path().toStdString()) / "demo.json");
    parsed.validate(static_cast<std::int64_t>(coordinator::block_profiles(job).size()));
    QCOMPARE(parsed.pipelines.size(), plan.pipelines.size());
    QCOMPARE(parsed.averaging_interval_ms, std::int64_t(2000));
    for (std::size_t p = 0; p < plan.pipelines.size(); ++p) {
      for (std::size_t s = 0; s < plan.pipelines[p].size(); ++s) {
        const auto& a = parsed.pipelines[p][s];
        QCOMPARE(a.key, plan.pipelines[p][s].key);
        QCOMPARE(a.first_block, plan.pipelines[p][s].first_block);
        QCOMPARE(a.endpoint,
                 m[std::size_t(std::stoi(a.key.substr(4, a.key.find('x') - 4)))].stage_endpoint);
      }
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, coordinator::plan_message(plan, {}, 2000));
    // A view (plan_view.hpp): the pipelines outside it come without stages, in their places.
    QVERIFY(plan.pipelines.size() >= 2);
    {
      auto view = message;
      view.mutable_pipelines(1)->clear_stages();
      const auto seen = pipeline::stage_plan_from_message(
          view, std::filesystem::path(dir.path().toStdString()) / "demo.json");
      QVERIFY(seen.view);
      QCOMPARE(seen.pipelines.size(), plan.pipelines.size());
      QVERIFY(seen.pipelines[1].empty());
      const auto blocks = static_cast<std::int64_t>(coordinator::block_profiles(job).size());
      seen.select(0).validate(blocks);
      QCOMPARE(seen.find(plan.pipelines[0][0].key)->first, std::uint32_t(0));
      QVERIFY(!seen.find(plan.pipelines[1][0].key).has_value());
      auto written = seen;  // a plan file with a pipeline of no stages is still refused
      written.view = false;
      QVERIFY_THROWS_EXCEPTION(std::runtime_error, written.validate(blocks));
    }
    // A plan that the node cannot use is refused with the reason, not half-applied.
    wire::pb::Plan empty;
    QVERIFY_THROWS_EXCEPTION(
        std::runtime_error,
        pipeline::stage_plan_from_message(
            empty, std::filesystem::path(dir.path().toStdString()) / "demo.json"));
    auto too_often = message;
    too_often.set_averaging_interval_ms(5);
    QVERIFY_THROWS_EXCEPTION(
        std::runtime_error,
        pipeline::stage_plan_from_message(
            too_often, std::filesystem::path(dir.path().toStdString()) / "demo.json"));
  }

  void aFasterVolunteerTakesMoreBlocks() {
    const auto job = demo_job();
    auto m = members(3, share_of_model(0.9));
    m[0].profile.flops_per_s *= 4;
    const auto plan = coordinator::plan_swarm(m, job);
    QCOMPARE(plan.pipelines.size(), std::size_t(1));
    std::map<std::string, std::int64_t> width;
    for (const auto& s : plan.pipelines[0]) width[s.key] = s.last_block - s.first_block;
    QVERIFY2(width[key_of(0)] >= width[key_of(1)] && width[key_of(0)] >= width[key_of(2)],
             "the 4x volunteer should hold the widest shard");
  }

  void aLargeSwarmIsPlannedByTheNearLinearPlanner() {
    // Above kExactPlanningMaxVolunteers the exact planner would take minutes (about N³); the
    // plan is pack_pipelines', every volunteer seated once or told why not.
    const auto job = demo_job();
    auto m = mixed_swarm(400, 5);
    QVERIFY(m.size() > coordinator::kExactPlanningMaxVolunteers);
    const auto plan = coordinator::plan_swarm(m, job);
    QCOMPARE(plan.infeasible.code(), wire::pb::Verdict::NONE);
    check_covers_model(plan, static_cast<std::int64_t>(coordinator::block_profiles(job).size()));
    std::multiset<std::string> seen;
    for (const auto& p : plan.pipelines)
      for (const auto& s : p) seen.insert(s.key);
    for (const auto& u : plan.unassigned) seen.insert(u.node_id);
    QCOMPARE(seen.size(), m.size());
    for (const auto& x : m) QCOMPARE(seen.count(x.key), std::size_t(1));

    std::sort(m.begin(), m.end(), [](const Member& a, const Member& b) { return a.key < b.key; });
    std::vector<cluster::NodeProfile> nodes;
    for (const auto& x : m) {
      nodes.push_back(x.profile);
      nodes.back().id = x.key;
    }
    const auto packed = cluster::pack_pipelines(nodes, coordinator::block_profiles(job),
                                                coordinator::training_settings(job));
    // ... with cuts shared where that costs little (coverage_steering.hpp).
    const auto steered = cluster::steer_for_coverage(
        packed, nodes, coordinator::block_profiles(job), coordinator::training_settings(job));
    QCOMPARE(plan.predicted_samples_per_s, steered.samples_per_s);
    QVERIFY(steered.samples_per_s >= (1 - cluster::kCoverageRateMargin) * packed.samples_per_s);
    QCOMPARE(plan.pipelines.size(), packed.pipelines.size());
    // Heterogeneous cuts, yet every seat of a pipeline of two stages or more is checkable.
    QVERIFY(plan.coverage);
    std::size_t seats = 0, lone = 0;
    for (const auto& p : plan.pipelines) {
      seats += p.size();
      if (p.size() == 1) ++lone;
    }
    QCOMPARE(plan.coverage->stages.size(), seats);
    QCOMPARE(static_cast<std::size_t>(plan.coverage->unchecked), lone);
    qInfo("coverage of %zu seats: %s", seats, cluster::summary(*plan.coverage).c_str());
  }

  void aLeaveInALargeSwarmRePlansOnlyItsPipeline() {
    // With the plan in force, a volunteer's leave re-plans the pipelines it touched: every
    // other pipeline keeps its volunteers and cuts (no shard moves), and the plan still seats
    // everyone once.
    const auto job = demo_job();
    auto m = mixed_swarm(200, 9);
    const auto before = coordinator::plan_swarm(m, job);
    QVERIFY(before.pipelines.size() >= 4);
    // One of the first pipeline's volunteers leaves.
    const auto gone = before.pipelines.front().back().key;
    std::erase_if(m, [&](const Member& x) { return x.key == gone; });
    const auto after = coordinator::plan_swarm(m, job, coordinator::Planner::ours, &before);
    QCOMPARE(after.infeasible.code(), wire::pb::Verdict::NONE);
    check_covers_model(after, static_cast<std::int64_t>(coordinator::block_profiles(job).size()));
    // The broken pipeline's other volunteers are re-seated: in a new pipeline, or each
    // joining one that was kept, which then changes too. Every other pipeline stays as it was.
    std::size_t untouched = 0, changed = 0;
    for (const auto& p : before.pipelines) {
      if (std::any_of(p.begin(), p.end(), [&](const auto& s) { return s.key == gone; })) continue;
      ++untouched;
      if (std::find(after.pipelines.begin(), after.pipelines.end(), p) == after.pipelines.end())
        ++changed;
    }
    // A plan from scratch would have moved far more.
    const auto fresh = coordinator::plan_swarm(m, job);
    std::size_t fresh_changed = 0;
    for (const auto& p : before.pipelines)
      if (std::find(fresh.pipelines.begin(), fresh.pipelines.end(), p) == fresh.pipelines.end())
        ++fresh_changed;
    qInfo(
        "%zu pipelines, %zu of the %zu the leave did not touch changed (a leftover joined them); "
        "a fresh plan changes %zu; predicted %.1f samples/s, fresh %.1f",
        before.pipelines.size(), changed, untouched, fresh_changed, after.predicted_samples_per_s,
        fresh.predicted_samples_per_s);
    QCOMPARE(untouched, before.pipelines.size() - 1);
    QVERIFY(changed < before.pipelines.front().size());
    std::multiset<std::string> seen;
    for (const auto& p : after.pipelines)
      for (const auto& s : p) seen.insert(s.key);
    for (const auto& u : after.unassigned) seen.insert(u.node_id);
    QCOMPARE(seen.size(), m.size());
    QCOMPARE(seen.count(gone), std::size_t(0));
  }
};

QTEST_GUILESS_MAIN(TestSwarmPlanner)
#include "test_swarm_planner.moc"
