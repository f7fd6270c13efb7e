// What the node says reaches the user in the user's language: a real rookery-node joins a
// real invite-only coordinator with a wrong token while its owner's settings pause it; the
// node sends codes beside its English (its state, the governor's reason, the coordinator's
// refusal and the coordinator's own words for it, each sensor), the window words them in
// German, and the tray notifies about the refusal from the code. A snapshot without codes (an
// older node) is shown in its English. Every verdict and seat the coordinator sends is worded.
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

#include "coordinator/verdicts.hpp"
#include "gui_test_node.hpp"
#include "node/reasons.hpp"
#include "ui/app_resources.hpp"
#include "ui/cards/node_state_card.hpp"
#include "ui/reasons.hpp"
#include "ui/tray_icon.hpp"

using namespace rookery::ui;
using namespace rookery::gui_test;

namespace {

QString rowValue(const QWidget& card, const char* name) {
  const auto* label = card.findChild<QLabel*>(QString::fromLatin1(name));
  return label ? label->text() : QString();
}

}  // namespace

class TestNodeReasons : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // An older node sends no codes: its English is shown as it is (capitalised). English: this
  // runs before any translation is installed.
  void olderNodeInEnglish() {
    pb::NodeSnapshot s;
    s.set_state(pb::CONTRIBUTING);
    s.set_state_reason("paused: a reason this GUI never heard of");
    s.mutable_governor()->set_decision(pb::GovernorSnapshot::PAUSED);
    s.mutable_governor()->set_reason("a reason this GUI never heard of");
    s.mutable_coordinator()->set_endpoint("tcp://127.0.0.1:7461");
    s.mutable_coordinator()->set_status("pipeline 3 of a newer kind");
    auto* sensor = s.mutable_governor()->add_sensors();
    sensor->set_name("thermal camera");
    sensor->set_working(true);
    sensor->set_detail("cool");
    QCOMPARE(Reasons::state(s), QStringLiteral("Paused: a reason this GUI never heard of"));
    QCOMPARE(Reasons::governor(s.governor()), QStringLiteral("a reason this GUI never heard of"));
    QCOMPARE(Reasons::coordinator(s.coordinator()), QStringLiteral("pipeline 3 of a newer kind"));
    QCOMPARE(Reasons::sensorName(*sensor), QStringLiteral("thermal camera"));
    QCOMPARE(Reasons::sensorReading(*sensor), QStringLiteral("cool"));
    // A governed state whose governor code is unknown falls back to the node's sentence.
    s.mutable_state_why()->set_code(pb::NODE_GOVERNED);
    QCOMPARE(Reasons::state(s), QStringLiteral("Paused: a reason this GUI never heard of"));
    // A code this GUI knows, in English.
    s.mutable_coordinator()->mutable_why()->set_code(pb::COORDINATOR_SEATED);
    s.mutable_coordinator()->mutable_why()->set_value(2);
    s.mutable_coordinator()->mutable_why()->set_limit(1);
    QCOMPARE(Reasons::coordinator(s.coordinator()), QStringLiteral("pipeline 2, stage 1"));
  }

  // Every verdict the coordinator sends (a typed Verdict) reaches the window as a code with its
  // numbers, which the GUI words; the coordinator's English is never read. A verdict this node
  // does not know (a newer coordinator's) shows its detail as it is. English: this runs before
  // any translation is installed (so plurals read "partner(s)"; rookery_en.ts gives an English
  // user "partners").
  void everyVerdictIsWorded() {
    using V = pb::Verdict;
    namespace v = rookery::coordinator::verdict;
    struct Case {
      V verdict;
      bool banned;
      pb::ReasonCode code, detail;
      QString shown;
    };
    const auto refused = [](V verdict, bool banned, pb::Reason& out) {
      pb::JoinReply reply;
      *reply.mutable_refusal() = verdict;
      reply.set_banned(banned);
      reply.set_reason(v::words(verdict));
      rookery::node::refusal_reason(reply, out);
    };
    // A refusal with its numbers and where (the Sybil limits').
    const auto limited = [](V::Code code, double value, double limit, std::string detail = {}) {
      auto out = v::make(code, std::move(detail));
      out.set_value(value);
      out.set_limit(limit);
      return out;
    };
    const std::vector<Case> cases = {
        {v::make(V::NO_JOB), false, pb::COORDINATOR_REFUSED, pb::VERDICT_NO_JOB,
         "the coordinator runs no job"},
        {v::make(V::WRONG_JOB, "gpt-2"), false, pb::COORDINATOR_REFUSED, pb::VERDICT_WRONG_JOB,
         "the coordinator runs another job (“gpt-2”)"},
        {v::make(V::INVITE_NOT_VALID), false, pb::COORDINATOR_REFUSED, pb::VERDICT_INVITE_NOT_VALID,
         "the job is invite-only and this invite is not valid"},
        {v::make(V::INVITE_EXPIRED), false, pb::COORDINATOR_REFUSED, pb::VERDICT_INVITE_EXPIRED,
         "this invite has expired; ask the job's owner for a new one"},
        {v::make(V::INVITE_REVOKED), false, pb::COORDINATOR_REFUSED, pb::VERDICT_INVITE_REVOKED,
         "the job's owner revoked this invite"},
        {v::make(V::INVITE_UNCHECKABLE, "disk I/O error"), false, pb::COORDINATOR_REFUSED,
         pb::VERDICT_INVITE_UNCHECKABLE, "the coordinator cannot check invites (disk I/O error)"},
        {v::make(V::ENDPOINTS_NOT_TCP), false, pb::COORDINATOR_REFUSED,
         pb::VERDICT_ENDPOINTS_NOT_TCP, "this PC's addresses are not TCP addresses"},
        {v::make(V::IMPLAUSIBLE_PROFILE), false, pb::COORDINATOR_REFUSED,
         pb::VERDICT_IMPLAUSIBLE_PROFILE,
         "this PC's measured speed, memory or network look implausible"},
        {v::counted(V::RING_PARTNERS_REJECT, 3, 4), true, pb::COORDINATOR_BANNED,
         pb::VERDICT_RING_PARTNERS_REJECT,
         "3 of its 4 ring partner(s) reject its averaging contributions"},
        {v::make(V::AGGREGATE_PROVEN_WRONG,
                 "its signed aggregate of segment 0 of chunk 2 is not "
                 "the aggregate of the 4 inputs it signed for"),
         true, pb::COORDINATOR_BANNED, pb::VERDICT_AGGREGATE_PROVEN_WRONG,
         "a ring partner proved, by its own signatures, that it handed the ring false averaged "
         "values"},
        {v::counted(V::CAUGHT_IN_SPOT_CHECKS, 2, 3), true, pb::COORDINATOR_BANNED,
         pb::VERDICT_CAUGHT_IN_SPOT_CHECKS,
         "2 of the 3 stage(s) it sends to caught its activations wrong in spot-checks"},
        {v::counted(V::GRADIENTS_CAUGHT_IN_SPOT_CHECKS, 3, 3), true, pb::COORDINATOR_BANNED,
         pb::VERDICT_GRADIENTS_CAUGHT_IN_SPOT_CHECKS,
         "3 of the 3 stage(s) it returns gradients to caught its gradients wrong in spot-checks"},
        {limited(V::TOO_MANY_FROM_ADDRESS, 0, 4, "203.0.113.7"), false, pb::COORDINATOR_REFUSED,
         pb::VERDICT_TOO_MANY_FROM_ADDRESS,
         "the job admits at most 4 volunteer(s) from one address, and already has them from "
         "203.0.113.7"},
        {limited(V::TOO_MANY_FROM_SUBNET, 0, 16, "203.0.113.0/24"), false, pb::COORDINATOR_REFUSED,
         pb::VERDICT_TOO_MANY_FROM_SUBNET,
         "the job admits at most 16 volunteer(s) from one network, and already has them from "
         "203.0.113.0/24"},
        {limited(V::JOIN_WORK_MISSING, 0, 20), false, pb::COORDINATOR_REFUSED,
         pb::VERDICT_JOIN_WORK_MISSING,
         "the job asks each join for a proof of work of 20 bit(s), and this one carried none"},
        {limited(V::JOIN_WORK_WRONG, 7, 20), false, pb::COORDINATOR_REFUSED,
         pb::VERDICT_JOIN_WORK_WRONG,
         "this join's proof of work gives 7 of the 20 bit(s) the job asks for"},
        // A ban stored before codes, and a newer coordinator's verdict: the English as it is.
        {v::make(V::NONE, "an old ban's reason"), true, pb::COORDINATOR_BANNED, pb::REASON_UNKNOWN,
         "an old ban's reason"},
        {v::make(static_cast<V::Code>(999), "the moon is in the wrong phase"), false,
         pb::COORDINATOR_REFUSED, pb::REASON_UNKNOWN, "the moon is in the wrong phase"},
    };
    for (const auto& c : cases) {
      pb::Reason why;
      refused(c.verdict, c.banned, why);
      QCOMPARE(why.code(), c.code);
      QCOMPARE(why.detail().code(), c.detail);
      QCOMPARE(Reasons::coordinatorWords(why), c.shown);
    }

    // Without a seat: the planner's reasons.
    const std::vector<std::pair<V, QString>> unseated = {
        {v::make(V::SPARE),
         "a spare: its pipeline is faster without this PC, which waits to fill a seat that falls "
         "empty"},
        {v::make(V::TIER_FULL),
         "every pipeline of its bandwidth tier already has one PC per block"},
        {v::make(V::NO_PIPELINE_HOLDS_MODEL, "short by 2 GB"),
         "the volunteers together do not hold the model yet (short by 2 GB)"},
        {v::make(V::JOINED_AFTER_PLAN), "it joined after the plan was made"},
    };
    for (const auto& [verdict, shown] : unseated) {
      pb::SeatStatus seat;
      seat.set_state(pb::SeatStatus::NOT_IN_PLAN);
      *seat.mutable_why() = verdict;
      pb::CoordinatorLink link;
      rookery::node::to_reason(seat, *link.mutable_why());
      QCOMPARE(link.why().code(), pb::COORDINATOR_NOT_IN_PLAN);
      QCOMPARE(Reasons::coordinator(link), QStringLiteral("not in the plan: ") + shown);
    }

    // Every code the wire defines has a code the window words (a verdict added to the wire but
    // not to the node or the GUI fails here).
    const auto* codes = V::Code_descriptor();
    for (int i = 0; i < codes->value_count(); ++i) {
      const auto code = static_cast<V::Code>(codes->value(i)->number());
      if (code == V::NONE || code == V::COORDINATOR_FAILED) continue;  // English only
      pb::Reason r;
      rookery::node::to_reason(v::make(code, "x"), r);
      QVERIFY2(r.code() != pb::REASON_UNKNOWN, codes->value(i)->name().c_str());
      QVERIFY2(!Reasons::verdict(r).isEmpty(), codes->value(i)->name().c_str());
    }
  }

  // The seat the coordinator reports, as codes (HeartbeatReply.seat).
  void everySeatStateIsWorded() {
    const auto* states = pb::SeatStatus::State_descriptor();
    for (int i = 0; i < states->value_count(); ++i) {
      const auto state = static_cast<pb::SeatStatus::State>(states->value(i)->number());
      if (state == pb::SeatStatus::UNKNOWN) continue;
      pb::SeatStatus seat;
      seat.set_state(state);
      seat.set_pipeline(2);
      seat.set_stage(1);
      seat.set_fetched(0.25);
      seat.set_dataset_bytes(4 << 20);
      pb::CoordinatorLink link;
      link.set_status("the coordinator's English");
      rookery::node::to_reason(seat, *link.mutable_why());
      QVERIFY2(link.why().code() != pb::REASON_UNKNOWN, states->value(i)->name().c_str());
      QVERIFY2(Reasons::coordinator(link) != QStringLiteral("the coordinator's English"),
               states->value(i)->name().c_str());
    }
    pb::SeatStatus seated;
    seated.set_state(pb::SeatStatus::SEATED);
    seated.set_pipeline(2);
    seated.set_stage(1);
    pb::CoordinatorLink link;
    rookery::node::to_reason(seated, *link.mutable_why());
    QCOMPARE(Reasons::coordinator(link), QStringLiteral("pipeline 2, stage 1"));
  }

  void refusedAndPausedInGerman() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    TestCoordinator coordinator;  // invite-only
    QVERIFY(coordinator.start(
        dir, {QStringLiteral("--invite-token"), QStringLiteral("the-right-token")}));
    TestNode node;
    QVERIFY(node.start(
        dir, coordinator.joinArguments() +
                 QStringList{QStringLiteral("--invite-token"), QStringLiteral("a-wrong-token"),
                             QStringLiteral("--contribute"), QStringLiteral("--preference"),
                             QStringLiteral("in_use.run=false"), QStringLiteral("--preference"),
                             QStringLiteral("idle.run=false")}));
    QVERIFY(node.waitReady());

    // Before the refusal: what the tray has seen of this node.
    pb::NodeSnapshot before = askNode(node.runtimeDir()).snapshot;
    pb::NodeSnapshot s;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   auto a = askNode(node.runtimeDir());
                   if (a.ok) s = a.snapshot;
                   return a.ok && s.coordinator().why().code() == pb::COORDINATOR_REFUSED;
                 },
                 30000),
             s.coordinator().status().c_str());
    // The node's English stays for logs and older GUIs; the code carries the same.
    QVERIFY(s.coordinator().status().starts_with("the coordinator refused: "));
    QVERIFY(s.coordinator().why().text().find("invite") != std::string::npos);
    QCOMPARE(s.state(), pb::CONTRIBUTING);  // wants to, but the governor pauses it
    QCOMPARE(s.state_why().code(), pb::NODE_GOVERNED);
    QCOMPARE(s.governor().decision(), pb::GovernorSnapshot::PAUSED);
    // In use or idle (whatever the terminals' idleness says), computing is off.
    const bool in_use = s.governor().user_active();
    QCOMPARE(s.governor().why().code(), in_use ? pb::GOVERNOR_IN_USE_OFF : pb::GOVERNOR_IDLE_OFF);
    QCOMPARE(s.governor().reason(),
             std::string(in_use ? "user active" : "PC idle (compute while idle is off)"));
    QVERIFY(s.governor().sensors_size() >= 7);
    for (const auto& sensor : s.governor().sensors()) {
      QVERIFY2(sensor.kind() != pb::SensorStatus::KIND_UNKNOWN, sensor.name().c_str());
    }
    bool cpu_seen = false;
    for (const auto& sensor : s.governor().sensors()) {
      if (sensor.kind() != pb::SensorStatus::CPU_LOAD) continue;
      cpu_seen = true;
      QCOMPARE(sensor.reading().code(), pb::SENSOR_OTHER_CPU);
    }
    QVERIFY(cpu_seen);
    // Why there is GPU telemetry or none (NVML's words) comes as a code too, here and for the
    // gpu sensor.
    QVERIFY(!s.device().gpu_status().empty());
    QVERIFY2(s.device().gpu_status_why().code() != pb::REASON_UNKNOWN,
             s.device().gpu_status().c_str());
    for (const auto& sensor : s.governor().sensors()) {
      if (sensor.kind() == pb::SensorStatus::GPU) {
        QVERIFY2(sensor.reading().code() != pb::REASON_UNKNOWN, sensor.detail().c_str());
      }
    }

    // In German.
    QVERIFY(!installTranslations(*qApp, QLocale(QLocale::German, QLocale::Germany)).isEmpty());
    const QString why_en = in_use
                               ? QStringLiteral("the PC is in use")
                               : QStringLiteral("the PC is idle and computing while idle is off");
    const QString paused_de = Reasons::tr("Paused: %1").arg(Reasons::tr(qPrintable(why_en)));
    QVERIFY2(!paused_de.contains(why_en) && !paused_de.startsWith(QStringLiteral("Paused")),
             qPrintable(paused_de));
    NodeStateCard card;
    card.showSnapshot(s);
    QCOMPARE(card.reasonText(), paused_de);
    // The coordinator's own words come as a code too, and are worded in German.
    QCOMPARE(s.coordinator().why().detail().code(), pb::VERDICT_INVITE_NOT_VALID);
    const QString invalid_de = Reasons::verdict(s.coordinator().why().detail());
    QVERIFY2(
        !invalid_de.isEmpty() && invalid_de != QString::fromStdString(s.coordinator().why().text()),
        qPrintable(invalid_de));
    const QString refused_de = Reasons::tr("refused this PC: %1").arg(invalid_de);
    QVERIFY(!refused_de.startsWith(QStringLiteral("refused this PC")));
    QVERIFY2(rowValue(card, "coordinator").contains(refused_de.mid(1)),
             qPrintable(rowValue(card, "coordinator")));
    QVERIFY2(rowValue(card, "governorSensors").contains(Reasons::tr("CPU load")),
             qPrintable(rowValue(card, "governorSensors")));
    QVERIFY(!rowValue(card, "governorSensors").contains(QStringLiteral("cpu load")));

    // The tray: once, from the code, in German.
    TrayIcon tray;
    QSignalSpy spy(&tray, &TrayIcon::notified);
    before.mutable_coordinator()->clear_why();
    tray.showNodeState(before);
    tray.showNodeState(s);
    tray.showNodeState(s);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), TrayIcon::tr("The coordinator refused this PC"));
    QVERIFY(spy.at(0).at(0).toString() != QStringLiteral("The coordinator refused this PC"));
    QVERIFY(spy.at(0).at(1).toString().contains(invalid_de));

    stopNode(node.runtimeDir(), node.pid());
  }
};

QTEST_MAIN(TestNodeReasons)
#include "test_node_reasons.moc"
