// Membership with a clock set by hand: the heartbeat deadline, the member list nodes admit and
// its digest, a rejoin at the same addresses, bans, the reports a ban vote counts, and what a
// restarted coordinator presumes alive.
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>

#include "clock/clock.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/membership.hpp"
#include "coordinator/verdicts.hpp"

using namespace rookery;
using namespace std::chrono_literals;
using coordinator::Member;
using coordinator::Membership;

namespace {

constexpr auto kDeadAfter = 3000ms;

std::string key_of(char c) { return std::string(40, c); }

Member member(char c, int port = 5000) {
  Member m;
  m.key = key_of(c);
  m.profile.id = m.key;
  m.profile.flops_per_s = 1e10;
  m.profile.free_memory_bytes = 1 << 30;
  m.profile.upload_bytes_per_s = m.profile.download_bytes_per_s = 1e8;
  m.profile.rtt_s = 0.001;
  m.stage_endpoint = "tcp://127.0.0.1:" + std::to_string(port);
  m.reduce_endpoint = "tcp://127.0.0.1:" + std::to_string(port + 1);
  m.shard_endpoint = "tcp://127.0.0.1:" + std::to_string(port + 2);
  return m;
}

wire::pb::Heartbeat heartbeat(bool contributing = true) {
  wire::pb::Heartbeat h;
  h.set_contributing(contributing);
  h.set_dataset_digest("digest");
  return h;
}

}  // namespace

class TestCoordinatorMembership : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::unique_ptr<coordinator::CoordinatorState> state_;
  std::unique_ptr<clock::ManualClock> clock_;
  std::unique_ptr<Membership> membership_;

 private Q_SLOTS:
  void init() {
    static int n = 0;
    state_ = std::make_unique<coordinator::CoordinatorState>(
        std::filesystem::path(dir_.path().toStdString()) / ("m" + std::to_string(++n) + ".db"));
    clock_ = std::make_unique<clock::ManualClock>();
    membership_ = std::make_unique<Membership>(*state_, kDeadAfter, *clock_);
    membership_->resume(coordinator::Assignment{});
  }

  void deadline_data() {
    QTest::addColumn<int>("silent_ms");
    QTest::addColumn<bool>("alive");
    QTest::newRow("just heard") << 0 << true;
    QTest::newRow("within the deadline") << 2999 << true;
    QTest::newRow("at the deadline") << 3000 << true;
    QTest::newRow("past the deadline") << 3001 << false;
    QTest::newRow("long gone") << 60000 << false;
  }

  // Silent past dead_after, a volunteer is dead; it stays a member (it may come back).
  void deadline() {
    QFETCH(int, silent_ms);
    QFETCH(bool, alive);
    membership_->admit(member('a'), 0, true);
    clock_->advance(std::chrono::milliseconds(silent_ms));
    const auto gone = membership_->expire_silent();
    QCOMPARE(gone.empty(), alive);
    QCOMPARE(membership_->find(key_of('a')) != nullptr, alive);
    QCOMPARE(membership_->members().count(key_of('a')), std::size_t(1));
  }

  void aHeartbeatRenewsTheDeadline() {
    membership_->admit(member('a'), 0, true);
    for (int i = 0; i < 5; ++i) {
      clock_->advance(2500ms);
      auto* v = membership_->find(key_of('a'));
      QVERIFY(v);
      membership_->hear(key_of('a'), *v, heartbeat(), "digest");
      QVERIFY(membership_->expire_silent().empty());
    }
    clock_->advance(kDeadAfter + 1ms);
    QCOMPARE(membership_->expire_silent(), std::vector<std::string>{key_of('a')});
  }

  // The list heartbeats carry: newcomers join it once per period, a removal at once, and a
  // node's digest tells whether it misses a removal or newcomers only.
  void theListHeartbeatsCarry() {
    Membership m(*state_, kDeadAfter, *clock_, 500ms);
    m.resume(coordinator::Assignment{});
    const auto before = m.published_digest();  // the empty list, published at the start
    m.admit(member('a'), 0, true);
    QVERIFY(m.published_members().empty());
    clock_->advance(500ms);
    m.publish_due();
    QCOMPARE(m.published_members(), std::set<std::string>{key_of('a')});
    const auto with_a = m.published_digest();
    QVERIFY(!m.misses_removal(before));  // it misses newcomers only
    clock_->advance(100ms);
    m.admit(member('b', 6000), 0, true);
    m.publish_due();
    QCOMPARE(m.published_members(), std::set<std::string>{key_of('a')});
    clock_->advance(400ms);
    m.publish_due();
    QCOMPARE(m.published_members(), (std::set<std::string>{key_of('a'), key_of('b')}));
    QCOMPARE(m.published_digest(), m.digest());
    clock_->advance(100ms);
    m.admit(member('c', 7000), 0, true);  // waits for the period ...
    QVERIFY(m.leave(key_of('a')));        // ... but a removal publishes at once, with it
    QCOMPARE(m.published_members(), (std::set<std::string>{key_of('b'), key_of('c')}));
    QVERIFY(m.misses_removal(with_a));
    QVERIFY(m.misses_removal(before));
    QVERIFY(!m.misses_removal(m.published_digest()));
    QVERIFY(m.misses_removal(12345));  // a digest never published
  }

  // The list nodes admit: joined, not left, not banned; its digest changes with it.
  void theMemberListAndItsDigest() {
    const auto empty = membership_->digest();
    QVERIFY(empty != 0);
    membership_->admit(member('a'), 0, true);
    membership_->admit(member('b', 6000), 0, true);
    const auto two = membership_->digest();
    QVERIFY(two != empty);
    QCOMPARE(membership_->members(), (std::set<std::string>{key_of('a'), key_of('b')}));
    QVERIFY(membership_->leave(key_of('a')));
    QVERIFY(!membership_->leave(key_of('a')));
    QCOMPARE(membership_->members(), std::set<std::string>{key_of('b')});
    QVERIFY(membership_->digest() != two);
    membership_->ban(key_of('b'),
                     coordinator::verdict::counted(wire::pb::Verdict::RING_PARTNERS_REJECT, 2, 2));
    QVERIFY(membership_->members().empty());
    QCOMPARE(membership_->digest(), empty);
    QVERIFY(!membership_->find(key_of('b')));
    QVERIFY(membership_->ban_of(key_of('b')));
    QCOMPARE(membership_->ban_of(key_of('b'))->why.code(), wire::pb::Verdict::RING_PARTNERS_REJECT);
    QCOMPARE(membership_->ban_of(key_of('b'))->reason,
             std::string("2 of its 2 ring partners reject its averaging contributions"));
    QCOMPARE(membership_->ban_of(key_of('b'))->unix_ms, clock_->unix_ms());
    QCOMPARE(state_->banned().count(key_of('b')), std::size_t(1));
  }

  void aRejoinAtTheSameAddresses() {
    QVERIFY(!membership_->admit(member('a'), 0, false));
    QVERIFY(membership_->admit(member('a'), 3, true));
    QCOMPARE(membership_->find(key_of('a'))->plan_version, std::uint64_t(3));
    QVERIFY(!membership_->admit(member('a', 7000), 3, true));
  }

  void aPauseIsTimedAndTheDatasetNoticed() {
    membership_->admit(member('a'), 0, false);
    auto* v = membership_->find(key_of('a'));
    clock_->advance(1500ms);
    const auto heard = membership_->hear(key_of('a'), *v, heartbeat(false), "digest");
    QVERIFY(heard.data_changed);
    QVERIFY(v->has_data);
    QVERIFY(!v->contributing);
    QCOMPARE(v->paused_since, clock_->steady_now());
    clock_->advance(1500ms);
    QVERIFY(!membership_->hear(key_of('a'), *v, heartbeat(false), "digest").data_changed);
    QCOMPARE(v->paused_since, clock_->steady_now() - 1500ms);  // still the first pause
  }

  // Peers dial each other back in their link probes: the coordinator keeps, per volunteer,
  // who reached it at its planned endpoint and who found nothing there. One that two peers
  // found silent and none reached stops hosting reversal; a probe of an old endpoint, or a
  // node's report on itself, counts nothing.
  void peersDialBackDuringTheirLinkProbes() {
    auto target = member('t', 7000);
    target.reversal_control_port = 7100;
    target.reversal_data_port = 7101;
    membership_->admit(target, 0, true);
    for (char c : {'a', 'b', 'c'}) membership_->admit(member(c, 8000 + 10 * (c - 'a')), 0, true);
    auto probe = [&](char prober, bool answered, const std::string& endpoint) {
      auto h = heartbeat();
      auto* link = h.add_peer_links();
      link->set_key(key_of('t'));
      link->set_endpoint(endpoint);
      link->set_unanswered(!answered);
      if (answered) {
        link->set_rtt_s(0.01);
        link->set_upload_bytes_per_s(1e7);
        link->set_download_bytes_per_s(1e7);
      }
      return membership_->record_work(key_of(prober), *membership_->find(key_of(prober)), h);
    };
    const std::string planned = target.shard_endpoint;
    QVERIFY(!probe('a', false, planned));
    QVERIFY(!probe('b', false, "tcp://127.0.0.1:1"));  // not where it is planned: ignored
    QVERIFY(!probe('t', false, planned));              // about itself: ignored
    const auto* t = membership_->find(key_of('t'));
    QCOMPARE(t->dialled_by.size(), std::size_t(1));
    QCOMPARE(t->member.reversal_control_port, std::uint16_t(7100));
    QVERIFY(probe('b', false, planned));  // a second silent: no longer a reversal host
    QCOMPARE(t->member.reversal_control_port, std::uint16_t(0));
    QCOMPARE(t->dialled_by,
             (std::map<std::string, bool>{{key_of('a'), false}, {key_of('b'), false}}));
    QVERIFY(!probe('c', true, planned));
    QCOMPARE(t->dialled_by.at(key_of('c')), true);
    // Joining again at other endpoints forgets what peers found at the old ones.
    membership_->admit(member('t', 9000), 0, true);
    QVERIFY(membership_->find(key_of('t'))->dialled_by.empty());
  }

  // What the live volunteers say of another; what a node says of itself is dropped.
  void theReportsABanVoteCounts() {
    membership_->admit(member('a'), 0, true);
    membership_->admit(member('b', 6000), 0, true);
    auto h = heartbeat();
    h.add_excluded_peers(key_of('x'));
    h.add_excluded_peers(key_of('a'));
    const auto heard = membership_->hear(key_of('a'), *membership_->find(key_of('a')), h, "digest");
    QCOMPARE(heard.named, std::set<std::string>{key_of('x')});
    auto g = heartbeat();
    g.add_failed_spot_checks(key_of('x'));
    membership_->hear(key_of('b'), *membership_->find(key_of('b')), g, "digest");
    const auto reports = membership_->reports_on(key_of('x'));
    QCOMPARE(reports.excluded_by, std::set<std::string>{key_of('a')});
    QCOMPARE(reports.caught_by, std::set<std::string>{key_of('b')});
  }

  // A restarted coordinator presumes its plan's volunteers alive for one deadline.
  void aRestartPresumesTheSeatedAlive() {
    state_->save_member(member('a'), 1);
    state_->save_member(member('b', 6000), 1);
    state_->save_member(member('c', 7000), 1);
    state_->ban(key_of('c'),
                coordinator::verdict::counted(wire::pb::Verdict::CAUGHT_IN_SPOT_CHECKS, 2, 3), 2);
    coordinator::Assignment plan;
    plan.version = 4;
    plan.pipelines = {{{key_of('a'), 0, 6}}};
    Membership restarted(*state_, kDeadAfter, *clock_);
    restarted.resume(plan);
    QCOMPARE(restarted.live().size(), std::size_t(1));
    QCOMPARE(restarted.find(key_of('a'))->plan_version, std::uint64_t(4));
    QCOMPARE(restarted.members(), (std::set<std::string>{key_of('a'), key_of('b')}));
    clock_->advance(kDeadAfter + 1ms);
    QCOMPARE(restarted.expire_silent(), std::vector<std::string>{key_of('a')});
  }
};

QTEST_GUILESS_MAIN(TestCoordinatorMembership)
#include "test_coordinator_membership.moc"
