// What the node says reaches the user in the user's language: a real rookery-node joins a
// real invite-only coordinator with a wrong token while its owner's settings pause it; the
// node sends codes beside its English (its state, the governor's reason, the coordinator's
// refusal, each sensor), the window words them in German, and the tray notifies about the
// refusal from the code. A snapshot without codes (an older node) is shown in its English.
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

#include "gui_test_node.hpp"
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

  void refusedAndPausedInGerman() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    TestCoordinator coordinator;  // invite-only
    QVERIFY(coordinator.start(dir, {QStringLiteral("--invite-token"), QStringLiteral("the-right-token")}));
    TestNode node;
    QVERIFY(node.start(dir, coordinator.joinArguments() + QStringList{QStringLiteral("--invite-token"),
                                                                      QStringLiteral("a-wrong-token"),
                                                                      QStringLiteral("--contribute"),
                                                                      QStringLiteral("--preference"),
                                                                      QStringLiteral("in_use.run=false"),
                                                                      QStringLiteral("--preference"),
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
    QCOMPARE(s.governor().reason(), std::string(in_use ? "user active" : "PC idle (compute while idle is off)"));
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
    QVERIFY2(s.device().gpu_status_why().code() != pb::REASON_UNKNOWN, s.device().gpu_status().c_str());
    for (const auto& sensor : s.governor().sensors()) {
      if (sensor.kind() == pb::SensorStatus::GPU) {
        QVERIFY2(sensor.reading().code() != pb::REASON_UNKNOWN, sensor.detail().c_str());
      }
    }

    // In German.
    QVERIFY(!installTranslations(*qApp, QLocale(QLocale::German, QLocale::Germany)).isEmpty());
    const QString why_en = in_use ? QStringLiteral("the PC is in use")
                                  : QStringLiteral("the PC is idle and computing while idle is off");
    const QString paused_de = Reasons::tr("Paused: %1").arg(Reasons::tr(qPrintable(why_en)));
    QVERIFY2(!paused_de.contains(why_en) && !paused_de.startsWith(QStringLiteral("Paused")), qPrintable(paused_de));
    NodeStateCard card;
    card.showSnapshot(s);
    QCOMPARE(card.reasonText(), paused_de);
    const QString refused_de =
        Reasons::tr("refused this PC: %1").arg(QString::fromStdString(s.coordinator().why().text()));
    QVERIFY(!refused_de.startsWith(QStringLiteral("refused this PC")));
    QVERIFY2(rowValue(card, "coordinator").contains(refused_de.mid(1)), qPrintable(rowValue(card, "coordinator")));
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
    QVERIFY(spy.at(0).at(1).toString().contains(QString::fromStdString(s.coordinator().why().text())));

    stopNode(node.runtimeDir(), node.pid());
  }
};

QTEST_MAIN(TestNodeReasons)
#include "test_node_reasons.moc"
