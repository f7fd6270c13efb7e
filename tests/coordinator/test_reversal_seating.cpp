// Connection reversal in the plan, as pure functions: who links with whom, which reversed
// volunteers have a partner that cannot host their reversal, seats swapped so that none has,
// those no seating fits left for a relay, and the plan a node reads naming who is reversed and
// where each service answers.
#include <QTest>

#include <algorithm>
#include <set>

#include "coordinator/reversal_seating.hpp"
#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"
#include "planner_fixtures.hpp"
#include "reach/link_partners.hpp"

using namespace rookery;
using coordinator::Assignment;
using coordinator::Member;
using testing::by_key;
using testing::demo_job;
using testing::key_of;

namespace {

// `n` alike volunteers, each with `share` of the memory the whole model needs, every one
// reachable and running a reversal service.
std::vector<Member> members(int n, double share) {
  const auto job = demo_job();
  const auto memory = static_cast<std::int64_t>(
      share * static_cast<double>(cluster::model_memory_bytes(
                  coordinator::block_profiles(job), coordinator::training_settings(job))));
  std::vector<Member> out;
  for (int i = 0; i < n; ++i) {
    Member m;
    m.key = key_of(i);
    m.profile.flops_per_s = 50e9;
    m.profile.free_memory_bytes = memory;
    m.profile.upload_bytes_per_s = m.profile.download_bytes_per_s = 1e9;
    m.profile.rtt_s = 1e-4;
    m.stage_endpoint = "tcp://198.51.100.1:" + std::to_string(20000 + i);
    m.reduce_endpoint = "tcp://198.51.100.1:" + std::to_string(21000 + i);
    m.shard_endpoint = "tcp://198.51.100.1:" + std::to_string(22000 + i);
    m.reversal_control_port = static_cast<std::uint16_t>(23000 + i);
    m.reversal_data_port = static_cast<std::uint16_t>(24000 + i);
    out.push_back(m);
  }
  return out;
}

// No peer can dial it: it dials its neighbours, and runs no service they could use.
void reverse(std::map<std::string, Member>& m, const std::string& key) {
  m.at(key).reversed = true;
  m.at(key).reversal_control_port = m.at(key).reversal_data_port = 0;
}

std::multiset<std::string> seated(const Assignment& a) {
  std::multiset<std::string> keys;
  for (const auto& p : a.pipelines) {
    for (const auto& s : p) keys.insert(s.key);
  }
  return keys;
}

}  // namespace

class TestReversalSeating : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void linkPartners_data() {
    QTest::addColumn<QString>("who");
    QTest::addColumn<QStringList>("expected");
    // a[0,2) b[2,4) | c[0,2) d[2,4) | e[4,6) | f[1,3)
    QTest::newRow("a first stage") << "a" << QStringList{"b", "c", "d", "f"};
    QTest::newRow("b middle stage") << "b" << QStringList{"a", "c", "d", "e", "f"};
    QTest::newRow("e last, alone") << "e" << QStringList{"b", "d"};
    QTest::newRow("f straddles a cut") << "f" << QStringList{"a", "b", "c", "d"};
    QTest::newRow("not seated") << "z" << QStringList{};
  }
  void linkPartners() {
    QFETCH(QString, who);
    QFETCH(QStringList, expected);
    const std::vector<reach::PlannedSeat> seats{{"a", 0, 2}, {"b", 2, 4}, {"c", 0, 2},
                                                {"d", 2, 4}, {"e", 4, 6}, {"f", 1, 3}};
    QStringList got;
    for (const auto& k : reach::link_partners(seats, who.toStdString()))
      got << QString::fromStdString(k);
    QCOMPARE(got, expected);
  }

  void aReversedVolunteerBesideAnotherIsFound() {
    const auto job = demo_job();
    auto m = by_key(members(6, 0.4));
    std::vector<Member> v;
    for (const auto& [k, x] : m) v.push_back(x);
    const auto plan = coordinator::plan_swarm(v, job);
    QVERIFY(!plan.pipelines.empty());
    QVERIFY(plan.pipelines.front().size() >= 3);
    QVERIFY(coordinator::unreversible(plan, m).empty());  // no one reversed
    // One reversed volunteer among reachable ones: fine.
    const auto first = plan.pipelines[0][0].key, second = plan.pipelines[0][1].key;
    reverse(m, first);
    QVERIFY(coordinator::unreversible(plan, m).empty());
    // Its neighbour too: neither can dial the other.
    reverse(m, second);
    auto bad = coordinator::unreversible(plan, m);
    std::sort(bad.begin(), bad.end());
    std::vector<std::string> both{first, second};
    std::sort(both.begin(), both.end());
    QCOMPARE(bad, both);
    // A reachable partner without a service (an older node, say) cannot host it either.
    auto older = by_key(v);
    reverse(older, first);
    older.at(second).reversal_control_port = 0;
    QCOMPARE(coordinator::unreversible(plan, older), std::vector<std::string>{first});
  }

  // Two reversed neighbours in a pipeline of three: one swaps seats with a reachable
  // volunteer so that no two reversed ones link, and the time model loses nothing (alike
  // volunteers), the blocks of each seat unchanged.
  void seatingSwapsReversedNeighboursApart() {
    const auto job = demo_job();
    auto m = by_key(members(3, 0.5));
    std::vector<Member> v;
    for (const auto& [k, x] : m) v.push_back(x);
    auto plan = coordinator::plan_swarm(v, job);
    QCOMPARE(plan.pipelines.size(), std::size_t(1));
    QCOMPARE(plan.pipelines[0].size(), std::size_t(3));
    const auto before = plan;
    reverse(m, plan.pipelines[0][0].key);
    reverse(m, plan.pipelines[0][1].key);
    QCOMPARE(coordinator::unreversible(plan, m).size(), std::size_t(2));
    const double rate = coordinator::predicted_rate(plan, m, job);
    QCOMPARE(coordinator::seat_for_reversal(plan, m, job), 1);
    QVERIFY(coordinator::unreversible(plan, m).empty());
    QVERIFY(!m.at(plan.pipelines[0][1].key).reversed);  // the middle is reachable now
    QCOMPARE(seated(plan), seated(before));
    for (std::size_t s = 0; s < 3; ++s) {
      QCOMPARE(plan.pipelines[0][s].first_block, before.pipelines[0][s].first_block);
      QCOMPARE(plan.pipelines[0][s].last_block, before.pipelines[0][s].last_block);
    }
    QVERIFY(coordinator::predicted_rate(plan, m, job) >= 0.999 * rate);
  }

  // Two pipelines of two with the same cuts: any two reversed volunteers link (the holders of
  // one stage average together, and every next stage is a next hop). One is left for a relay;
  // the other is seated among reachable ones.
  void whenNoSeatingFitsOneIsLeftForARelay() {
    const auto job = demo_job();
    auto v = members(4, 0.6);
    v[0].reversed = v[1].reversed = true;
    v[0].reversal_control_port = v[1].reversal_control_port = 0;
    const auto plan = coordinator::plan_reachable(v, job);
    QCOMPARE(plan.needs_relay.size(), std::size_t(1));
    const auto& left = plan.needs_relay.front();
    QVERIFY(left == v[0].key || left == v[1].key);
    QCOMPARE(plan.find(left).first, -1);
    const auto& kept = left == v[0].key ? v[1].key : v[0].key;
    QVERIFY(plan.find(kept).first >= 0);
    QVERIFY(coordinator::unreversible(plan, by_key(v)).empty());
    // Nobody reversed: nobody left out.
    QVERIFY(coordinator::plan_reachable(members(4, 0.6), job).needs_relay.empty());
  }

  void thePlanNamesReversedNodesAndServices() {
    const auto job = demo_job();
    auto v = members(3, 0.5);
    v[1].reversed = true;
    v[1].reversal_control_port = v[1].reversal_data_port = 0;
    const auto plan = coordinator::plan_reachable(v, job);
    QVERIFY(plan.needs_relay.empty());
    const auto msg = coordinator::plan_message(plan, by_key(v), 0);
    int reversed = 0, services = 0;
    for (const auto& p : msg.pipelines()) {
      for (const auto& s : p.stages()) {
        const auto& m = by_key(v).at(s.key());
        QCOMPARE(s.reversed(), m.reversed);
        QCOMPARE(s.reversal().control_port(), std::uint32_t(m.reversal_control_port));
        QCOMPARE(s.reversal().data_port(), std::uint32_t(m.reversal_data_port));
        reversed += s.reversed();
        services += s.reversal().control_port() != 0;
      }
    }
    QCOMPARE(reversed, 1);
    QCOMPARE(services, 2);
  }
};

QTEST_GUILESS_MAIN(TestReversalSeating)
#include "test_reversal_seating.moc"
