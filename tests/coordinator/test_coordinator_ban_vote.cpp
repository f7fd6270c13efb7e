// One liar cannot ban. A coordinator (in this process, over its real CURVE socket) runs a job
// for four volunteers that each hold the whole model, so it plans four one-stage pipelines and
// every volunteer has the other three as ring partners. The volunteers are played by this test
// with their own keys: they join, and heartbeat as a node does, reporting in excluded_peers
// whom their aggregator leaves out.
//  - One of them lies: heartbeat after heartbeat it reports an honest partner (and then every
//    other partner) as excluded. Nobody is banned, and the honest volunteers keep their seats.
//  - Then two honest volunteers report the liar: two of its three ring partners, a majority.
//    The liar is banned with that reason, planned out, and its join is refused, while the
//    honest volunteer it accused is never banned.
// The same for spot-check evidence (TestCoordinatorSpotCheckBan): six volunteers in three
// two-stage pipelines; a first stage is banned only when two of the three second stages it
// sends to report it caught, and a second stage only when two of the three first stages it
// returns gradients to do.
// Played volunteers also report the speed they compute at (TestCoordinatorMeasuredSpeed): one
// that slows to a fifth of the speed it showed is planned with what it shows, and its pipeline
// is re-cut around it; one that shows four fifths changes nothing.
// A lone witness's catch (TestCoordinatorSecondOpinion): one pipeline of four, where each seat
// has one witness a side; the accused is moved for a second opinion, and banned on it.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "cluster/planning.hpp"
#include "coordinator/coordinator_service.hpp"
#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"
#include "net/identity.hpp"
#include "net/rpc.hpp"
#include "rookery/envelope.pb.h"
#include "support/coordinator_rpc.hpp"
#include "support/processes.hpp"

using namespace rookery;
using namespace rookery::testing;
namespace pb = wire::pb;

namespace {

constexpr int kVolunteers = 4;
constexpr int kHonest = 0;  // the volunteer the liar accuses
constexpr int kLiar = 3;

struct Volunteer {
  net::CurveKeyPair identity = net::CurveKeyPair::generate();
  std::uint64_t plan_version = 0;  // the plan it "runs": the last one the coordinator sent it
  int port = 0;
  std::string dataset_digest;  // it "holds" the job's data from its join on (nothing is fetched)
};

}  // namespace

// A coordinator in this process and volunteers played by the test (the two test classes below).
class CoordinatorWithFakeVolunteers : public QObject {
  Q_OBJECT

 protected:
  QTemporaryDir dir_;
  std::unique_ptr<coordinator::CoordinatorService> service_;
  std::thread thread_;
  int exit_code_ = -1;
  std::string endpoint_, key_;
  job::JobSpec job_;
  net::SecureContext ctx_{1};
  net::CurveKeyPair dashboard_ = net::CurveKeyPair::generate();
  std::vector<Volunteer> volunteers_;
  double memory_factor_ = 2;  // each volunteer's free memory, in models
  // What volunteer i reports of its speed: {offered FLOP/s, FLOP per busy second, benchmark}.
  std::map<int, std::array<double, 3>> speed_;

  const std::string& key_of(int i) const { return volunteers_[std::size_t(i)].identity.public_key; }

  std::optional<pb::Envelope> ask(const net::CurveKeyPair& as, pb::Envelope e) {
    return coordinator_request(ctx_, as, endpoint_, key_, std::move(e));
  }

  std::optional<pb::JoinReply> join(int i) {
    auto& v = volunteers_[std::size_t(i)];
    const auto memory =
        static_cast<std::int64_t>(memory_factor_ * static_cast<double>(cluster::model_memory_bytes(
                                                       coordinator::block_profiles(job_),
                                                       coordinator::training_settings(job_))));
    auto e = join_request(job_.id, v.port, 50e9, memory, 1e9, 1e-4);
    e.mutable_join()->set_plan_version(v.plan_version);
    const auto r = ask(v.identity, std::move(e));
    if (!r || !r->has_join_reply()) return std::nullopt;
    v.dataset_digest = r->join_reply().dataset_digest();
    return r->join_reply();
  }

  // One heartbeat of volunteer i reporting `excluded` ring partners and `caught` senders (by
  // index); it then "runs" whatever plan the coordinator sent. Nullopt: no answer.
  std::optional<pb::HeartbeatReply> beat(int i, const std::vector<int>& excluded = {},
                                         const std::vector<int>& caught = {}) {
    auto& v = volunteers_[std::size_t(i)];
    pb::Envelope e;
    auto* h = e.mutable_heartbeat();
    h->set_plan_version(v.plan_version);
    h->set_contributing(true);
    h->set_dataset_digest(v.dataset_digest);
    h->set_samples_per_s(10);
    h->set_loss(-1);
    for (int x : excluded) h->add_excluded_peers(key_of(x));
    for (int x : caught) h->add_failed_spot_checks(key_of(x));
    if (const auto s = speed_.find(i); s != speed_.end()) {
      h->set_flops_per_s(s->second[0]);
      h->set_flops_per_busy_s(s->second[1]);
      h->set_benchmark_flops_per_s(s->second[2]);
    }
    const auto r = ask(v.identity, std::move(e));
    if (!r || !r->has_heartbeat_reply()) return std::nullopt;
    if (r->heartbeat_reply().known() && r->heartbeat_reply().has_plan()) {
      v.plan_version = r->heartbeat_reply().plan_version();
    }
    return r->heartbeat_reply();
  }

  // Every volunteer in `who` heartbeats once; `accusations[i]` is whom i excludes from its
  // aggregates, `catches[i]` whom its spot-checks caught.
  void round(const std::vector<int>& who, const std::map<int, std::vector<int>>& accusations = {},
             const std::map<int, std::vector<int>>& catches = {}) {
    const auto of = [](const std::map<int, std::vector<int>>& m, int i) {
      const auto it = m.find(i);
      return it == m.end() ? std::vector<int>{} : it->second;
    };
    for (int i : who) {
      const auto r = beat(i, of(accusations, i), of(catches, i));
      QVERIFY2(r, qPrintable(QString("volunteer %1's heartbeat got no answer").arg(i)));
    }
  }

  std::optional<pb::RunStatus> status() { return run_status(ctx_, dashboard_, endpoint_, key_); }

  static bool is_banned(const pb::RunStatus& s, const std::string& key) {
    for (const auto& b : s.banned()) {
      if (b.key() == key) return true;
    }
    return false;
  }

  // Seated volunteers by key: {pipeline, first block, last block}.
  static std::map<std::string, std::tuple<int, std::int64_t, std::int64_t>> seats(
      const pb::RunStatus& s) {
    std::map<std::string, std::tuple<int, std::int64_t, std::int64_t>> out;
    for (const auto& n : s.nodes()) {
      if (n.pipeline() >= 0) out[n.key()] = {n.pipeline(), n.first_block(), n.last_block()};
    }
    return out;
  }

  std::vector<int> everyone() const {
    std::vector<int> all;
    for (int i = 0; i < static_cast<int>(volunteers_.size()); ++i) all.push_back(i);
    return all;
  }

  // Starts the coordinator for `volunteers` volunteers that each have `memory_factor` models'
  // worth of free memory, and has them join.
  void start(const std::string& job_id, int volunteers, double memory_factor, int port_base) {
    QVERIFY(dir_.isValid());
    volunteers_.resize(std::size_t(volunteers));
    memory_factor_ = memory_factor;
    job_ = job::load_job_spec(ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
    job_.id = job_id;
    const QString job_path = dir_.filePath("job.json");
    {
      QFile f(job_path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray::fromStdString(job::to_json(job_)));
    }
    for (int i = 0; i < volunteers; ++i) volunteers_[std::size_t(i)].port = port_base + 10 * i;
    coordinator::CoordinatorConfig config;
    config.bind = "tcp://127.0.0.1:0";
    config.data_dir = dir_.filePath("coordinator").toStdString();
    config.ready_file = dir_.filePath("ready").toStdString();
    config.job_path = job_path.toStdString();
    config.open = true;
    config.heartbeat_interval = std::chrono::milliseconds(100);
    config.dead_after = std::chrono::milliseconds(5000);
    config.settle = std::chrono::milliseconds(200);
    service_ = std::make_unique<coordinator::CoordinatorService>(config);
    thread_ = std::thread([this] { exit_code_ = service_->run(); });
    const auto address = testing::wait_for_coordinator_ready(dir_.filePath("ready"), 10000);
    QVERIFY2(address, "the coordinator did not start");
    endpoint_ = address->endpoint.toStdString();
    key_ = address->key.toStdString();

    for (int i = 0; i < volunteers; ++i) {
      const auto r = join(i);
      QVERIFY2(r, "the coordinator did not answer a join");
      QVERIFY2(r->accepted(), r->reason().c_str());
    }
  }

  // Heartbeats until every volunteer is seated in `pipelines` pipelines by a plan they all
  // run; the run's status then, or nothing.
  std::optional<pb::RunStatus> settle(std::size_t pipelines) {
    for (int t = 0; t < 100; ++t) {
      for (int i : everyone()) {
        if (!beat(i)) return std::nullopt;
      }
      QTest::qWait(50);
      const auto s = status();
      if (!s) continue;
      std::set<int> seen;
      for (const auto& [k, seat] : seats(*s)) seen.insert(std::get<0>(seat));
      bool planned = seats(*s).size() == volunteers_.size() && seen.size() == pipelines;
      for (const auto& v : volunteers_) planned = planned && v.plan_version == s->plan_version();
      if (planned) return s;
    }
    return std::nullopt;
  }

  void stop() {
    if (service_) service_->request_stop();
    if (thread_.joinable()) thread_.join();
    QCOMPARE(exit_code_, 0);
  }
};

// One liar cannot ban; a majority of a volunteer's ring partners can.
class TestCoordinatorBanVote : public CoordinatorWithFakeVolunteers {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    start("ban-vote", kVolunteers, 2, 30000);  // each holds the model twice over: a pipeline each
    if (QTest::currentTestFailed()) return;
    const auto s = settle(kVolunteers);
    QVERIFY2(s, "the four volunteers were not planned into four pipelines");
    // Each holds every block, so each has the other three as ring partners.
    for (const auto& [k, seat] : seats(*s)) {
      QCOMPARE(std::get<1>(seat), std::int64_t(0));
      QCOMPARE(std::get<2>(seat), std::int64_t(coordinator::block_profiles(job_).size()));
    }
  }

  void oneLiarCannotGetAnHonestPartnerBanned() {
    const auto before = status();
    QVERIFY(before);
    const auto plan = before->plan_version();
    // Everyone heartbeats at the job's pace (every 100 ms) for 2.5 s, the liar accusing the same
    // honest partner each time: more reports than two honest partners need to ban a real liar
    // (one heartbeat each, below) ...
    for (int t = 0; t < 25; ++t) {
      round(everyone(), {{kLiar, {kHonest}}});
      if (QTest::currentTestFailed()) return;
      QTest::qWait(100);
    }
    // ... and then for 1 s accusing all three of its partners at once.
    for (int t = 0; t < 10; ++t) {
      round(everyone(), {{kLiar, {0, 1, 2}}});
      if (QTest::currentTestFailed()) return;
      QTest::qWait(100);
    }
    const auto s = status();
    QVERIFY(s);
    QCOMPARE(s->banned_size(), 0);
    QCOMPARE(s->plan_version(), plan);  // nobody was planned out either
    QCOMPARE(seats(*s).size(), std::size_t(kVolunteers));
    // The accused volunteer still heartbeats as a known member of the plan.
    const auto r = beat(kHonest);
    QVERIFY(r);
    QVERIFY2(r->known(), r->status().c_str());
    QVERIFY2(QString::fromStdString(r->status()).startsWith("pipeline "), r->status().c_str());
    QCOMPARE(r->seat().state(), pb::SeatStatus::SEATED);
  }

  void twoHonestPartnersOutOfThreeBanTheLiar() {
    // The liar keeps accusing; two honest partners now report it: 2 of its 3 ring partners.
    const std::map<int, std::vector<int>> reports{{kLiar, {kHonest}}, {1, {kLiar}}, {2, {kLiar}}};
    round({kHonest, kLiar, 1}, reports);  // one honest report is not enough
    if (QTest::currentTestFailed()) return;
    auto s = status();
    QVERIFY(s);
    QCOMPARE(s->banned_size(), 0);
    round({2}, reports);  // the second is
    if (QTest::currentTestFailed()) return;
    s = status();
    QVERIFY(s);
    QCOMPARE(s->banned_size(), 1);
    QCOMPARE(s->banned(0).key(), key_of(kLiar));
    QCOMPARE(s->banned(0).reason(),
             std::string("2 of its 3 ring partners reject its averaging contributions"));
    QCOMPARE(s->banned(0).why().code(), wire::pb::Verdict::RING_PARTNERS_REJECT);
    QCOMPARE(s->banned(0).why().value(), 2.0);
    QCOMPARE(s->banned(0).why().limit(), 3.0);
    QVERIFY(!is_banned(*s, key_of(kHonest)));

    // The liar is out: not known to heartbeats, refused when it joins again, and planned out;
    // the honest three are planned without it.
    const auto hb = beat(kLiar, {kHonest});
    QVERIFY(hb);
    QVERIFY(!hb->known());
    const auto again = join(kLiar);
    QVERIFY(again);
    QVERIFY(!again->accepted());
    QVERIFY(again->banned());
    QCOMPARE(again->refusal().code(), wire::pb::Verdict::RING_PARTNERS_REJECT);
    QVERIFY2(QString::fromStdString(again->reason())
                 .startsWith("banned from this job: 2 of its 3 ring partners"),
             again->reason().c_str());
    bool replanned = false;
    for (int t = 0; t < 100 && !replanned; ++t) {
      round({0, 1, 2});
      QTest::qWait(50);
      s = status();
      replanned = s && seats(*s).size() == 3 && !seats(*s).count(key_of(kLiar));
    }
    QVERIFY2(replanned, "the honest three were not planned without the liar");
    QCOMPARE(s->banned_size(), 1);
  }

  void cleanupTestCase() { stop(); }
};

// Spot-check evidence, from either side: six volunteers that each hold half the model form
// three two-stage pipelines, SWARM-wired, so each first stage sends its activations to all
// three second stages and each second stage returns gradients to all three first stages.
// Activations: one second stage alone reporting a first stage caught bans nobody; two of the
// three do. Gradients: the same of a second stage, reported by the first stages.
class TestCoordinatorSpotCheckBan : public CoordinatorWithFakeVolunteers {
  Q_OBJECT

 public:
  enum class Side { Activations, Gradients };
  explicit TestCoordinatorSpotCheckBan(Side side) : side_(side) {}

 private:
  Side side_;
  int accused_ = -1;           // a first stage (activations) or a second stage (gradients)
  std::vector<int> checkers_;  // the stages on the other side of it (by index)

 private Q_SLOTS:
  void initTestCase() {
    const bool gradients = side_ == Side::Gradients;
    start(gradients ? "gradient-ban" : "spot-ban", 6, 0.6, gradients ? 30400 : 30200);
    if (QTest::currentTestFailed()) return;
    const auto s = settle(3);
    QVERIFY2(s, "the six volunteers were not planned into three pipelines");
    for (int i : everyone()) {
      const bool first = std::get<1>(seats(*s).at(key_of(i))) == 0;
      if (first == gradients) {
        checkers_.push_back(i);
      } else if (accused_ < 0) {
        accused_ = i;
      }
    }
    QCOMPARE(checkers_.size(), std::size_t(3));
    QVERIFY(accused_ >= 0);
  }

  void oneCheckerCannotBan() {
    for (int t = 0; t < 20; ++t) {
      round(everyone(), {}, {{checkers_[0], {accused_}}});
      if (QTest::currentTestFailed()) return;
      QTest::qWait(100);
    }
    const auto s = status();
    QVERIFY(s);
    QCOMPARE(s->banned_size(), 0);
  }

  void twoCheckersOfThreeBan() {
    round(everyone(), {}, {{checkers_[0], {accused_}}, {checkers_[1], {accused_}}});
    if (QTest::currentTestFailed()) return;
    const auto s = status();
    QVERIFY(s);
    QCOMPARE(s->banned_size(), 1);
    QCOMPARE(s->banned(0).key(), key_of(accused_));
    QCOMPARE(
        s->banned(0).reason(),
        std::string(
            side_ == Side::Gradients
                ? "2 of the 3 stages it returns gradients to caught its gradients wrong in "
                  "spot-checks"
                : "2 of the 3 stages it sends to caught its activations wrong in spot-checks"));
  }

  void cleanupTestCase() { stop(); }
};

// Re-planning on the speed volunteers show. Six volunteers that each hold under half the
// model are planned into one pipeline of six, a block each; every one benchmarks 50 GFLOP/s
// and, while training, computes at 30% of that (the model's kernels are smaller than the
// benchmark's). Then the one with the most compute slows down.
class TestCoordinatorMeasuredSpeed : public CoordinatorWithFakeVolunteers {
  Q_OBJECT

  static constexpr double kBenchmark = 50e9;
  int slow_ = -1;

  std::optional<pb::RunStatus> beat_for(int ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
      round(everyone());
      if (QTest::currentTestFailed()) return std::nullopt;
      QTest::qWait(100);
    }
    return status();
  }

  double planned_flops_of(const pb::RunStatus& s, int i) const {
    for (const auto& n : s.nodes()) {
      if (n.key() == key_of(i)) return n.profile().flops_per_s();
    }
    return -1;
  }

  std::int64_t blocks_of(const pb::RunStatus& s, int i) const {
    const auto all = seats(s);
    const auto it = all.find(key_of(i));
    return it == all.end() ? 0 : std::get<2>(it->second) - std::get<1>(it->second);
  }

  // The compute volunteer i's seat asks of it: its blocks' FLOP per sample (0: unseated).
  double work_of(const pb::RunStatus& s, int i) const {
    const auto all = seats(s);
    const auto it = all.find(key_of(i));
    if (it == all.end()) return 0;
    const auto blocks = coordinator::block_profiles(job_);
    double f = 0;
    for (auto b = std::get<1>(it->second); b < std::get<2>(it->second); ++b)
      f += blocks[std::size_t(b)].flops_per_sample;
    return f;
  }

 private Q_SLOTS:
  void initTestCase() {
    start("measured-speed", 6, 0.45, 30600);
    if (QTest::currentTestFailed()) return;
    for (int i : everyone()) speed_[i] = {kBenchmark, 0.3 * kBenchmark, kBenchmark};
    const auto s = settle(1);
    QVERIFY2(s, "the six volunteers were not planned into one pipeline");
    for (int i : everyone()) {
      if (slow_ < 0 || work_of(*s, i) > work_of(*s, slow_))
        slow_ = i;  // the one with the most compute
    }
    QVERIFY(work_of(*s, slow_) > 0);
    QVERIFY(beat_for(1000));  // readings on the plan they run: each one's own speed on its blocks
  }

  void aVolunteerALittleSlowerChangesNothing() {
    auto s = status();
    QVERIFY(s);
    const auto plan = s->plan_version();
    speed_[slow_][1] = 0.24 * kBenchmark;  // 80% of its speed: noise, or a little load
    s = beat_for(12000);                   // past the coordinator's 10 s re-planning check
    QVERIFY(s);
    QCOMPARE(planned_flops_of(*s, slow_), kBenchmark);
    QCOMPARE(s->plan_version(), plan);
  }

  void aVolunteerMuchSlowerIsPlannedWithWhatItShows() {
    auto s = status();
    QVERIFY(s);
    const auto plan = s->plan_version();
    const double work = work_of(*s, slow_);
    speed_[slow_][1] = 0.06 * kBenchmark;  // a fifth of it: its owner's programs take the cores
    QElapsedTimer t;
    t.start();
    bool replanned = false;
    while (t.elapsed() < 25000 && !replanned) {
      s = beat_for(500);
      QVERIFY(s);
      replanned = s->plan_version() > plan && work_of(*s, slow_) < 0.5 * work;
    }
    QCOMPARE(planned_flops_of(*s, slow_), 0.2 * kBenchmark);
    qInfo(
        "re-planned after %.1f s: the slow volunteer's seat asks %.2f MFLOP per sample of it "
        "instead of %.2f "
        "(%lld block(s))",
        t.elapsed() / 1000.0, work_of(*s, slow_) / 1e6, work / 1e6,
        static_cast<long long>(blocks_of(*s, slow_)));
    QVERIFY2(replanned, "the pipeline was not re-cut around the slow volunteer");
    // And it stays so: on its cheap seat its speed says little (per-operation overheads), so
    // the coordinator keeps what it showed before instead of moving it back.
    const auto settled = s->plan_version();
    s = beat_for(12000);
    QVERIFY(s);
    QCOMPARE(s->plan_version(), settled);
    QCOMPARE(planned_flops_of(*s, slow_), 0.2 * kBenchmark);
  }

  void cleanupTestCase() { stop(); }
};

// A second opinion on a lone witness's catch: four volunteers that each hold a third of the
// model form one pipeline of four, so each seat has one witness on each side and the plain vote
// can never ban. The accused's only next stage reporting it caught bans nobody, however long it
// repeats it, but moves the accused (once) to a seat with another next stage; that one
// reporting it too bans it, both counted.
class TestCoordinatorSecondOpinion : public CoordinatorWithFakeVolunteers {
  Q_OBJECT

  int index_of(const std::string& key) const {
    for (int i : everyone()) {
      if (key_of(i) == key) return i;
    }
    return -1;
  }
  // The one volunteer whose blocks start where `i`'s end in `s` (-1: none).
  int next_of(const pb::RunStatus& s, int i) const {
    const auto all = seats(s);
    const auto last = std::get<2>(all.at(key_of(i)));
    for (const auto& [k, seat] : all) {
      if (std::get<1>(seat) == last) return index_of(k);
    }
    return -1;
  }

 private Q_SLOTS:
  void initTestCase() { start("second-opinion", 4, 0.35, 30800); }

  void aLoneWitnessMovesTheAccusedAndASecondOneBansIt() {
    auto s = settle(1);
    QVERIFY2(s, "the four volunteers were not planned into one pipeline");
    int accused = -1;
    for (const auto& [k, seat] : seats(*s)) {
      if (std::get<1>(seat) == 0) accused = index_of(k);  // the first stage
    }
    QVERIFY(accused >= 0);
    const int first_witness = next_of(*s, accused);
    QVERIFY(first_witness >= 0);
    const auto before = seats(*s).at(key_of(accused));
    const auto plan_before = s->plan_version();
    for (int t = 0; t < 20; ++t) {
      round(everyone(), {}, {{first_witness, {accused}}});
      if (QTest::currentTestFailed()) return;
      QTest::qWait(100);
    }
    s = status();
    QVERIFY(s);
    QCOMPARE(s->banned_size(), 0);
    QCOMPARE(s->plan_version(), plan_before + 1);  // moved once, not on every report
    const auto after = seats(*s).at(key_of(accused));
    QVERIFY(after != before);
    const int second_witness = next_of(*s, accused);
    QVERIFY(second_witness >= 0);
    QVERIFY(second_witness != first_witness);
    qInfo("moved from blocks [%lld, %lld) to [%lld, %lld)",
          static_cast<long long>(std::get<1>(before)), static_cast<long long>(std::get<2>(before)),
          static_cast<long long>(std::get<1>(after)), static_cast<long long>(std::get<2>(after)));
    round(everyone(), {}, {{first_witness, {accused}}, {second_witness, {accused}}});
    if (QTest::currentTestFailed()) return;
    s = status();
    QVERIFY(s);
    QCOMPARE(s->banned_size(), 1);
    QCOMPARE(s->banned(0).key(), key_of(accused));
    QCOMPARE(s->banned(0).reason(),
             std::string("2 of the 2 stages it sends to caught its activations wrong in "
                         "spot-checks"));
  }

  void cleanupTestCase() { stop(); }
};

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  TestCoordinatorBanVote ring_partners;
  TestCoordinatorSpotCheckBan spot_checks(TestCoordinatorSpotCheckBan::Side::Activations);
  TestCoordinatorSpotCheckBan gradient_checks(TestCoordinatorSpotCheckBan::Side::Gradients);
  TestCoordinatorMeasuredSpeed measured_speed;
  TestCoordinatorSecondOpinion second_opinion;
  return QTest::qExec(&ring_partners, argc, argv) | QTest::qExec(&spot_checks, argc, argv) |
         QTest::qExec(&gradient_checks, argc, argv) | QTest::qExec(&measured_speed, argc, argv) |
         QTest::qExec(&second_opinion, argc, argv);
}
#include "test_coordinator_ban_vote.moc"
