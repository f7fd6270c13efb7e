// Membership enforced by every peer: a node's peer-facing sockets admit only the
// job's members as the coordinator lists them, and a member removed from the job is cut off
// within one heartbeat. A real rookery-coordinator runs the demo job with one real rookery-node,
// which holds the whole model and trains it; the test plays two more keys:
//  - a member: it joins the coordinator (with a profile too small to be seated) and heartbeats;
//    the node's shard server hands it parameters;
//  - a stranger, who never joined: the same request is refused;
// then the member leaves the job, and within a heartbeat of the node its requests are refused
// too, on the connection it already had and on a new one. Last, a second real node joins and
// measures its link to the first (the peer the coordinator names it), as its profile records.
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>

#include "job/job_spec.hpp"
#include "net/identity.hpp"
#include "net/rpc.hpp"
#include "support/coordinator_rpc.hpp"
#include "support/demo_job.hpp"
#include "support/processes.hpp"

using namespace rookery;
using namespace rookery::testing;
namespace pb = wire::pb;

namespace {
constexpr int kHeartbeatMs = 200;
}  // namespace

class TestMembershipCutoff : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  CoordinatorProcess coordinator_;
  QProcess node_;
  QByteArray node_output_;
  std::string shard_endpoint_, node_key_;
  net::SecureContext ctx_{1};
  net::CurveKeyPair member_ = net::CurveKeyPair::generate();
  net::CurveKeyPair stranger_ = net::CurveKeyPair::generate();
  job::JobSpec job_;

  // One shard request to the node as `who` over `client` (a fresh connection when null).
  bool fetches(const net::CurveKeyPair& who, net::RpcClient* client = nullptr) {
    std::optional<net::RpcClient> own;
    if (!client) client = &own.emplace(ctx_, shard_endpoint_, &who, node_key_);
    pb::Envelope e;
    e.mutable_shard_request()->set_first_block(0);
    e.mutable_shard_request()->set_last_block(1);
    const auto r = client->request(e, std::chrono::milliseconds(1500));
    return r.ok() && r.message->header.has_shard_reply();
  }

  bool member_heartbeat() {
    pb::Envelope e;
    e.mutable_heartbeat()->set_contributing(true);
    const auto r =
        coordinator_request(ctx_, member_, coordinator_.endpoint, coordinator_.key, std::move(e));
    return r && r->has_heartbeat_reply() && r->heartbeat_reply().known();
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    const QString job_path = dir_.filePath("job.json");
    const auto job = write_demo_job(job_path, "members");
    QVERIFY(job);
    job_ = *job;
    QVERIFY(coordinator_.start({"--job", job_path, "--heartbeat-ms", QString::number(kHeartbeatMs),
                                "--dead-after-ms", "5000"}));
    QProcess id;
    id.start(node_bin(), {"--data-dir", dir_.filePath("node"), "--print-identity"});
    QVERIFY(id.waitForFinished(10000) && id.exitCode() == 0);
    node_key_ = QString::fromUtf8(id.readAllStandardOutput()).trimmed().toStdString();
    node_.setProcessChannelMode(QProcess::MergedChannels);
    connect(&node_, &QProcess::readyRead, this, [this] { node_output_ += node_.readAll(); });
    node_.start(node_bin(), {"--data-dir", dir_.filePath("node"), "--runtime-dir",
                             dir_.filePath("node/run"), "--join", "members", "--coordinator",
                             QString::fromStdString(coordinator_.endpoint), "--coordinator-key",
                             QString::fromStdString(coordinator_.key), "--contribute", "--threads",
                             "1", "--benchmark-seconds", "0.05"});
    QVERIFY(node_.waitForStarted(5000));
    // Its shard server's endpoint, from its log line on joining.
    const QRegularExpression shards(QStringLiteral("shards (tcp://127\\.0\\.0\\.1:[0-9]+)"));
    QVERIFY2(QTest::qWaitFor(
                 [&] { return shards.match(QString::fromUtf8(node_output_)).hasMatch(); }, 30000),
             node_output_.constData());
    shard_endpoint_ = shards.match(QString::fromUtf8(node_output_)).captured(1).toStdString();
    // Seated and training: it serves its shard from then on.
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   return node_output_.contains("progress:") ||
                          node_output_.contains("training blocks");
                 },
                 60000),
             node_output_.constData());
  }

  void aStrangerIsRefusedAMemberServed() {
    // The member joins: too little memory for any seat, but a member of the job.
    const auto r = coordinator_request(ctx_, member_, coordinator_.endpoint, coordinator_.key,
                                       join_request(job_.id, 9, 1e9, 1 << 20, 1e6, 1e-3));
    QVERIFY(r && r->has_join_reply());
    QVERIFY2(r->join_reply().accepted(), r->join_reply().reason().c_str());
    // Within a heartbeat or two of the node, it hands the member its parameters.
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   member_heartbeat();
                   return fetches(member_);
                 },
                 10000),
             "the node never served a member of the job");
    QVERIFY2(!fetches(stranger_), "the node served a key that never joined the job");
  }

  void aMemberThatLeavesIsCutOffWithinAHeartbeat() {
    net::RpcClient open_connection(ctx_, shard_endpoint_, &member_, node_key_);
    QVERIFY(fetches(member_, &open_connection));
    pb::Envelope e;
    e.mutable_leave()->set_job_id(job_.id);
    const auto r =
        coordinator_request(ctx_, member_, coordinator_.endpoint, coordinator_.key, std::move(e));
    QVERIFY(r && r->has_leave_reply() && r->leave_reply().left());
    // The node's next heartbeat carries the new member list: a heartbeat after it left the
    // member is refused (checked after three, for a node slowed by the machine's load).
    QTest::qWait(3 * kHeartbeatMs);
    QVERIFY2(!fetches(member_, &open_connection),
             "a removed member was still served on its open connection");
    QVERIFY2(!fetches(member_), "a removed member was still served on a new connection");
    qInfo(
        "a member that left was refused %d ms (three heartbeats) after it left, on its open "
        "connection and a new one",
        3 * kHeartbeatMs);
  }

  // Profiling against peers: a second volunteer joins; the coordinator names the
  // first as a peer to measure its links to, and once the first admits it (a heartbeat later)
  // it measures them with real transfers and reports them; its profile counts the peer.
  void aNewcomerMeasuresItsLinkToAMember() {
    QProcess second;
    QByteArray output;
    second.setProcessChannelMode(QProcess::MergedChannels);
    connect(&second, &QProcess::readyRead, this, [&] { output += second.readAll(); });
    second.start(node_bin(), {"--data-dir", dir_.filePath("second"), "--runtime-dir",
                              dir_.filePath("second/run"), "--join", "members", "--coordinator",
                              QString::fromStdString(coordinator_.endpoint), "--coordinator-key",
                              QString::fromStdString(coordinator_.key), "--contribute", "--threads",
                              "1", "--benchmark-seconds", "0.05"});
    QVERIFY(second.waitForStarted(5000));
    QVERIFY2(QTest::qWaitFor([&] { return output.contains("link to peer "); }, 30000),
             output.constData());
    net::CurveKeyPair dashboard = net::CurveKeyPair::generate();
    std::uint32_t measured = 0;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                   const auto s =
                       run_status(ctx_, dashboard, coordinator_.endpoint, coordinator_.key);
                   for (int i = 0; s && i < s->nodes_size(); ++i) {
                     if (s->nodes(i).key() != node_key_)
                       measured = std::max(measured, s->nodes(i).profile().peers_measured());
                   }
                   return measured >= 1;
                 },
                 15000),
             output.constData());
    qInfo("the newcomer measured its link to %u peer(s): %s", measured,
          output.mid(output.indexOf("link to peer "), 80).constData());
    second.terminate();
    if (!second.waitForFinished(20000)) second.kill();
  }

  void cleanupTestCase() {
    if (node_.state() != QProcess::NotRunning) {
      node_.terminate();
      if (!node_.waitForFinished(20000)) node_.kill();
    }
  }
};

QTEST_GUILESS_MAIN(TestMembershipCutoff)
#include "test_membership_cutoff.moc"
