// Invites that expire and can be revoked. The coordinator runs in this process on its
// real CURVE socket; volunteers are played by the test with keys of their own. The job owner's
// side works as `rookery-coordinator invite` does: a second connection to the same state file,
// so the running coordinator sees a new or revoked invite at the next join.
//  - Opened (--open) and with no invite, the job is open: a join without a token is admitted.
//  - Once an invite exists the job is invite-only: no token or a wrong one is refused, the
//    invite admits, an expired invite is refused as expired, and a revoked one as revoked, at
//    once, while the coordinator runs; a token given on its command line never expires.
//  - The command line itself: `invite` prints a token (and a rookery:// link), `invites` lists
//    it, `revoke-invite` revokes it, and an unknown token is an error.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "coordinator/coordinator_service.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/swarm_planner.hpp"
#include "coordinator/verdicts.hpp"
#include "job/job_spec.hpp"
#include "net/identity.hpp"
#include "support/coordinator_rpc.hpp"
#include "support/demo_job.hpp"
#include "support/processes.hpp"

using namespace rookery;
using namespace rookery::testing;
namespace pb = wire::pb;
namespace verdict = coordinator::verdict;

namespace {
std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}
}  // namespace

class TestCoordinatorInvites : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::unique_ptr<coordinator::CoordinatorService> service_;
  std::thread thread_;
  std::string endpoint_, key_;
  job::JobSpec job_;
  net::SecureContext ctx_{1};
  int next_port_ = 0;

  std::filesystem::path state_path() const {
    return dir_.filePath("coordinator/coordinator.db").toStdString();
  }

  // A new volunteer (a key of its own) asks to join with `token`: the coordinator's answer.
  std::optional<pb::JoinReply> join(const std::string& token) {
    const auto me = net::CurveKeyPair::generate();
    auto e = join_request(job_.id, next_port_, 50e9, 1ll << 32, 1e9, 1e-4, token);
    next_port_ += 3;
    const auto r = coordinator_request(ctx_, me, endpoint_, key_, std::move(e));
    if (!r || !r->has_join_reply()) return std::nullopt;
    return r->join_reply();
  }

  // Checks the coordinator refuses a join with `token`, saying `why`.
  void refused(const std::string& token, wire::pb::Verdict::Code why) {
    const auto r = join(token);
    QVERIFY2(r, "the coordinator did not answer a join");
    QVERIFY2(
        !r->accepted(),
        qPrintable(QString("a join with '%1' was admitted").arg(QString::fromStdString(token))));
    QCOMPARE(r->refusal().code(), why);
    QCOMPARE(r->reason(), verdict::words(verdict::make(why)));
  }

  void admitted(const std::string& token) {
    const auto r = join(token);
    QVERIFY2(r, "the coordinator did not answer a join");
    QVERIFY2(r->accepted(), qPrintable(QString("a join with '%1' was refused: %2")
                                           .arg(QString::fromStdString(token),
                                                QString::fromStdString(r->reason()))));
  }

  QString run_cli(const QStringList& args, int* exit_code) {
    QProcess p;
    p.start(coordinator_bin(), args);
    if (!p.waitForFinished(20000)) return {};
    *exit_code = p.exitCode();
    return QString::fromUtf8(p.readAllStandardOutput());
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    const QString job_path = dir_.filePath("job.json");
    const auto job = write_demo_job(job_path, "invites");
    QVERIFY(job);
    job_ = *job;
    next_port_ = free_tcp_port();
    coordinator::CoordinatorConfig config;
    config.bind = "tcp://127.0.0.1:0";
    config.data_dir = dir_.filePath("coordinator").toStdString();
    config.ready_file = dir_.filePath("ready").toStdString();
    config.job_path = job_path.toStdString();
    config.invite_tokens = {};  // none on the command line, and --open:
    config.open = true;         // open until an invite is made
    service_ = std::make_unique<coordinator::CoordinatorService>(config);
    thread_ = std::thread([this] { service_->run(); });
    const auto address = wait_for_coordinator_ready(dir_.filePath("ready"), 10000);
    QVERIFY2(address, "the coordinator did not start");
    endpoint_ = address->endpoint.toStdString();
    key_ = address->key.toStdString();
  }

  void theRulesOfAnInvite() {
    QTemporaryDir dir;
    coordinator::CoordinatorState s(std::filesystem::path(dir.path().toStdString()) / "state.db");
    QVERIFY(!s.has_invites());
    s.add_invite("week", 1000, 1000 + 7 * 86400000ll);
    s.add_invite("forever", 1000, 0);
    QVERIFY(s.has_invites());
    QVERIFY_THROWS_EXCEPTION(store::StoreError,
                             s.add_invite("week", 2000, 0));  // tokens are unique
    QCOMPARE(s.invite_status("week", 5000), coordinator::InviteStatus::Valid);
    QCOMPARE(s.invite_status("week", 1000 + 7 * 86400000ll), coordinator::InviteStatus::Expired);
    QCOMPARE(s.invite_status("forever", 1ll << 50), coordinator::InviteStatus::Valid);
    QCOMPARE(s.invite_status("nobody", 5000), coordinator::InviteStatus::Unknown);
    QCOMPARE(s.invite_status("", 5000), coordinator::InviteStatus::Unknown);
    QVERIFY(s.revoke_invite("forever", 6000));
    QVERIFY(s.revoke_invite("forever", 7000));  // again: still revoked, at the first time
    QVERIFY(!s.revoke_invite("nobody", 6000));
    QCOMPARE(s.invite_status("forever", 6500), coordinator::InviteStatus::Revoked);
    const auto all = s.invites();
    QCOMPARE(all.size(), std::size_t(2));
    QCOMPARE(all[0].token, std::string("forever"));  // by creation, then token
    QCOMPARE(all[0].revoked_unix_ms, std::int64_t(6000));
    QCOMPARE(all[1].expires_unix_ms, 1000 + 7 * 86400000ll);
  }

  void anOpenJobAdmitsWithoutAToken() { admitted(""); }

  void theRunningCoordinatorHonoursNewAndRevokedInvites() {
    coordinator::CoordinatorState owner(state_path());  // the job owner's own connection
    owner.add_invite("a-week", now_ms(), now_ms() + 7 * 86400000ll);
    owner.add_invite("gone-by", now_ms() - 60000, now_ms() - 1000);
    refused("", wire::pb::Verdict::INVITE_NOT_VALID);
    refused("guessed", wire::pb::Verdict::INVITE_NOT_VALID);
    admitted("a-week");
    admitted("a-week");  // an invite admits anyone who has it, until it expires
    refused("gone-by", wire::pb::Verdict::INVITE_EXPIRED);
    QVERIFY(owner.revoke_invite("a-week", now_ms()));
    refused("a-week", wire::pb::Verdict::INVITE_REVOKED);
  }

  void theCommandLineMakesListsAndRevokesInvites() {
    QTemporaryDir data;
    int code = -1;
    const QString out =
        run_cli({"--data-dir", data.path(), "invite", "--expires-in-hours", "24", "--link",
                 "tcp://10.0.0.1:7461", "--job", dir_.filePath("job.json")},
                &code);
    QCOMPARE(code, 0);
    const QStringList lines = out.trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    const QString token = lines[0];
    QCOMPARE(token.size(), 32);  // 128 random bits in hex
    QVERIFY2(lines[1].startsWith("rookery://join?coordinator=tcp://10.0.0.1:7461&key=") &&
                 lines[1].endsWith("&job=invites&token=" + token),
             qPrintable(lines[1]));
    QVERIFY(
        run_cli({"--data-dir", data.path(), "invites"}, &code).contains(token + "  valid until "));
    QCOMPARE(code, 0);
    run_cli({"--data-dir", data.path(), "revoke-invite", token}, &code);
    QCOMPARE(code, 0);
    QVERIFY(run_cli({"--data-dir", data.path(), "invites"}, &code).contains(token + "  revoked "));
    run_cli({"--data-dir", data.path(), "revoke-invite", "no-such-token"}, &code);
    QCOMPARE(code, 1);
    coordinator::CoordinatorState s(std::filesystem::path(data.path().toStdString()) /
                                    "coordinator.db");
    QCOMPARE(s.invite_status(token.toStdString(), now_ms()), coordinator::InviteStatus::Revoked);
  }

  void cleanupTestCase() {
    if (service_) service_->request_stop();
    if (thread_.joinable()) thread_.join();
  }
};

// A token on the command line (--invite-token) never expires, and makes the job invite-only.
class TestCommandLineInvite : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void aCommandLineTokenAdmitsAndNothingElseDoes() {
    QTemporaryDir dir;
    const QString job_path = dir.filePath("job.json");
    const auto written = write_demo_job(job_path, "command-line-invite");
    QVERIFY(written);
    const auto& job = *written;
    coordinator::CoordinatorConfig config;
    config.bind = "tcp://127.0.0.1:0";
    config.data_dir = dir.filePath("coordinator").toStdString();
    config.ready_file = dir.filePath("ready").toStdString();
    config.job_path = job_path.toStdString();
    config.invite_tokens = {"owner-token"};
    coordinator::CoordinatorService service(config);
    std::thread t([&] { service.run(); });
    const auto address = wait_for_coordinator_ready(dir.filePath("ready"), 10000);
    QVERIFY(address);
    net::SecureContext ctx{1};
    const auto ask = [&](const std::string& token) {
      const auto r = coordinator_request(
          ctx, net::CurveKeyPair::generate(), address->endpoint.toStdString(),
          address->key.toStdString(), join_request(job.id, 1, 50e9, 1ll << 32, 1e9, 1e-4, token));
      return r && r->has_join_reply() ? std::optional<pb::JoinReply>(r->join_reply())
                                      : std::nullopt;
    };
    const auto ok = ask("owner-token");
    const auto no = ask("");
    service.request_stop();
    t.join();
    QVERIFY(ok && ok->accepted());
    QVERIFY(no && !no->accepted());
    QCOMPARE(no->refusal().code(), wire::pb::Verdict::INVITE_NOT_VALID);
  }
};

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  int status = 0;
  {
    TestCoordinatorInvites t;
    status |= QTest::qExec(&t, argc, argv);
  }
  {
    TestCommandLineInvite t;
    status |= QTest::qExec(&t, argc, argv);
  }
  return status;
}

#include "test_coordinator_invites.moc"
