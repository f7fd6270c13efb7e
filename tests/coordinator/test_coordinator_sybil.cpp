// Sybil limits against a real coordinator.
//  - In this process, on its CURVE socket, volunteers played by the test with keys of their
//    own (all from 127.0.0.1, so the caps are asked for loopback too): a new job is invite-only
//    until opened; with a cap of 2 per address the third volunteer is refused, saying so, while
//    one of the two joining again is not counted against itself; the same for a subnet; a join
//    without its proof of work, with a wrong one, and with the right one.
//  - With real processes: a rookery-coordinator asking for 12 bits of work and capping loopback
//    at 2 per address, and three rookery-node volunteers started one after another. The first
//    two find the work and join; the third is refused, and joins once one of the two has gone
//    (the cap counts live volunteers). A job started without --open refuses a node without an
//    invite, and admits it with one made by `rookery-coordinator invite`.
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "coordinator/coordinator_service.hpp"
#include "coordinator/verdicts.hpp"
#include "job/job_spec.hpp"
#include "net/identity.hpp"
#include "net/join_work.hpp"
#include "support/coordinator_rpc.hpp"
#include "support/demo_job.hpp"
#include "support/processes.hpp"

using namespace rookery;
using namespace rookery::testing;
namespace pb = wire::pb;
using V = pb::Verdict;

namespace {

// A coordinator running in this process with `config` (its bind, folder and job filled in).
class InProcessCoordinator {
 public:
  bool start(coordinator::CoordinatorConfig config, const QString& dir, const QString& job_path) {
    config.bind = "tcp://127.0.0.1:0";
    config.data_dir = (dir + "/coordinator").toStdString();
    config.ready_file = (dir + "/ready").toStdString();
    config.job_path = job_path.toStdString();
    config.dead_after = std::chrono::seconds(60);  // played volunteers do not heartbeat
    service_ = std::make_unique<coordinator::CoordinatorService>(config);
    thread_ = std::thread([this] { service_->run(); });
    const auto address = wait_for_coordinator_ready(dir + "/ready", 10000);
    if (!address) return false;
    endpoint_ = address->endpoint.toStdString();
    key_ = address->key.toStdString();
    return true;
  }
  ~InProcessCoordinator() {
    if (service_) service_->request_stop();
    if (thread_.joinable()) thread_.join();
  }

  // `me` asks to join `job_id`; the coordinator's answer.
  std::optional<pb::JoinReply> join(const net::CurveKeyPair& me, const std::string& job_id,
                                    const std::string& token = {},
                                    std::optional<std::uint64_t> work = std::nullopt) {
    auto e = join_request(job_id, 7000, 50e9, 1ll << 32, 1e9, 1e-4, token);
    if (work) e.mutable_join()->set_join_work_nonce(*work);
    const auto r = coordinator_request(ctx_, me, endpoint_, key_, std::move(e));
    if (!r || !r->has_join_reply()) return std::nullopt;
    return r->join_reply();
  }

 private:
  std::unique_ptr<coordinator::CoordinatorService> service_;
  std::thread thread_;
  std::string endpoint_, key_;
  net::SecureContext ctx_{1};
};

}  // namespace

class TestCoordinatorSybil : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString job_path_;
  job::JobSpec job_;

  QString fresh_dir() {
    static int n = 0;
    const QString d = dir_.filePath(QString("run%1").arg(++n));
    QDir().mkpath(d);
    return d;
  }

  static QString why_not(const std::optional<pb::JoinReply>& r) {
    return r ? QString::fromStdString(r->reason()) : QStringLiteral("no answer");
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    job_path_ = dir_.filePath("job.json");
    const auto job = write_demo_job(job_path_, "sybil");
    QVERIFY(job);
    job_ = *job;
  }

  void aNewJobIsInviteOnlyUnlessOpened() {
    {
      InProcessCoordinator c;
      QVERIFY(c.start({}, fresh_dir(), job_path_));  // the defaults, as a new job starts
      const auto r = c.join(net::CurveKeyPair::generate(), job_.id);
      QVERIFY(r);
      QVERIFY2(!r->accepted(), "a job started without --open admitted a join without an invite");
      QCOMPARE(r->refusal().code(), V::INVITE_NOT_VALID);
    }
    coordinator::CoordinatorConfig open;
    open.open = true;
    InProcessCoordinator c;
    QVERIFY(c.start(open, fresh_dir(), job_path_));
    const auto r = c.join(net::CurveKeyPair::generate(), job_.id);
    QVERIFY2(r && r->accepted(), qPrintable(why_not(r)));
  }

  void theThirdFromOneAddressIsRefused() {
    coordinator::CoordinatorConfig config;
    config.open = true;
    config.caps = {2, 0, /*loopback=*/true};
    InProcessCoordinator c;
    QVERIFY(c.start(config, fresh_dir(), job_path_));
    const auto first = net::CurveKeyPair::generate();
    for (const auto& me : {first, net::CurveKeyPair::generate()}) {
      const auto r = c.join(me, job_.id);
      QVERIFY2(r && r->accepted(), qPrintable(why_not(r)));
    }
    const auto r = c.join(net::CurveKeyPair::generate(), job_.id);
    QVERIFY(r);
    QVERIFY2(!r->accepted(), "the third volunteer from 127.0.0.1 was admitted");
    QCOMPARE(r->refusal().code(), V::TOO_MANY_FROM_ADDRESS);
    QCOMPARE(r->refusal().value(), 2.0);
    QCOMPARE(r->refusal().limit(), 2.0);
    QCOMPARE(r->refusal().detail(), std::string("127.0.0.1"));
    QCOMPARE(r->reason(), coordinator::verdict::words(r->refusal()));
    // One of the two joining again (a restart, a network cut) is not a third.
    const auto again = c.join(first, job_.id);
    QVERIFY2(again && again->accepted(), qPrintable(why_not(again)));
  }

  void theThirdFromOneSubnetIsRefused() {
    coordinator::CoordinatorConfig config;
    config.open = true;
    config.caps = {0, 2, /*loopback=*/true};
    InProcessCoordinator c;
    QVERIFY(c.start(config, fresh_dir(), job_path_));
    for (int i = 0; i < 2; ++i) {
      const auto r = c.join(net::CurveKeyPair::generate(), job_.id);
      QVERIFY2(r && r->accepted(), qPrintable(why_not(r)));
    }
    const auto r = c.join(net::CurveKeyPair::generate(), job_.id);
    QVERIFY(r && !r->accepted());
    QCOMPARE(r->refusal().code(), V::TOO_MANY_FROM_SUBNET);
    QCOMPARE(r->refusal().detail(), std::string("127.0.0.0/24"));
  }

  // By default a swarm on one PC is not capped: the multi-process tests run many from there.
  void loopbackIsNotCappedByDefault() {
    coordinator::CoordinatorConfig config;
    config.open = true;
    config.caps.per_address = 1;
    InProcessCoordinator c;
    QVERIFY(c.start(config, fresh_dir(), job_path_));
    for (int i = 0; i < 3; ++i) {
      const auto r = c.join(net::CurveKeyPair::generate(), job_.id);
      QVERIFY2(r && r->accepted(), qPrintable(why_not(r)));
    }
  }

  void aJoinMustCarryItsProofOfWork() {
    coordinator::CoordinatorConfig config;
    config.open = true;
    config.join_work_bits = 12;
    InProcessCoordinator c;
    QVERIFY(c.start(config, fresh_dir(), job_path_));
    const auto me = net::CurveKeyPair::generate();
    auto r = c.join(me, job_.id);
    QVERIFY(r && !r->accepted());
    QCOMPARE(r->refusal().code(), V::JOIN_WORK_MISSING);
    QCOMPARE(r->refusal().limit(), 12.0);
    const auto nonce = net::find_join_work(job_.id, me.public_key, 12);
    QVERIFY(nonce && *nonce > 0);
    // The nonce before the first that does gives fewer bits: a wrong proof.
    r = c.join(me, job_.id, {}, *nonce - 1);
    QVERIFY(r && !r->accepted());
    QCOMPARE(r->refusal().code(), V::JOIN_WORK_WRONG);
    QVERIFY(r->refusal().value() < 12);
    // Another key's work does not do for this one.
    const auto other = net::CurveKeyPair::generate();
    if (net::join_work_bits(job_.id, other.public_key, *nonce) < 12) {
      r = c.join(other, job_.id, {}, *nonce);
      QVERIFY(r && !r->accepted());
      QCOMPARE(r->refusal().code(), V::JOIN_WORK_WRONG);
    }
    r = c.join(me, job_.id, {}, *nonce);
    QVERIFY2(r && r->accepted(), qPrintable(why_not(r)));
  }

  // Real processes: the node finds the work itself, and the third from one address waits
  // for a place.
  void realVolunteersBeyondTheCapAreRefused() {
    CoordinatorProcess coordinator;
    QVERIFY(coordinator.start({"--job", job_path_, "--join-work-bits", "12", "--cap-loopback",
                               "--max-per-address", "2", "--heartbeat-ms", "300", "--dead-after-ms",
                               "1500"}));
    Volunteers volunteers;
    volunteers.root = fresh_dir();
    volunteers.endpoint = coordinator.endpoint;
    volunteers.coordinator_key = coordinator.key;
    const auto said = [&](int i, const char* what) {
      return volunteers.output[std::size_t(i)].contains(what);
    };
    for (int i = 0; i < 2; ++i) {
      QVERIFY(volunteers.add(QString::fromStdString(job_.id)));
      QTRY_VERIFY2_WITH_TIMEOUT(said(i, "joined job sybil"),
                                volunteers.output[std::size_t(i)].constData(), 60000);
      QVERIFY2(said(i, "the join's proof of work of 12 bits took"),
               volunteers.output[std::size_t(i)].constData());
    }
    QVERIFY(volunteers.add(QString::fromStdString(job_.id)));
    QTRY_VERIFY2_WITH_TIMEOUT(
        said(2, "the job already has 2 volunteers (at most 2) from the address 127.0.0.1"),
        volunteers.output[2].constData(), 60000);
    QVERIFY2(!said(2, "joined job sybil"), volunteers.output[2].constData());
    net::SecureContext ctx{1};
    const auto me = net::CurveKeyPair::generate();
    const auto status = run_status(ctx, me, coordinator.endpoint, coordinator.key);
    QVERIFY(status);
    QCOMPARE(status->nodes_size(), 2);
    // One of the two stops: silent past its deadline, it is no longer counted, and the third
    // joins at its next try.
    volunteers.processes[0]->terminate();
    QVERIFY(volunteers.processes[0]->waitForFinished(20000));
    QTRY_VERIFY2_WITH_TIMEOUT(said(2, "joined job sybil"), volunteers.output[2].constData(), 30000);
  }

  void aRealJobWithoutOpenNeedsAnInvite() {
    CoordinatorProcess coordinator;
    coordinator.open = false;
    QVERIFY(coordinator.start({"--job", job_path_}));
    Volunteers volunteers;
    volunteers.root = fresh_dir();
    volunteers.endpoint = coordinator.endpoint;
    volunteers.coordinator_key = coordinator.key;
    QVERIFY(volunteers.add(QString::fromStdString(job_.id)));
    QTRY_VERIFY2_WITH_TIMEOUT(
        volunteers.output[0].contains("the job is invite-only and this invite is not valid"),
        volunteers.output[0].constData(), 60000);
    // The owner makes an invite while it runs; a node carrying it is admitted.
    QProcess invite;
    invite.start(coordinator_bin(), {"--data-dir", coordinator.dir.filePath("data"), "invite"});
    QVERIFY(invite.waitForFinished(20000) && invite.exitCode() == 0);
    const QString token = QString::fromUtf8(invite.readAllStandardOutput()).trimmed();
    QCOMPARE(token.size(), 32);
    QVERIFY(volunteers.add(QString::fromStdString(job_.id), {"--invite-token", token}));
    QTRY_VERIFY2_WITH_TIMEOUT(volunteers.output[1].contains("joined job sybil"),
                              volunteers.output[1].constData(), 60000);
    QVERIFY2(!volunteers.output[0].contains("joined job sybil"), volunteers.output[0].constData());
  }
};

QTEST_GUILESS_MAIN(TestCoordinatorSybil)
#include "test_coordinator_sybil.moc"
