// The plan as each node sees it (coordinator/plan_view.hpp), in a swarm too large for the whole
// plan to fit in a reply: 600 pipelines of 5 seats averaging in groups of 16.
//  - A seated node is sent its view: every pipeline in its place, the stages of its sweep
//    partners' pipelines only, exactly as the whole message has them; a few KiB where the whole
//    plan is over what a reply may carry. A node without a seat sees no stages. A job that
//    averages in one ring, or a plan that fits one group, sends everybody the whole plan.
//  - The ban vote counts the witnesses of the accused's view: its ring partners there, who can
//    ban a liar by their majority (the whole plan's 599 ring partners never could).
//  - The check coverage counts the verifiers each seat's view holds, as its checkers draw
//    them: a seat whose only exact replica is outside its view is checked by chains.
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <functional>
#include <stdexcept>

#include "clock/clock.hpp"
#include "cluster/check_coverage.hpp"
#include "coordinator/ban_vote.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/membership.hpp"
#include "coordinator/plan_delivery.hpp"
#include "coordinator/plan_view.hpp"
#include "coordinator/witness_index.hpp"

using namespace rookery;
using namespace std::chrono_literals;

namespace {

constexpr int kPipelines = 600, kStages = 5, kGroup = 16;

std::string key_of(int i) {
  std::string k = "volunteer" + std::to_string(i);
  k.resize(40, '.');
  return k;
}

// Pipelines of kStages seats over 10 blocks, cut in one of two ways: shifted by `shift(p)`.
coordinator::Assignment large_plan(const std::function<std::int64_t(int)>& shift = [](int p) {
  return p % 2;
}) {
  coordinator::Assignment plan;
  plan.version = 3;
  for (int p = 0; p < kPipelines; ++p) {
    auto& pipeline = plan.pipelines.emplace_back();
    for (int s = 0; s < kStages; ++s) {
      const std::int64_t first = s == 0 ? 0 : 2 * s + shift(p);
      const std::int64_t last = s + 1 == kStages ? 10 : 2 * (s + 1) + shift(p);
      pipeline.push_back({key_of(p * kStages + s), first, last});
    }
  }
  return plan;
}

coordinator::Member member(int i) {
  coordinator::Member m;
  m.key = key_of(i);
  m.profile.flops_per_s = 1e10;
  m.profile.free_memory_bytes = 1 << 30;
  m.stage_endpoint =
      "tcp://10.1." + std::to_string(i / 250) + "." + std::to_string(i % 250) + ":41000";
  m.reduce_endpoint =
      "tcp://10.1." + std::to_string(i / 250) + "." + std::to_string(i % 250) + ":41001";
  return m;
}

}  // namespace

class TestPlanView : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

 private Q_SLOTS:
  void aNodeIsSentItsView() {
    coordinator::CoordinatorState state(std::filesystem::path(dir_.path().toStdString()) /
                                        "state.db");
    clock::ManualClock clock;
    coordinator::Membership membership(state, 3000ms, clock);
    membership.resume({});
    for (int i = 0; i < kPipelines * kStages; ++i) membership.admit(member(i), 0, true);
    const auto plan = large_plan();
    coordinator::PlanDelivery delivery;
    delivery.refresh(plan, membership, 2000, kGroup);
    QVERIFY(delivery.message().has_value());
    const std::size_t reply = 252 * 1024;
    qInfo("the whole plan: %zu KiB", delivery.bytes() >> 10);
    QVERIFY2(delivery.bytes() > reply, "the whole plan should be over what a reply carries");

    const coordinator::PlanViews views(kPipelines, kGroup);
    const auto& whole = *delivery.message();
    for (int p = 0; p < kPipelines; ++p) {
      const auto view = delivery.view(p);
      QVERIFY(view.plan);
      QCOMPARE(view.plan->pipelines_size(), kPipelines);
      QCOMPARE(view.plan->averaging_interval_ms(), std::int64_t(2000));
      QCOMPARE(view.bytes, view.plan->ByteSizeLong());
      QVERIFY2(view.bytes < 16 * 1024,
               qPrintable(QString("pipeline %1's view is %2 bytes").arg(p).arg(view.bytes)));
      for (int q = 0; q < kPipelines; ++q) {
        const auto& got = view.plan->pipelines(q);
        if (views.sees(std::size_t(p), std::size_t(q))) {
          QCOMPARE(got.SerializeAsString(), whole.pipelines(q).SerializeAsString());
        } else {
          QCOMPARE(got.stages_size(), 0);
        }
      }
    }
    qInfo("the largest view: %zu bytes of the whole %zu", delivery.largest_view_bytes(),
          delivery.bytes());
    QVERIFY(delivery.view(17).plan == delivery.view(17).plan);  // built once per pipeline
    const auto unseated = delivery.view(-1);
    QVERIFY(unseated.plan);
    for (const auto& pipeline : unseated.plan->pipelines()) QCOMPARE(pipeline.stages_size(), 0);

    // One ring across every pipeline: everybody is sent the whole plan.
    delivery.refresh(plan, membership, 2000, 0);
    QCOMPARE(delivery.view(5).bytes, delivery.bytes());
    QCOMPARE(delivery.view(-1).plan->SerializeAsString(), whole.SerializeAsString());
    // Pipelines that fit one group: the same.
    coordinator::Assignment small = plan;
    small.pipelines.resize(kGroup);
    small.version = 4;
    delivery.refresh(small, membership, 2000, kGroup);
    QCOMPARE(delivery.view(3).bytes, delivery.bytes());
  }

  void theBanVoteCountsTheViewsWitnesses() {
    const auto plan = large_plan();
    const std::string liar = key_of(7 * kStages + 2);  // pipeline 7, stage 2
    const auto viewed = coordinator::ban_witnesses(plan, liar, kGroup);
    const auto everyone = coordinator::ban_witnesses(plan, liar, 0);
    QVERIFY(viewed && everyone);
    const coordinator::PlanViews views(kPipelines, kGroup);
    const auto in_view = [&](const std::string& k) {
      const auto [p, s] = plan.find(k);
      return p >= 0 && views.sees(7, std::size_t(p));
    };
    for (const auto* set :
         {&viewed->ring_partners, &viewed->sends_to, &viewed->returns_gradients_to}) {
      QVERIFY(!set->empty());
      for (const auto& k : *set) QVERIFY(in_view(k));
    }
    qInfo("ring partners: %zu in its view, %zu in the whole plan", viewed->ring_partners.size(),
          everyone->ring_partners.size());
    QVERIFY(viewed->ring_partners.size() < 60);
    QVERIFY(everyone->ring_partners.size() >= std::size_t(kPipelines - 1));
    // Every partner that averages with it excludes it: a ban; the same reports could never
    // outvote the whole plan's partners, who never see its work. Reports from outside its
    // view count for nothing.
    coordinator::BanReports reports;
    reports.excluded_by = viewed->ring_partners;
    QVERIFY(coordinator::ban_vote(*viewed, reports).ban);
    QVERIFY(!coordinator::ban_vote(*everyone, reports).ban);
    coordinator::WitnessIndex index;
    index.build(plan, kGroup);
    QVERIFY(index.vote(liar, reports)->ban);
    coordinator::BanReports strangers;
    for (const auto& k : everyone->ring_partners) {
      if (!in_view(k)) strangers.excluded_by.insert(k);
    }
    QVERIFY(!index.vote(liar, strangers)->ban);
    QCOMPARE(index.counts(liar)->ring_partners, viewed->ring_partners.size());
    QCOMPARE(index.counts(liar)->sends_to, viewed->sends_to.size());
  }

  void theCoverageCountsTheVerifiersInEachView() {
    // Every pipeline cut one way but pipeline 0 and one outside its view, cut the other: each
    // is the other's only exact replica, which neither's checkers know of.
    const coordinator::PlanViews views(kPipelines, kGroup);
    int far = 1;
    while (views.sees(0, std::size_t(far))) ++far;
    const auto plan = large_plan([&](int p) { return p == 0 || p == far ? 1 : 0; });
    const auto whole = coordinator::check_coverage_of(plan, 0);
    const auto viewed = coordinator::check_coverage_of(plan, kGroup);
    QCOMPARE(whole->stages.size(), std::size_t(kPipelines * kStages));
    QCOMPARE(viewed->stages.size(), whole->stages.size());
    qInfo("pipeline 0 and pipeline %d: whole plan %s; views %s", far,
          cluster::summary(*whole).c_str(), cluster::summary(*viewed).c_str());
    for (int s = 0; s < kStages; ++s) {
      QCOMPARE(whole->stages[std::size_t(s)].kind, cluster::CheckKind::Exact);
      // Composed of the other cut's holders in its view: still checked.
      QCOMPARE(viewed->stages[std::size_t(s)].kind, cluster::CheckKind::Composed);
    }
    QCOMPARE(whole->exact, kPipelines * kStages);
    QCOMPARE(viewed->exact, (kPipelines - 2) * kStages);
    QCOMPARE(viewed->composed, 2 * kStages);
    QCOMPARE(viewed->unchecked, 0);
    // A view that holds no other holder of a block: nobody can check that seat.
    std::vector<std::vector<cluster::HeldRange>> two{{{"a", 0, 5}, {"b", 5, 10}},
                                                     {{"c", 0, 5}, {"d", 5, 10}}};
    const auto apart = cluster::check_coverage(two, 0, {{0}, {1}});
    QCOMPARE(apart.unchecked, 4);
    QCOMPARE(apart.stages[0].why, std::string("block 0 is held by nobody else"));
    QCOMPARE(cluster::check_coverage(two, 0, {{0, 1}, {0, 1}}).exact, 4);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, cluster::check_coverage(two, 0, {{0, 1}}));
  }
};

QTEST_GUILESS_MAIN(TestPlanView)
#include "test_plan_view.moc"
