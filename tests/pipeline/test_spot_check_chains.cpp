// Spot-checks where no stage has an exact replica: three pipelines of real rookery-node
// processes cut three different ways over a six-block GPT,
//   pipeline 0: [0,2) [2,5) [5,6)
//   pipeline 1: [0,3) [3,6)
//   pipeline 2: [0,1) [1,4) [4,6)
// so that no stage's blocks are held exactly by another (check_coverage says "composed" for
// every one, with two independent chains each). Pipeline 0's middle stage lies:
//  - activations: it sends them forward x-10. The last stage checks them with two chains,
//    [0,3)@p1 running block 2 then [3,6)@p1 running blocks 3-4, and [1,4)@p2 running 2-3 then
//    [4,6)@p2 running block 4, and catches it.
//  - gradients: it sends them back x-10. The first stage checks them from the gradient the liar
//    shows, as the last stage signed it: each chain runs its first link forward, then both
//    links backward in reverse.
// The honest stages are checked by chains too, pass, and nobody honest is caught.
#include "reference_training.hpp"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>

#include "cluster/check_coverage.hpp"
#include "support/swarm_harness.hpp"

using namespace rookery;

class TestSpotCheckChains : public QObject {
  Q_OBJECT

  static constexpr int kIntervalMs = 250;
  static constexpr int kMicroBatches = 40;
  const std::vector<testing::SwarmHarness::Blocks> plan_{
      {{0, 2}, {2, 5}, {5, 6}}, {{0, 3}, {3, 6}}, {{0, 1}, {1, 4}, {4, 6}}};

  static bool caught(const wire::pb::NodeSnapshot& s, const std::string& key) {
    const auto& c = s.stage().caught_peers();
    return std::find(c.begin(), c.end(), key) != c.end();
  }

 private Q_SLOTS:
  void everyStageIsComposedFromOthers() {
    std::vector<std::vector<cluster::HeldRange>> plan;
    for (std::size_t p = 0; p < plan_.size(); ++p) {
      auto& held = plan.emplace_back();
      for (std::size_t s = 0; s < plan_[p].size(); ++s)
        held.push_back({"p" + std::to_string(p) + "s" + std::to_string(s), plan_[p][s].first,
                        plan_[p][s].second});
    }
    const auto report = cluster::check_coverage(plan);
    qInfo("coverage of the plan: %s", cluster::summary(report).c_str());
    QCOMPARE(report.stages.size(), std::size_t(8));
    QCOMPARE(report.composed, 8);  // no exact replica anywhere: the old checks reached none
    QCOMPARE(report.two_chains, 8);
  }

  void aLiarWithoutAReplicaIsCaughtByChains_data() {
    QTest::addColumn<QString>("fault");
    QTest::addColumn<int>("checker");  // the stage of pipeline 0 that catches it
    QTest::newRow("activations") << "corrupt-activations" << 2;
    QTest::newRow("gradients") << "corrupt-gradients" << 0;
  }

  void aLiarWithoutAReplicaIsCaughtByChains() {
    QFETCH(QString, fault);
    QFETCH(int, checker);
    QElapsedTimer t;
    t.start();
    testing::SwarmHarness h;
    QVERIFY(h.prepare(testing::gpt_job_json("chains", 1, "none", 4, 64, 1e-3), plan_, kIntervalMs));
    for (int p = 0; p < int(plan_.size()); ++p) {
      for (int s = int(plan_[std::size_t(p)].size()) - 1; s >= 0; --s) {
        QStringList extra;
        if (s == 0) extra << "--max-micro-batches" << QString::number(kMicroBatches);
        // The liar does not wait the usual 20 s for a gradient that will not come, as an
        // attacker would not.
        if (p == 0 && s == 1)
          extra << "--fault" << fault << "--micro-batch-timeout-ms"
                << "300";
        QVERIFY(h.start(p, s, extra));
      }
    }
    const auto liar = h.keys[std::size_t(h.index(0, 1))].toStdString();
    bool got_it = false;
    while (!got_it && t.elapsed() < 90000) {
      QTest::qWait(200);
      const auto a = h.client(0, checker).status(std::chrono::seconds(2));
      got_it = a.ok && caught(a.snapshot, liar);
    }
    QVERIFY2(got_it, "the liar's checker did not catch it within 90 s");
    qInfo("the liar (%s) was caught by pipeline 0's stage %d after %.1f s", qPrintable(fault),
          checker + 1, t.elapsed() / 1000.0);
    // The honest pipelines finish, their stages checked by chains too; nobody honest is caught.
    for (int p = 1; p < int(plan_.size()); ++p) {
      auto c = h.client(p, 0);
      for (;;) {
        QVERIFY2(t.elapsed() < 150000, "an honest pipeline did not finish");
        const auto a = c.status(std::chrono::seconds(2));
        if (a.ok && a.snapshot.stage().finished()) break;
        QTest::qWait(100);
      }
    }
    std::int64_t passed = 0, failed = 0;
    for (int p = 0; p < int(plan_.size()); ++p) {
      for (int s = 0; s < int(plan_[std::size_t(p)].size()); ++s) {
        const auto st = h.snapshot(p, s).stage();
        passed += st.spot_checks_passed();
        failed += st.spot_checks_failed();
        qInfo("pipeline %d's stage %d [%d,%d): %lld checks passed, %lld failed, caught %d", p,
              s + 1, plan_[std::size_t(p)][std::size_t(s)].first,
              plan_[std::size_t(p)][std::size_t(s)].second,
              static_cast<long long>(st.spot_checks_passed()),
              static_cast<long long>(st.spot_checks_failed()), st.caught_peers_size());
        for (const auto& k : st.caught_peers()) QVERIFY2(k == liar, "an honest stage was caught");
      }
    }
    // Every honest sender's first micro-batches are checked, each by chains of two links or a
    // part of a longer shard: they agree with honest work.
    QVERIFY2(passed >= 10, qPrintable(QString("only %1 checks passed").arg(passed)));
    QVERIFY(h.quit_all());
    qInfo("%s: %.1f s", qPrintable(fault), t.elapsed() / 1000.0);
  }
};

QTEST_GUILESS_MAIN(TestSpotCheckChains)
#include "test_spot_check_chains.moc"
