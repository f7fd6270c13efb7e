// The swarm simulation's small run (swarm_model.hpp): 300 volunteers drawn as the benchmark
// draws 10,000, three simulated hours of churn planned by our planner, and the same trace under
// Ravnest's plan. Properties, never speed: no seat over its volunteer's memory, no volunteer
// seated twice, every online volunteer seated or given a reason, no honest volunteer banned,
// something trained, the samples/s and the utilisation telling the same story. SWARM's uniform
// plan re-plans the swarm afresh at every change (a third of a second each at 150 volunteers,
// every 10 s), too slow to simulate here: our plan is compared with it on the same volunteers,
// by the planner's time model, and under churn in bench_swarm_sim.
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include <spdlog/spdlog.h>

#include "cluster/coverage_steering.hpp"
#include "coordinator/swarm_planner.hpp"
#include "swarm_model.hpp"
#include "volunteer_population.hpp"

using namespace rookery;

namespace {

sim::SimReport run(const std::vector<sim::SimVolunteer>& people, const std::string& planner,
                   const QTemporaryDir& dir) {
  sim::SimOptions options;
  options.planner = planner;
  options.hours = 3;
  options.warm_up_s = 600;
  options.state_dir = dir.path().toStdString();
  return sim::run_swarm(people, sim::sim_job(), options);
}

void check_properties(const sim::SimReport& r) {
  qInfo("%s: %.1f samples/s, utilisation %.4f, %d plans, %d seated of %d online, %.1f s",
        r.planner.c_str(), r.samples_per_s(), r.utilisation(), r.plans_installed, r.seated_at_end,
        r.online_at_end, r.wall_s);
  QCOMPARE(r.memory_overruns, 0);
  QCOMPARE(r.repeated_seats, 0);
  QCOMPARE(r.without_reason, 0);
  QCOMPARE(r.honest_banned, 0);
  QVERIFY(r.samples > 0);
  QVERIFY(r.plans_installed > 1);  // churn re-planned the swarm
  QVERIFY(r.seated_at_end > 0);
  // Utilisation is what the seats computed, volunteer by volunteer; samples/s times the model's
  // FLOP per sample must come to the same FLOP.
  QVERIFY(r.utilisation() > 0 && r.utilisation() <= 1);
  QVERIFY(std::abs(r.samples * r.flops_per_sample - r.busy_flop) <= 1e-6 * r.busy_flop);
  QVERIFY(r.max_volunteer_busy <= 1 + 1e-9);
  // Averaging in groups bounds a round however many pipelines there are.
  QVERIFY(r.largest_group_round <= 16);
  QVERIFY(r.group_blast_radius_total <= r.blast_radius_total);
  // Each node's view of the plan is no larger than the whole plan, and every seat's view
  // together costs less than sending every seat the whole plan.
  QVERIFY(r.plan_messages > 0);
  QVERIFY(r.view_bytes_max <= r.plan_bytes_max);
  QVERIFY(r.views_sent_bytes <= r.whole_plans_sent_bytes);
  // Trained at most what the installed plans would with no churn, and what was lost adds up.
  QVERIFY(r.samples <= r.ideal_samples * (1 + 1e-9));
  QVERIFY(std::abs(r.ideal_samples - r.samples - r.stalled_samples - r.refill_samples) <=
          1e-6 * r.ideal_samples);
}

}  // namespace

class TestSwarmSim : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { spdlog::set_level(spdlog::level::err); }

  void populationFollowsItsDistributions() {
    sim::PopulationOptions o;
    o.volunteers = 2000;
    const auto people = sim::draw_population(o);
    QCOMPARE(int(people.size()), 2000);
    int cpu = 0, farm = 0;
    for (const auto& v : people) {
      cpu += v.device.rfind("CPU", 0) == 0;
      farm += v.key.rfind("farm", 0) == 0;
      QVERIFY(v.profile.flops_per_s > 0 && v.profile.free_memory_bytes > 0);
      QVERIFY(v.profile.upload_bytes_per_s > 0 && v.profile.rtt_s > 0.03);
    }
    // A quarter of the home volunteers own no CUDA GPU (Steam: AMD and Intel).
    QVERIFY2(cpu > 2000 * 0.18 && cpu < 2000 * 0.30, qPrintable(QString::number(cpu)));
    QCOMPARE(farm, 8);
  }

  void smallSwarmKeepsItsProperties() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    sim::PopulationOptions o;
    o.volunteers = 300;
    const auto people = sim::draw_population(o);
    const auto ours = run(people, "ours", dir);
    check_properties(ours);
    QVERIFY(ours.joins > 0 && ours.seated_departures > 0);  // churn reached the seats
    // Ravnest's plan on the same trace: within memory by our model (its groups that would not
    // fit are left out), no volunteer twice; it gives the nodes it leaves out no reason.
    const auto ravnest = run(people, "ravnest", dir);
    QCOMPARE(ravnest.memory_overruns, 0);
    QCOMPARE(ravnest.repeated_seats, 0);
    QVERIFY2(
        ours.samples_per_s() >= ravnest.samples_per_s(),
        qPrintable(
            QString("ours %1, ravnest %2").arg(ours.samples_per_s()).arg(ravnest.samples_per_s())));
  }

  // Our plan against SWARM's uniform plan of the same volunteers, priced by predicted_rate with
  // the volunteers' profiles: the uniform plan shares one set of cuts among pipelines of a
  // length, so it can only lose what those shared cuts cost. Ours shares cuts too where that
  // costs little (coverage_steering.hpp): it may predict up to kCoverageRateMargin less, and
  // then gives more seats an exact replica.
  void oursPredictsAtLeastTheUniformPlan() {
    sim::PopulationOptions o;
    o.volunteers = 300;
    const auto people = sim::draw_population(o);
    const auto job = sim::sim_job();
    std::vector<coordinator::Member> members;
    std::map<std::string, coordinator::Member> by_key;
    for (std::size_t i = 0; i < people.size(); i += 2) {  // about who is online at a time
      coordinator::Member m;
      m.key = people[i].key;
      m.profile = people[i].profile;
      members.push_back(m);
      by_key[m.key] = m;
    }
    const auto ours = coordinator::plan_swarm(members, job, coordinator::Planner::ours);
    const auto uniform = coordinator::plan_swarm(members, job, coordinator::Planner::uniform);
    const double ours_rate = coordinator::predicted_rate(ours, by_key, job);
    const double uniform_rate = coordinator::predicted_rate(uniform, by_key, job);
    qInfo(
        "150 volunteers: ours %.1f samples/s in %zu pipelines, %d exact seats; uniform %.1f in "
        "%zu, %d exact",
        ours_rate, ours.pipelines.size(), ours.coverage->exact, uniform_rate,
        uniform.pipelines.size(), uniform.coverage->exact);
    QVERIFY(uniform_rate > 0);
    QVERIFY(ours_rate >= (1 - cluster::kCoverageRateMargin) * uniform_rate);
    if (ours_rate < uniform_rate) QVERIFY(ours.coverage->exact > uniform.coverage->exact);
  }

  // The packing's polish once left a node it moved in its old pipeline too (a volunteer seated
  // twice): 298 of these volunteers did it.
  void packingSeatsEachVolunteerOnce() {
    sim::PopulationOptions o;
    o.volunteers = 300;
    const auto people = sim::draw_population(o);
    const auto job = sim::sim_job();
    const auto blocks = coordinator::block_profiles(job);
    const auto settings = coordinator::training_settings(job);
    std::mt19937_64 rng(3);
    for (int trial = 0; trial < 10; ++trial) {
      const int n = 40 + int(rng() % 260);
      std::vector<std::size_t> order(people.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::shuffle(order.begin(), order.end(), rng);
      std::vector<cluster::NodeProfile> nodes;
      for (int i = 0; i < n; ++i) nodes.push_back(people[order[std::size_t(i)]].profile);
      std::sort(nodes.begin(), nodes.end(),
                [](const auto& a, const auto& b) { return a.id < b.id; });
      const auto plan = cluster::pack_pipelines(nodes, blocks, settings);
      std::set<std::string> seated;
      for (const auto& p : plan.pipelines)
        for (const auto& s : p.stages)
          QVERIFY2(seated.insert(s.node_id).second,
                   qPrintable(QString("%1 volunteers: %2 seated twice")
                                  .arg(n)
                                  .arg(QString::fromStdString(s.node_id))));
    }
  }
};

QTEST_GUILESS_MAIN(TestSwarmSim)
#include "test_swarm_sim.moc"
