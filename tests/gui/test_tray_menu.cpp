// The tray menu's Snooze action against a real rookery-node: it offers "Snooze for an
// hour" while the node runs, asks the node to snooze (the node's governor reports it), then
// offers "End the snooze", which ends it; with no node it is disabled.
#include <QAction>
#include <QDateTime>
#include <QMenu>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "gui_test_node.hpp"
#include "ui/tray_icon.hpp"

using rookery::ui::TrayIcon;
namespace gt = rookery::gui_test;

class TestTrayMenu : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void snoozeAnHourAndEndIt() {
    QTemporaryDir dir;
    gt::TestNode node;
    QVERIFY(node.start(dir));
    QVERIFY(node.waitReady());
    TrayIcon tray;
    QSignalSpy asked(&tray, &TrayIcon::snoozeRequested);
    QCOMPARE(tray.menu()->actions().indexOf(tray.snoozeAction()), 1);  // after Contribute/Pause
    QVERIFY(!tray.snoozeAction()->isEnabled());

    auto answer = gt::askNode(node.runtimeDir());
    QVERIFY(answer.ok);
    tray.showNodeState(answer.snapshot);
    QVERIFY(tray.snoozeAction()->isEnabled());
    QCOMPARE(tray.snoozeAction()->text(), QStringLiteral("Snooze for an hour"));
    tray.snoozeAction()->trigger();
    QCOMPARE(asked.count(), 1);
    QCOMPARE(asked.at(0).at(0).toInt(), 3600);

    // What the handler does: the node snoozes for an hour.
    QString error;
    QVERIFY2(TrayIcon::requestSnooze(node.runtimeDir(), asked.at(0).at(0).toInt(), &error),
             qPrintable(error));
    answer = gt::askNode(node.runtimeDir());
    const qint64 until = answer.snapshot.governor().snoozed_until_unix_ms();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QVERIFY2(until > now + 3500 * 1000 && until <= now + 3600 * 1000,
             qPrintable(QString::number(until - now)));
    tray.showNodeState(answer.snapshot);
    QCOMPARE(tray.snoozeAction()->text(), QStringLiteral("End the snooze"));

    tray.snoozeAction()->trigger();
    QCOMPARE(asked.count(), 2);
    QCOMPARE(asked.at(1).at(0).toInt(), 0);
    QVERIFY2(TrayIcon::requestSnooze(node.runtimeDir(), 0, &error), qPrintable(error));
    answer = gt::askNode(node.runtimeDir());
    QCOMPARE(answer.snapshot.governor().snoozed_until_unix_ms(), 0);
    tray.showNodeState(answer.snapshot);
    QCOMPARE(tray.snoozeAction()->text(), QStringLiteral("Snooze for an hour"));

    // The node gone: nobody to ask.
    gt::stopNode(node.runtimeDir(), node.pid());
    tray.showDisconnected(QStringLiteral("rookery-node stopped"));
    QVERIFY(!tray.snoozeAction()->isEnabled());
    QVERIFY(!TrayIcon::requestSnooze(node.runtimeDir(), 3600, &error));
    QVERIFY2(!error.isEmpty(), "a refusal says why");
  }
};

QTEST_MAIN(TestTrayMenu)
#include "test_tray_menu.moc"
