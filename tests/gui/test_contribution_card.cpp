// "Your contribution": from hand-made snapshots (the words and numbers, the ledger's error,
// keyboard and accessible names, the dark palette), then in the main window against a real
// rookery-node training a one-stage pipeline: the card shows what the node's snapshot says,
// which is what its ledger file holds, and the bars per day and per hour add up to the credit.
#include <QAbstractButton>
#include <QApplication>
#include <QCategoryAxis>
#include <QBarSet>
#include <QChartView>
#include <QDateTime>
#include <QDir>
#include <QLabel>
#include <QSignalSpy>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

#include "store/database.hpp"
#include "store/ledger.hpp"
#include "store/one_stage_node.hpp"
#include "ui/cards/contribution_card.hpp"
#include "ui/main_window.hpp"
#include "ui/node_connection.hpp"
#include "ui/theme.hpp"

using namespace rookery;
namespace pb = rookery::wire::pb;
using ui::ContributionCard;

namespace {
QString valueOf(const QWidget& card, const char* name) {
  auto* label = card.findChild<QLabel*>(QString::fromLatin1(name));
  return label && label->isVisibleTo(&card) ? label->text() : QString();
}

pb::NodeSnapshot snapshotWithLedger() {
  pb::NodeSnapshot s;
  s.set_state(pb::CONTRIBUTING);
  s.mutable_stage()->set_job_id("job");
  auto* l = s.mutable_ledger();
  l->set_available(true);
  auto* t = l->mutable_total();
  t->set_work_units(2000);
  t->set_samples(123456);
  t->set_flops(1.5e12);
  t->set_busy_seconds(9000);
  t->set_bytes_sent(5ull << 20);
  t->set_bytes_received(3ull << 30);
  t->set_credit(1.5e12 / 432e9);
  l->set_rac(12.5);
  l->set_last_unix_ms(1'795'257'000'000);
  return s;
}

bool near(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max({1e-12, std::abs(a), std::abs(b)});
}

double barSum(const ContributionCard& card) {
  double sum = 0;
  for (int i = 0; i < card.barSet()->count(); ++i) sum += card.barSet()->at(i);
  return sum;
}
}  // namespace

class TestContributionCard : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

  void showsTheLedgerInWords() {
    ContributionCard card;
    card.resize(900, 380);
    card.show();
    QCOMPARE(valueOf(card, "contributionCredit"), QStringLiteral("–"));
    card.showSnapshot(snapshotWithLedger());
    QCOMPARE(valueOf(card, "contributionCredit"), QStringLiteral("3.47"));  // 1.5 TFLOP / 0.432
    QCOMPARE(valueOf(card, "contributionRac"), QStringLiteral("Recent average: 12.50 per day"));
    QCOMPARE(valueOf(card, "contributionSamples"), QStringLiteral("123,456"));
    QCOMPARE(valueOf(card, "contributionCompute"), QStringLiteral("1.50 TFLOP"));
    QCOMPARE(valueOf(card, "contributionHours"), QStringLiteral("2.5 h"));
    QCOMPARE(valueOf(card, "contributionSent"), QStringLiteral("5 MiB"));
    QCOMPARE(valueOf(card, "contributionReceived"), QStringLiteral("3.0 GiB"));
    QVERIFY(valueOf(card, "contributionStatus").isEmpty());
    // Small amounts keep three significant digits instead of rounding to zero.
    QCOMPARE(ContributionCard::creditText(0.004567), QStringLiteral("0.00457"));
    QCOMPARE(ContributionCard::computeText(2.3e10), QStringLiteral("0.0230 TFLOP"));
    QCOMPARE(ContributionCard::hoursText(125), QStringLiteral("2 min 05 s"));
    QCOMPARE(ContributionCard::creditText(0), QStringLiteral("0"));
    QCOMPARE(ContributionCard::creditText(12345.6), QStringLiteral("12,346"));
    // No node to ask for the history: the totals are there, the chart waits.
    QVERIFY(!card.chartShown());
    QCOMPARE(card.emptyMessage(), QStringLiteral("Loading the history…"));
  }

  // In a coordinated run the card also shows what the run credits: the samples of this PC's
  // work that its consumers confirmed, and their credit (the coordinator's receipts).
  void showsWhatTheSwarmConfirmed() {
    ContributionCard card;
    card.show();
    auto s = snapshotWithLedger();
    s.set_node_key(std::string(40, 'm'));
    card.showSnapshot(s);
    QVERIFY(valueOf(card, "contributionConfirmed").isEmpty());  // no run: no row
    auto* other = s.mutable_run()->add_nodes();
    other->set_key(std::string(40, 'o'));
    other->set_confirmed_samples(99);
    card.showSnapshot(s);
    QVERIFY(valueOf(card, "contributionConfirmed").isEmpty());  // a run without this PC yet
    auto* me = s.mutable_run()->add_nodes();
    me->set_key(std::string(40, 'm'));
    me->set_samples(123456);
    me->set_confirmed_samples(120000);
    me->set_confirmed_flops(1.08e12);
    me->set_confirmed_credit(2.5);  // the coordinator's: 1.08 TFLOP at 432 GFLOP a credit
    card.showSnapshot(s);
    QCOMPARE(valueOf(card, "contributionConfirmed"),
             QStringLiteral("120,000 samples · 2.50 credits"));
  }

  void saysWhyNothingIsThere() {
    ContributionCard card;
    pb::NodeSnapshot benchmark;
    benchmark.set_state(pb::CONTRIBUTING);
    benchmark.mutable_ledger()->set_available(true);
    card.showSnapshot(benchmark);
    QVERIFY2(card.emptyMessage().contains(QStringLiteral("earns no credit")),
             qPrintable(card.emptyMessage()));
    QVERIFY(card.summaryText().contains(QStringLiteral("Credit: 0")));

    pb::NodeSnapshot old;  // a node without a ledger
    card.showSnapshot(old);
    QVERIFY2(card.summaryText().contains(QStringLiteral("keeps no ledger")),
             qPrintable(card.summaryText()));

    auto failing = snapshotWithLedger();
    failing.mutable_ledger()->set_error("state database: database or disk is full");
    failing.mutable_ledger()->set_pending_units(42);
    card.show();
    card.showSnapshot(failing);
    const QString status = valueOf(card, "contributionStatus");
    QVERIFY2(
        status.contains(QStringLiteral("disk is full")) && status.contains(QStringLiteral("42")),
        qPrintable(status));
  }

  void isKeyboardAccessibleAndFollowsThePalette() {
    ContributionCard card;
    card.show();
    card.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&card));
    QCOMPARE(card.accessibleName(), QStringLiteral("Your contribution"));
    for (QWidget* w : std::initializer_list<QWidget*>{card.perDayButton(), card.perHourButton(),
                                                      card.chartView()}) {
      QVERIFY2(!w->accessibleName().isEmpty(), qPrintable(w->objectName()));
    }
    QVERIFY(card.chartView()->focusPolicy() & Qt::TabFocus);
    for (const char* name :
         {"contributionCredit", "contributionRac", "contributionSamples", "contributionCompute",
          "contributionHours", "contributionSent", "contributionReceived"}) {
      auto* label = card.findChild<QLabel*>(QString::fromLatin1(name));
      QVERIFY2(label && !label->accessibleName().isEmpty(), name);
    }
    // The toggle works like radio buttons: Tab reaches the checked one, the arrows switch.
    QCOMPARE(card.period(), ContributionCard::Period::Days);
    QVERIFY(card.perDayButton()->focusPolicy() & Qt::TabFocus);
    card.perDayButton()->setFocus();
    QCOMPARE(QApplication::focusWidget(), card.perDayButton());
    QTest::keyClick(card.perDayButton(), Qt::Key_Right);
    QCOMPARE(card.period(), ContributionCard::Period::Hours);
    QCOMPARE(QApplication::focusWidget(), card.perHourButton());
    QVERIFY(card.perHourButton()->isChecked());
    QVERIFY(!card.perDayButton()->isChecked());
    QTest::keyClick(card.perHourButton(), Qt::Key_Left);
    QCOMPARE(card.period(), ContributionCard::Period::Days);
    QCOMPARE(QApplication::focusWidget(), card.perDayButton());

    card.setPalette(ui::theme::darkPalette());
    QCOMPARE(card.barSet()->color(), ui::theme::accent(ui::theme::darkPalette()));
    card.setPalette(QApplication::palette());
    QCOMPARE(card.barSet()->color(), ui::theme::accent(QApplication::palette()));
  }

  void showsWhatARealNodesLedgerHolds() {
    QTemporaryDir dir;
    ledger_test::OneStageNode node(dir.path());
    QVERIFY(node.prepare());
    QVERIFY(node.start(/*contribute=*/true));
    QVERIFY2(node.waitReady(), "the node did not come up with its stage");
    ui::NodeConnection::Timing timing;
    timing.liveness_interval = std::chrono::milliseconds(500);
    ui::NodeConnection connection(node.runtimeDir(), timing);
    ui::MainWindow window(connection, nullptr);
    connection.start();
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* card = window.contributionCard();
    QVERIFY(card);
    card->setHistoryInterval(0);

    // Train until the ledger holds some work, then pause so the numbers hold still.
    QVERIFY(QTest::qWaitFor([&] { return node.ask().snapshot.ledger().total().work_units() >= 20; },
                            60000));
    control::ControlClient client(control::ControlEndpoints::in(node.runtimeDir()));
    QVERIFY(client.request(pb::ControlRequest::PAUSE).ok);
    pb::LedgerTotals still;
    QVERIFY(QTest::qWaitFor(
        [&] {
          const auto a = node.ask().snapshot.ledger();
          const bool settled = a.pending_units() == 0 &&
                               a.total().work_units() == still.total().work_units() &&
                               a.total().work_units() > 0;
          still = a;
          QTest::qWait(150);
          return settled;
        },
        20000));
    const auto& t = still.total();

    // The snapshot is the ledger file.
    {
      store::Database db(node.stateDb());
      const auto file = store::Ledger(db).totals();
      QCOMPARE(static_cast<std::uint64_t>(file.units), t.work_units());
      QCOMPARE(static_cast<std::uint64_t>(file.samples), t.samples());
      QVERIFY(near(file.flops, t.flops()));
      QVERIFY(near(file.credit, t.credit()));
      QCOMPARE(file.bytes_sent, t.bytes_sent());
      QCOMPARE(file.bytes_received, t.bytes_received());
    }
    QVERIFY(t.samples() > 0);
    QVERIFY(t.credit() > 0);

    // The card shows the snapshot.
    QTRY_COMPARE_WITH_TIMEOUT(valueOf(*card, "contributionCredit"),
                              ContributionCard::creditText(t.credit()), 5000);
    QCOMPARE(valueOf(*card, "contributionSamples"),
             QLocale().toString(static_cast<qulonglong>(t.samples())));
    QCOMPARE(valueOf(*card, "contributionCompute"), ContributionCard::computeText(t.flops()));
    QCOMPARE(valueOf(*card, "contributionHours"), ContributionCard::hoursText(t.busy_seconds()));
    QVERIFY(valueOf(*card, "contributionRac").contains(QStringLiteral("per day")));
    QVERIFY(valueOf(*card, "contributionStatus").isEmpty());

    // Per day: 14 bars that add up to the credit; per hour: 24.
    QTRY_VERIFY_WITH_TIMEOUT(card->chartShown(), 5000);
    QCOMPARE(card->barSet()->count(), ContributionCard::kDays);
    QCOMPARE(card->barLabels().size(), ContributionCard::kDays);
    QVERIFY2(near(barSum(*card), t.credit()),
             qPrintable(QStringLiteral("%1 vs %2").arg(barSum(*card)).arg(t.credit())));
    QTest::mouseClick(card->perHourButton(), Qt::LeftButton);
    QCOMPARE(card->period(), ContributionCard::Period::Hours);
    QCOMPARE(card->barSet()->count(), ContributionCard::kHours);
    QVERIFY(near(barSum(*card), t.credit()));
    QVERIFY(card->chartView()->accessibleDescription().contains(QStringLiteral("Credit per hour")));
    // Every bar has its label for the screen reader; the axis always labels the newest.
    QCOMPARE(card->barLabels().size(), ContributionCard::kHours);
    QVERIFY(card->categoryAxis()->count() >= 2);
    QCOMPARE(card->categoryAxis()->categoriesLabels().last(), card->barLabels().back());
    QCOMPARE(card->barLabels().back(),
             QDateTime::fromMSecsSinceEpoch(card->history().back().start_unix_ms())
                 .toString(QStringLiteral("HH")));
    // The chart is reached by keyboard from the toggle.
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    card->perHourButton()->setFocus();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), card->chartView());
    // The newest bar is this hour's, as the ledger file has it.
    {
      store::Database db(node.stateDb());
      const auto hours = store::Ledger(db).history(
          store::LedgerPeriodKind::Hour, ContributionCard::kHours,
          card->history().back().end_unix_ms() - 1);  // the card's hour, even past it
      QCOMPARE(card->history().back().start_unix_ms(), hours.back().start_unix_ms);
      QVERIFY(near(card->barSet()->at(ContributionCard::kHours - 1), hours.back().credit));
    }
    const QString dir_screens = qEnvironmentVariable("ROOKERY_GUI_SCREENSHOTS");
    if (!dir_screens.isEmpty()) {
      card->grab().save(QDir(dir_screens).filePath(QStringLiteral("contribution-card.png")));
      window.grab().save(QDir(dir_screens).filePath(QStringLiteral("contribution-window.png")));
      card->setPeriod(ContributionCard::Period::Days);
      QApplication::setPalette(ui::theme::darkPalette());
      QCoreApplication::processEvents();
      card->grab().save(
          QDir(dir_screens).filePath(QStringLiteral("contribution-card-days-dark.png")));
      QApplication::setPalette(QApplication::style()->standardPalette());
      card->setPeriod(ContributionCard::Period::Hours);
    }

    QVERIFY(node.quit());
    QTRY_VERIFY_WITH_TIMEOUT(!connection.isConnected(), 10000);
    // The last numbers stay when the node is gone.
    QCOMPARE(valueOf(*card, "contributionCredit"), ContributionCard::creditText(t.credit()));
  }
};

QTEST_MAIN(TestContributionCard)
#include "test_contribution_card.moc"
