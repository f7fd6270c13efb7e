#include "ui/first_run_demo.hpp"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSaveFile>
#include <QTcpServer>
#include <QThread>

#ifdef Q_OS_UNIX
#include <signal.h>
#endif

namespace rookery::ui {

namespace {

QJsonObject readJson(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(f.readAll()).object();
}

bool writeJson(const QString& path, const QJsonObject& o) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return false;
  f.write(QJsonDocument(o).toJson());
  return f.commit();
}

int freePort() {
  QTcpServer s;
  return s.listen(QHostAddress::LocalHost, 0) ? s.serverPort() : 0;
}

// Alive, and still the program we started (a pid can be reused after a reboot).
bool alive(qint64 pid, const QString& program) {
#ifdef Q_OS_UNIX
  if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) != 0) return false;
  QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
  if (stat.open(QIODevice::ReadOnly)) {
    const QByteArray line = stat.readAll();
    const int close = line.lastIndexOf(')');
    if (close > 0 && close + 2 < line.size() && (line[close + 2] == 'Z' || line[close + 2] == 'X'))
      return false;
  }
  const QString exe = QFileInfo(QStringLiteral("/proc/%1/exe").arg(pid)).symLinkTarget();
  return exe.isEmpty() || QFileInfo(exe).fileName() == QFileInfo(program).fileName();
#else
  Q_UNUSED(pid);
  Q_UNUSED(program);
  return false;
#endif
}

qint64 startDetached(const QString& program, const QStringList& args, const QString& log) {
  QProcess p;
  p.setProgram(program);
  p.setArguments(args);
  p.setStandardOutputFile(log, QIODevice::Append);
  p.setStandardErrorFile(log, QIODevice::Append);
  qint64 pid = 0;
  return p.startDetached(&pid) ? pid : 0;
}

}  // namespace

DemoSwarm::Setup DemoSwarm::locate(const QString& node_program, const QString& node_data_dir) {
  Setup s;
  s.node_program = node_program;
  s.node_data_dir = node_data_dir;
  s.dir = QDir(node_data_dir).filePath(QStringLiteral("demo"));
  if (!node_program.isEmpty()) {
    const QString beside =
        QFileInfo(node_program).dir().filePath(QStringLiteral("rookery-coordinator"));
    if (QFileInfo(beside).isExecutable()) s.coordinator_program = beside;
  }
  const QString app_dir = QCoreApplication::applicationDirPath();
  const QStringList jobs = {qEnvironmentVariable("ROOKERY_DEMO_JOB"),
                            app_dir + QStringLiteral("/../share/rookery/demo/demo-job.json"),
                            app_dir + QStringLiteral("/../../resources/demo/demo-job.json")};
  for (const QString& job : jobs) {
    if (!job.isEmpty() && QFileInfo::exists(job)) {
      s.job = QFileInfo(job).canonicalFilePath();
      break;
    }
  }
  return s;
}

QList<qint64> DemoSwarm::alivePids(const QString& dir) {
  const QJsonObject state = readJson(QDir(dir).filePath(QStringLiteral("demo.json")));
  QList<qint64> pids;
  const QJsonArray processes = state.value(QStringLiteral("processes")).toArray();
  for (const auto& p : processes) {
    const QJsonObject o = p.toObject();
    const qint64 pid = o.value(QStringLiteral("pid")).toInteger();
    if (alive(pid, o.value(QStringLiteral("program")).toString())) pids << pid;
  }
  return pids;
}

std::optional<DemoSwarm::Running> DemoSwarm::start(const Setup& setup, QString* error) {
  auto fail = [error](const QString& why) -> std::optional<Running> {
    if (error) *error = why;
    return std::nullopt;
  };
  if (setup.node_program.isEmpty()) return fail(tr("rookery-node was not found"));
  if (setup.coordinator_program.isEmpty())
    return fail(tr("rookery-coordinator was not found beside rookery-node"));
  if (setup.job.isEmpty())
    return fail(tr("the demo job (demo-job.json) was not found; set ROOKERY_DEMO_JOB"));
  QDir dir(setup.dir);
  if (!dir.mkpath(QStringLiteral("."))) return fail(tr("cannot create %1").arg(setup.dir));
  const QString state_path = dir.filePath(QStringLiteral("demo.json"));
  QJsonObject state = readJson(state_path);
  const QString job_id = readJson(setup.job).value(QStringLiteral("id")).toString();
  if (!InviteLink::checkJob(job_id).isEmpty())
    return fail(tr("%1 is not a job spec with an id").arg(setup.job));

  // The port and the memory offer are chosen once; later starts bring the same swarm back
  // (the coordinator keeps its key and its plan in its folder).
  if (state.value(QStringLiteral("job")).toString() != setup.job ||
      state.value(QStringLiteral("volunteers")).toInt() != setup.volunteers) {
    stop(setup.dir);
    // Half the memory the model needs in one place each: the volunteers must share it.
    QProcess need;
    need.start(setup.coordinator_program,
               {QStringLiteral("--job"), setup.job, QStringLiteral("--print-memory")});
    bool ok = need.waitForFinished(30000) && need.exitCode() == 0;
    const qint64 bytes =
        ok ? QString::fromLatin1(need.readAllStandardOutput()).trimmed().toLongLong(&ok) : 0;
    if (!ok || bytes <= 0) {
      return fail(tr("%1 could not size the demo job: %2")
                      .arg(QFileInfo(setup.coordinator_program).fileName(),
                           QString::fromLocal8Bit(need.readAllStandardError()).trimmed()));
    }
    const int port = freePort();
    if (port == 0) return fail(tr("no free port on 127.0.0.1"));
    state = QJsonObject{
        {QStringLiteral("job"), setup.job},
        {QStringLiteral("volunteers"), setup.volunteers},
        {QStringLiteral("coordinator_port"), port},
        {QStringLiteral("offer_mb"), static_cast<qint64>(bytes * 50 / 100 / 1048576 + 1)}};
    if (!writeJson(state_path, state)) return fail(tr("cannot write %1").arg(state_path));
  }
  const int coordinator_port = state.value(QStringLiteral("coordinator_port")).toInt();
  const QString offer_mb = QString::number(state.value(QStringLiteral("offer_mb")).toInteger());

  // Start whichever helper is not running: the coordinator, then the headless volunteers.
  QJsonArray processes = state.value(QStringLiteral("processes")).toArray();
  while (processes.size() < setup.volunteers) processes.append(QJsonObject{});
  auto running = [&processes](int i) {
    const QJsonObject o = processes.at(i).toObject();
    return alive(o.value(QStringLiteral("pid")).toInteger(),
                 o.value(QStringLiteral("program")).toString());
  };
  const QString ready = dir.filePath(QStringLiteral("coordinator.ready"));
  if (!running(0)) {
    QFile::remove(ready);
    const qint64 pid = startDetached(
        setup.coordinator_program,
        {QStringLiteral("--bind"), QStringLiteral("tcp://127.0.0.1:%1").arg(coordinator_port),
         QStringLiteral("--data-dir"), dir.filePath(QStringLiteral("coordinator")),
         QStringLiteral("--job"), setup.job, QStringLiteral("--ready-file"), ready,
         // On loopback, only this PC's own volunteers can join: no invites needed.
         QStringLiteral("--open")},
        dir.filePath(QStringLiteral("coordinator.log")));
    if (pid == 0) return fail(tr("could not start %1").arg(setup.coordinator_program));
    processes[0] = QJsonObject{{QStringLiteral("pid"), pid},
                               {QStringLiteral("program"), setup.coordinator_program}};
    const QDeadlineTimer deadline(15000);
    while (!QFileInfo::exists(ready) && !deadline.hasExpired() &&
           alive(pid, setup.coordinator_program)) {
      QThread::msleep(50);
    }
    if (!QFileInfo::exists(ready)) {
      return fail(tr("the demo coordinator did not start; see %1")
                      .arg(dir.filePath(QStringLiteral("coordinator.log"))));
    }
  }
  QFile ready_file(ready);
  const QStringList coordinator =
      ready_file.open(QIODevice::ReadOnly)
          ? QString::fromUtf8(ready_file.readAll()).simplified().split(QLatin1Char(' '))
          : QStringList{};
  if (coordinator.size() != 2)
    return fail(tr("the demo coordinator wrote no address to %1").arg(ready));
  const InviteLink invite(coordinator[0], coordinator[1], job_id);
  QString why;
  if (!(why = InviteLink::checkCoordinator(invite.coordinator())).isEmpty() ||
      !(why = InviteLink::checkKey(invite.key())).isEmpty()) {
    return fail(why);
  }
  const QStringList offer{QStringLiteral("--memory-limit-mb"), offer_mb,
                          QStringLiteral("--threads"), QStringLiteral("1")};
  for (int i = 1; i < setup.volunteers; ++i) {
    if (running(i)) continue;
    const qint64 pid = startDetached(
        setup.node_program,
        QStringList{QStringLiteral("--data-dir"), dir.filePath(QStringLiteral("peer%1").arg(i)),
                    QStringLiteral("--runtime-dir"),
                    dir.filePath(QStringLiteral("run-peer%1").arg(i)),
                    QStringLiteral("--contribute")} +
            invite.nodeArguments() + offer,
        dir.filePath(QStringLiteral("peer%1.log").arg(i)));
    if (pid == 0) return fail(tr("could not start %1").arg(setup.node_program));
    processes[i] =
        QJsonObject{{QStringLiteral("pid"), pid}, {QStringLiteral("program"), setup.node_program}};
  }
  state.insert(QStringLiteral("processes"), processes);
  if (!writeJson(state_path, state)) return fail(tr("cannot write %1").arg(state_path));

  Running r;
  r.invite = invite;
  r.offer_mb = offer_mb.toInt();
  r.node_arguments = invite.nodeArguments() + offer;
  for (const auto& p : processes) r.pids << p.toObject().value(QStringLiteral("pid")).toInteger();
  return r;
}

void DemoSwarm::stop(const QString& dir, int wait_ms) {
#ifdef Q_OS_UNIX
  const QList<qint64> pids = alivePids(dir);
  for (const qint64 pid : pids) ::kill(static_cast<pid_t>(pid), SIGTERM);
  const QDeadlineTimer deadline(wait_ms);
  while (!alivePids(dir).isEmpty() && !deadline.hasExpired()) QThread::msleep(50);
  for (const qint64 pid : alivePids(dir)) ::kill(static_cast<pid_t>(pid), SIGKILL);
#else
  Q_UNUSED(dir);
  Q_UNUSED(wait_ms);
#endif
}

}  // namespace rookery::ui
