// RateWindow: what a window holds after expiry, and the rates it gives, over tables of work
// finished at given times (seconds after a fixed start).
#include <QTest>

#include "node/rate_window.hpp"

using rookery::node::RateWindow;

namespace {
RateWindow::TimePoint at(double seconds) {
  return RateWindow::TimePoint(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(1000 + seconds)));
}
}  // namespace

class TestRateWindow : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void rates_data() {
    QTest::addColumn<double>("span");
    QTest::addColumn<QList<double>>("times");
    QTest::addColumn<QList<double>>("amounts");
    QTest::addColumn<QList<double>>("busy");
    QTest::addColumn<double>("now");
    QTest::addColumn<double>("amount");
    QTest::addColumn<double>("perSecond");
    QTest::addColumn<double>("perBusySecond");

    QTest::newRow("empty") << 5.0 << QList<double>{} << QList<double>{} << QList<double>{} << 3.0
                           << 0.0 << 0.0 << 0.0;
    QTest::newRow("one entry: at least a second")
        << 5.0 << QList<double>{0} << QList<double>{8} << QList<double>{0.5} << 0.2 << 8.0 << 8.0
        << 16.0;
    QTest::newRow("spread over four seconds")
        << 5.0 << QList<double>{0, 1, 2, 3} << QList<double>{10, 10, 10, 10}
        << QList<double>{1, 1, 1, 1} << 4.0 << 40.0 << 10.0 << 10.0;
    QTest::newRow("older entries expire")
        << 5.0 << QList<double>{0, 1, 6, 7} << QList<double>{100, 100, 10, 10}
        << QList<double>{1, 1, 2, 2} << 8.0 << 20.0 << 10.0 << 5.0;
    QTest::newRow("an entry exactly a span old stays")
        << 5.0 << QList<double>{3, 6} << QList<double>{6, 6} << QList<double>{0, 0} << 8.0 << 12.0
        << 2.4 << 0.0;
    QTest::newRow("everything expired") << 30.0 << QList<double>{0, 10} << QList<double>{1, 1}
                                        << QList<double>{1, 1} << 41.0 << 0.0 << 0.0 << 0.0;
  }

  void rates() {
    QFETCH(double, span);
    QFETCH(QList<double>, times);
    QFETCH(QList<double>, amounts);
    QFETCH(QList<double>, busy);
    QFETCH(double, now);
    QFETCH(double, amount);
    QFETCH(double, perSecond);
    QFETCH(double, perBusySecond);

    RateWindow w(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(span)));
    for (qsizetype i = 0; i < times.size(); ++i) w.add(at(times[i]), amounts[i], busy[i]);
    w.expire(at(now));
    QCOMPARE(w.amount(), amount);
    QCOMPARE(w.per_second(at(now)), perSecond);
    QCOMPARE(w.per_busy_second(), perBusySecond);
  }

  // Work over a time (a difference between two counts): the rate is over the time since the
  // oldest entry began, not since it ended.
  void workOverATime() {
    RateWindow w(std::chrono::seconds(5));
    w.add(at(0.5), 10, 0, at(0));
    w.add(at(1.0), 10, 0, at(0.5));
    w.add(at(3.0), 40, 0, at(1.0));
    QCOMPARE(w.per_second(at(3.0)), 20.0);
    w.expire(at(5.8));  // the first entry goes: the rate is over [0.5, 5.8]
    QCOMPARE(w.amount(), 50.0);
    QCOMPARE(w.per_second(at(5.8)), 50.0 / 5.3);
  }

  void clearEmpties() {
    RateWindow w(std::chrono::seconds(5));
    w.add(at(0), 3, 1);
    w.clear();
    QCOMPARE(w.amount(), 0.0);
    QCOMPARE(w.busy_seconds(), 0.0);
  }
};

QTEST_GUILESS_MAIN(TestRateWindow)
#include "test_rate_window.moc"
