// One Rookery per user and runtime folder. SingleInstance in one process (a second claim
// from another thread hands its request over), then the real `rookery` program twice: the
// second launch exits 0 and the first hears its --contribute; after the first is killed
// (kill -9: a stale lock and socket stay behind) a new launch becomes the instance.
#include <QProcess>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <csignal>
#include <thread>

#include "ui/single_instance.hpp"

using rookery::ui::SingleInstance;

namespace {

QString rookeryProgram() { return QStringLiteral(ROOKERY_BINARY_DIR "/app/rookery"); }

// The real GUI, in its own runtime and settings folders, with a swarm named so no first-run
// dialog waits, and /bin/true as the node (it starts nothing heavy).
void prepare(QProcess& p, const QTemporaryDir& dir, const QStringList& extra = {}) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
  env.insert(QStringLiteral("ROOKERY_DATA_DIR"), dir.filePath(QStringLiteral("data")));
  env.insert(QStringLiteral("ROOKERY_COORDINATOR"), QStringLiteral("tcp://127.0.0.1:9"));
  env.insert(QStringLiteral("ROOKERY_COORDINATOR_KEY"), QString(40, QLatin1Char('a')));
  env.insert(QStringLiteral("ROOKERY_NODE_ARGS"), QString());
  p.setProcessEnvironment(env);
  p.setProgram(rookeryProgram());
  p.setArguments(QStringList{QStringLiteral("--runtime-dir"), dir.filePath(QStringLiteral("run")),
                             QStringLiteral("--node-bin"), QStringLiteral("/bin/true")} +
                 extra);
  p.setProcessChannelMode(QProcess::MergedChannels);
}

void stop(QProcess& p) {
  if (p.state() == QProcess::NotRunning) return;
  p.terminate();
  if (!p.waitForFinished(5000)) {
    p.kill();
    p.waitForFinished(5000);
  }
}

}  // namespace

class TestSingleInstance : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void secondClaimHandsItsRequestOver() {
    QTemporaryDir dir;
    const std::filesystem::path run = dir.filePath(QStringLiteral("run")).toStdString();
    SingleInstance first(run);
    QCOMPARE(first.claim(), SingleInstance::Role::Primary);
    QVERIFY(QFile::exists(first.socketPath()));
    QCOMPARE(first.primaryPid(), QCoreApplication::applicationPid());
    QSignalSpy activated(&first, &SingleInstance::activated);

    // The second claim blocks until answered, so it runs on a thread while this one serves.
    std::atomic<int> role{-1};
    std::thread second([&] {
      SingleInstance other(run);
      role = static_cast<int>(other.claim({QStringLiteral("--contribute")}, 5000));
    });
    QTRY_VERIFY_WITH_TIMEOUT(role.load() != -1, 8000);
    second.join();
    QCOMPARE(role.load(), static_cast<int>(SingleInstance::Role::Secondary));
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toStringList(), QStringList{QStringLiteral("--contribute")});
  }

  void silentPrimaryIsReported() {
    // A live process holds the lock but nobody answers on the socket (a hung primary).
    QTemporaryDir dir;
    const std::filesystem::path run = dir.filePath(QStringLiteral("run")).toStdString();
    SingleInstance first(run);
    QCOMPARE(first.claim(), SingleInstance::Role::Primary);
    std::atomic<int> role{-1};
    QString error;
    std::thread second([&] {
      SingleInstance other(run);
      role = static_cast<int>(other.claim({}, 600));
      error = other.error();
    });
    // This thread serves no events: the primary never answers.
    second.join();
    QCOMPARE(role.load(), static_cast<int>(SingleInstance::Role::Failed));
    QVERIFY2(error.contains(QString::number(QCoreApplication::applicationPid())),
             qPrintable(error));
  }

  void unusableRuntimeFolder() {
    // The runtime "folder" is a file: no lock, no socket; the process runs unguarded and says why.
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("run")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    SingleInstance instance(dir.filePath(QStringLiteral("run")).toStdString());
    QCOMPARE(instance.claim({}, 500), SingleInstance::Role::Unguarded);
    QVERIFY(!instance.error().isEmpty());
  }

  // `rookery rookery://join?…`: with no instance running it opens the join dialog with the
  // link; a later launch with a link hands it over (the dialog shows it); once the first
  // instance runs its window, a link handed over makes it offer to join.
  void inviteLinksReachTheInstance() {
    if (!QFile::exists(rookeryProgram())) QSKIP("the rookery program is not built");
    QTemporaryDir dir;
    const QString key = QString(40, QLatin1Char('a'));
    const QString link =
        QStringLiteral("rookery://join?coordinator=tcp://127.0.0.1:9&key=%1&job=demo-bytes-gpt")
            .arg(key);
    QProcess first;
    prepare(first, dir, {link});
    first.start();
    QVERIFY(first.waitForStarted());
    QByteArray first_output;
    QTRY_VERIFY_WITH_TIMEOUT(
        (first_output += first.readAll()).contains("opened with an invite link: offering to join"),
        20000);
    const QString socket = dir.filePath(QStringLiteral("run/gui.sock"));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(socket), 20000);

    QProcess second;
    prepare(second, dir, {link + QStringLiteral("&token=t2")});
    second.start();
    QVERIFY(second.waitForFinished(20000));
    const QByteArray second_output = second.readAll();
    QVERIFY2(second.exitCode() == 0, second_output.constData());
    QVERIFY2(
        second_output.contains(
            "already running; its window was asked to come forward and to offer the invite link"),
        second_output.constData());
    QTRY_VERIFY_WITH_TIMEOUT(
        (first_output += first.readAll())
            .contains("another launch handed over an invite link: shown in the join dialog"),
        10000);
    QCOMPARE(first.state(), QProcess::Running);
    stop(first);

    // A running window (no dialog open) offers to join a link handed over.
    QProcess window;
    prepare(window, dir);
    window.start();
    QVERIFY(window.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(socket), 20000);
    const auto lockHolder = [&dir] {
      QFile lock(dir.filePath(QStringLiteral("run/gui.lock")));
      return lock.open(QIODevice::ReadOnly) ? lock.readLine().trimmed().toLongLong() : 0;
    };
    QTRY_VERIFY_WITH_TIMEOUT(lockHolder() == window.processId(), 20000);
    QProcess third;
    prepare(third, dir, {link});
    third.start();
    QVERIFY(third.waitForFinished(20000));
    QVERIFY2(third.exitCode() == 0, third.readAll().constData());
    QByteArray window_output;
    QTRY_VERIFY_WITH_TIMEOUT(
        (window_output += window.readAll())
            .contains("another launch asked for the window with an invite link: offering to join"),
        10000);
    QCOMPARE(window.state(), QProcess::Running);
    stop(window);
  }

  void twoRealLaunches() {
    if (!QFile::exists(rookeryProgram())) QSKIP("the rookery program is not built");
    QTemporaryDir dir;
    QProcess first;
    prepare(first, dir);
    first.start();
    QVERIFY(first.waitForStarted());
    const QString socket = dir.filePath(QStringLiteral("run/gui.sock"));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(socket), 20000);

    QProcess second;
    prepare(second, dir, {QStringLiteral("--contribute")});
    second.start();
    QVERIFY(second.waitForFinished(20000));
    const QByteArray second_output = second.readAll();
    QCOMPARE(second.exitStatus(), QProcess::NormalExit);
    QVERIFY2(second.exitCode() == 0, second_output.constData());
    QVERIFY2(second_output.contains("already running"), second_output.constData());
    QByteArray first_output;
    QTRY_VERIFY_WITH_TIMEOUT((first_output += first.readAll())
                                 .contains("another launch asked for the window and to contribute"),
                             10000);
    QCOMPARE(first.state(), QProcess::Running);

    // A crash leaves the lock and the socket file behind; the next launch takes over.
    ::kill(static_cast<pid_t>(first.processId()), SIGKILL);
    QVERIFY(first.waitForFinished(5000));
    QVERIFY(QFile::exists(socket));
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("run/gui.lock"))));
    QProcess third;
    prepare(third, dir);
    third.start();
    QVERIFY(third.waitForStarted());
    // It becomes the instance: a fourth launch is handed to it and exits at once.
    QProcess fourth;
    prepare(fourth, dir);
    // The lock names its holder; once it names the third launch, that one listens.
    const auto lockHolder = [&dir] {
      QFile lock(dir.filePath(QStringLiteral("run/gui.lock")));
      return lock.open(QIODevice::ReadOnly) ? lock.readLine().trimmed().toLongLong() : 0;
    };
    QTRY_VERIFY_WITH_TIMEOUT(lockHolder() == third.processId(), 20000);
    fourth.start();
    QVERIFY(fourth.waitForFinished(20000));
    QVERIFY2(fourth.exitCode() == 0, fourth.readAll().constData());
    QByteArray third_output;
    QTRY_VERIFY_WITH_TIMEOUT(
        (third_output += third.readAll()).contains("another launch asked for the window"), 10000);
    QVERIFY(!third_output.contains("and to contribute"));
    QCOMPARE(third.state(), QProcess::Running);
    stop(third);
  }
};

QTEST_MAIN(TestSingleInstance)
#include "test_single_instance.moc"
