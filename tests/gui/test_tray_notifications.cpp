// When the tray notifies: the decision from the node's snapshots and messages (pure), and
// TrayIcon following a sequence of snapshots, once per event, on the offscreen platform
// (where no tray exists, the notification is still decided and announced).
#include <QAction>
#include <QSignalSpy>
#include <QTest>

#include "ui/tray_icon.hpp"

using rookery::ui::TrayIcon;
using rookery::ui::TrayNotification;
namespace pb = rookery::wire::pb;

namespace {
pb::NodeSnapshot snapshot(pb::NodeState state, qint64 pid = 100) {
  pb::NodeSnapshot s;
  s.set_state(state);
  s.set_pid(pid);
  s.set_state_reason("contributing");
  return s;
}

pb::NodeSnapshot withStage(pb::NodeSnapshot s, bool finished) {
  s.mutable_stage()->set_job_id("demo-bytes-gpt");
  s.mutable_stage()->set_job_name("Demo GPT");
  s.mutable_stage()->set_finished(finished);
  return s;
}

// The node's words and the code it sends beside them (`why`: the coordinator's reason).
pb::NodeSnapshot withCoordinatorStatus(pb::NodeSnapshot s, const std::string& status,
                                       pb::ReasonCode code = pb::REASON_UNKNOWN,
                                       const std::string& why = {}) {
  s.mutable_coordinator()->set_endpoint("tcp://127.0.0.1:7461");
  s.mutable_coordinator()->set_status(status);
  s.mutable_coordinator()->mutable_why()->set_code(code);
  s.mutable_coordinator()->mutable_why()->set_text(why);
  return s;
}
}  // namespace

class TestTrayNotifications : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void nothingForOrdinaryChanges() {
    const auto paused = snapshot(pb::PAUSED);
    const auto contributing = snapshot(pb::CONTRIBUTING);
    QVERIFY(!TrayIcon::notificationFor(nullptr, paused));
    QVERIFY(!TrayIcon::notificationFor(&paused, contributing));
    QVERIFY(!TrayIcon::notificationFor(&contributing, paused));
    QVERIFY(!TrayIcon::notificationFor(&contributing, snapshot(pb::STOPPING)));
    QVERIFY(!TrayIcon::notificationFor(&contributing, withStage(contributing, false)));
    // A coordinator that cannot be reached for a moment is shown in the window, not pushed.
    const auto unreachable =
        withCoordinatorStatus(contributing, "coordinator unreachable: connection refused",
                              pb::COORDINATOR_UNREACHABLE, "connection refused");
    QVERIFY(!TrayIcon::notificationFor(&contributing, unreachable));
    QVERIFY(!TrayIcon::notificationForMessage(QStringLiteral("settings saved")));
    QVERIFY(!TrayIcon::notificationForMessage(
        QStringLiteral("coordinator unreachable: Connection refused")));
  }

  void nodeFailure() {
    const auto before = snapshot(pb::CONTRIBUTING);
    auto after = snapshot(pb::FAILED);
    after.set_state_reason("work failed: CUDA error: an illegal memory access was encountered");
    const auto n = TrayIcon::notificationFor(&before, after);
    QVERIFY(n);
    QCOMPARE(n->kind, TrayNotification::Kind::NodeFailed);
    QVERIFY(n->message.contains(QStringLiteral("illegal memory access")));
    QCOMPARE(n->icon, QSystemTrayIcon::Critical);
    // Once: still failed is no news; a node found failed at start is.
    QVERIFY(!TrayIcon::notificationFor(&after, after));
    QVERIFY(TrayIcon::notificationFor(nullptr, after));
    // A node restarted by the launcher that fails again is a new failure.
    auto again = after;
    again.set_pid(200);
    QVERIFY(TrayIcon::notificationFor(&after, again));
  }

  void diskFull() {
    const auto before = snapshot(pb::CONTRIBUTING);
    for (const char* reason : {"work failed: checkpoint: write: No space left on device",
                               "cannot start: database or disk is full", "work failed: ENOSPC"}) {
      auto after = snapshot(pb::FAILED);
      after.set_state_reason(reason);
      const auto n = TrayIcon::notificationFor(&before, after);
      QVERIFY2(n && n->kind == TrayNotification::Kind::DiskFull, reason);
      QVERIFY(n->message.contains(QString::fromUtf8(reason), Qt::CaseInsensitive));
    }
    // The ledger that cannot be written while the node computes on.
    auto ledger_full = before;
    ledger_full.mutable_ledger()->set_error("database or disk is full");
    ledger_full.mutable_ledger()->set_pending_units(12);
    const auto l = TrayIcon::notificationFor(&before, ledger_full);
    QVERIFY(l && l->kind == TrayNotification::Kind::DiskFull);
    QVERIFY(l->message.contains(QStringLiteral("database or disk is full")));
    QVERIFY(!TrayIcon::notificationFor(&ledger_full, ledger_full));
    auto other_error = before;
    other_error.mutable_ledger()->set_error("database is locked");
    QVERIFY(!TrayIcon::notificationFor(&before, other_error));
    const auto logged = TrayIcon::notificationForMessage(
        QStringLiteral("ledger: write failed: database or disk is full"));
    QVERIFY(logged && logged->kind == TrayNotification::Kind::DiskFull);
  }

  void refusedOrBanned() {
    const auto before =
        withCoordinatorStatus(snapshot(pb::CONTRIBUTING), "connected to coordinator 0.1.0",
                              pb::COORDINATOR_CONNECTED, "0.1.0");
    // The code the node sends beside its words (core/node/reasons.cpp), not the words.
    const auto refused = withCoordinatorStatus(
        before, "the coordinator refused: the job is invite-only and this invite is not valid",
        pb::COORDINATOR_REFUSED, "the job is invite-only and this invite is not valid");
    const auto n = TrayIcon::notificationFor(&before, refused);
    QVERIFY(n && n->kind == TrayNotification::Kind::Refused);
    QCOMPARE(n->title, TrayIcon::tr("The coordinator refused this PC"));
    QVERIFY(
        n->message.contains(QStringLiteral("the job is invite-only and this invite is not valid")));
    QVERIFY(!TrayIcon::notificationFor(&refused, refused));
    const auto banned = withCoordinatorStatus(
        before,
        "the coordinator refused: banned from this job: its averaging updates were excluded",
        pb::COORDINATOR_BANNED, "its averaging updates were excluded");
    const auto b = TrayIcon::notificationFor(&before, banned);
    QVERIFY(b && b->kind == TrayNotification::Kind::Refused);
    QCOMPARE(b->title, TrayIcon::tr("The coordinator banned this PC"));
    QVERIFY(b->message.contains(QStringLiteral("its averaging updates were excluded")));
    // Refused, then banned: the ban is no new news to the tray (the window says it).
    QVERIFY(!TrayIcon::notificationFor(&refused, banned));
    // Words alone (a node too old to send codes, a text that merely mentions a refusal) are
    // not a refusal.
    QVERIFY(!TrayIcon::notificationFor(
        &before, withCoordinatorStatus(before, "banned: sent poisoned updates")));
    QVERIFY(!TrayIcon::notificationFor(
        &before, withCoordinatorStatus(before, "not in the plan: connection refused",
                                       pb::COORDINATOR_NOT_IN_PLAN, "connection refused")));
    QVERIFY(!TrayIcon::notificationForMessage(QStringLiteral("the coordinator banned this node")));
  }

  void jobEnded() {
    const auto running = withStage(snapshot(pb::CONTRIBUTING), false);
    const auto finished = withStage(snapshot(pb::CONTRIBUTING), true);
    const auto n = TrayIcon::notificationFor(&running, finished);
    QVERIFY(n);
    QCOMPARE(n->kind, TrayNotification::Kind::JobEnded);
    QVERIFY(n->message.contains(QStringLiteral("Demo GPT")));
    QVERIFY(!TrayIcon::notificationFor(&finished, finished));
  }

  void trayFollowsSnapshotsOncePerEvent() {
    TrayIcon tray;
    QSignalSpy spy(&tray, &TrayIcon::notified);
    auto contributing = withStage(snapshot(pb::CONTRIBUTING), false);
    tray.showNodeState(contributing);
    tray.showNodeState(contributing);
    QCOMPARE(spy.count(), 0);
    auto failed = snapshot(pb::FAILED);
    failed.set_state_reason("work failed: No space left on device");
    tray.showNodeState(failed);
    tray.showNodeState(failed);  // the GUI renders the same snapshot many times
    QCOMPARE(spy.count(), 1);
    QVERIFY(spy.at(0).at(0).toString().contains(QStringLiteral("disk")));
    // The node's LOG event about the same full disk, a moment later: not twice.
    tray.showNodeMessage(QStringLiteral("ledger: No space left on device"));
    QCOMPARE(spy.count(), 1);
    // Another kind of event is news.
    auto banned =
        withCoordinatorStatus(failed, "the coordinator refused: banned from this job: lies",
                              pb::COORDINATOR_BANNED, "lies");
    tray.showNodeState(banned);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(tray.contributeAction()->isEnabled(), false);  // a failed node offers no Contribute
  }
};

QTEST_MAIN(TestTrayNotifications)
#include "test_tray_notifications.moc"
