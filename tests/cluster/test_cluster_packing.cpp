// The near-linear planner (pack_pipelines) and its incremental update (update_pipelines):
// within 5% of the exact planner's predicted throughput where that one finishes, sound plans
// on swarms of thousands (no shard over its node's memory, every node seated or given a
// reason), and a membership change that re-plans only the pipelines it touches.
#include "cluster/planning.hpp"
#include "swarm_profiles.hpp"

#include <QTest>

#include <algorithm>
#include <map>
#include <random>
#include <set>

using namespace rookery::cluster;

namespace {

/// Every pipeline covers the chain with contiguous non-empty shards within memory, its
/// numbers are what evaluate_plan gives for its order and cuts (an independent re-timing), and
/// every node is seated once or listed once as unassigned, never both.
void check_sound(const ClusterPlan& plan, const std::vector<NodeProfile>& nodes,
                 const std::vector<BlockProfile>& blocks, const TrainingSettings& settings) {
  QCOMPARE(plan.tier.size(), plan.pipelines.size());
  std::map<std::string, int> seen;
  double total = 0;
  for (const PipelinePlan& p : plan.pipelines) {
    QVERIFY(!p.stages.empty());
    QVERIFY(int(p.stages.size()) <= int(blocks.size()));
    std::vector<int> order, bounds{0};
    for (size_t k = 0; k < p.stages.size(); ++k) {
      const Stage& s = p.stages[k];
      QVERIFY(s.node_index >= 0 && s.node_index < int(nodes.size()));
      QCOMPARE(s.node_id, nodes[size_t(s.node_index)].id);
      QCOMPARE(s.first_block, bounds.back());
      QVERIFY(s.first_block < s.last_block);
      QCOMPARE(s.memory_bytes, shard_memory_bytes(blocks, s.first_block, s.last_block, settings));
      QVERIFY2(s.memory_bytes <= nodes[size_t(s.node_index)].free_memory_bytes,
               "a planned shard overruns its node's memory");
      ++seen[s.node_id];
      order.push_back(s.node_index);
      bounds.push_back(s.last_block);
    }
    QCOMPARE(bounds.back(), int(blocks.size()));
    const PartitionResult again = evaluate_plan(nodes, order, bounds, blocks, settings);
    QVERIFY(again.ok());
    QVERIFY(std::abs(again.plan->samples_per_s - p.samples_per_s) <= 1e-9 * p.samples_per_s);
    total += p.samples_per_s;
  }
  QVERIFY(std::abs(total - plan.samples_per_s) <= 1e-6 * std::max(1.0, total));
  for (const Unassigned& u : plan.unassigned) {
    ++seen[u.node_id];
    if (u.why == Unseated::NoPipelineHoldsModel) QVERIFY(!u.detail.empty());
    // A spare or a full tier only makes sense beside a pipeline it could have joined.
    if (u.why != Unseated::NoPipelineHoldsModel) QVERIFY(!plan.pipelines.empty());
  }
  QCOMPARE(seen.size(), nodes.size());
  for (const auto& n : nodes) QCOMPARE(seen[n.id], 1);
}

std::vector<std::string> layout(const PipelinePlan& p) {
  std::vector<std::string> out;
  for (const Stage& s : p.stages)
    out.push_back(s.node_id + "@" + std::to_string(s.first_block) + "-" +
                  std::to_string(s.last_block));
  return out;
}

/// How many pipelines of `after` are not, seat for seat and cut for cut, in `before`.
int changed_pipelines(const ClusterPlan& before, const ClusterPlan& after) {
  std::set<std::vector<std::string>> old;
  for (const auto& p : before.pipelines) old.insert(layout(p));
  int changed = 0;
  for (const auto& p : after.pipelines) changed += old.count(layout(p)) ? 0 : 1;
  return changed;
}

}  // namespace

class TestClusterPacking : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void withinFivePercentOfTheExactPlanner_data() {
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("tiers");
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("seed");
    // Shapes the exact planner solves in about a second or less, several random swarms each.
    const int shapes[][3] = {{8, 1, 12}, {12, 3, 12}, {16, 2, 12}, {24, 1, 24}, {32, 2, 24}};
    for (const auto& s : shapes)
      for (int seed = 1; seed <= 3; ++seed)
        QTest::addRow("%d nodes %d tier(s) %d L seed %d", s[0], s[1], s[2], seed)
            << s[0] << s[1] << s[2] << seed;
  }

  void withinFivePercentOfTheExactPlanner() {
    QFETCH(int, nodes);
    QFETCH(int, tiers);
    QFETCH(int, layers);
    QFETCH(int, seed);
    const auto blocks = testing::gpt_blocks(layers);
    const auto settings = testing::gpt_settings();
    std::mt19937_64 rng{uint64_t(seed)};
    const auto swarm =
        testing::random_swarm(rng, nodes, tiers, model_memory_bytes(blocks, settings));
    const ClusterPlan exact = form_pipelines(swarm, blocks, settings);
    const ClusterPlan fast = pack_pipelines(swarm, blocks, settings);
    check_sound(fast, swarm, blocks, settings);
    QVERIFY(exact.samples_per_s > 0);
    const double ratio = fast.samples_per_s / exact.samples_per_s;
    QVERIFY2(ratio >= 0.95, qPrintable(QString("packing/exact = %1").arg(ratio)));
  }

  void largeSwarmsAreSound_data() {
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("tiers");
    QTest::addColumn<double>("memory_scale");
    QTest::addColumn<bool>("tiny_thirds");
    QTest::addRow("2000 nodes 2 tiers") << 2000 << 2 << 1.0 << false;
    QTest::addRow("5000 nodes 3 tiers") << 5000 << 3 << 1.0 << false;
    QTest::addRow("10000 nodes 2 tiers") << 10000 << 2 << 1.0 << false;
    // Memories of 0.1-0.5 of the model: most pipelines need three or more nodes.
    QTest::addRow("3000 small memories 3 tiers") << 3000 << 3 << 0.4 << false;
    // Every third node has a thousandth of the model's memory: it holds no block (the lightest,
    // the head, needs about a hundredth), so it must be listed with a reason, never seated.
    QTest::addRow("3000 nodes, a third too small") << 3000 << 2 << 1.0 << true;
  }

  void largeSwarmsAreSound() {
    QFETCH(int, nodes);
    QFETCH(int, tiers);
    QFETCH(double, memory_scale);
    QFETCH(bool, tiny_thirds);
    const auto blocks = testing::gpt_blocks(24);
    const auto settings = testing::gpt_settings();
    const int64_t model = model_memory_bytes(blocks, settings);
    std::mt19937_64 rng{uint64_t(nodes)};
    auto swarm = testing::random_swarm(rng, nodes, tiers, int64_t(memory_scale * double(model)));
    std::set<std::string> tiny;
    if (tiny_thirds)
      for (size_t i = 0; i < swarm.size(); i += 3) {
        swarm[i].free_memory_bytes = model / 1000;
        tiny.insert(swarm[i].id);
      }
    const ClusterPlan plan = pack_pipelines(swarm, blocks, settings);
    QVERIFY(plan.ok());
    check_sound(plan, swarm, blocks, settings);
    size_t tiny_unassigned = 0;
    for (const Unassigned& u : plan.unassigned) tiny_unassigned += tiny.count(u.node_id);
    QCOMPARE(tiny_unassigned, tiny.size());
  }

  void aSwarmWithNoPipelineSaysWhyForEveryone() {
    const auto blocks = testing::gpt_blocks(24);
    const auto settings = testing::gpt_settings();
    std::mt19937_64 rng(7);
    // A hundredth of the model each: no node holds even one layer.
    const auto swarm =
        testing::random_swarm(rng, 3000, 2, model_memory_bytes(blocks, settings) / 100);
    const ClusterPlan plan = pack_pipelines(swarm, blocks, settings);
    QVERIFY(!plan.ok());
    QCOMPARE(plan.unassigned.size(), swarm.size());
    for (const Unassigned& u : plan.unassigned) {
      QCOMPARE(u.why, Unseated::NoPipelineHoldsModel);
      QVERIFY(u.detail.find("fits in memory") != std::string::npos);
    }
  }

  void aJoinOrALeaveChangesAFewPipelines() {
    const auto blocks = testing::gpt_blocks(24);
    const auto settings = testing::gpt_settings();
    std::mt19937_64 rng(11);
    const int64_t model = model_memory_bytes(blocks, settings);
    auto swarm = testing::random_swarm(rng, 2000, 2, model);
    const ClusterPlan before = pack_pipelines(swarm, blocks, settings);
    QVERIFY(before.pipelines.size() > 100);

    // A seated node leaves: its pipeline is re-planned (with the spares of its tier), every
    // other pipeline stays as it was, seats and cuts.
    const std::string gone = before.pipelines[before.pipelines.size() / 2].stages.front().node_id;
    std::vector<NodeProfile> left;
    for (const auto& n : swarm)
      if (n.id != gone) left.push_back(n);
    const ClusterPlan after_leave = update_pipelines(before, left, blocks, settings);
    check_sound(after_leave, left, blocks, settings);
    QVERIFY(changed_pipelines(before, after_leave) <= 3);
    QVERIFY(after_leave.pipelines.size() + 3 >= before.pipelines.size());

    // A node joins: at most the pipelines it joins or forms change.
    std::vector<NodeProfile> joined = swarm;
    auto newcomer = testing::random_swarm(rng, 1, 2, model).front();
    newcomer.id = "newcomer";
    joined.push_back(newcomer);
    const ClusterPlan after_join = update_pipelines(before, joined, blocks, settings);
    check_sound(after_join, joined, blocks, settings);
    QVERIFY(changed_pipelines(before, after_join) <= 2);
    QVERIFY(after_join.samples_per_s >= before.samples_per_s * (1 - 1e-9));
  }

  void churnedPlansStayWithinFivePercentOfAFreshOne() {
    const auto blocks = testing::gpt_blocks(24);
    const auto settings = testing::gpt_settings();
    std::mt19937_64 rng(13);
    const int64_t model = model_memory_bytes(blocks, settings);
    auto swarm = testing::random_swarm(rng, 2000, 2, model);
    ClusterPlan plan = pack_pipelines(swarm, blocks, settings);
    int next_id = 0;
    for (int step = 0; step < 10; ++step) {
      // Forty leave at random, forty arrive.
      std::shuffle(swarm.begin(), swarm.end(), rng);
      swarm.resize(swarm.size() - 40);
      for (auto& n : testing::random_swarm(rng, 40, 2, model)) {
        n.id = "joined" + std::to_string(next_id++);
        swarm.push_back(n);
      }
      plan = update_pipelines(plan, swarm, blocks, settings);
      check_sound(plan, swarm, blocks, settings);
      const ClusterPlan fresh = pack_pipelines(swarm, blocks, settings);
      const double ratio = plan.samples_per_s / fresh.samples_per_s;
      QVERIFY2(ratio >= 0.95,
               qPrintable(QString("step %1: incremental/fresh = %2").arg(step).arg(ratio)));
    }
  }

  void theUpdateOfAnUnchangedSwarmKeepsEveryPipeline() {
    const auto blocks = testing::gpt_blocks(12);
    const auto settings = testing::gpt_settings();
    std::mt19937_64 rng(17);
    const auto swarm = testing::random_swarm(rng, 300, 2, model_memory_bytes(blocks, settings));
    const ClusterPlan plan = pack_pipelines(swarm, blocks, settings);
    const ClusterPlan same = update_pipelines(plan, swarm, blocks, settings);
    check_sound(same, swarm, blocks, settings);
    QCOMPARE(changed_pipelines(plan, same), 0);
    QCOMPARE(same.pipelines.size(), plan.pipelines.size());
  }

  void duplicateIdsAreRefused() {
    const auto blocks = testing::gpt_blocks(4);
    const auto settings = testing::gpt_settings();
    std::mt19937_64 rng(19);
    auto swarm = testing::random_swarm(rng, 4, 1, model_memory_bytes(blocks, settings));
    swarm.push_back(swarm.front());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, update_pipelines({}, swarm, blocks, settings));
  }
};

QTEST_GUILESS_MAIN(TestClusterPacking)
#include "test_cluster_packing.moc"
