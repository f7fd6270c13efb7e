// Spot-checks' rules, without processes: the verdict from distances (judge), and SpotChecker's
// bookkeeping (probation, rate, catching, refusals to show an input, bounded memory).
#include <QTest>

#include <cmath>

#include "pipeline/spot_check.hpp"

using namespace rookery;
using pipeline::SpotChecker;
using pipeline::SpotDecision;
using pipeline::SpotVerdict;

class TestSpotCheck : public QObject {
  Q_OBJECT

  static job::SpotCheckSpec spec(double rate, std::int64_t probation, std::int64_t failures = 2) {
    job::SpotCheckSpec s;
    s.rate = rate;
    s.probation = probation;
    s.tolerance = 0.5;
    s.failures_to_catch = failures;
    return s;
  }

 private Q_SLOTS:
  void relativeDistance() {
    QCOMPARE(pipeline::relative_distance(1.0, 2.0, 4.0), 0.25);
    QCOMPARE(pipeline::relative_distance(0.0, 0.0, 0.0), 0.0);
    QVERIFY(std::isinf(pipeline::relative_distance(1.0, 0.0, 0.0)));
  }

  void judgeAgreesWithOneVerifierPasses() {
    QCOMPARE(pipeline::judge({0.1}, 0, 0.5), SpotVerdict::Passed);
    // Agreeing with one verifier is enough, even if the other is far off (it may be the liar).
    QCOMPARE(pipeline::judge({0.1, 1.4}, 1.4, 0.5), SpotVerdict::Passed);
  }

  void judgeFarFromAgreeingVerifiersFails() {
    QCOMPARE(pipeline::judge({1.4}, 0, 0.5), SpotVerdict::Failed);
    QCOMPARE(pipeline::judge({1.4, 1.3}, 0.05, 0.5), SpotVerdict::Failed);
    QCOMPARE(pipeline::judge({NAN, NAN}, 0.05, 0.5), SpotVerdict::Failed);  // NaN activations
  }

  void judgeVerifiersThatDisagreeAreInconclusive() {
    // The verifiers disagree beyond the tolerance: one of them may lie; no verdict.
    QCOMPARE(pipeline::judge({0.9, 0.8}, 0.7, 0.5), SpotVerdict::Inconclusive);
    QCOMPARE(pipeline::judge({}, 0, 0.5), SpotVerdict::Inconclusive);
  }

  void probationThenRate() {
    SpotChecker none(spec(0.0, 3), std::chrono::seconds(10), 1);
    int checked = 0;
    for (int i = 0; i < 100; ++i) checked += (none.decide("x") == SpotDecision::Check) ? 1 : 0;
    QCOMPARE(checked, 3);  // the first three only, at rate 0
    SpotChecker some(spec(0.1, 0), std::chrono::seconds(10), 2);
    checked = 0;
    for (int i = 0; i < 10000; ++i) checked += (some.decide("x") == SpotDecision::Check) ? 1 : 0;
    QVERIFY2(checked > 850 && checked < 1150, qPrintable(QString::number(checked)));
    SpotChecker off(spec(0.0, 0));
    QVERIFY(!off.enabled());
    QVERIFY(!(off.decide("x") == SpotDecision::Check));
  }

  void incomparableChecksVouchForNobodyNew() {
    SpotChecker c(spec(0.0, 100));
    const auto now = SpotChecker::Clock::now();
    std::uint64_t mb = 0;
    const auto check = [&](const std::string& who, SpotVerdict v) {
      QVERIFY(c.begin(++mb, who, {"v1"}, now));
      QVERIFY(!c.finish(mb, v));
    };
    QVERIFY(!c.vouched("new"));
    check("new", SpotVerdict::Incomparable);
    QVERIFY(!c.vouched("new"));  // nothing could judge it yet: its work is not used
    check("known", SpotVerdict::Passed);
    check("known", SpotVerdict::Incomparable);
    QVERIFY(c.vouched("known"));  // it passed before
    // Incomparable again and again, never judged: no check is to be had, as in a swarm whose
    // replicas never average; its work is used as where nobody can check it.
    for (int i = 0; i < 16; ++i) check("new", SpotVerdict::Incomparable);
    QVERIFY(c.vouched("new"));
    check("new", SpotVerdict::Failed);  // judged at last, and wrong: the count starts over
    QVERIFY(!c.vouched("new"));
    QCOMPARE(c.stats().incomparable, std::int64_t(18));
    QVERIFY(!c.is_caught("new"));  // incomparable checks blame nobody
  }

  void twoFailuresCatchASender() {
    SpotChecker c(spec(0.0, 10));
    const auto now = SpotChecker::Clock::now();
    QVERIFY((c.decide("liar") == SpotDecision::Check));
    QVERIFY(c.begin(1, "liar", {"v1", "v2"}, now));
    QVERIFY(!c.begin(1, "liar", {"v1"}, now));  // one check per micro-batch
    const auto p = c.pending(1);
    QVERIFY(p);
    QCOMPARE(p->first, std::string("liar"));
    QCOMPARE(p->second.size(), std::size_t(2));
    QVERIFY(!c.finish(1, SpotVerdict::Failed));
    QVERIFY(!c.is_caught("liar"));
    // A suspect now: every micro-batch is checked, past probation and whatever the rate.
    SpotChecker suspicious(spec(0.0, 1));
    QVERIFY((suspicious.decide("s") == SpotDecision::Check));
    QVERIFY(suspicious.begin(7, "s", {"v1"}, now));
    QVERIFY(!(suspicious.decide("s") == SpotDecision::Check));
    suspicious.finish(7, SpotVerdict::Failed);
    QVERIFY((suspicious.decide("s") == SpotDecision::Check) &&
            (suspicious.decide("s") == SpotDecision::Check));
    QVERIFY(suspicious.begin(8, "s", {"v1"}, now));
    suspicious.finish(8, SpotVerdict::Passed);
    QVERIFY(!(suspicious.decide("s") == SpotDecision::Check));  // cleared
    QVERIFY(c.begin(2, "liar", {"v1"}, now));
    QVERIFY(!c.finish(2, SpotVerdict::Inconclusive));  // does not count against it
    QVERIFY(c.begin(3, "liar", {"v1"}, now));
    QVERIFY(c.finish(3, SpotVerdict::Failed));  // the second failure: caught
    QVERIFY(c.is_caught("liar"));
    QCOMPARE(c.decide("liar"), SpotDecision::Refuse);  // refused now, so never checked again
    QVERIFY(c.begin(4, "honest", {"v1"}, now));
    QVERIFY(!c.finish(4, SpotVerdict::Passed));
    QVERIFY(!c.finish(4, SpotVerdict::Failed));  // no longer pending: ignored
    const auto s = c.stats();
    QCOMPARE(s.started, std::int64_t(4));
    QCOMPARE(s.passed, std::int64_t(1));
    QCOMPARE(s.failed, std::int64_t(2));
    QCOMPARE(s.inconclusive, std::int64_t(1));
    QCOMPARE(s.caught, std::vector<std::string>{"liar"});
  }

  void anHonestSenderThatFailsNowAndThenIsNotCaught() {
    SpotChecker c(spec(0.0, 100));
    const auto now = SpotChecker::Clock::now();
    std::uint64_t mb = 0;
    const auto check = [&](SpotVerdict v) {
      c.begin(mb, "drifted", {"v1"}, now);
      return c.finish(mb++, v);
    };
    for (int i = 0; i < 5; ++i) QVERIFY(!check(SpotVerdict::Passed));
    QVERIFY(!check(SpotVerdict::Failed));
    QVERIFY(!check(SpotVerdict::Failed));  // 2 of 7: under a third
    QVERIFY(!c.is_caught("drifted"));
    QVERIFY(check(SpotVerdict::Failed));  // 3 of 8: caught
  }

  // A check whose input never comes blames nobody (the sender may be starved of CPU, or the
  // request lost), but trusts nobody either: the sender is suspect, its next micro-batch is
  // checked, and while its checks fill every slot its work is refused, never used unchecked.
  void anUnansweredCheckBlamesNobodyAndTrustsNobody() {
    SpotChecker c(spec(0.0, 1), std::chrono::milliseconds(100));
    const auto now = SpotChecker::Clock::now();
    QCOMPARE(c.decide("mute"), SpotDecision::Check);
    QVERIFY(c.begin(1, "mute", {"v1"}, now));
    QCOMPARE(c.decide("slow-verifier"), SpotDecision::Check);
    QVERIFY(c.begin(2, "slow-verifier", {"v1"}, now));
    c.input_shown(2);  // its input came; the verifier never answered
    QVERIFY(c.expire(now + std::chrono::milliseconds(50)).empty());
    const auto ended = c.expire(now + std::chrono::milliseconds(150));
    QCOMPARE(ended.size(), std::size_t(2));
    QCOMPARE(ended[0].micro_batch, std::uint64_t(1));
    QCOMPARE(ended[0].verdict, SpotVerdict::Unanswered);  // never showed its input
    QCOMPARE(ended[0].checked, std::string("mute"));
    QCOMPARE(ended[1].verdict, SpotVerdict::Inconclusive);
    QVERIFY(!c.is_caught("mute"));
    QVERIFY(!c.is_caught("slow-verifier"));
    // Past probation, at rate 0: the one that did not answer is checked again, the other not.
    QCOMPARE(c.decide("slow-verifier"), SpotDecision::Use);
    for (std::uint64_t mb = 10; mb < 18; ++mb) {  // its checks take every slot (8)...
      QCOMPARE(c.decide("mute"), SpotDecision::Check);
      QVERIFY(c.begin(mb, "mute", {"v1"}, now));
    }
    QCOMPARE(c.decide("mute"), SpotDecision::Refuse);  // ...so its next work is refused
    QCOMPARE(c.decide("slow-verifier"), SpotDecision::Use);
    // Unanswered again and again: still nobody is caught.
    QCOMPARE(c.expire(now + std::chrono::milliseconds(150)).size(), std::size_t(8));
    QVERIFY(!c.is_caught("mute"));
    const auto s = c.stats();
    QCOMPARE(s.unanswered, std::int64_t(9));
    QCOMPARE(s.inconclusive, std::int64_t(1));
    QCOMPARE(s.failed, std::int64_t(0));
    // One that passes clears the suspicion.
    QCOMPARE(c.decide("mute"), SpotDecision::Check);
    QVERIFY(c.begin(20, "mute", {"v1"}, now));
    c.finish(20, SpotVerdict::Passed);
    QCOMPARE(c.decide("mute"), SpotDecision::Use);
  }

  void pendingChecksAreBounded() {
    SpotChecker c(spec(1.0, 0));
    const auto now = SpotChecker::Clock::now();
    int begun = 0;
    for (std::uint64_t mb = 0; mb < 100; ++mb) {
      if ((c.decide("x") == SpotDecision::Check) && c.begin(mb, "x", {"v"}, now)) ++begun;
    }
    QCOMPARE(begun, 8);
    QVERIFY(c.finish(0, SpotVerdict::Passed) == false);
    QVERIFY((c.decide("x") == SpotDecision::Check));  // room again
  }
};

QTEST_GUILESS_MAIN(TestSpotCheck)
#include "test_spot_check.moc"
