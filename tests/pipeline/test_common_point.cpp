// CommonPoint and replicas_comparable (core/pipeline/common_point.hpp), without processes:
// who shares a replica's last averaged weights after rounds, syncs, missed rounds and a
// restore, its steps since, and which verifier chains a check may hear.
#include <QTest>

#include <cmath>

#include "pipeline/common_point.hpp"

using namespace rookery;
using pipeline::CommonPoint;
using pipeline::RingMeeting;
using pipeline::VerifierStanding;

class TestCommonPoint : public QObject {
  Q_OBJECT

  static RingMeeting ring(std::int64_t first, std::int64_t last,
                          std::vector<std::string> contributors, bool synced = false) {
    return RingMeeting{{first, last}, std::move(contributors), synced};
  }

 private Q_SLOTS:
  void theInitialWeightsAreSharedUntilARound() {
    CommonPoint p({0, 4});
    p.stepped(7);
    QCOMPARE(p.local_steps(), std::int64_t{7});
    QVERIFY(p.shared_with("anyone", {0, 4}));  // every replica started from the job's weights
    QCOMPARE(p.rounds(), std::int64_t{0});
  }

  void aRoundMakesItsContributorsTheSharers() {
    CommonPoint p({0, 4});
    p.stepped(10);
    const std::vector<RingMeeting> round{ring(0, 2, {"me", "x", "y"}), ring(2, 4, {"me", "y"})};
    QVERIFY(p.round_applied(round, 8, 101));
    QCOMPARE(p.point_round(), std::uint64_t{101});  // the round names the point
    QCOMPARE(p.local_steps(), std::int64_t{2});     // the steps taken while the round ran
    QVERIFY(p.shared_with("x", {0, 2}));
    QVERIFY(!p.shared_with("x", {0, 4}));  // x was not in the ring of blocks [2, 4)
    QVERIFY(p.shared_with("y", {1, 3}));
    QVERIFY(!p.shared_with("z", {0, 1}));  // a member that sent nothing
  }

  void aMissedRoundLosesTheMemberUntilASync() {
    CommonPoint p({0, 2});
    QVERIFY(p.round_applied(std::vector{ring(0, 2, {"me", "x", "y"})}, 0, 102));
    QVERIFY(p.round_applied(std::vector{ring(0, 2, {"me", "y"})}, 5, 103));  // x missed it
    QVERIFY(!p.shared_with("x", {0, 2}));
    QVERIFY(
        p.round_applied(std::vector{ring(0, 2, {"me", "x", "y"})}, 9, 104));  // back, not synced
    QVERIFY(!p.shared_with("x", {0, 2}));  // its anchor still lacks the round it missed
    QVERIFY(
        p.round_applied(std::vector{ring(0, 2, {"me", "x"}, true)}, 12, 105));  // anchors synced
    QVERIFY(p.shared_with("x", {0, 2}));
    QVERIFY(!p.shared_with("y", {0, 2}));
    QCOMPARE(p.rounds(), std::int64_t{4});
  }

  void aRoundAloneChangesNothing() {
    CommonPoint p({0, 2});
    p.stepped(20);
    QVERIFY(!p.round_applied(std::vector{ring(0, 2, {"me"})}, 15, 106));
    QCOMPARE(p.local_steps(), std::int64_t{20});
    QCOMPARE(p.point_round(), std::uint64_t{0});  // still the job's initial weights
    QVERIFY(p.shared_with("x", {0, 2}));
  }

  void aRestoredReplicaSharesOnlyAfterASync() {
    CommonPoint p({0, 2});
    p.restored(3);
    QVERIFY(!p.shared_with("x", {0, 2}));  // its own weights, nobody else's
    p.stepped(9);
    QCOMPARE(p.local_steps(), std::int64_t{6});
    // Its anchor was its own, so a plain round does not make a point with the others.
    QVERIFY(p.round_applied(std::vector{ring(0, 2, {"me", "x"})}, 9, 107));
    QVERIFY(!p.shared_with("x", {0, 2}));
    QVERIFY(p.round_applied(std::vector{ring(0, 2, {"me", "x"}, true)}, 12, 108));
    QVERIFY(p.shared_with("x", {0, 2}));
  }

  void comparableOnlyCloseToASharedPoint() {
    const double tol = 0.9;  // the drifts may take 0.6 of it
    std::string why;
    QVERIFY(pipeline::replicas_comparable(std::vector<VerifierStanding>{{true, 0.05, 10}}, 0, 12,
                                          tol, &why));
    // A chain's links' drift adds up: 0.2 + 0.09, twice (the checked pipeline's estimate), is
    // within 0.6; 0.2 + 0.15 is not.
    QVERIFY(pipeline::replicas_comparable(
        std::vector<VerifierStanding>{{true, 0.2, 10}, {true, 0.09, 10}}, 0, 10, tol));
    QVERIFY(!pipeline::replicas_comparable(
        std::vector<VerifierStanding>{{true, 0.2, 10}, {true, 0.15, 10}}, 0, 10, tol, &why));
    QVERIFY(why.find("moved") != std::string::npos);
    // The checked pipeline's drift is estimated per step: at 3x the verifiers' steps, 0.1 of
    // theirs makes 0.4 in all; 0.2 makes 0.8.
    QVERIFY(
        pipeline::replicas_comparable(std::vector<VerifierStanding>{{true, 0.1, 10}}, 0, 30, tol));
    QVERIFY(
        !pipeline::replicas_comparable(std::vector<VerifierStanding>{{true, 0.2, 10}}, 0, 30, tol));
    // Fewer steps than the verifiers': by the square root of the ratio, so half their steps
    // are 0.71 of their drift (0.4 + 0.28 is past 0.6), and none is the point itself (0.55
    // is the whole distance).
    QVERIFY(
        !pipeline::replicas_comparable(std::vector<VerifierStanding>{{true, 0.4, 10}}, 0, 5, tol));
    QVERIFY(
        pipeline::replicas_comparable(std::vector<VerifierStanding>{{true, 0.55, 40}}, 0, 0, tol));
    // A tiny learning rate: far more steps, and still close.
    QVERIFY(pipeline::replicas_comparable(std::vector<VerifierStanding>{{true, 0.001, 15}}, 0, 40,
                                          tol));
    // The checked stage missed the verifier's rounds.
    QVERIFY(!pipeline::replicas_comparable(std::vector<VerifierStanding>{{false, 0.0, 1}}, 0, 1,
                                           tol, &why));
    QVERIFY(why.find("share") != std::string::npos);
    // A late verifier still at the job's start, against a pipeline a dozen steps in: nothing
    // to estimate by, and more than a few steps.
    QVERIFY(!pipeline::replicas_comparable(std::vector<VerifierStanding>{{true, 0.0, 0}}, 0, 12,
                                           tol, &why));
    QVERIFY(why.find("steps") != std::string::npos);
    QVERIFY(
        pipeline::replicas_comparable(std::vector<VerifierStanding>{{true, 0.0, 0}}, 0, 4, tol));
    // No drift said, or none that is a distance.
    QVERIFY(
        !pipeline::replicas_comparable(std::vector<VerifierStanding>{{true, NAN, 0}}, 0, 0, tol));
    QVERIFY(!pipeline::replicas_comparable(std::vector<VerifierStanding>{}, 0, 0, tol));
  }
};

QTEST_GUILESS_MAIN(TestCommonPoint)
#include "test_common_point.moc"
