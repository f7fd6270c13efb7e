// The first run against a real rookery-coordinator: the probe tells a coordinator that
// answers from one that is not there, one with another key, one that refuses this PC and
// something that is no coordinator at all; the dialog joins only after an answer and says
// why not otherwise; and when a first run is due at all.
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <filesystem>
#include <thread>

#include "net/identity.hpp"
#include "control/control_client.hpp"
#include "support/processes.hpp"
#include "ui/first_run_demo.hpp"
#include "ui/first_run_dialog.hpp"

using namespace rookery::ui;
using Outcome = CoordinatorProbe::Outcome;
namespace pb = rookery::wire::pb;

namespace {

// A rookery-coordinator of the test's own, on a free loopback port.
class Coordinator {
 public:
  static QStringList demoJob() {
    return {QStringLiteral("--job"),
            QStringLiteral(ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json"),
            QStringLiteral("--open")};
  }
  bool start(const QTemporaryDir& dir, const QString& name, const QStringList& extra = demoJob()) {
    const QString ready = dir.filePath(name + QStringLiteral(".ready"));
    process_.setProgram(QStringLiteral(ROOKERY_BINARY_DIR "/app/rookery-coordinator"));
    process_.setArguments(QStringList{QStringLiteral("--bind"), QStringLiteral("tcp://127.0.0.1:0"),
                                      QStringLiteral("--data-dir"), dir.filePath(name),
                                      QStringLiteral("--ready-file"), ready} +
                          extra);
    process_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process_.setStandardOutputFile(QProcess::nullDevice());
    process_.start();
    if (!process_.waitForStarted()) return false;
    const auto address = rookery::testing::wait_for_coordinator_ready(ready, 15000, &process_);
    if (!address) return false;
    endpoint_ = address->endpoint;
    key_ = address->key;
    return true;
  }
  ~Coordinator() {
    process_.terminate();
    if (!process_.waitForFinished(5000)) process_.kill();
    process_.waitForFinished(2000);
  }
  InviteLink invite(const QString& job = QStringLiteral("demo-bytes-gpt")) const {
    return {endpoint_, key_, job};
  }

 private:
  QProcess process_;
  QString endpoint_, key_;
};

// A node's data folder and the identity rookery-node finds there.
struct NodeData {
  QString dir;
  rookery::net::CurveKeyPair identity;
};
NodeData nodeData(const QTemporaryDir& tmp, const QString& name) {
  const QString dir = tmp.filePath(name);
  return {dir, rookery::net::CurveKeyPair::load_or_create(
                   std::filesystem::path(dir.toStdString()) / "keys", "node")};
}

// Has rookery-node probe as the node of `node` on a thread while this one keeps serving events
// (test servers need them).
CoordinatorProbe probeAsync(const InviteLink& link, const NodeData& node, int timeout_ms) {
  CoordinatorProbe result;
  std::atomic<bool> done{false};
  std::thread t([&] {
    result =
        CoordinatorProbe::runAsNode(link, QStringLiteral(ROOKERY_BINARY_DIR "/app/rookery-node"),
                                    node.dir.toStdString(), std::chrono::milliseconds(timeout_ms));
    done = true;
  });
  (void)QTest::qWaitFor([&] { return done.load(); }, timeout_ms + 35000);
  t.join();
  return result;
}

quint16 unusedPort() {
  QTcpServer s;
  s.listen(QHostAddress::LocalHost, 0);
  return s.serverPort();  // closed when `s` goes: nothing listens there
}

QString print(const CoordinatorProbe& p, const InviteLink& link) {
  return QStringLiteral("outcome %1: %2 (%3)")
      .arg(static_cast<int>(p.outcome))
      .arg(p.message(link), p.detail);
}

}  // namespace

class TestFirstRun : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  Coordinator open_;
  NodeData me_ = nodeData(dir_, QStringLiteral("me"));

 private Q_SLOTS:
  void initTestCase() { QVERIFY(open_.start(dir_, QStringLiteral("open"))); }

  void probeReachesACoordinator() {
    const InviteLink link = open_.invite();
    const auto p = probeAsync(link, me_, 4000);
    QVERIFY2(p.ok(), qPrintable(print(p, link)));
    QVERIFY(!p.version.isEmpty());
    QVERIFY(p.rtt_ms >= 0 && p.rtt_ms < 4000);
    QVERIFY(p.message(link).contains(link.coordinator()));
  }

  void probeNobodyListening() {
    const InviteLink link(QStringLiteral("tcp://127.0.0.1:%1").arg(unusedPort()),
                          open_.invite().key(), QStringLiteral("j"));
    const auto p = probeAsync(link, me_, 1500);
    QCOMPARE(p.outcome, Outcome::Unreachable);
    QVERIFY2(p.message(link).startsWith(
                 QStringLiteral("Cannot reach the coordinator at tcp://127.0.0.1:")),
             qPrintable(p.message(link)));
  }

  void probeWrongKey() {
    const InviteLink good = open_.invite();
    const InviteLink link(good.coordinator(),
                          QString::fromStdString(rookery::net::CurveKeyPair::generate().public_key),
                          good.job());
    const auto p = probeAsync(link, me_, 3000);
    QVERIFY2(p.outcome == Outcome::KeyMismatch, qPrintable(print(p, link)));
    QVERIFY(p.message(link).contains(QStringLiteral("secure handshake failed")));
  }

  void probeRefusedByAllowList() {
    const NodeData member = nodeData(dir_, QStringLiteral("member"));
    Coordinator closed;
    QVERIFY(closed.start(
        dir_, QStringLiteral("closed"),
        Coordinator::demoJob() + QStringList{QStringLiteral("--allow-key"),
                                             QString::fromStdString(member.identity.public_key)}));
    const InviteLink link = closed.invite();
    const auto refused = probeAsync(link, me_, 3000);
    QVERIFY2(refused.outcome == Outcome::Refused, qPrintable(print(refused, link)));
    QVERIFY(refused.message(link).contains(QStringLiteral("refused this PC")));
    const auto admitted = probeAsync(link, member, 3000);
    QVERIFY2(admitted.ok(), qPrintable(print(admitted, link)));
  }

  void probeOtherJobOrNone() {
    // The link names a job this coordinator does not run.
    const InviteLink wrong = open_.invite(QStringLiteral("another-run"));
    const auto p = probeAsync(wrong, me_, 4000);
    QVERIFY2(p.outcome == Outcome::WrongJob, qPrintable(print(p, wrong)));
    QCOMPARE(p.detail, QStringLiteral("demo-bytes-gpt"));
    QVERIFY(p.message(wrong).contains(
        QStringLiteral("runs the job “demo-bytes-gpt”, not “another-run”")));
    // A coordinator that runs no job yet.
    Coordinator idle;
    QVERIFY(idle.start(dir_, QStringLiteral("idle"), {}));
    const InviteLink link = idle.invite();
    const auto q = probeAsync(link, me_, 4000);
    QVERIFY2(q.outcome == Outcome::NoJob, qPrintable(print(q, link)));
    QVERIFY(q.message(link).contains(QStringLiteral("runs no job yet")));
  }

  void probeSomethingElse() {
    // A server that is not ZeroMQ at all (here: one that answers like a web server).
    QTcpServer web;
    QVERIFY(web.listen(QHostAddress::LocalHost, 0));
    connect(&web, &QTcpServer::newConnection, &web, [&web] {
      while (QTcpSocket* s = web.nextPendingConnection()) {
        s->write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        s->disconnectFromHost();
      }
    });
    const InviteLink link(QStringLiteral("tcp://127.0.0.1:%1").arg(web.serverPort()),
                          open_.invite().key(), QStringLiteral("j"));
    const auto p = probeAsync(link, me_, 2000);
    QVERIFY2(p.outcome == Outcome::KeyMismatch, qPrintable(print(p, link)));
  }

  void probeAsTheNodeUsesTheNodesKey() {
    // The key rookery-node itself uses, printed by the node: the coordinator admits only it.
    const QString data = dir_.filePath(QStringLiteral("node-data"));
    QProcess node;
    node.start(QStringLiteral(ROOKERY_BINARY_DIR "/app/rookery-node"),
               {QStringLiteral("--data-dir"), data, QStringLiteral("--print-identity")});
    QVERIFY(node.waitForFinished(30000));
    const QString node_key = QString::fromUtf8(node.readAllStandardOutput()).trimmed();
    QCOMPARE(node_key.size(), 40);
    Coordinator closed;
    QVERIFY(closed.start(
        dir_, QStringLiteral("closed-for-node"),
        Coordinator::demoJob() + QStringList{QStringLiteral("--allow-key"), node_key}));
    CoordinatorProbe p;
    std::atomic<bool> done{false};
    std::thread t([&] {
      p = CoordinatorProbe::runAsNode(closed.invite(),
                                      QStringLiteral(ROOKERY_BINARY_DIR "/app/rookery-node"),
                                      data.toStdString(), std::chrono::milliseconds(3000));
      done = true;
    });
    (void)QTest::qWaitFor([&] { return done.load(); }, 40000);
    t.join();
    QVERIFY2(p.ok(), qPrintable(print(p, closed.invite())));
  }

  void dialogValidatesAsYouType() {
    FirstRunDialog dialog({[](const InviteLink&) { return CoordinatorProbe{}; }, {}, {}, {}});
    QVERIFY(!dialog.demoButton());  // no demo offered without a way to start one
    QVERIFY(!dialog.joinButton()->isEnabled());
    dialog.linkEdit()->setText(QStringLiteral("rookery://join?coordinator=tcp://h:1&job=j"));
    QVERIFY(!dialog.joinButton()->isEnabled());
    QVERIFY2(dialog.statusLabel()->text().contains(QStringLiteral("no coordinator key")),
             qPrintable(dialog.statusLabel()->text()));
    dialog.linkEdit()->setText(open_.invite().toString());
    QVERIFY(dialog.joinButton()->isEnabled());
    QVERIFY(dialog.statusLabel()->text().contains(QStringLiteral("demo-bytes-gpt")));
    dialog.show();
    QSignalSpy rejected(&dialog, &QDialog::rejected);
    dialog.laterButton()->click();
    QCOMPARE(rejected.count(), 1);
    QCOMPARE(dialog.choice(), FirstRunDialog::Choice::None);
    QVERIFY(!dialog.invite());
  }

  void dialogJoinsOnlyWhenTheCoordinatorAnswers() {
    const auto me = me_;
    FirstRunDialog::Options options;
    options.probe = [me](const InviteLink& link) {
      return CoordinatorProbe::runAsNode(link,
                                         QStringLiteral(ROOKERY_BINARY_DIR "/app/rookery-node"),
                                         me.dir.toStdString(), std::chrono::milliseconds(1500));
    };
    FirstRunDialog dialog(options);
    dialog.show();
    QSignalSpy accepted(&dialog, &QDialog::accepted);

    // Nobody there: the dialog stays and says so.
    dialog.linkEdit()->setText(InviteLink(QStringLiteral("tcp://127.0.0.1:%1").arg(unusedPort()),
                                          open_.invite().key(), QStringLiteral("j"))
                                   .toString());
    dialog.joinButton()->click();
    QVERIFY(dialog.busy());
    QVERIFY(!dialog.linkEdit()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.busy(), 30000);
    QCOMPARE(accepted.count(), 0);
    QVERIFY(dialog.isVisible());
    QVERIFY2(dialog.statusLabel()->text().startsWith(QStringLiteral("Cannot reach")),
             qPrintable(dialog.statusLabel()->text()));
    QVERIFY(dialog.linkEdit()->isEnabled());

    // The real coordinator: joined.
    dialog.linkEdit()->setText(open_.invite().toString());
    dialog.joinButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(accepted.count(), 1, 30000);
    QCOMPARE(dialog.choice(), FirstRunDialog::Choice::Invite);
    QVERIFY(dialog.invite());
    QCOMPARE(*dialog.invite(), open_.invite());
  }

  void dialogDemo() {
    const auto me = me_;
    std::atomic<bool> fail{true};
    FirstRunDialog::Options options;
    options.probe = [me](const InviteLink& link) {
      return CoordinatorProbe::runAsNode(link,
                                         QStringLiteral(ROOKERY_BINARY_DIR "/app/rookery-node"),
                                         me.dir.toStdString(), std::chrono::milliseconds(3000));
    };
    const InviteLink demo = open_.invite();
    options.start_demo = [&fail, demo](QString* error) -> std::optional<InviteLink> {
      if (fail) {
        *error = QStringLiteral("rookery-coordinator was not found");
        return std::nullopt;
      }
      return demo;
    };
    FirstRunDialog dialog(options);
    dialog.show();
    QVERIFY(dialog.demoButton());
    dialog.demoButton()->click();
    QVERIFY(dialog.busy());
    QVERIFY(!dialog.demoButton()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.busy(), 30000);
    QVERIFY(
        dialog.statusLabel()->text().contains(QStringLiteral("rookery-coordinator was not found")));
    QVERIFY(dialog.isVisible());
    QVERIFY(dialog.demoButton()->isEnabled());
    fail = false;
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    dialog.demoButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(accepted.count(), 1, 30000);
    QCOMPARE(dialog.choice(), FirstRunDialog::Choice::Demo);
    QCOMPARE(*dialog.invite(), demo);
  }

  void demoSwarm() {
    // The demo as the first run starts it: a coordinator running the demo job and two
    // volunteers joined to it, the GUI's node told to join too; started again, the same
    // swarm; stopped, all gone.
    qputenv("ROOKERY_DEMO_JOB", ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
    const QString data = dir_.filePath(QStringLiteral("gui-node"));
    const DemoSwarm::Setup setup =
        DemoSwarm::locate(QStringLiteral(ROOKERY_BINARY_DIR "/app/rookery-node"), data);
    QCOMPARE(setup.coordinator_program,
             QStringLiteral(ROOKERY_BINARY_DIR "/app/rookery-coordinator"));
    QVERIFY(setup.job.endsWith(QStringLiteral("resources/demo/demo-job.json")));
    QCOMPARE(setup.dir, QDir(data).filePath(QStringLiteral("demo")));
    // The helpers run detached: whatever happens below, they do not outlive the test.
    struct StopDemo {
      QString dir;
      ~StopDemo() { DemoSwarm::stop(dir, 5000); }
    } stop_demo{setup.dir};
    QString error;
    const auto first = DemoSwarm::start(setup, &error);
    QVERIFY2(first, qPrintable(error));
    QCOMPARE(first->pids.size(), 3);
    QCOMPARE(DemoSwarm::alivePids(setup.dir).size(), 3);
    QCOMPARE(first->invite.job(), QStringLiteral("demo-bytes-gpt"));
    QVERIFY(first->offer_mb > 0);
    const QStringList offer{QStringLiteral("--memory-limit-mb"), QString::number(first->offer_mb),
                            QStringLiteral("--threads"), QStringLiteral("1")};
    QCOMPARE(first->node_arguments, first->invite.nodeArguments() + offer);
    QVERIFY(first->node_arguments.contains(QStringLiteral("--join")));
    // The coordinator answers as any invite's would; the volunteers answer on their control
    // API and talk to that coordinator.
    const auto p = probeAsync(first->invite, me_, 4000);
    QVERIFY2(p.ok(), qPrintable(print(p, first->invite)));
    for (int i = 1; i <= 2; ++i) {
      rookery::control::ControlClient peer(rookery::control::ControlEndpoints::in(
          QDir(setup.dir).filePath(QStringLiteral("run-peer%1").arg(i)).toStdString()));
      rookery::control::ControlClient::Answer answer;
      QVERIFY2(
          QTest::qWaitFor([&] { return (answer = peer.status(std::chrono::milliseconds(500))).ok; },
                          30000),
          qPrintable(QStringLiteral("volunteer %1 does not answer").arg(i)));
      QCOMPARE(QString::fromStdString(answer.snapshot.coordinator().endpoint()),
               first->invite.coordinator());
    }
    // Again: nothing new is started.
    const auto again = DemoSwarm::start(setup, &error);
    QVERIFY2(again, qPrintable(error));
    QCOMPARE(again->pids, first->pids);
    QCOMPARE(again->invite, first->invite);
    DemoSwarm::stop(setup.dir);
    QVERIFY(DemoSwarm::alivePids(setup.dir).isEmpty());
    // Started after a stop: the same coordinator (port, key) comes back.
    const auto back = DemoSwarm::start(setup, &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(back->invite, first->invite);
    QVERIFY(back->pids != first->pids);
    DemoSwarm::stop(setup.dir);
    QVERIFY(DemoSwarm::alivePids(setup.dir).isEmpty());
    // A missing job is said plainly.
    DemoSwarm::Setup broken = setup;
    broken.job.clear();
    QVERIFY(!DemoSwarm::start(broken, &error));
    QVERIFY2(error.contains(QStringLiteral("demo-job.json")), qPrintable(error));
  }

  void whenAFirstRunIsDue() {
    QSettings settings(dir_.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    QProcessEnvironment env;
    QVERIFY(firstRunNeeded(env, settings, nullptr));

    // The demo script's environment: no first run.
    QProcessEnvironment demo;
    demo.insert(QStringLiteral("ROOKERY_COORDINATOR"), QStringLiteral("tcp://127.0.0.1:7461"));
    QVERIFY(!firstRunNeeded(demo, settings, nullptr));
    QProcessEnvironment plan;
    plan.insert(QStringLiteral("ROOKERY_NODE_ARGS"),
                QStringLiteral("--plan '/tmp/my plan.json' --stage 0"));
    QVERIFY(environmentNamesSwarm(plan));
    QVERIFY(!firstRunNeeded(plan, settings, nullptr));
    QProcessEnvironment threads;
    threads.insert(QStringLiteral("ROOKERY_NODE_ARGS"), QStringLiteral("--threads 2 --planner x"));
    QVERIFY(!environmentNamesSwarm(threads));

    // A running node that already has a coordinator or a stage: none.
    pb::NodeSnapshot node;
    QVERIFY(firstRunNeeded(env, settings, &node));
    node.mutable_coordinator()->set_endpoint("tcp://10.0.0.1:7461");
    QVERIFY(!firstRunNeeded(env, settings, &node));
    pb::NodeSnapshot staged;
    staged.mutable_stage()->set_job_id("j");
    QVERIFY(!firstRunNeeded(env, settings, &staged));

    // A swarm chosen before: none; a damaged saved link is as good as none.
    settings.setValue(QStringLiteral("swarm/invite"), QStringLiteral("rookery://join?garbage"));
    QVERIFY(!savedInvite(settings));
    QVERIFY(firstRunNeeded(env, settings, nullptr));
    saveInvite(settings, open_.invite());
    QCOMPARE(*savedInvite(settings), open_.invite());
    QVERIFY(!firstRunNeeded(env, settings, nullptr));
  }
};

QTEST_MAIN(TestFirstRun)
#include "test_first_run.moc"
