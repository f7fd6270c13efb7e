// Averaging in groups inside the stages (job.averaging_max_group): StageAveraging members of
// several one-stage pipelines in this process, over ZeroMQ with CURVE on loopback, driven round
// by round on a manual clock (rounds are the clock's windows, as on real nodes). Each member's
// weights start apart from the others'; no training runs, so what a round does is exact:
//   - 4 pipelines in groups of 2 (a 2 x 2 grid): the first round gives each member its group's
//     mean and nothing of the other group's (the round stayed in the group), the second, along
//     the other dimension, gives every member the common mean; with the plain mean and with
//     CenteredClip (whose rings verify their aggregators), nobody excluded;
//   - 9 pipelines in groups of 3 (a 3 x 3 grid), each member knowing only the pipelines of its
//     view of the plan (the coordinator's for large swarms: those of its groups, the others
//     without stages or endpoints): two rounds give every member the common mean;
//   - 6 pipelines in groups of 3: a member killed before a round (its sockets closed, it never
//     sends), or in a process of its own killed (SIGKILL) once its round has begun, spoils only
//     its own group's round: the other group averages all three, in a fraction of a ring wait,
//     while the killed member's partners wait for it and average without it.
// And with DiLoCo's outer momentum (lr 0.7, momentum 0.9) in one ring of 4: a member that sits
// out a round (busy with its last) parts from the others in momentum and anchor; the next
// anchor sync gives every member the same anchor and the same momentum again, and the round
// after it keeps them together.
// And the job option's checks.
#include "../bench/pipeline/averaging_pipelines.hpp"

#include <QTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock/clock.hpp"
#include "net/secure_context.hpp"
#include "pipeline/stage_averaging.hpp"
#include "pipeline/stage_optimizer.hpp"
#include "reduce/averaging_groups.hpp"

using namespace rookery;
using namespace std::chrono_literals;

namespace {

constexpr auto kInterval = 3000ms;  // ring waits: min(timeout, interval / 6) = 400 ms
constexpr auto kTimeout = 400ms;

struct Member {
  std::unique_ptr<net::SecureContext> ctx;
  net::CurveKeyPair id = net::CurveKeyPair::generate();
  pipeline::StageConfig config;  // StageAveraging keeps a reference
  std::unique_ptr<pipeline::StageOptimizer> optimizer;
  pipeline::StageCounters counters;
  std::unique_ptr<pipeline::CommonPoint> common_point;
  std::unique_ptr<pipeline::StageAveraging> averaging;
};

class Swarm {
 public:
  // `pipelines` one-stage pipelines of `job`, every member's weights the initial ones plus a
  // perturbation of its own (its anchor stays the initial weights, as after a round of training).
  // Member `remote` (if any) runs in a child process, forked before this swarm starts a thread,
  // which the next round() kills (SIGKILL) as soon as it has started its round.
  // With `views`, each member knows only the pipelines of its view of the plan
  // (sweep_partners'), as a node of a large swarm is sent it.
  Swarm(const job::JobSpec& job, int pipelines, std::size_t remote = SIZE_MAX, bool views = false)
      : job_(job), chain_(model::BlockChain::from_job(job)), views_(views) {
    members_.resize(std::size_t(pipelines));
    averaging_.interval = kInterval;
    averaging_.timeout = kTimeout;
    for (auto& m : members_) {
      m = std::make_unique<Member>();
      averaging_.pipelines.push_back({{0, std::int64_t(chain_.block_count())}, {m->id.public_key}});
      averaging_.endpoints[m->id.public_key] =
          "tcp://127.0.0.1:" + std::to_string(testing::free_loopback_port());
    }
    torch::manual_seed(5);
    // Round numbers: the first window opens none (a stage waits for a full one).
    clock_.advance(
        std::chrono::milliseconds(std::int64_t(window_) * kInterval.count() - clock_.unix_ms()));
    if (remote < members_.size()) {
      int to_child[2], from_child[2];
      if (::pipe(to_child) != 0 || ::pipe(from_child) != 0) throw std::runtime_error("pipe");
      child_ = ::fork();
      if (child_ < 0) throw std::runtime_error("fork");
      if (child_ == 0) {  // the member's process: a round on each command, until killed
        start(remote);
        char c = 0;
        if (::read(to_child[0], &c, 1) != 1) ::_exit(1);
        clock_.advance(kInterval);
        members_[remote]->averaging->maybe_start(*members_[remote]->optimizer);
        if (::write(from_child[1], &c, 1) != 1) ::_exit(1);
        for (;;) {
          members_[remote]->averaging->apply_finished(*members_[remote]->optimizer);
          std::this_thread::sleep_for(1ms);
        }
      }
      ::close(to_child[0]);
      ::close(from_child[1]);
      to_child_ = to_child[1];
      from_child_ = from_child[0];
    }
    for (std::size_t m = 0; m < members_.size(); ++m)
      if (m != remote) start(m);
  }
  ~Swarm() {
    if (child_ > 0) {
      ::kill(child_, SIGKILL);
      ::waitpid(child_, nullptr, 0);
    }
    if (to_child_ >= 0) ::close(to_child_);
    if (from_child_ >= 0) ::close(from_child_);
  }

  std::size_t size() const { return members_.size(); }
  std::vector<float> weights(std::size_t m) const {
    return members_[m]->optimizer->flat_parameters();
  }
  pipeline::StageStats stats(std::size_t m) const { return members_[m]->counters.snapshot(); }
  std::vector<float> anchor(std::size_t m) const { return members_[m]->averaging->anchor(); }
  std::vector<float> momentum(std::size_t m) const {
    return members_[m]->averaging->outer_momentum();
  }
  std::uint64_t next_round() const { return window_ + 1; }
  static std::uint64_t first_round() { return kFirstWindow + 1; }
  // Member m's process is gone: its sockets close, and it starts no more rounds.
  void kill(std::size_t m) { members_[m]->averaging.reset(); }

  // Opens the next window; every member but `gone` (killed) starts its round, and each applies
  // its result. A remote member starts its round last and is killed as soon as it has. Returns
  // false when one is not back within 10 s.
  bool round(std::size_t gone = SIZE_MAX) {
    ++window_;
    clock_.advance(kInterval);
    std::vector<bool> done(members_.size(), false);
    for (std::size_t m = 0; m < members_.size(); ++m) {
      if (m == gone || !members_[m]->averaging)
        done[m] = true;
      else
        members_[m]->averaging->maybe_start(*members_[m]->optimizer);
    }
    if (child_ > 0) {
      char c = 'r';
      if (::write(to_child_, &c, 1) != 1 || ::read(from_child_, &c, 1) != 1) return false;
      ::kill(child_, SIGKILL);  // its ring has begun; its partners are in theirs
      ::waitpid(child_, nullptr, 0);
      child_ = -1;
    }
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (std::chrono::steady_clock::now() < deadline) {
      bool all = true;
      for (std::size_t m = 0; m < members_.size(); ++m) {
        if (!done[m]) {
          const auto before = stats(m);
          members_[m]->averaging->apply_finished(*members_[m]->optimizer);
          const auto after = stats(m);
          done[m] = after.averaging_rounds + after.averaging_alone >
                    before.averaging_rounds + before.averaging_alone;
        }
        all = all && done[m];
      }
      if (all) return true;
      std::this_thread::sleep_for(2ms);
    }
    return false;
  }

 private:
  // Member m's StageAveraging, on the swarm's clock, with its weights perturbed.
  void start(std::size_t i) {
    auto& m = *members_[i];
    const auto blocks = model::BlockRange{0, std::int64_t(chain_.block_count())};
    m.ctx = std::make_unique<net::SecureContext>();
    m.config.job = job_;
    m.config.blocks = blocks;
    m.config.averaging = averaging_;
    m.config.averaging.listen = averaging_.endpoints.at(m.id.public_key);
    if (views_) {
      const auto n = members_.size();
      const auto view =
          reduce::sweep_partners(n, reduce::averaging_group_bound(job_.averaging_max_group, n))[i];
      for (std::size_t p = 0; p < n; ++p) {
        if (std::binary_search(view.begin(), view.end(), p)) continue;
        m.config.averaging.endpoints.erase(members_[p]->id.public_key);
        m.config.averaging.pipelines[p] = {};  // outside the view: no stages, in its place
      }
    }
    m.optimizer = std::make_unique<pipeline::StageOptimizer>(chain_, blocks, torch::kCPU, job_);
    m.common_point = std::make_unique<pipeline::CommonPoint>(blocks);
    m.averaging = std::make_unique<pipeline::StageAveraging>(*m.ctx, m.id, m.config,
                                                             wire::Codec::None, *m.optimizer,
                                                             m.counters, *m.common_point, clock_);
    auto w = m.optimizer->flat_parameters();
    const auto noise = (torch::randn({std::int64_t(w.size())}) * 0.05).contiguous();
    const float* n = noise.data_ptr<float>();
    for (std::size_t k = 0; k < w.size(); ++k) w[k] += n[k];
    m.optimizer->write_flat_parameters(w);
    m.averaging->maybe_start(*m.optimizer);
  }

  job::JobSpec job_;
  pipeline::AveragingConfig averaging_;
  model::BlockChain chain_;
  bool views_ = false;
  pid_t child_ = -1;
  int to_child_ = -1, from_child_ = -1;
  clock::ManualClock clock_;
  // A round number whose sweep syncs the anchors with the default anchor_sync_every (8) and
  // d = 2: rounds 16k and 16k + 1 come next.
  static constexpr std::uint64_t kFirstWindow = 16 * 35'500'000 - 1;  // after the clock's start
  std::uint64_t window_ = kFirstWindow;
  std::vector<std::unique_ptr<Member>> members_;
};

double max_gap(const std::vector<float>& a, const std::vector<float>& b) {
  double worst = a.size() == b.size() ? 0 : INFINITY;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    worst = std::max(worst, std::abs(double(a[i]) - double(b[i])));
  return worst;
}

std::vector<float> mean_of(const Swarm& s, const std::vector<std::size_t>& who) {
  std::vector<double> sum(s.weights(who.front()).size(), 0.0);
  for (const auto m : who) {
    const auto w = s.weights(m);
    for (std::size_t i = 0; i < w.size(); ++i) sum[i] += w[i];
  }
  std::vector<float> out(sum.size());
  for (std::size_t i = 0; i < sum.size(); ++i) out[i] = float(sum[i] / double(who.size()));
  return out;
}

job::JobSpec tiny_job(const char* aggregator, int max_group, int depth = 1, int width = 16,
                      const QString& outer = {}) {
  auto json = testing::gpt_job_json("groups", 2, "none", depth, width);
  json.replace("\"seed\": 11", QString("\"seed\": 11, \"averaging_max_group\": %1, "
                                       "\"aggregator\": {\"kind\": \"%2\"}%3")
                                   .arg(max_group)
                                   .arg(aggregator)
                                   .arg(outer.isEmpty() ? QString() : ", \"outer\": " + outer));
  return job::parse_job_spec(json.toStdString());
}

}  // namespace

class TestGroupAveraging : public QObject {
  Q_OBJECT

  // 4 pipelines in groups of 2: one round per dimension of the 2 x 2 grid.
  static void twoRoundsReachTheMean(const char* aggregator) {
    Swarm s(tiny_job(aggregator, 2), 4);
    std::vector<std::size_t> everyone{0, 1, 2, 3};
    const auto common = mean_of(s, everyone);
    std::vector<std::vector<float>> start;
    for (std::size_t m = 0; m < 4; ++m) start.push_back(s.weights(m));
    const double spread = max_gap(start[0], common);
    QVERIFY(spread > 0.05);

    const auto groups = reduce::averaging_groups(4, 2, s.next_round());
    QCOMPARE(groups.size(), std::size_t(2));
    std::vector<std::vector<float>> group_mean;
    for (const auto& g : groups) group_mean.push_back(mean_of(s, g));
    QVERIFY(s.round());
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
      for (const auto m : groups[gi]) {
        const double own = max_gap(s.weights(m), group_mean[gi]);
        const double other = max_gap(s.weights(m), group_mean[1 - gi]);
        qInfo("%s, round 1: member %zu is %.2e from its group's mean, %.2e from the other's",
              aggregator, m, own, other);
        QVERIFY2(own < 1e-5, "a member did not get its group's mean");
        QVERIFY2(other > 0.01, "the round reached beyond the group");
        QCOMPARE(s.stats(m).averaging_rounds, std::int64_t(1));
      }
    }
    QVERIFY(s.round());
    for (std::size_t m = 0; m < 4; ++m) {
      const double gap = max_gap(s.weights(m), common);
      qInfo("%s, round 2: member %zu is %.2e from the common mean (it started %.3f away)",
            aggregator, m, gap, max_gap(start[m], common));
      QVERIFY2(gap < 1e-5, "two rounds along both dimensions did not reach the common mean");
      QVERIFY(s.stats(m).excluded_peers.empty());
      QCOMPARE(s.stats(m).averaging_rounds, std::int64_t(2));
    }
  }

 private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  void jobOptionIsChecked() {
    QCOMPARE(tiny_job("mean", 3).averaging_max_group, std::int64_t(3));
    QCOMPARE(tiny_job("mean", 0).averaging_max_group, std::int64_t(0));
    for (const int bad : {1, -2}) {
      try {
        tiny_job("mean", bad);
        QFAIL("a group bound below 2 was accepted");
      } catch (const job::JobSpecError& e) {
        QVERIFY2(std::string(e.what()).find("job.averaging_max_group") != std::string::npos,
                 e.what());
      }
    }
    const auto j = tiny_job("mean", 4);
    QVERIFY(job::parse_job_spec(job::to_json(j)) == j);
    // Not set: not written, so nodes that predate the option still read the job.
    QVERIFY(job::to_json(tiny_job("mean", 0)).find("averaging_max_group") == std::string::npos);
  }

  void groupsOfTwoWithTheMean() { twoRoundsReachTheMean("mean"); }
  void groupsOfTwoWithCenteredClip() { twoRoundsReachTheMean("centered_clip"); }

  // One ring of 4 with CenteredClip, anchors synced every 2nd round, momentum 0.9. The first
  // round (a sync) steps every member alike; member 3 sits out the second, so the others step
  // their momentum and anchors without it; the third (a sync) must bring all four together, in
  // the momentum as in the anchor, and the fourth keep them so. Without the momentum in the
  // sync, member 3 leaves it with its own momentum, and the sync's own outer step parts it again.
  void outerMomentumRidesWithTheAnchors() {
    Swarm s(tiny_job("centered_clip", 0, 1, 16,
                     R"({"lr": 0.7, "momentum": 0.9, "anchor_sync_every": 2})"),
            4);
    QCOMPARE(s.next_round() % 2, std::uint64_t(0));  // a sync round comes first
    auto gap_to_0 = [&](std::size_t m) {
      return std::max(max_gap(s.anchor(m), s.anchor(0)), max_gap(s.momentum(m), s.momentum(0)));
    };
    QVERIFY(s.round());
    for (std::size_t m = 1; m < 4; ++m) QCOMPARE(gap_to_0(m), 0.0);
    QVERIFY(max_gap(s.momentum(0), std::vector<float>(s.momentum(0).size())) > 1e-3);

    QVERIFY(s.round(3));  // member 3 sits it out: the others step without it
    const double parted = gap_to_0(3);
    qInfo("after a round without it, member 3's anchor and momentum are %.2e from the others'",
          parted);
    QVERIFY2(parted > 1e-3, "sitting out a round did not part member 3 from the others");
    QCOMPARE(gap_to_0(1), 0.0);

    for (int round = 3; round <= 4; ++round) {
      QVERIFY(s.round());
      for (std::size_t m = 1; m < 4; ++m) {
        qInfo("round %d (%s): member %zu is %.2e from member 0 in anchor and momentum", round,
              round == 3 ? "anchor sync" : "plain", m, gap_to_0(m));
        QVERIFY2(gap_to_0(m) == 0.0, "the anchor sync left the members' outer steps apart");
        QVERIFY(s.stats(m).excluded_peers.empty());
      }
    }
  }

  // 9 pipelines in groups of 3, every member seeing 5 of them (its row and its column of the
  // 3 x 3 grid): the groups' rings meet knowing only their own pipelines, and the two rounds of
  // a sweep give every member the common mean, as with the whole plan.
  void membersSeeingOnlyTheirViewsReachTheMean() {
    Swarm s(tiny_job("mean", 3), 9, SIZE_MAX, /*views=*/true);
    std::vector<std::size_t> everyone(9);
    for (std::size_t m = 0; m < 9; ++m) everyone[m] = m;
    const auto common = mean_of(s, everyone);
    for (std::size_t m = 0; m < 9; ++m) {
      QCOMPARE(s.stats(m).ring_partners.size(), std::size_t(4));  // its view's other pipelines
    }
    QVERIFY(s.round());
    QVERIFY(s.round());
    for (std::size_t m = 0; m < 9; ++m) {
      const double gap = max_gap(s.weights(m), common);
      qInfo("member %zu, seeing 5 of 9 pipelines: %.2e from the common mean after a sweep", m, gap);
      QVERIFY2(gap < 1e-5, "members seeing their views did not reach the common mean");
      QCOMPARE(s.stats(m).averaging_rounds, std::int64_t(2));
    }
  }

  void aMemberKilledBeforeTheRoundSpoilsOnlyItsGroupsRound() { killedMember(false); }
  void aMemberKilledMidRoundSpoilsOnlyItsGroupsRound() { killedMember(true); }

 private:
  // 6 pipelines in groups of 3; the last member of the second group is killed before the round
  // (in this process: its sockets close) or, in a process of its own, once its round has begun
  // (a model of 135k values, so the rings are still sending).
  static void killedMember(bool mid_round) {
    const auto groups = reduce::averaging_groups(6, 3, Swarm::first_round());
    QCOMPARE(groups.size(), std::size_t(2));
    const auto& spoiled = groups[1];
    const auto& clean = groups[0];
    const std::size_t gone = spoiled.back();
    Swarm s(mid_round ? tiny_job("mean", 3, 2, 64) : tiny_job("mean", 3), 6,
            mid_round ? gone : SIZE_MAX);
    QCOMPARE(s.next_round(), Swarm::first_round());
    std::vector<std::size_t> survivors(spoiled.begin(), spoiled.end() - 1);
    const auto clean_mean = mean_of(s, clean);
    const auto survivors_mean = mean_of(s, survivors);
    if (!mid_round) s.kill(gone);
    QVERIFY(s.round(gone));
    for (const auto m : clean) {
      const auto st = s.stats(m);
      qInfo("clean group: member %zu took %.3f s, %.2e from its group's mean", m,
            st.averaging_seconds, max_gap(s.weights(m), clean_mean));
      QVERIFY2(max_gap(s.weights(m), clean_mean) < 1e-5, "the clean group lost a member");
      QVERIFY2(st.averaging_seconds < 0.5 * std::chrono::duration<double>(kTimeout).count(),
               "the clean group waited for the gone member of another group");
    }
    for (const auto m : survivors) {
      const auto st = s.stats(m);
      qInfo("spoiled group: member %zu took %.3f s, %.2e from the survivors' mean", m,
            st.averaging_seconds, max_gap(s.weights(m), survivors_mean));
      QVERIFY2(st.averaging_seconds >= 0.9 * std::chrono::duration<double>(kTimeout).count(),
               "the gone member's partners did not wait for it");
      QVERIFY2(max_gap(s.weights(m), survivors_mean) < 1e-5,
               "the survivors did not average without the gone member");
    }
  }
};

QTEST_GUILESS_MAIN(TestGroupAveraging)
#include "test_group_averaging.moc"
