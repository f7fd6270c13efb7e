// The multi-ring plan from differently cut pipelines, and the Averager running all of a
// node's rings at once: after one round every node holds the weighted mean of its
// parameters (and optimizer state) across pipelines; rounds queue; a re-partition re-plans. In
// groups, a node that knows only its view of the plan derives the same rings.
#include <QtTest/QtTest>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "reduce/averager.hpp"
#include "reduce/averaging_groups.hpp"
#include "reduce/local_transport.hpp"
#include "reduce/multi_ring_plan.hpp"
#include "reduce_test_support.hpp"

using namespace rookery;
using namespace rookery::reduce;
using namespace std::chrono_literals;

namespace {
const std::vector<std::int64_t> kBlockValues{5000, 7001, 3, 11003, 2, 4097};  // a 6-block model

std::vector<PipelinePartition> three_pipelines() {
  return {{{0, 2, 4, 6}, {"p0s0", "p0s1", "p0s2"}},
          {{0, 3, 6}, {"p1s0", "p1s1"}},
          {{0, 1, 2, 6}, {"p2s0", "p2s1", "p2s2"}}};
}

// Whole-model values of pipeline p for buffer b.
std::vector<float> pipeline_values(const MultiRingPlan& plan, int p, int b) {
  return testing::member_values(plan.total_values(), std::uint32_t(100 * b + p));
}
}  // namespace

class TestMultiRing : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void planOfThreeDifferentCuts() {
    const MultiRingPlan plan(kBlockValues, three_pipelines());
    const auto& r = plan.ranges();
    QCOMPARE(r.size(), std::size_t(5));  // cuts at blocks 0,1,2,3,4,6
    const std::vector<std::vector<std::string>> members{{"p0s0", "p1s0", "p2s0"},
                                                        {"p0s0", "p1s0", "p2s1"},
                                                        {"p0s1", "p1s0", "p2s2"},
                                                        {"p0s1", "p1s1", "p2s2"},
                                                        {"p0s2", "p1s1", "p2s2"}};
    const std::vector<std::int64_t> cuts{0, 1, 2, 3, 4, 6};
    for (std::size_t i = 0; i < r.size(); ++i) {
      QCOMPARE(r[i].first_block, cuts[i]);
      QCOMPARE(r[i].last_block, cuts[i + 1]);
      QCOMPARE(r[i].first, plan.block_offset(cuts[i]));
      QCOMPARE(r[i].members, members[i]);
    }
    // p2s2 holds blocks 2..6, so it sits in three rings at once; p1s0 in three; p0s2 in one.
    QCOMPARE(plan.for_node("p2s2").ranges.size(), std::size_t(3));
    QCOMPARE(plan.for_node("p1s0").ranges.size(), std::size_t(3));
    QCOMPARE(plan.for_node("p0s2").ranges.size(), std::size_t(1));
    QCOMPARE(plan.for_node("p0s1").shard_first, plan.block_offset(2));
    QCOMPARE(plan.for_node("p0s1").shard_last, plan.block_offset(4));
    // One pipeline alone has nothing to average with.
    QVERIFY(MultiRingPlan(kBlockValues, {three_pipelines()[0]}).rings().empty());
  }

  void planRejectsBadPartitions_data() {
    QTest::addColumn<std::vector<std::int64_t>>("boundaries");
    QTest::addColumn<int>("nodes");
    QTest::newRow("not-from-zero") << std::vector<std::int64_t>{1, 6} << 1;
    QTest::newRow("short") << std::vector<std::int64_t>{0, 5} << 1;
    QTest::newRow("empty-stage") << std::vector<std::int64_t>{0, 3, 3, 6} << 3;
    QTest::newRow("node-count") << std::vector<std::int64_t>{0, 3, 6} << 1;
  }
  void planRejectsBadPartitions() {
    QFETCH(std::vector<std::int64_t>, boundaries);
    QFETCH(int, nodes);
    PipelinePartition p{boundaries, {}};
    for (int i = 0; i < nodes; ++i) p.nodes.push_back("n" + std::to_string(i));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MultiRingPlan(kBlockValues, {p}));
  }

  void threePipelinesAverage_data() {
    QTest::addColumn<int>("codec");
    QTest::newRow("fp32") << int(wire::Codec::None);
    QTest::newRow("bf16") << int(wire::Codec::Bf16);
    QTest::newRow("int8") << int(wire::Codec::Int8Block);
  }
  void threePipelinesAverage() {
    QFETCH(int, codec);
    const MultiRingPlan plan(kBlockValues, three_pipelines());
    const std::vector<double> samples{100, 300, 50};
    const std::vector<std::string> buffers{"params", "adamw.exp_avg"};
    LocalFabric fabric;
    RingOptions options;
    options.codec = static_cast<wire::Codec>(codec);
    options.segment_values = 1024;
    options.timeout = 5s;
    struct Node {
      int pipeline;
      NodeRanges ranges;
      std::unique_ptr<Averager> averager;
    };
    std::vector<Node> nodes;
    const auto pipelines = three_pipelines();
    for (int p = 0; p < 3; ++p) {
      for (const auto& id : pipelines[std::size_t(p)].nodes) {
        auto ranges = plan.for_node(id);
        nodes.push_back(
            {p, ranges,
             std::make_unique<Averager>(fabric.join(id), AveragerConfig{ranges, options, {}, {}})});
      }
    }
    for (auto& n : nodes) {
      std::vector<FlatBuffer> flat;
      for (int b = 0; b < 2; ++b) {
        const auto whole = pipeline_values(plan, n.pipeline, b);
        flat.push_back({buffers[std::size_t(b)],
                        {whole.begin() + long(n.ranges.shard_first),
                         whole.begin() + long(n.ranges.shard_last)}});
      }
      n.averager->start(3, std::move(flat), std::int64_t(samples[std::size_t(n.pipeline)]));
    }
    // Reference: the weighted mean of the three pipelines' whole-model values.
    std::map<std::uint64_t, float> first_seen;  // bit-identity across nodes of one range
    std::map<const Node*, AveragingResult> results;
    for (int b = 0; b < 2; ++b) {
      std::vector<std::vector<float>> wholes;
      for (int p = 0; p < 3; ++p) wholes.push_back(pipeline_values(plan, p, b));
      const auto expected = testing::weighted_mean(wholes, samples);
      const auto bounds = testing::error_bounds(wholes, samples, options.codec);
      for (auto& n : nodes) {
        if (!results.count(&n)) {
          auto r = n.averager->wait(20s);
          QVERIFY(r.has_value());
          QCOMPARE(r->round, std::uint64_t(3));
          results.emplace(&n, std::move(*r));
        }
        const auto& result = results.at(&n);
        for (const auto& ring : result.rings) {
          QCOMPARE(ring.outcome.contributors, ring.range.members);
          QCOMPARE(ring.outcome.total_weight, 450.0);
        }
        const auto* avg = result.find(buffers[std::size_t(b)]);
        QVERIFY(avg);
        for (std::size_t i = 0; i < avg->values.size(); ++i) {
          const std::uint64_t g = n.ranges.shard_first + i;
          QVERIFY2(std::fabs(avg->values[i] - expected[g]) <= bounds[g],
                   qPrintable(QString("buffer %1 offset %2").arg(b).arg(g)));
          auto [it, fresh] = first_seen.emplace(g * 2 + std::uint64_t(b), avg->values[i]);
          if (!fresh) QVERIFY(std::memcmp(&it->second, &avg->values[i], sizeof(float)) == 0);
        }
        // apply_to keeps the local steps taken during the round: current = snapshot + delta.
        std::vector<float> current = result.find(buffers[std::size_t(b)], false)->values;
        for (auto& v : current) v += 0.5f;
        result.apply_to(buffers[std::size_t(b)], current);
        for (std::size_t i = 0; i < current.size(); i += 997)
          QVERIFY(std::fabs(current[i] - (avg->values[i] + 0.5f)) < 1e-5);
      }
    }
  }

  // Rounds started while one runs are queued and come back in order; a re-partition between
  // rounds re-derives the rings.
  void ringsSpanAGroupInLargeSwarms() {
    // 40 pipelines of two stages cut alike or differently: with groups of 8 a round's every
    // ring has at most 8 members, every pipeline's owner of a range sits in exactly one of that
    // range's rings, and over the grid's rounds every pipeline meets every other.
    std::vector<PipelinePartition> parts;
    for (int p = 0; p < 40; ++p) {
      const std::int64_t cut = 1 + p % 4;
      parts.push_back(
          {{0, cut, 6}, {"p" + std::to_string(p) + "a", "p" + std::to_string(p) + "b"}});
    }
    const MultiRingPlan plan(kBlockValues, parts);
    for (std::uint64_t round = 0; round < 3; ++round) {
      const auto rings = plan.rings(round, 8);
      std::map<std::pair<std::uint64_t, std::string>, int> seats;
      for (const auto& r : rings) {
        QVERIFY(r.members.size() >= 2 && r.members.size() <= 8);
        for (const auto& m : r.members) ++seats[{r.first, m}];
      }
      for (const auto& r : plan.ranges()) {
        if (r.size() == 0) continue;
        int in_rings = 0;
        for (const auto& m : r.members)
          in_rings += seats.count({r.first, m}) ? seats[{r.first, m}] : 0;
        QVERIFY(in_rings <= int(r.members.size()));  // none twice; a group of one sits out
      }
      // A node's rings in a round are those of its group only.
      const auto mine = plan.for_node("p0a", round, 8);
      for (const auto& r : mine.ranges) {
        QVERIFY(r.members.size() <= 8);
        QVERIFY(std::find(r.members.begin(), r.members.end(), "p0a") != r.members.end());
      }
      QVERIFY(!mine.ranges.empty());
    }
  }

  // A node of a large swarm knows only the pipelines of its view (its sweep partners'; the
  // others are unknown partitions in their places): in every round it derives the same rings as
  // from the whole plan, and so do its group's members from their own views.
  void nodesSeeingTheirViewsDeriveTheSameRings() {
    constexpr std::size_t kPipelines = 40, kGroup = 8;
    std::vector<PipelinePartition> parts;
    for (std::size_t p = 0; p < kPipelines; ++p) {
      const std::int64_t cut = 1 + std::int64_t(p % 3), cut2 = cut + 1 + std::int64_t(p % 2);
      parts.push_back({{0, cut, cut2, 6},
                       {"p" + std::to_string(p) + "a", "p" + std::to_string(p) + "b",
                        "p" + std::to_string(p) + "c"}});
    }
    const MultiRingPlan whole(kBlockValues, parts);
    const auto partners = sweep_partners(kPipelines, kGroup);
    for (std::size_t p = 0; p < kPipelines; ++p) {
      auto seen = parts;
      for (std::size_t q = 0; q < kPipelines; ++q) {
        if (!std::binary_search(partners[p].begin(), partners[p].end(), q)) seen[q] = {};
      }
      const MultiRingPlan view(kBlockValues, seen);
      for (std::uint64_t round = 0; round < 5; ++round) {
        for (const auto& node : parts[p].nodes) {
          const auto a = view.for_node(node, round, kGroup),
                     b = whole.for_node(node, round, kGroup);
          QCOMPARE(a.ranges, b.ranges);
          QVERIFY(!a.ranges.empty());
          QCOMPARE(a.shard_first, b.shard_first);
          QCOMPARE(a.shard_last, b.shard_last);
        }
      }
    }
    // A view that lacks a pipeline of the node's group says so rather than cut other rings.
    auto lacking = parts;
    const auto group = averaging_groups(kPipelines, kGroup, 0).front();
    lacking[group.back()] = {};
    const MultiRingPlan broken(kBlockValues, lacking);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             broken.for_node(parts[group.front()].nodes[0], 0, kGroup));
  }

  void smallSwarmsKeepOneRing() {
    const MultiRingPlan plan(kBlockValues, three_pipelines());
    QCOMPARE(plan.rings(4, 16), plan.rings());
    QCOMPARE(plan.for_node("p1s0", 4, 16).ranges, plan.for_node("p1s0").ranges);
    QCOMPARE(plan.rings(4, 0), plan.rings());  // 0: no bound
  }

  void roundsQueueAndRepartition() {
    const std::vector<std::int64_t> blocks{300, 500, 700};
    MultiRingPlan first(blocks, {{{0, 1, 3}, {"a0", "a1"}}, {{0, 2, 3}, {"b0", "b1"}}});
    MultiRingPlan second(blocks, {{{0, 2, 3}, {"a0", "a1"}}, {{0, 1, 3}, {"b0", "b1"}}});
    LocalFabric fabric;
    RingOptions options;
    options.timeout = 5s;
    std::map<std::string, std::unique_ptr<Averager>> avg;
    std::map<std::string, float> base{{"a0", 1.f}, {"a1", 1.f}, {"b0", 3.f}, {"b1", 3.f}};
    for (const auto& [id, v] : base)
      avg[id] = std::make_unique<Averager>(fabric.join(id),
                                           AveragerConfig{first.for_node(id), options, {}, {}});
    auto shard = [&](const MultiRingPlan& plan, const std::string& id, float v) {
      const auto r = plan.for_node(id);
      return std::vector<FlatBuffer>{
          {"params", std::vector<float>(r.shard_last - r.shard_first, v)}};
    };
    for (std::uint64_t round : {1, 2}) {
      for (const auto& [id, v] : base) avg[id]->start(round, shard(first, id, v), 1);
    }
    for (const auto& [id, v] : base) {
      for (std::uint64_t round : {1, 2}) {
        auto r = avg[id]->wait(10s);
        QVERIFY(r);
        QCOMPARE(r->round, round);
        for (float x : r->averaged[0].values) QCOMPARE(x, 2.f);
      }
      QCOMPARE(avg[id]->in_progress(), std::size_t(0));
      avg[id]->set_ranges(second.for_node(id));
    }
    for (const auto& [id, v] : base) avg[id]->start(3, shard(second, id, v), id[0] == 'a' ? 3 : 1);
    for (const auto& [id, v] : base) {
      auto r = avg[id]->wait(10s);
      QVERIFY(r);
      for (float x : r->averaged[0].values) QCOMPARE(x, 1.5f);  // (3*1 + 1*3) / 4
    }
  }
};

QTEST_APPLESS_MAIN(TestMultiRing)
#include "test_multi_ring.moc"
