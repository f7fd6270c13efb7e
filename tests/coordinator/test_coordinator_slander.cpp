// One liar cannot ban anybody, with real nodes where every seat has a lone witness a side: the
// swarm of test_coordinator_check_coverage (a rookery-coordinator planning with `ours`, two large
// volunteers cut into a pipeline of halves, three small ones into one of thirds), where the
// small volunteer slanders ('--fault false-spot-checks': it names every stage that sends it work
// as caught in spot-checks, unchecked, and still uses the work). Its catch alone bans nobody; as
// its seat's lone witness it moves the accused (or itself) for a second opinion
// (coordinator/second_opinion.hpp), whose honest witness keeps the accused: nobody is banned,
// and the swarm trains on.
// Labelled slow, not for its time (about 30 s) but for what it found: in one run of fourteen an
// honest stage caught an honest stage right after a second opinion swapped seats, and the
// slanderer, seated as the accused's fresh witness, made that two catches: a ban. Node logs of
// later runs showed one honest false failure across a plan change (the checked stage named the
// sender of the plan it ran), now unanswered rather than failed (spot_check_protocol.cpp); that
// first run kept no node logs, so its cause is not proven the same.
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include "support/lying_stage_swarm.hpp"

using namespace rookery;
using namespace rookery::testing;
namespace pb = wire::pb;

class TestCoordinatorSlander : public LyingStageSwarm {
  Q_OBJECT

  // How many times the coordinator's log says it moved a member for a second opinion.
  int second_opinions_logged() {
    QFile f(coordinator_.dir.filePath("data/logs/coordinator.log"));
    if (!f.open(QIODevice::ReadOnly)) return 0;
    return static_cast<int>(f.readAll().count("for a second opinion"));
  }

 private Q_SLOTS:
  void aSlandererBansNobody() {
    const auto slanderer =
        start_with_liar("slander-demo", "ours", {0.8, 0.8, 0.48, 0.48, 0.48}, QStringLiteral("1"),
                        QStringLiteral("false-spot-checks"));
    QVERIFY2(slanderer, "the swarm did not start");
    // Until its word has moved someone for a second opinion (or for 40 s), and 20 s more: the
    // new witnesses have long judged by then (a liar is banned 13-17 s after the swarm starts).
    QElapsedTimer t;
    t.start();
    qint64 moved_at = -1;
    std::optional<pb::RunStatus> s;
    std::optional<pb::CheckCoverageSummary> first_plan;  // its coverage, once all are seated
    while (moved_at < 0 ? t.elapsed() < 40000 : t.elapsed() < moved_at + 20000) {
      QTest::qWait(500);
      if (moved_at < 0 && second_opinions_logged() > 0) moved_at = t.elapsed();
      s = status();
      if (s && !first_plan && s->pipelines() >= 2 && s->nodes_size() == 5) {
        bool seated = true;
        for (const auto& n : s->nodes()) seated = seated && n.check() != pb::CHECK_UNKNOWN;
        if (seated) first_plan = s->check_coverage();
      }
      if (s && s->banned_size() > 0)
        QFAIL(qPrintable("banned on a slanderer's word: " +
                         QString::fromStdString(s->banned(0).reason())));
    }
    QVERIFY2(first_plan, "the five were never planned in two pipelines");
    const QString first_move =
        moved_at < 0 ? QString() : QString(", the first after %1 s").arg(moved_at / 1000.0);
    qInfo(
        "first plan: %u seats exact, %u composed; %d second opinion(s) logged%s; nobody "
        "banned after %.1f s",
        first_plan->exact(), first_plan->composed(), second_opinions_logged(),
        qPrintable(first_move), t.elapsed() / 1000.0);
    // Where no seat has an exact replica, each has one witness a side: the slanderer's catch
    // was a lone witness's, which moves someone.
    if (first_plan->composed() == 5)
      QVERIFY2(moved_at >= 0, "the slanderer's catch moved nobody for a second opinion");
    // The swarm trains on.
    QVERIFY(s);
    const std::int64_t before = total_samples(*s);
    s = wait_for([&](const pb::RunStatus& st) { return total_samples(st) > before; }, 30000);
    QVERIFY2(s, "the swarm stopped training");
    QCOMPARE(s->banned_size(), 0);
  }
};

QTEST_GUILESS_MAIN(TestCoordinatorSlander)
#include "test_coordinator_slander.moc"
