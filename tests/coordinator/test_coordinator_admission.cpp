// Admission with a clock set by hand: what a join must show (the job, an invite when the job is
// invite-only, as a new job is unless opened, no ban, tcp endpoints, a plausible profile, a
// proof of work when one is asked), each refusal in its words, and an invite that expires while
// the coordinator runs.
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <filesystem>
#include <memory>

#include "clock/clock.hpp"
#include "coordinator/admission.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/verdicts.hpp"
#include "net/join_work.hpp"

using namespace rookery;
using namespace std::chrono_literals;
using coordinator::Admission;
using coordinator::Enrolment;

namespace {

wire::pb::JoinRequest join(const std::string& job_id, const std::string& token) {
  wire::pb::JoinRequest r;
  r.set_job_id(job_id);
  r.set_invite_token(token);
  r.set_stage_endpoint("tcp://127.0.0.1:5000");
  r.set_reduce_endpoint("tcp://127.0.0.1:5001");
  r.set_shard_endpoint("tcp://127.0.0.1:5002");
  auto* p = r.mutable_profile();
  p->set_flops_per_s(1e10);
  p->set_free_memory_bytes(1 << 30);
  p->set_upload_bytes_per_s(1e8);
  p->set_download_bytes_per_s(1e8);
  p->set_rtt_s(0.001);
  return r;
}

}  // namespace

class TestCoordinatorAdmission : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::unique_ptr<coordinator::CoordinatorState> state_;
  std::unique_ptr<clock::ManualClock> clock_;

 private Q_SLOTS:
  void init() {
    static int n = 0;
    state_ = std::make_unique<coordinator::CoordinatorState>(
        std::filesystem::path(dir_.path().toStdString()) / ("a" + std::to_string(++n) + ".db"));
    clock_ = std::make_unique<clock::ManualClock>();
  }

  void refusal_data() {
    using V = wire::pb::Verdict;
    QTest::addColumn<QString>("job_id");
    QTest::addColumn<QString>("token");
    QTest::addColumn<bool>("banned");
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<double>("flops");
    QTest::addColumn<int>("refusal");  // V::NONE: admitted
    const QString tcp = "tcp://127.0.0.1:5000";
    QTest::newRow("a command-line token") << "job"
                                          << "cli" << false << tcp << 1e10 << int(V::NONE);
    QTest::newRow("an invite") << "job"
                               << "fresh" << false << tcp << 1e10 << int(V::NONE);
    QTest::newRow("an expired invite") << "job"
                                       << "old" << false << tcp << 1e10 << int(V::INVITE_EXPIRED);
    QTest::newRow("a revoked invite") << "job"
                                      << "gone" << false << tcp << 1e10 << int(V::INVITE_REVOKED);
    QTest::newRow("an unknown token") << "job"
                                      << "nope" << false << tcp << 1e10 << int(V::INVITE_NOT_VALID);
    QTest::newRow("no token") << "job"
                              << "" << false << tcp << 1e10 << int(V::INVITE_NOT_VALID);
    QTest::newRow("another job") << "other"
                                 << "cli" << false << tcp << 1e10 << int(V::WRONG_JOB);
    QTest::newRow("banned") << "job"
                            << "cli" << true << tcp << 1e10 << int(V::RING_PARTNERS_REJECT);
    QTest::newRow("not tcp") << "job"
                             << "cli" << false << "ipc:///tmp/stage" << 1e10
                             << int(V::ENDPOINTS_NOT_TCP);
    QTest::newRow("unmeasured") << "job"
                                << "cli" << false << tcp << 0.0 << int(V::IMPLAUSIBLE_PROFILE);
    QTest::newRow("implausibly fast")
        << "job"
        << "cli" << false << tcp << 1e19 << int(V::IMPLAUSIBLE_PROFILE);
  }

  void refusal() {
    QFETCH(QString, job_id);
    QFETCH(QString, token);
    QFETCH(bool, banned);
    QFETCH(QString, endpoint);
    QFETCH(double, flops);
    QFETCH(int, refusal);
    const auto now = clock_->unix_ms();
    state_->add_invite("fresh", now, now + 3'600'000);
    state_->add_invite("old", now, now + 60'000);
    state_->add_invite("gone", now, 0);
    state_->revoke_invite("gone", now + 1000);
    clock_->advance(2min);  // "old" expires
    Admission admission("job", Enrolment{{"cli"}}, *state_, *clock_);
    auto r = join(job_id.toStdString(), token.toStdString());
    r.set_stage_endpoint(endpoint.toStdString());
    r.mutable_profile()->set_flops_per_s(flops);
    const auto evidence =
        coordinator::verdict::counted(wire::pb::Verdict::RING_PARTNERS_REJECT, 2, 3);
    const coordinator::Ban ban{evidence, coordinator::verdict::words(evidence), now};
    const auto no = admission.refusal("key", r, banned ? &ban : nullptr);
    QCOMPARE(bool(no), refusal != wire::pb::Verdict::NONE);
    QCOMPARE(int(no.why.code()), refusal);
    QCOMPARE(no.banned, banned);
    if (banned) QCOMPARE(no.why.value(), 2.0);
    if (job_id == "other") QCOMPARE(no.why.detail(), std::string("job"));  // the job it runs
  }

  // A ban recorded before verdicts had codes still refuses, in its English.
  void aBanWithoutACodeStillRefuses() {
    Admission admission("job", Enrolment{{"cli"}}, *state_, *clock_);
    const coordinator::Ban old{{}, "an old reason", clock_->unix_ms()};
    const auto no = admission.refusal("key", join("job", "cli"), &old);
    QVERIFY(no);
    QVERIFY(no.banned);
    QCOMPARE(no.why.detail(), std::string("an old reason"));
  }

  // A new job is invite-only: with no invite made yet, nobody is admitted without one.
  void aNewJobIsInviteOnly() {
    using V = wire::pb::Verdict;
    Admission admission("job", Enrolment{}, *state_, *clock_);
    QCOMPARE(admission.invite_refusal("").code(), V::INVITE_NOT_VALID);
    QCOMPARE(admission.invite_refusal("anything").code(), V::INVITE_NOT_VALID);
    const auto no = admission.refusal("key", join("job", ""), nullptr);
    QVERIFY(no);
    QCOMPARE(no.why.code(), V::INVITE_NOT_VALID);
    state_->add_invite("made", clock_->unix_ms(), 0);
    QCOMPARE(admission.invite_refusal("made").code(), V::NONE);
  }

  void openEnrolmentAdmitsAnyToken() {
    using V = wire::pb::Verdict;
    Admission admission("job", Enrolment{{}, /*open=*/true}, *state_, *clock_);
    QCOMPARE(admission.invite_refusal("").code(), V::NONE);
    QCOMPARE(admission.invite_refusal("anything").code(), V::NONE);
    // The first invite made makes the job invite-only at once.
    state_->add_invite("made", clock_->unix_ms(), 0);
    QCOMPARE(admission.invite_refusal("anything").code(), V::INVITE_NOT_VALID);
    QCOMPARE(admission.invite_refusal("made").code(), V::NONE);
  }

  // The join's proof of work: none carried, one too weak, one for another key, and the one
  // the node finds, which admits; asked for after the invite and before anything else.
  void aJoinCarriesItsProofOfWork() {
    using V = wire::pb::Verdict;
    constexpr unsigned kBits = 12;
    const std::string key = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7";
    Admission admission("job", Enrolment{{}, /*open=*/true, kBits}, *state_, *clock_);
    auto r = join("job", "");
    auto no = admission.refusal(key, r, nullptr);
    QVERIFY(no);
    QCOMPARE(no.why.code(), V::JOIN_WORK_MISSING);
    QCOMPARE(no.why.limit(), double(kBits));
    QVERIFY(coordinator::verdict::words(no.why).find("12 bits") != std::string::npos);

    const auto nonce = net::find_join_work("job", key, kBits);
    QVERIFY(nonce);
    QVERIFY(net::join_work_bits("job", key, *nonce) >= kBits);
    // The nonces before it give fewer bits: the first of them is a wrong proof.
    QVERIFY(*nonce > 0);
    r.set_join_work_nonce(0);
    no = admission.refusal(key, r, nullptr);
    QVERIFY(no);
    QCOMPARE(no.why.code(), V::JOIN_WORK_WRONG);
    QCOMPARE(no.why.value(), double(net::join_work_bits("job", key, 0)));
    QVERIFY(no.why.value() < kBits);
    QCOMPARE(no.why.limit(), double(kBits));

    r.set_join_work_nonce(*nonce);
    QVERIFY(!admission.refusal(key, r, nullptr));
    // Bound to the key and to the job: the same nonce does not do for another key, nor for the
    // same key in another job (fixed inputs: each is one of 4096 that would by chance).
    const std::string other = "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID";
    QCOMPARE(admission.refusal(other, r, nullptr).why.code(), V::JOIN_WORK_WRONG);
    Admission another_job("job2", Enrolment{{}, true, kBits}, *state_, *clock_);
    r.set_job_id("job2");
    QCOMPARE(another_job.refusal(key, r, nullptr).why.code(), V::JOIN_WORK_WRONG);
    r.set_job_id("job");
    // An invite-only job checks the invite first, then the work.
    Admission invite_only("job", Enrolment{{"cli"}, false, kBits}, *state_, *clock_);
    QCOMPARE(invite_only.refusal(key, r, nullptr).why.code(), V::INVITE_NOT_VALID);
    r.set_invite_token("cli");
    QVERIFY(!invite_only.refusal(key, r, nullptr));
  }

  void theAllowListMustHoldCurveKeys() {
    QCOMPARE(Admission::first_invalid_key({}), std::string());
    QCOMPARE(Admission::first_invalid_key({"short"}), std::string("short"));
  }

  void aJoinBecomesAMember() {
    const auto m = Admission::member_of("key", join("job", ""));
    QCOMPARE(m.key, std::string("key"));
    QCOMPARE(m.profile.id, std::string("key"));
    QCOMPARE(m.profile.flops_per_s, 1e10);
    QCOMPARE(m.shard_endpoint, std::string("tcp://127.0.0.1:5002"));
  }
};

QTEST_GUILESS_MAIN(TestCoordinatorAdmission)
#include "test_coordinator_admission.moc"
