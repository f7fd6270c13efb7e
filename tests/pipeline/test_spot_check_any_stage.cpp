// A liar on any stage of a heterogeneous swarm is caught. Three pipelines cut three ways over a
// six-block GPT (no stage has an exact replica; check_coverage reports every one composed, two
// independent chains each), as stages on threads of this process over in-process links,
// SWARM-wired. For each of the eight stages in turn, that stage lies in both directions
// (Fault::CorruptWork: its activations forward and its gradients back x-10) and the stages it
// sends work to must catch it through chains of the others; no honest stage catches an honest
// one. The same again with the stage boundaries compressed to low-rank factors.
#include <QTest>

#include <algorithm>
#include <chrono>
#include <thread>

#include "cluster/check_coverage.hpp"
#include "local_swarm.hpp"

using namespace rookery;
using Blocks = std::pair<int, int>;

namespace {

const std::vector<std::vector<Blocks>> kPlan{
    {{0, 2}, {2, 5}, {5, 6}}, {{0, 3}, {3, 6}}, {{0, 1}, {1, 4}, {4, 6}}};

}  // namespace

class TestSpotCheckAnyStage : public QObject {
  Q_OBJECT

  struct Seat {
    int pipeline, stage;
    Blocks blocks;
  };
  std::vector<Seat> seats_;

 private Q_SLOTS:
  void initTestCase() {
    torch::set_num_threads(1);
    for (int p = 0; p < int(kPlan.size()); ++p)
      for (int s = 0; s < int(kPlan[std::size_t(p)].size()); ++s)
        seats_.push_back({p, s, kPlan[std::size_t(p)][std::size_t(s)]});
  }

  void everyStageIsCoveredWithoutAReplica() {
    std::vector<std::vector<cluster::HeldRange>> plan(kPlan.size());
    for (std::size_t i = 0; i < seats_.size(); ++i)
      plan[std::size_t(seats_[i].pipeline)].push_back(
          {std::to_string(i), seats_[i].blocks.first, seats_[i].blocks.second});
    const auto report = cluster::check_coverage(plan);
    for (const auto& c : report.stages) {
      qInfo("pipeline %d stage %d [%lld,%lld): %s, %d chain(s), first of %d link(s)", c.pipeline,
            c.stage + 1, static_cast<long long>(c.first), static_cast<long long>(c.last),
            cluster::check_kind_name(c.kind), c.chains, c.links);
      QCOMPARE(c.kind, cluster::CheckKind::Composed);
      QCOMPARE(c.chains, 2);
    }
  }

  void aLiarOnAnyStageIsCaught_data() {
    QTest::addColumn<int>("liar");
    QTest::addColumn<int>("rank");  // of the low-rank boundary compression; 0: none
    for (const int rank : {0, 4}) {
      int i = 0;
      for (std::size_t p = 0; p < kPlan.size(); ++p) {
        for (std::size_t s = 0; s < kPlan[p].size(); ++s) {
          const auto name = QString("pipeline %1 stage %2 [%3,%4)%5")
                                .arg(p)
                                .arg(s + 1)
                                .arg(kPlan[p][s].first)
                                .arg(kPlan[p][s].second)
                                .arg(rank ? QString(", boundaries rank %1").arg(rank) : "");
          QTest::newRow(qPrintable(name)) << i++ << rank;
        }
      }
    }
  }

  void aLiarOnAnyStageIsCaught() {
    QFETCH(int, liar);
    QFETCH(int, rank);
    QCOMPARE(seats_.size(), std::size_t(8));
    // No averaging here, so replicas drift apart as they train: a small learning rate keeps
    // the honest ones within the tolerance of each other (the x-10 lie is 1.1 away whatever
    // the weights). With low-rank boundaries (rank 16 of width 64, 14x fewer bytes than fp32)
    // every stage trains on approximations, and checks compare them with the same compression
    // of the verifiers' recomputations.
    auto job = job::parse_job_spec(
        testing::gpt_job_json("any-stage", 1, "none", 4, 64, 1e-5).toStdString());
    if (rank > 0) job.boundary = {job::BoundaryKind::lowrank, rank};
    const int n = int(seats_.size());
    testing::LocalSwarm swarm(testing::LinkKind::InProcess, n);
    const auto keys = swarm.keys();
    const auto index = [&](int p, int s) {
      for (int i = 0; i < n; ++i)
        if (seats_[std::size_t(i)].pipeline == p && seats_[std::size_t(i)].stage == s) return i;
      return -1;
    };
    std::vector<pipeline::StageHolder> holders;
    for (int i = 0; i < n; ++i)
      holders.push_back(
          {swarm.address(i),
           {seats_[std::size_t(i)].blocks.first, seats_[std::size_t(i)].blocks.second}});
    // Later stages first, so every next hop is there when the first micro-batch comes.
    std::vector<int> order(std::size_t(n), 0);
    for (int i = 0; i < n; ++i) order[std::size_t(i)] = i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return seats_[std::size_t(a)].stage > seats_[std::size_t(b)].stage;
    });
    for (const int i : order) {
      const auto& seat = seats_[std::size_t(i)];
      auto c = testing::stage_config(job, seat.blocks, keys);
      c.pipeline = std::uint32_t(seat.pipeline);
      c.stages_before = seat.stage;
      c.cross_pipeline = true;
      c.holders = holders;
      const int next = index(seat.pipeline, seat.stage + 1);
      if (next >= 0) {
        c.next = swarm.address(next);
        c.next_candidates.push_back(c.next);
        for (int j = 0; j < n; ++j) {
          if (j != next && seats_[std::size_t(j)].blocks.first == seat.blocks.second)
            c.next_candidates.push_back(swarm.address(j));
        }
      }
      // A micro-batch sent to the liar dies with its work: its sender gives up on it in 2 s.
      c.micro_batch_timeout = std::chrono::milliseconds(2000);
      if (seat.stage == 0) {
        c.max_micro_batches = 40;
        c.first_sample = std::int64_t(seat.pipeline) * 1'000'000;
      }
      if (i == liar) {
        c.fault = pipeline::Fault::CorruptWork;
        // It does not wait the usual 20 s for a gradient that will not come, as an attacker
        // would not.
        c.micro_batch_timeout = std::chrono::milliseconds(300);
      }
      swarm.start(i, std::move(c));
    }
    const auto& liar_key = keys[std::size_t(liar)];
    const auto caught_by = [&] {
      int by = 0;
      for (int i = 0; i < n; ++i) {
        const auto c = swarm.stats(i).caught_peers;
        if (std::find(c.begin(), c.end(), liar_key) != c.end()) ++by;
      }
      return by;
    };
    const auto start = std::chrono::steady_clock::now();
    while (caught_by() == 0 &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(60)) {
      QVERIFY2(swarm.errors().empty(), swarm.errors().c_str());
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto count = [&](std::int64_t pipeline::StageStats::*field) {
      std::int64_t total = 0;
      for (int i = 0; i < n; ++i) total += swarm.stats(i).*field;
      return total;
    };
    // A liar on a first stage is caught within a few micro-batches, maybe before any honest
    // stage's check (a round trip to the checked stage, then the chains) is over.
    const auto caught_at = std::chrono::steady_clock::now();
    while (count(&pipeline::StageStats::spot_checks_passed) == 0 &&
           std::chrono::steady_clock::now() - caught_at < std::chrono::seconds(20))
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const std::int64_t passed = count(&pipeline::StageStats::spot_checks_passed);
    const std::int64_t failed = count(&pipeline::StageStats::spot_checks_failed);
    for (int i = 0; i < n; ++i) {
      const auto s = swarm.stats(i);
      if (i == liar) continue;  // what a liar claims counts only in the coordinator's majority
      for (const auto& k : s.caught_peers) {
        const auto who = std::find(keys.begin(), keys.end(), k) - keys.begin();
        QVERIFY2(
            k == liar_key,
            qPrintable(
                QString("stage %1 caught the honest stage %2").arg(i).arg(static_cast<int>(who))));
      }
    }
    qInfo("caught by %d stage(s) after %.1f s; %lld checks passed, %lld failed in all", caught_by(),
          took, static_cast<long long>(passed), static_cast<long long>(failed));
    QVERIFY2(caught_by() >= 1, "nobody caught the liar within 60 s");
    QVERIFY2(passed > 0, "no check of an honest stage passed");
    QVERIFY(swarm.errors().empty());
  }
};

QTEST_GUILESS_MAIN(TestSpotCheckAnyStage)
#include "test_spot_check_any_stage.moc"
