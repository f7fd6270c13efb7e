// Work a spot-check refuses is given up at once all the way up the pipeline. Two pipelines of
// three stages each over a GPT of three blocks (embedding, one layer, head), on threads of this process over in-process links;
// pipeline 0's middle stage sends its activations forward x-10 (Fault::CorruptActivations).
// Pipeline 0's last stage checks them against pipeline 1's middle stage (an exact replica),
// and refuses the micro-batches whose checks fail. It tells the liar so, the liar gives each up
// and tells the first stage, and the first stage feeds new ones: seconds, where every stage
// here would otherwise wait out its 60 s micro-batch timeout. Nobody in pipeline 1 drops work.
#include <QTest>

#include <chrono>
#include <thread>

#include "local_swarm.hpp"

using namespace rookery;

class TestDroppedMicroBatch : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  void refusedWorkIsGivenUpUpThePipelineAtOnce() {
    auto job =
        job::parse_job_spec(testing::gpt_job_json("dropped", 1, "none", 1, 64, 1e-5).toStdString());
    const std::vector<std::pair<int, int>> blocks{{0, 1}, {1, 2}, {2, 3}};
    const int liar = 1, first = 0;
    testing::LocalSwarm swarm(testing::LinkKind::InProcess, 6);
    const auto keys = swarm.keys();
    std::vector<pipeline::StageHolder> holders;
    for (int i = 0; i < 6; ++i)
      holders.push_back({swarm.address(i),
                         {blocks[std::size_t(i % 3)].first, blocks[std::size_t(i % 3)].second}});
    for (int i = 5; i >= 0; --i) {  // later stages first: every next hop is there in time
      const int stage = i % 3;
      auto c = testing::stage_config(job, blocks[std::size_t(stage)], keys);
      c.pipeline = std::uint32_t(i / 3);
      c.stages_before = stage;
      c.cross_pipeline = true;
      c.holders = holders;
      if (stage < 2) {
        c.next = swarm.address(i + 1);
        c.next_candidates.push_back(c.next);
      }
      c.micro_batch_timeout = std::chrono::milliseconds(60000);
      if (stage == 0) {
        c.max_micro_batches = 400;
        c.first_sample = std::int64_t(i / 3) * 1'000'000;
      }
      if (i == liar) c.fault = pipeline::Fault::CorruptActivations;
      swarm.start(i, std::move(c));
    }
    const auto start = std::chrono::steady_clock::now();
    const auto waited = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    while ((swarm.stats(first).dropped == 0 || swarm.stats(liar).dropped == 0) && waited() < 20) {
      QVERIFY2(swarm.errors().empty(), swarm.errors().c_str());
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const double took = waited();
    const auto checker = swarm.stats(2);
    qInfo(
        "after %.1f s: the checker failed %lld check(s) and refused %lld message(s); the liar "
        "dropped %lld micro-batch(es), the first stage %lld",
        took, static_cast<long long>(checker.spot_checks_failed),
        static_cast<long long>(checker.rejected), static_cast<long long>(swarm.stats(liar).dropped),
        static_cast<long long>(swarm.stats(first).dropped));
    QVERIFY2(checker.spot_checks_failed > 0, "the liar's activations were never caught");
    QVERIFY2(swarm.stats(liar).dropped > 0,
             "the liar did not give up the micro-batches its next stage refused");
    QVERIFY2(swarm.stats(first).dropped > 0,
             "the first stage did not give up the micro-batches refused after it");
    QVERIFY2(took < 20, "refused work was not given up before the timeout");
    for (int i = 3; i < 6; ++i) QCOMPARE(swarm.stats(i).dropped, std::int64_t{0});
    QVERIFY(swarm.errors().empty());
  }
};

QTEST_GUILESS_MAIN(TestDroppedMicroBatch)
#include "test_dropped_micro_batch.moc"
