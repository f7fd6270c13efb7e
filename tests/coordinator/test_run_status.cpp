// The run's status as a dashboard pages through it, with a clock set by hand: pages cover every
// live volunteer once, in key order, whatever the page size; a request that asks for no size
// gets the default page, and one past the end gets none. The volunteers' rows are built once
// per kStatusFresh however many requests come, and again at once when the plan changes. With a
// model archive, answers carry its latest snapshot, the validation curve and the latest
// evaluation, and the blocks that came back from a snapshot: each serve of an archived range is
// one restoration, a repeat within a minute is not another.
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "clock/clock.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/membership.hpp"
#include "coordinator/run_archive.hpp"
#include "coordinator/run_status.hpp"
#include "job/job_spec.hpp"
#include "model/cost.hpp"
#include "net/identity.hpp"
#include "net/secure_context.hpp"

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

  wire::pb::RunStatus ask(std::uint32_t first, std::uint32_t max, const std::string& asker = {}) {
    wire::pb::RunStatusRequest r;
    r.set_first_node(first);
    r.set_max_nodes(max);
    wire::pb::RunStatus out;
    status_->answer(r, asker, "job", plan_, 0, *membership_, no_seat, out);
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

  // Every seat says how spot-checks reach it (core/cluster/check_coverage.hpp), and the answer
  // sums them up: three pipelines cut three ways, one a single volunteer nobody checks.
  void everySeatCarriesItsCheckCoverage() {
    const auto seat = [](int i, std::int64_t a, std::int64_t b) {
      return coordinator::Seat{key_of(i), a, b};
    };
    plan_.version = 1;
    plan_.pipelines = {{seat(0, 0, 2), seat(1, 2, 5), seat(2, 5, 6)},
                       {seat(3, 0, 3), seat(4, 3, 6)},
                       {seat(5, 0, 6)}};
    wire::pb::RunStatusRequest r;
    r.set_max_nodes(kVolunteers);
    wire::pb::RunStatus out;
    status_->answer(
        r, {}, "job", plan_, 1, *membership_, [&](const std::string& k) { return plan_.find(k); },
        out);
    QCOMPARE(out.check_coverage().composed(), 5u);
    QCOMPARE(out.check_coverage().exact(), 0u);
    QCOMPARE(out.check_coverage().unchecked(), 1u);
    QCOMPARE(out.check_coverage().two_chains(), 5u);
    int seated = 0;
    for (const auto& n : out.nodes()) {
      if (n.pipeline() < 0) {
        QCOMPARE(n.check(), wire::pb::CHECK_UNKNOWN);
        continue;
      }
      ++seated;
      const bool alone = n.key() == key_of(5);
      QCOMPARE(n.check(), alone ? wire::pb::CHECK_NONE : wire::pb::CHECK_COMPOSED);
      QCOMPARE(n.check_chains(), alone ? 0u : 2u);
    }
    QCOMPARE(seated, 6);
    // A plan that comes with its coverage (plan_swarm's) is reported as it came.
    auto planned = plan_;
    planned.version = 2;
    planned.pipelines = {{seat(0, 0, 3), seat(1, 3, 6)}, {seat(3, 0, 3), seat(4, 3, 6)}};
    planned.coverage = coordinator::check_coverage_of(planned, 0);
    plan_ = planned;
    status_->answer(
        r, {}, "job", plan_, 2, *membership_, [&](const std::string& k) { return plan_.find(k); },
        out);
    QCOMPARE(out.check_coverage().exact(), 4u);
    QCOMPARE(out.check_coverage().unchecked(), 0u);
  }

  void aRequestWithoutASizeGetsTheDefaultPage() {
    QCOMPARE(ask(0, 0).nodes_size(), int(kDefaultStatusPage));
    QCOMPARE(ask(kVolunteers - 10, 0).nodes_size(), 10);
    const auto past = ask(kVolunteers + 5, 0);
    QCOMPARE(past.nodes_size(), 0);
    QCOMPARE(past.first_node(), std::uint32_t(kVolunteers));
    QCOMPARE(past.total_nodes(), std::uint32_t(kVolunteers));
  }

  // A volunteer reading one page still learns its own row and its place among all of them.
  void theAskerGetsItsRowAndRankOnAnyPage() {
    // Confirmed samples: volunteer i has i*10, but volunteers 7 and 8 share the most, 50000.
    for (int i = 0; i < kVolunteers; ++i) {
      auto& t = membership_->find(key_of(i))->totals;
      t.samples = 100000;
      t.confirmed_forward_samples = i == 7 ? 50000 : i * 10;
    }
    membership_->find(key_of(8))->totals.confirmed_forward_samples = 50000;
    const auto last = ask(0, 10, key_of(kVolunteers - 1));
    QCOMPARE(last.nodes_size(), 10);
    QCOMPARE(last.asker().key(), key_of(kVolunteers - 1));
    QCOMPARE(last.asker_rank(), std::uint32_t(3));  // behind the two at 50000
    const auto tied = ask(0, 10, key_of(8));
    QCOMPARE(tied.asker_rank(), std::uint32_t(1));
    QCOMPARE(ask(0, 10, key_of(7)).asker_rank(), std::uint32_t(1));
    QCOMPARE(ask(0, 10, key_of(0)).asker_rank(), std::uint32_t(kVolunteers));
    // The owner's dashboard is no volunteer.
    const auto owner = ask(0, 10);
    QVERIFY(!owner.has_asker());
    QCOMPARE(owner.asker_rank(), std::uint32_t(0));
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

  void theArchiveAndItsEvaluationAreCarried() {
    const auto job = job::parse_job_spec(
        R"({"id": "job", "model": {"kind": "mlp", "input": 4, "hidden": [3], "output": 2},
            "dataset": {"kind": "images", "path": "i.idx", "labels": "l.idx"},
            "optimizer": {"kind": "adamw", "lr": 0.01}})");
    const auto dir = std::filesystem::path(dir_.path().toStdString()) / "archive";
    std::vector<std::int64_t> counts;
    for (const auto& c : model::block_costs(job.model)) counts.push_back(c.params);
    {
      // A snapshot from before this coordinator started.
      coordinator::ModelArchive before(dir, job.id, counts);
      std::vector<std::optional<coordinator::BlockCopy>> blocks;
      for (const auto n : counts) {
        coordinator::BlockCopy c;
        c.holder = key_of(0);
        c.values.assign(static_cast<std::size_t>(n), 0.5f);
        blocks.push_back(std::move(c));
      }
      QVERIFY(before.store(std::move(blocks), 3));
    }
    net::SecureContext ctx(1);
    const auto identity = net::CurveKeyPair::generate();
    std::mutex state_mutex;
    coordinator::RunArchive archive(
        dir, job, 0ms, *state_, state_mutex, ctx, identity,
        [] { return coordinator::ArchiveRound{}; }, {}, *clock_);
    QVERIFY(archive.has_snapshot());
    status_->set_archive(&archive);
    state_->add_snapshot({1, clock_->unix_ms(), 3});
    wire::pb::Evaluation e;
    e.set_unix_ms(clock_->unix_ms());
    e.set_snapshot(1);
    e.set_validation_loss(2.5);
    e.set_prompt("Once");
    e.set_text(" upon a time");
    state_->add_evaluation(e);

    const auto serve = [&](std::int64_t first, std::int64_t last) {
      wire::pb::ShardRequest q;
      q.set_first_block(first);
      q.set_last_block(last);
      net::Reply reply;
      archive.serve(q, reply);
      return reply.header.has_shard_reply();
    };
    const auto blocks = static_cast<std::int64_t>(counts.size());
    QVERIFY(!serve(0, blocks + 1));  // outside the model: an error, nothing restored
    QVERIFY(serve(0, 1));
    QVERIFY(serve(0, 1));  // the same node asking again
    QVERIFY(serve(1, blocks));
    clock_->advance(coordinator::kRestorationRepeat);
    QVERIFY(serve(0, 1));  // later: another restoration
    clock_->advance(coordinator::kStatusFresh);
    const auto s = ask(0, 10);
    QVERIFY(s.has_archive());
    QCOMPARE(s.archive().latest_snapshot(), std::uint64_t(1));
    QCOMPARE(s.archive().latest_plan_version(), std::uint64_t(3));
    QCOMPARE(s.archive().restorations_size(), 3);
    QCOMPARE(s.archive().restorations(1).first_block(), std::int64_t(1));
    QCOMPARE(s.archive().restorations(1).last_block(), blocks);
    QCOMPARE(s.archive().restorations(2).snapshot(), std::uint64_t(1));
    QVERIFY(s.has_evaluation());
    QCOMPARE(s.evaluation().text(), std::string(" upon a time"));
    QCOMPARE(s.validation_size(), 1);
    QCOMPARE(s.validation(0).loss(), 2.5);
  }
};

QTEST_GUILESS_MAIN(TestRunStatus)
#include "test_run_status.moc"
