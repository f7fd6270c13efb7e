// A second opinion on a lone witness's catch, as pure functions: a volunteer whose only witness
// on a side caught it is moved to a seat with other witnesses (never onto a seat its memory
// cannot hold, nor one at the end of the model where nobody checks that side), a second catch
// there bans it with both counted, and one liar alone still bans nobody, however the accused
// is moved.
#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <set>

#include "coordinator/ban_vote.hpp"
#include "coordinator/second_opinion.hpp"
#include "coordinator/swarm_planner.hpp"
#include "coordinator/verdicts.hpp"
#include "planner_fixtures.hpp"

using namespace rookery;
using coordinator::Assignment;
using coordinator::Member;
using coordinator::SecondOpinions;
using coordinator::WitnessSide;
using testing::demo_job;

namespace {

// Two pipelines cut differently, as `ours` cuts them for unlike volunteers: every seat has one
// witness on each side it has.  a[0,2) b[2,4) c[4,6) | d[0,3) e[3,5) f[5,6)
Assignment unlike_cuts() {
  Assignment plan;
  plan.version = 1;
  plan.pipelines = {{{"a", 0, 2}, {"b", 2, 4}, {"c", 4, 6}},
                    {{"d", 0, 3}, {"e", 3, 5}, {"f", 5, 6}}};
  return plan;
}

// Members for the keys of `plan`, each with `share` of the memory the whole model needs
// (`small` gets `small_share`).
std::map<std::string, Member> members(const Assignment& plan, double share,
                                      const std::string& small = {}, double small_share = 0) {
  const auto job = demo_job();
  const double need = static_cast<double>(cluster::model_memory_bytes(
      coordinator::block_profiles(job), coordinator::training_settings(job)));
  std::map<std::string, Member> out;
  for (const auto& p : plan.pipelines) {
    for (const auto& s : p) {
      Member m;
      m.key = s.key;
      m.profile.flops_per_s = 50e9;
      m.profile.free_memory_bytes =
          static_cast<std::int64_t>((s.key == small ? small_share : share) * need);
      m.profile.upload_bytes_per_s = m.profile.download_bytes_per_s = 1e9;
      m.profile.rtt_s = 1e-4;
      out.emplace(s.key, m);
    }
  }
  return out;
}

std::multiset<std::string> keys(const Assignment& a) {
  std::multiset<std::string> out;
  for (const auto& p : a.pipelines) {
    for (const auto& s : p) out.insert(s.key);
  }
  return out;
}

std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> cuts(const Assignment& a) {
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> out;
  for (const auto& p : a.pipelines) {
    out.emplace_back();
    for (const auto& s : p) out.back().emplace_back(s.first_block, s.last_block);
  }
  return out;
}

SecondOpinions::Outcome consider(SecondOpinions& o, const Assignment& plan,
                                 const std::string& accused, const std::set<std::string>& caught) {
  const auto w = coordinator::ban_witnesses(plan, accused);
  if (!w) qFatal("%s holds no seat", accused.c_str());
  return o.consider(accused, *w, caught);
}

}  // namespace

class TestSecondOpinion : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void aLoneCatchMovesTheAccusedAndASecondCatchBansIt() {
    auto plan = unlike_cuts();
    plan.coverage = coordinator::check_coverage_of(plan, 0);  // as plan_swarm's plans come
    const auto job = demo_job();
    const auto m = members(plan, 0.5);
    // The plan's own vote cannot ban b: one witness on each side.
    const auto w = coordinator::ban_witnesses(plan, "b");
    QVERIFY(w);
    QCOMPARE(w->sends_to, (std::set<std::string>{"c"}));
    QVERIFY(!coordinator::ban_vote(*w, {{}, {"c"}}).ban);

    SecondOpinions o;
    auto out = consider(o, plan, "b", {"c"});
    QVERIFY(!out.vote.ban);
    QVERIFY(out.move);
    QCOMPARE(*out.move, WitnessSide::activations);
    QCOMPARE(out.avoid, (std::set<std::string>{"c"}));

    const auto next =
        coordinator::reseat_for_second_opinion(plan, m, job, "b", *out.move, out.avoid);
    QVERIFY(next);
    QCOMPARE(keys(*next), keys(plan));   // a swap: the same members,
    QVERIFY(cuts(*next) == cuts(plan));  // on the same seats
    QVERIFY(next->find("b") != plan.find("b"));
    const auto moved_to = coordinator::ban_witnesses(*next, "b");
    QVERIFY(moved_to && !moved_to->sends_to.empty());
    QVERIFY(!moved_to->sends_to.contains("c"));
    QVERIFY(next->predicted_samples_per_s > 0);
    // Its coverage is the new plan's, seat by seat, not the one it was moved from.
    QVERIFY(next->coverage);
    QCOMPARE(next->coverage->stages.size(), keys(*next).size());
    for (const auto& c : next->coverage->stages) {
      const auto& seat = next->pipelines[std::size_t(c.pipeline)][std::size_t(c.stage)];
      QCOMPARE(c.key, seat.key);
    }
    o.moved("b", *out.move);

    // Its old accuser still says so, and it is asked no second move for it.
    QVERIFY(!consider(o, *next, "b", {"c"}).move);
    // A witness of its new seat catches it too: two peers that each saw its work.
    const std::string second = *moved_to->sends_to.begin();
    out = consider(o, *next, "b", {"c", second});
    QVERIFY(out.vote.ban);
    QCOMPARE(out.vote.why.code(), wire::pb::Verdict::CAUGHT_IN_SPOT_CHECKS);
    QCOMPARE(out.vote.why.value(), 2.0);
    QCOMPARE(out.vote.why.limit(), 2.0);
    QVERIFY(!out.move);
    qInfo("b moved from pipeline 1 stage 2 to pipeline %d stage %d; banned: %s",
          next->find("b").first + 1, next->find("b").second + 1,
          coordinator::verdict::words(out.vote.why).c_str());
  }

  // A fresh plan knows nothing of a move: one that seats the accused before its catcher again
  // would undo the second opinion before it is given (a real swarm's periodic check did that,
  // to regain the throughput the move cost). undone_by names it, and the move is made again.
  void aNewPlanDoesNotUndoTheMove() {
    const auto plan = unlike_cuts();
    const auto job = demo_job();
    const auto m = members(plan, 0.5);
    SecondOpinions o;
    QVERIFY(o.undone_by(plan, 0).empty());  // nobody moved yet
    const auto out = consider(o, plan, "b", {"c"});
    QVERIFY(out.move);
    const auto next =
        coordinator::reseat_for_second_opinion(plan, m, job, "b", *out.move, out.avoid);
    QVERIFY(next);
    o.moved("b", *out.move);
    QVERIFY(o.undone_by(*next, 0).empty());  // the move itself keeps it
    // The old layout again, as a fresh plan would make it: b sends to its catcher c only.
    const auto redo = o.undone_by(plan, 0);
    QCOMPARE(redo.size(), std::size_t(1));
    QCOMPARE(redo[0].accused, std::string("b"));
    QCOMPARE(redo[0].side, WitnessSide::activations);
    QCOMPARE(redo[0].avoid, (std::set<std::string>{"c"}));
    const auto again = coordinator::reseat_for_second_opinion(plan, m, job, redo[0].accused,
                                                              redo[0].side, redo[0].avoid);
    QVERIFY(again);
    QVERIFY(o.undone_by(*again, 0).empty());
    QVERIFY(!coordinator::ban_witnesses(*again, "b")->sends_to.contains("c"));
    // A plan that leaves it out, or once it is banned: nothing to keep.
    auto without = plan;
    without.pipelines[0][1].key = "g";
    QVERIFY(o.undone_by(without, 0).empty());
    o.forget("b");
    QVERIFY(o.undone_by(plan, 0).empty());
  }

  // A last stage caught on its gradients by the stage before it: moved into its catcher's
  // seat it would face a fresh witness before it, but its catcher after it would refuse all its
  // work, so no gradient of it would ever reach the fresh one. Moved where no catcher is after
  // it.
  void noCatcherAfterAMoveForGradients() {
    const auto plan = unlike_cuts();
    const auto m = members(plan, 0.5);
    SecondOpinions o;
    const auto out = consider(o, plan, "c", {"b"});
    QVERIFY(out.move);
    QCOMPARE(*out.move, WitnessSide::gradients);
    const auto next =
        coordinator::reseat_for_second_opinion(plan, m, demo_job(), "c", *out.move, out.avoid);
    QVERIFY(next);
    const auto w = coordinator::ban_witnesses(*next, "c");
    QVERIFY(w && !w->returns_gradients_to.empty());
    QVERIFY(!w->returns_gradients_to.contains("b"));
    QVERIFY2(!w->sends_to.contains("b"), "moved in front of its catcher");
    qInfo("c moved to pipeline %d stage %d", next->find("c").first + 1, next->find("c").second + 1);
  }

  // The layout five real volunteers of two sizes were planned in: two large ones cut the model
  // in halves, three small ones in thirds, and no small one holds the second half. A last stage
  // there, caught on its gradients by the stage before it, has no seat to move to (its
  // catcher's would put the catcher after it, and it cannot hold the second half): its catcher
  // gives up its seat instead, to a fresh witness, which catches it too, and that bans it. Were
  // the catcher the liar, the fresh witness's silence would keep the honest accused.
  void aLastStageIsJudgedAgainByAFreshWitness() {
    Assignment plan;
    plan.pipelines = {{{"p", 0, 3}, {"q", 3, 6}}, {{"a", 0, 2}, {"b", 2, 4}, {"c", 4, 6}}};
    const auto job = demo_job();
    auto m = members(plan, 0.48);
    const double need = static_cast<double>(cluster::model_memory_bytes(
        coordinator::block_profiles(job), coordinator::training_settings(job)));
    for (const auto* large : {"p", "q"})
      m[large].profile.free_memory_bytes = static_cast<std::int64_t>(0.8 * need);
    QVERIFY(predicted_rate(plan, m, job) > 0);
    SecondOpinions o;
    auto out = consider(o, plan, "c", {"b"});
    QVERIFY(out.move && !out.vote.ban);
    QCOMPARE(*out.move, WitnessSide::gradients);
    const auto next =
        coordinator::reseat_for_second_opinion(plan, m, job, "c", *out.move, out.avoid);
    QVERIFY2(next, "no second opinion for a last stage");
    QCOMPARE(keys(*next), keys(plan));
    QVERIFY(cuts(*next) == cuts(plan));
    QVERIFY2(next->find("c") == plan.find("c"), "moved although no seat of a small one fits");
    const auto w = coordinator::ban_witnesses(*next, "c");
    QVERIFY(w);
    QCOMPARE(w->returns_gradients_to.size(), std::size_t(1));
    const std::string fresh = *w->returns_gradients_to.begin();
    QVERIFY(fresh != "b" && fresh != "c");
    QVERIFY(next->find("b") != plan.find("b"));
    QVERIFY(next->find(fresh) == plan.find("b"));  // the two swapped
    o.moved("c", *out.move);
    QVERIFY(o.undone_by(*next, 0).empty());
    // The old layout again, as a fresh plan would make it: the swap is made again.
    QCOMPARE(o.undone_by(plan, 0).size(), std::size_t(1));
    // The fresh witness's silence keeps c: b alone caught it.
    SecondOpinions honest = o;
    out = honest.consider("c", *w, {"b"});
    QVERIFY(!out.vote.ban && !out.move);
    // The fresh witness catches it too: banned.
    out = o.consider("c", *w, {"b", fresh});
    QVERIFY(out.vote.ban);
    QCOMPARE(out.vote.why.code(), wire::pb::Verdict::GRADIENTS_CAUGHT_IN_SPOT_CHECKS);
    qInfo(
        "c kept at pipeline 2 stage 3; b moved to pipeline %d stage %d, %s took its seat; "
        "banned: %s",
        next->find("b").first + 1, next->find("b").second + 1, fresh.c_str(),
        coordinator::verdict::words(out.vote.why).c_str());
  }

  void oneLiarBansNobody() {
    // c lies about honest b: b is moved, its new witnesses do not catch it, and c's word stays
    // one catch against their silence, wherever b sits, and however often c repeats it.
    auto plan = unlike_cuts();
    const auto m = members(plan, 0.5);
    SecondOpinions o;
    auto out = consider(o, plan, "b", {"c"});
    QVERIFY(out.move && !out.vote.ban);
    auto next =
        coordinator::reseat_for_second_opinion(plan, m, demo_job(), "b", *out.move, out.avoid);
    QVERIFY(next);
    o.moved("b", *out.move);
    for (int i = 0; i < 3; ++i) {
      out = consider(o, *next, "b", {"c"});
      QVERIFY(!out.vote.ban);
      QVERIFY(!out.move);
    }
    // Planned back beside c: still c alone.
    out = consider(o, plan, "b", {"c"});
    QVERIFY(!out.vote.ban);
    QVERIFY(!out.move);
    // Peers that never witnessed b count for nothing.
    out = consider(o, plan, "b", {"c", "d", "f"});
    QVERIFY(!out.vote.ban);
  }

  void aCatcherPassedOnTheOtherSideSaysNothingNew() {
    // a's only next stage b caught it; a moves past b, which now receives its gradients and
    // still names it (a report says whom, not which way): not a second catch, not a new move.
    Assignment plan;
    plan.pipelines = {{{"a", 0, 2}, {"b", 2, 4}, {"c", 4, 6}}};
    SecondOpinions o;
    auto out = consider(o, plan, "a", {"b"});
    QVERIFY(out.move);
    QCOMPARE(*out.move, WitnessSide::activations);
    o.moved("a", *out.move);
    Assignment moved;
    moved.pipelines = {{{"b", 0, 2}, {"a", 2, 4}, {"c", 4, 6}}};
    out = consider(o, moved, "a", {"b"});
    QVERIFY(!out.move);
    QVERIFY(!out.vote.ban);
    // c, its new next stage, catching it too bans it.
    out = consider(o, moved, "a", {"b", "c"});
    QVERIFY(out.vote.ban);
    QCOMPARE(out.vote.why.code(), wire::pb::Verdict::CAUGHT_IN_SPOT_CHECKS);
  }

  void aCatchAmongSeveralWitnessesIsTheVotesAlone() {
    // Pipelines cut alike: two witnesses a side. One catch there is the plain vote's business
    // (and not enough); nothing is recorded, nobody moved.
    Assignment plan;
    plan.pipelines = {{{"a", 0, 3}, {"b", 3, 6}}, {{"c", 0, 3}, {"d", 3, 6}}};
    SecondOpinions o;
    const auto out = consider(o, plan, "a", {"b"});
    QVERIFY(!out.move && !out.vote.ban);
    QVERIFY(!o.tracks("a"));
  }

  void movesAtMostTwice() {
    // Each lone accuser moves the accused once, and no more than kMaxSecondOpinionMoves times
    // in all: liars cannot keep the plan changing. Between them, seats where honest witnesses
    // see it and say nothing (the catchers stay a minority: no ban).
    SecondOpinions o;
    int moves = 0;
    const std::vector<std::pair<std::set<std::string>, std::set<std::string>>> seats = {
        {{"c"}, {"c"}},     {{"h1", "h2", "h3"}, {}}, {{"x"}, {"x"}},
        {{"h4", "h5"}, {}}, {{"y"}, {"y"}},           {{"z"}, {"z"}}};
    for (const auto& [witnesses, caught] : seats) {
      coordinator::BanWitnesses w;
      w.sends_to = witnesses;
      std::set<std::string> reports = caught;
      reports.insert("c");  // the first accuser keeps saying so
      const auto out = o.consider("b", w, reports);
      QVERIFY(!out.vote.ban);
      if (out.move) {
        ++moves;
        o.moved("b", *out.move);
      }
    }
    QCOMPARE(moves, coordinator::kMaxSecondOpinionMoves);
  }

  void noSeatForASecondOpinion() {
    // One pipeline of two: b's gradients go to a alone, and the only other seat starts the
    // model, where nobody receives gradients from it.
    Assignment plan;
    plan.pipelines = {{{"a", 0, 3}, {"b", 3, 6}}};
    QVERIFY(!coordinator::reseat_for_second_opinion(plan, members(plan, 0.6), demo_job(), "b",
                                                    WitnessSide::gradients, {"a"}));
  }

  void aLargeSwarmIsSearchedInBoundedWork() {
    // 3,000 seats: a move weighs at most kMaxSecondOpinionCandidates seats, each by the two
    // pipelines it changes (it runs under the coordinator's lock). The time is printed, not
    // asserted.
    Assignment plan;
    for (int p = 0; p < 1000; ++p) {
      const auto k = [p](const char* s) { return std::string(s) + std::to_string(p); };
      if (p % 2 == 0) {
        plan.pipelines.push_back({{k("a"), 0, 2}, {k("b"), 2, 4}, {k("c"), 4, 6}});
      } else {
        plan.pipelines.push_back({{k("d"), 0, 3}, {k("e"), 3, 5}, {k("f"), 5, 6}});
      }
    }
    const auto m = members(plan, 0.5);
    // b0's activations go to every c (500 seats start at block 4); with c0 to avoid, every seat
    // ending at block 4 is out, and the a, d and e seats (some 1,500) qualify.
    const auto w = coordinator::ban_witnesses(plan, "b0");
    QVERIFY(w);
    QCOMPARE(w->sends_to.size(), std::size_t(500));
    QElapsedTimer t;
    t.start();
    const auto next = coordinator::reseat_for_second_opinion(plan, m, demo_job(), "b0",
                                                             WitnessSide::activations, {"c0"});
    qInfo("3,000 seats: a seat for a second opinion found in %lld ms",
          static_cast<long long>(t.elapsed()));
    QVERIFY(next);
    QCOMPARE(keys(*next), keys(plan));
    const auto moved_to = coordinator::ban_witnesses(*next, "b0");
    QVERIFY(moved_to && !moved_to->sends_to.empty() && !moved_to->sends_to.contains("c0"));
  }

  void neverOntoASeatBeyondAMembersMemory() {
    // The seats whose witnesses would be fresh all need more memory than b has (its own
    // included, as its owner lowered its cap since): no move.
    const auto plan = unlike_cuts();
    const auto job = demo_job();
    QVERIFY(!coordinator::reseat_for_second_opinion(plan, members(plan, 0.5, "b", 0.01), job, "b",
                                                    WitnessSide::activations, {"c"}));
    // With room, it moves, and every pipeline still fits.
    const auto m = members(plan, 0.5);
    const auto next =
        coordinator::reseat_for_second_opinion(plan, m, job, "b", WitnessSide::activations, {"c"});
    QVERIFY(next);
    for (const auto& p : next->pipelines) {
      Assignment one;
      one.pipelines = {p};
      QVERIFY(coordinator::predicted_rate(one, m, job) > 0);
    }
  }
};

QTEST_GUILESS_MAIN(TestSecondOpinion)
#include "test_second_opinion.moc"
