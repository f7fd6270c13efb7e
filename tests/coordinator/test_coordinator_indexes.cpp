// What the coordinator keeps indexed so that no heartbeat or join costs O(N), each checked
// against the scan it replaces, on random swarms:
//  - the ban vote's witnesses counted from WitnessIndex = ban_witnesses' sets, and the votes,
//    over the whole plan and over each seat's view of it (a job averaging in groups);
//  - the Sybil caps counted by OriginCounts as volunteers come and go = sybil_refusal's scan;
//  - Membership's reports by accused, kept as heartbeats come and volunteers go = a scan;
//  - probe targets drawn by index: distinct, dialable, never the asker;
//  - the member list's digest: the same list, the same digest, whatever the order of changes;
//  - a node's shard sources from ShardSourceIndex = shard_sources' scan of both plans.
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <memory>
#include <random>

#include "clock/clock.hpp"
#include "coordinator/ban_vote.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/membership.hpp"
#include "coordinator/shard_sources.hpp"
#include "coordinator/sybil_limits.hpp"
#include "coordinator/witness_index.hpp"

using namespace rookery;
using namespace std::chrono_literals;
using coordinator::Assignment;
using coordinator::Member;
using coordinator::Membership;

namespace {

std::string key_of(int i) {
  std::string k = "volunteer" + std::to_string(i);
  k.resize(40, '.');
  return k;
}

// Pipelines of 1 to 4 seats over `blocks` blocks, each cut at random.
Assignment random_plan(std::mt19937& rng, int pipelines, int blocks) {
  Assignment plan;
  int next = 0;
  for (int p = 0; p < pipelines; ++p) {
    std::vector<int> cuts{0, blocks};
    const int stages = std::uniform_int_distribution<int>(1, 4)(rng);
    while (static_cast<int>(cuts.size()) < stages + 1) {
      const int c = std::uniform_int_distribution<int>(1, blocks - 1)(rng);
      if (std::find(cuts.begin(), cuts.end(), c) == cuts.end()) cuts.push_back(c);
    }
    std::sort(cuts.begin(), cuts.end());
    auto& pipeline = plan.pipelines.emplace_back();
    for (std::size_t s = 0; s + 1 < cuts.size(); ++s) {
      pipeline.push_back({key_of(next++), cuts[s], cuts[s + 1]});
    }
  }
  return plan;
}

Member member(int i) {
  Member m;
  m.key = key_of(i);
  m.profile.flops_per_s = 1e10;
  m.profile.free_memory_bytes = 1 << 30;
  m.profile.upload_bytes_per_s = m.profile.download_bytes_per_s = 1e8;
  m.profile.rtt_s = 0.001;
  m.stage_endpoint = "tcp://127.0.0.1:" + std::to_string(20000 + 3 * i);
  m.reduce_endpoint = "tcp://127.0.0.1:" + std::to_string(20001 + 3 * i);
  m.shard_endpoint = "tcp://127.0.0.1:" + std::to_string(20002 + 3 * i);
  return m;
}

}  // namespace

class TestCoordinatorIndexes : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  int files_ = 0;

  std::unique_ptr<coordinator::CoordinatorState> state() {
    return std::make_unique<coordinator::CoordinatorState>(
        std::filesystem::path(dir_.path().toStdString()) /
        ("s" + std::to_string(++files_) + ".db"));
  }

 private Q_SLOTS:
  void witnessCountsAndVotesMatchTheScan() {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 60; ++trial) {
      // A third of the plans for a job averaging in groups of 4, where each seat's witnesses are
      // those of its view of the plan (plan_view.hpp).
      const std::int64_t group = trial % 3 == 2 ? 4 : 0;
      const int blocks = std::uniform_int_distribution<int>(4, 12)(rng);
      const auto plan =
          random_plan(rng, std::uniform_int_distribution<int>(1, group ? 24 : 12)(rng), blocks);
      coordinator::WitnessIndex index;
      index.build(plan, group);
      std::vector<std::string> seated;
      for (const auto& p : plan.pipelines) {
        for (const auto& s : p) seated.push_back(s.key);
      }
      QVERIFY(!index.counts("nobody").has_value());
      for (const auto& key : seated) {
        const auto w = coordinator::ban_witnesses(plan, key, group);
        const auto c = index.counts(key);
        QVERIFY(w && c);
        QCOMPARE(c->ring_partners, w->ring_partners.size());
        QCOMPARE(c->sends_to, w->sends_to.size());
        QCOMPARE(c->returns_gradients_to, w->returns_gradients_to.size());
        // Reports from a random part of the swarm (and strangers), voted both ways.
        for (int r = 0; r < 5; ++r) {
          coordinator::BanReports reports;
          for (const auto& k : seated) {
            if (rng() % 3 == 0) reports.excluded_by.insert(k);
            if (rng() % 3 == 0) reports.caught_by.insert(k);
          }
          reports.excluded_by.insert("a stranger");
          const auto scanned = coordinator::ban_vote(*w, reports);
          const auto indexed = index.vote(key, reports);
          QVERIFY(indexed.has_value());
          QCOMPARE(indexed->ban, scanned.ban);
          QCOMPARE(indexed->why.SerializeAsString(), scanned.why.SerializeAsString());
        }
      }
    }
  }

  void shardSourcesMatchTheScan() {
    std::mt19937 rng(5);
    for (int trial = 0; trial < 30; ++trial) {
      const int blocks = std::uniform_int_distribution<int>(4, 12)(rng);
      auto previous = random_plan(rng, std::uniform_int_distribution<int>(1, 12)(rng), blocks);
      previous.version = 1;
      auto next = random_plan(rng, std::uniform_int_distribution<int>(1, 12)(rng), blocks);
      next.version = 2;
      // Some of the previous holders gone, some without a shard server.
      std::map<std::string, Member> alive;
      for (int i = 0; i < 12 * 4; ++i) {
        if (rng() % 4 == 0) continue;
        auto m = member(i);
        if (rng() % 5 == 0) m.shard_endpoint.clear();
        alive.emplace(m.key, m);
      }
      const coordinator::ShardSourceIndex index(previous, next);
      for (int i = 0; i < 12 * 4 + 1; ++i) {
        const auto scanned = coordinator::shard_sources(previous, next, key_of(i), alive);
        QCOMPARE(index.sources(key_of(i), alive), scanned);
        // At most 2 of each range, as a reply names them: the scan's first 2 of each.
        std::vector<coordinator::ShardSource> capped;
        std::map<std::pair<std::int64_t, std::int64_t>, int> per_range;
        for (const auto& s : scanned) {
          if (++per_range[{s.first_block, s.last_block}] <= 2) capped.push_back(s);
        }
        QCOMPARE(index.sources(key_of(i), alive, 2), capped);
        QCOMPARE(index.seat_of(key_of(i)), next.find(key_of(i)));
      }
    }
  }

  void sybilCountsMatchTheScan() {
    const coordinator::SybilCaps caps{2, 5, true};
    std::mt19937 rng(11);
    const auto address = [&rng] {
      switch (rng() % 4) {
        case 0:
          return "198.51.100." + std::to_string(rng() % 4);
        case 1:
          return "198.51." + std::to_string(100 + rng() % 3) + "." + std::to_string(rng() % 200);
        case 2:
          return "2001:db8:" + std::to_string(rng() % 2) + ":" + std::to_string(rng() % 3) +
                 "::" + std::to_string(rng() % 9);
        default:
          return std::string(rng() % 2 ? "127.0.0.1" : "not an address");
      }
    };
    coordinator::OriginCounts live, joining;
    std::map<std::string, std::string> live_at, joining_at;  // what the scan reads
    for (int step = 0; step < 3000; ++step) {
      const auto key = key_of(static_cast<int>(rng() % 40));
      const auto from = address();
      std::vector<std::string> others;
      for (const auto* m : {&live_at, &joining_at}) {
        for (const auto& [k, a] : *m) {
          if (k != key) others.push_back(a);
        }
      }
      const auto scanned = coordinator::sybil_refusal(caps, from, others);
      const auto counted = coordinator::sybil_refusal(caps, from, key, {&live, &joining});
      QCOMPARE(counted.SerializeAsString(), scanned.SerializeAsString());
      // Then it joins (in flight, then live), or a volunteer goes.
      switch (rng() % 4) {
        case 0:
          joining.set(key, from);
          joining_at[key] = from;
          break;
        case 1:
          joining.erase(key);
          joining_at.erase(key);
          live.set(key, from);
          live_at[key] = from;
          break;
        default:
          live.erase(key);
          live_at.erase(key);
          break;
      }
    }
  }

  void reportsAreKeptByAccused() {
    auto s = state();
    clock::ManualClock clock;
    Membership m(*s, 3000ms, clock);
    m.resume({});
    for (int i = 0; i < 6; ++i) m.admit(member(i), 0, true);
    const auto hear = [&](int i, std::vector<int> excluded, std::vector<int> caught) {
      wire::pb::Heartbeat h;
      h.set_contributing(true);
      for (int e : excluded) h.add_excluded_peers(key_of(e));
      for (int c : caught) h.add_failed_spot_checks(key_of(c));
      m.hear(key_of(i), *m.find(key_of(i)), h, "digest");
    };
    const auto scan = [&](int accused) {
      coordinator::BanReports r;
      for (const auto& [k, v] : m.live()) {
        if (v.accuses.count(key_of(accused))) r.excluded_by.insert(k);
        if (v.caught.count(key_of(accused))) r.caught_by.insert(k);
      }
      return r;
    };
    const auto same = [&](int accused) {
      const auto a = m.reports_on(key_of(accused)), b = scan(accused);
      return a.excluded_by == b.excluded_by && a.caught_by == b.caught_by;
    };
    hear(0, {5}, {5});
    hear(1, {5}, {});
    hear(2, {}, {5, 4});
    QCOMPARE(m.reports_on(key_of(5)).excluded_by.size(), std::size_t(2));
    QVERIFY(same(5) && same(4));
    hear(1, {4}, {});  // changes its mind
    QVERIFY(same(5) && same(4));
    QCOMPARE(m.reports_on(key_of(5)).excluded_by, std::set<std::string>{key_of(0)});
    m.leave(key_of(0));  // a reporter leaves: its reports go with it
    QVERIFY(same(5) && same(4));
    QVERIFY(m.reports_on(key_of(5)).excluded_by.empty());
    m.ban(key_of(2), {});
    QVERIFY(same(5) && same(4));
    QVERIFY(m.reports_on(key_of(4)).caught_by.empty());
    clock.advance(3001ms);
    m.expire_silent();  // everyone else went silent
    QVERIFY(m.reports_on(key_of(4)).excluded_by.empty());
  }

  void probeTargetsAreDrawnByIndex() {
    auto s = state();
    clock::ManualClock clock;
    Membership m(*s, 3000ms, clock);
    m.resume({});
    constexpr int kLive = 200;
    for (int i = 0; i < kLive; ++i) m.admit(member(i), 0, true);
    for (int i = 0; i < kLive; i += 2) {  // half of them no peer can dial
      m.find(key_of(i))->reach = wire::pb::REACH_REVERSED;
    }
    std::set<std::string> drawn;
    for (int t = 0; t < 200; ++t) {
      const auto asker = key_of(t % kLive);
      const auto targets = m.probe_targets(asker);
      QCOMPARE(targets.size(), coordinator::kProbeTargets);
      std::set<std::string> distinct;
      for (const auto* target : targets) {
        QVERIFY(target->key != asker);
        QCOMPARE(m.find(target->key)->reach, wire::pb::REACH_UNKNOWN);
        distinct.insert(target->key);
        drawn.insert(target->key);
      }
      QCOMPARE(distinct.size(), targets.size());
    }
    QVERIFY(drawn.size() > 50);  // drawn across the swarm
    // After departures the index still holds only the live.
    for (int i = 1; i < kLive - 4; i += 2) m.leave(key_of(i));
    for (int t = 0; t < 20; ++t) {
      for (const auto* target : m.probe_targets(key_of(0))) QVERIFY(m.find(target->key));
    }
  }

  void theDigestDependsOnTheListOnly() {
    auto s = state();
    clock::ManualClock clock;
    Membership m(*s, 3000ms, clock);
    m.resume({});
    const auto empty = m.digest();
    for (int i = 0; i < 5; ++i) m.admit(member(i), 0, true);
    const auto five = m.digest();
    m.leave(key_of(1));
    m.leave(key_of(3));
    const auto three = m.digest();
    QVERIFY(three != five && three != empty);
    m.admit(member(3), 0, true);
    m.admit(member(1), 0, true);
    QCOMPARE(m.digest(), five);  // the same list, joined in another order
    for (int i = 0; i < 5; ++i) m.leave(key_of(i));
    QCOMPARE(m.digest(), empty);
  }
};

QTEST_GUILESS_MAIN(TestCoordinatorIndexes)
#include "test_coordinator_indexes.moc"
