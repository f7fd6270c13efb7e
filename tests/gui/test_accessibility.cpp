// Keyboard and screen readers, against a real rookery-node: every control of the window and
// of the settings dialog has an accessible name (what a screen reader says for it), Tab
// reaches every control in turn and comes back around, and the keyboard alone contributes
// (Space on the Contribute button), opens Settings and closes it again (Escape).
// With $ROOKERY_GUI_SCREENSHOTS set to a folder, the window and the settings dialog are saved
// there as they render (at the QT_SCALE_FACTOR and in the language of the environment): a look
// at 200% or in Chinese without a display.
#include <QAbstractButton>
#include <QAccessible>
#include <QApplication>
#include <QButtonGroup>
#include <QDialog>
#include <QDir>
#include <QPushButton>
#include <QSet>
#include <QTest>

#include "gui_test_node.hpp"
#include "ui/app_resources.hpp"
#include "ui/main_window.hpp"
#include "ui/node_connection.hpp"
#include "ui/settings_dialog.hpp"
#include "ui/widgets/contribute_button.hpp"

using namespace rookery::ui;
using namespace rookery::gui_test;

namespace {

QString describe(const QWidget* w) {
  return QStringLiteral("%1 \"%2\"")
      .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName());
}

// The controls a keyboard user reaches with Tab, as Qt decides it.
QList<QWidget*> tabStops(QWidget& top) {
  QList<QWidget*> out;
  for (auto* w : top.findChildren<QWidget*>()) {
    if (w->isVisibleTo(&top) && w->isEnabled() && (w->focusPolicy() & Qt::TabFocus) &&
        !w->focusProxy())
      out << w;
  }
  return out;
}

QString accessibleName(QWidget* w) {
  auto* iface = QAccessible::queryAccessibleInterface(w);
  return iface ? iface->text(QAccessible::Name).trimmed() : QString();
}

// Tabs from `start` until focus comes back to it; returns every widget that had focus.
QSet<QWidget*> tabAround(QWidget* start, int limit) {
  QSet<QWidget*> seen;
  start->setFocus(Qt::TabFocusReason);
  for (int i = 0; i < limit; ++i) {
    QWidget* now = QApplication::focusWidget();
    if (!now) break;
    seen.insert(now);
    QTest::keyClick(now, Qt::Key_Tab);
    if (QApplication::focusWidget() == start) break;
  }
  return seen;
}

// Buttons of one exclusive group (Per day / Per hour) are one Tab stop, as radio buttons are:
// Tab reaches the checked one, the arrow keys the others.
QList<QAbstractButton*> exclusiveSiblings(QWidget* w) {
  auto* b = qobject_cast<QAbstractButton*>(w);
  if (!b) return {};
  if (b->group() && b->group()->exclusive()) return b->group()->buttons();
  if (b->autoExclusive() && b->parentWidget()) {
    QList<QAbstractButton*> out;
    for (auto* o : b->parentWidget()->findChildren<QAbstractButton*>(Qt::FindDirectChildrenOnly)) {
      if (o->autoExclusive()) out << o;
    }
    return out;
  }
  return {};
}

void checkNamesAndTabs(QWidget& top, QWidget* start) {
  const auto stops = tabStops(top);
  QVERIFY(!stops.isEmpty());
  for (auto* w : stops)
    QVERIFY2(!accessibleName(w).isEmpty(), qPrintable(describe(w) + " has no accessible name"));
  const auto seen = tabAround(start, 4 * static_cast<int>(stops.size()) + 4);
  QCOMPARE(QApplication::focusWidget(), start);  // round the whole chain and back
  for (auto* w : stops) {
    if (seen.contains(w)) continue;
    const auto group = exclusiveSiblings(w);
    QAbstractButton* reached = nullptr;
    for (auto* o : group) {
      if (seen.contains(o)) reached = o;
    }
    QVERIFY2(reached, qPrintable(describe(w) + " cannot be reached with Tab"));
    // From the group's Tab stop, the arrow keys reach it.
    reached->setFocus(Qt::TabFocusReason);
    bool arrived = false;
    for (int i = 0; i < group.size() && !arrived; ++i) {
      QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right);
      arrived = QApplication::focusWidget() == w;
    }
    QVERIFY2(arrived, qPrintable(describe(w) + " cannot be reached with the arrow keys"));
  }
}

// Makes `w` the active window (the offscreen platform activates only on request).
bool activate(QWidget* w) {
  w->activateWindow();
#if QT_VERSION < QT_VERSION_CHECK(6, 5, 0)
  QApplication::setActiveWindow(w);
#endif
  return QTest::qWaitForWindowActive(w) && QApplication::activeWindow() == w;
}

}  // namespace

void saveScreenshot(QWidget& w, const QString& name) {
  const QString dir = qEnvironmentVariable("ROOKERY_GUI_SCREENSHOTS");
  if (dir.isEmpty()) return;
  QDir().mkpath(dir);
  const QString path = QDir(dir).filePath(name + QStringLiteral(".png"));
  QVERIFY2(w.grab().save(path), qPrintable(path));
  qInfo("saved %s (%dx%d)", qPrintable(path), w.width(), w.height());  // logical size
}

class TestAccessibility : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    if (!qEnvironmentVariableIsEmpty("ROOKERY_GUI_SCREENSHOTS"))
      installTranslations(*qApp, QLocale());
  }

  void keyboardAndNames() {
    QTemporaryDir dir;
    TestNode node;
    QVERIFY(node.start(dir));
    QVERIFY(node.waitReady());
    NodeConnection connection(node.runtimeDir());
    connection.start();
    MainWindow window(connection, nullptr);
    window.show();
    QVERIFY(activate(&window));
    QVERIFY(QTest::qWaitFor([&] { return connection.isConnected(); }, 10000));
    QTest::qWait(500);  // a few snapshots: the cards show what they hold

    checkNamesAndTabs(window, window.contributeButton());
    saveScreenshot(window, QStringLiteral("window"));

    // The keyboard alone: Space on Contribute, and the node contributes.
    window.contributeButton()->setFocus(Qt::TabFocusReason);
    QTest::keyClick(window.contributeButton(), Qt::Key_Space);
    QVERIFY(QTest::qWaitFor(
        [&] { return askNode(node.runtimeDir()).snapshot.state() == pb::CONTRIBUTING; }, 10000));

    // Settings, by keyboard: every control named and reachable; Escape closes it.
    window.settingsButton()->setFocus(Qt::TabFocusReason);
    QTest::keyClick(window.settingsButton(), Qt::Key_Space);
    QVERIFY(QTest::qWaitFor(
        [&] { return window.settingsDialog() && window.settingsDialog()->isVisible(); }, 5000));
    SettingsDialog* settings = window.settingsDialog();
    QVERIFY(activate(settings));
    QWidget* first = tabStops(*settings).value(0);
    QVERIFY(first);
    checkNamesAndTabs(*settings, first);
    saveScreenshot(*settings, QStringLiteral("settings"));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
    QVERIFY(QTest::qWaitFor([&] { return !settings->isVisible(); }, 5000));
    stopNode(node.runtimeDir(), node.pid());
  }
};

QTEST_MAIN(TestAccessibility)
#include "test_accessibility.moc"
