// The run's status as a dashboard pages through it, with a clock set by hand: pages cover every
// live volunteer once, in key order, whatever the page size; a request that asks for no size
// gets the default page, and one past the end gets none. The volunteers' rows are built once
// per kStatusFresh however many requests come, and again at once when the plan changes.
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <filesystem>
#include <memory>
#include <set>
#include <string>

#include "clock/clock.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/membership.hpp"
#include "coordinator/run_status.hpp"

using namespace rookery;
using namespace std::chrono_literals;
using coordinator::Assignment;
using coordinator::kDefaultStatusPage;
using coordinator::Member;

namespace {

constexpr int kVolunteers = 600;  // more than two default pages

std::string key_of(int i) {
  auto k = std::to_string(i);
  return std::string(40 - k.size(), 'k') + k;
}

std::pair<int, int> no_seat(const std::string&) { return {-1, -1}; }

}  // namespace

class TestRunStatus : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::unique_ptr<coordinator::CoordinatorState> state_;
  std::unique_ptr<clock::ManualClock> clock_;
  std::unique_ptr<coordinator::Membership> membership_;
  std::unique_ptr<coordinator::RunStatus> status_;
  Assignment plan_;

  wire::pb::RunStatus ask(std::uint32_t first, std::uint32_t max) {
    wire::pb::RunStatusRequest r;
    r.set_first_node(first);
    r.set_max_nodes(max);
    wire::pb::RunStatus out;
    status_->answer(r, "job", plan_, 0, *membership_, no_seat, out);
    return out;
  }

 private Q_SLOTS:
  void init() {
    static int n = 0;
    state_ = std::make_unique<coordinator::CoordinatorState>(
        std::filesystem::path(dir_.path().toStdString()) / ("s" + std::to_string(++n) + ".db"));
    clock_ = std::make_unique<clock::ManualClock>();
    membership_ = std::make_unique<coordinator::Membership>(*state_, 3000ms, *clock_);
    status_ = std::make_unique<coordinator::RunStatus>(*state_, *clock_);
    for (int i = 0; i < kVolunteers; ++i) {
      Member m;
      m.key = key_of(i);
      membership_->admit(m, 0, true);
    }
    plan_ = {};
  }

  void pagesCoverEveryVolunteerOnce_data() {
    QTest::addColumn<int>("page");
    QTest::newRow("1") << 1;
    QTest::newRow("7") << 7;
    QTest::newRow("256") << 256;
    QTest::newRow("all at once") << kVolunteers;
  }

  void pagesCoverEveryVolunteerOnce() {
    QFETCH(int, page);
    std::set<std::string> seen;
    std::string last;
    for (std::uint32_t first = 0; first < std::uint32_t(kVolunteers); first += page) {
      const auto s = ask(first, std::uint32_t(page));
      QCOMPARE(s.total_nodes(), std::uint32_t(kVolunteers));
      QCOMPARE(s.first_node(), first);
      QCOMPARE(s.nodes_size(), std::min(page, kVolunteers - int(first)));
      for (const auto& n : s.nodes()) {
        QVERIFY2(n.key() > last, "pages are not in key order");
        last = n.key();
        QVERIFY(seen.insert(n.key()).second);
      }
    }
    QCOMPARE(seen.size(), std::size_t(kVolunteers));
  }

  void aRequestWithoutASizeGetsTheDefaultPage() {
    QCOMPARE(ask(0, 0).nodes_size(), int(kDefaultStatusPage));
    QCOMPARE(ask(kVolunteers - 10, 0).nodes_size(), 10);
    const auto past = ask(kVolunteers + 5, 0);
    QCOMPARE(past.nodes_size(), 0);
    QCOMPARE(past.first_node(), std::uint32_t(kVolunteers));
    QCOMPARE(past.total_nodes(), std::uint32_t(kVolunteers));
  }

  void rowsAreBuiltOncePerPeriod() {
    for (int i = 0; i < 50; ++i) ask(std::uint32_t(i), 10);
    QCOMPARE(status_->builds(), std::uint64_t(1));
    clock_->advance(coordinator::kStatusFresh - 1ms);
    ask(0, 10);
    QCOMPARE(status_->builds(), std::uint64_t(1));
    clock_->advance(1ms);
    ask(0, 10);
    QCOMPARE(status_->builds(), std::uint64_t(2));
    // A new plan is shown at once.
    plan_.version = 1;
    QCOMPARE(ask(0, 10).plan_version(), std::uint64_t(1));
    QCOMPARE(status_->builds(), std::uint64_t(3));
  }
};

QTEST_GUILESS_MAIN(TestRunStatus)
#include "test_run_status.moc"
