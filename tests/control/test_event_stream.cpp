#include <QTest>

#include "control/event_stream.hpp"

using rookery::control::EventStream;

class TestEventStream : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void consecutiveSequenceHasNoGap() {
    EventStream s;
    for (std::uint64_t seq = 10; seq < 20; ++seq) QVERIFY(!s.accept(seq));
    QCOMPARE(s.gaps(), std::uint64_t{0});
    QCOMPARE(s.last_seq(), std::uint64_t{19});
  }
  void missedEventsAreAGap() {
    EventStream s;
    s.accept(1);
    s.accept(2);
    auto gap = s.accept(5);
    QVERIFY(gap);
    QCOMPARE(gap->expected, std::uint64_t{3});
    QCOMPARE(gap->received, std::uint64_t{5});
    QVERIFY(!s.accept(6));
    QCOMPARE(s.gaps(), std::uint64_t{1});
  }
  void resyncCoversEventsInTheSnapshot() {
    EventStream s;
    s.accept(1);
    s.resync(7);            // a snapshot taken at seq 7
    QVERIFY(!s.accept(7));  // already covered
    QVERIFY(!s.accept(8));
    QCOMPARE(s.gaps(), std::uint64_t{0});
  }
  void restartedNodeStartsANewSequence() {
    EventStream s;
    s.accept(500);
    QVERIFY(!s.accept(1));
    QVERIFY(!s.accept(2));
    QCOMPARE(s.restarts(), std::uint64_t{1});
    QCOMPARE(s.gaps(), std::uint64_t{0});
  }
};

QTEST_APPLESS_MAIN(TestEventStream)
#include "test_event_stream.moc"
