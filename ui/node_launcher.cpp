#include "ui/node_launcher.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <signal.h>
#endif

#include "ui/node_connection.hpp"

namespace rookery::ui {

NodeLauncher::NodeLauncher(NodeConnection& connection, Options options, QObject* parent)
    : QObject(parent),
      connection_(connection),
      options_(std::move(options)),
      program_(findNodeProgram(options_.program)),
      keep_alive_(options_.keep_alive) {
  retry_ = new QTimer(this);
  retry_->setSingleShot(true);
  connect(retry_, &QTimer::timeout, this, &NodeLauncher::restartIfCrashed);
  connect(&connection_, &NodeConnection::connectionChanged, this,
          &NodeLauncher::onConnectionChanged);
  connect(&connection_, &NodeConnection::nodeShutdown, this,
          [this] { announced_shutdown_ = true; });
}

QString NodeLauncher::findNodeProgram(const QString& explicit_program) {
  const QString name = QStringLiteral("rookery-node");
  if (!explicit_program.isEmpty()) return explicit_program;
  const QString from_env = qEnvironmentVariable("ROOKERY_NODE_BIN");
  if (!from_env.isEmpty()) return from_env;
  const QString beside = QDir(QCoreApplication::applicationDirPath()).filePath(name);
  if (QFileInfo(beside).isExecutable()) return beside;
  return QStandardPaths::findExecutable(name);
}

namespace {
// Words as a POSIX shell splits them, without expansions: blanks separate, '…' is literal,
// "…" keeps blanks and honours \" and \\, a backslash outside quotes escapes the next
// character. (QProcess::splitCommand knows only double quotes.)
QStringList shellWords(const QString& text) {
  QStringList words;
  QString word;
  bool in_word = false;
  for (qsizetype i = 0; i < text.size(); ++i) {
    const QChar c = text[i];
    if (c == QLatin1Char('\'')) {
      in_word = true;
      for (++i; i < text.size() && text[i] != QLatin1Char('\''); ++i) word += text[i];
    } else if (c == QLatin1Char('"')) {
      in_word = true;
      for (++i; i < text.size() && text[i] != QLatin1Char('"'); ++i) {
        if (text[i] == QLatin1Char('\\') && i + 1 < text.size() &&
            QStringLiteral("\"\\$`").contains(text[i + 1])) {
          ++i;
        }
        word += text[i];
      }
    } else if (c == QLatin1Char('\\')) {
      in_word = true;
      if (i + 1 < text.size()) word += text[++i];
    } else if (c.isSpace()) {
      if (in_word) words << word;
      word.clear();
      in_word = false;
    } else {
      in_word = true;
      word += c;
    }
  }
  if (in_word) words << word;
  return words;
}
}  // namespace

QStringList NodeLauncher::argumentsFrom(const QString& node_args, const QString& data_dir,
                                        const QString& host) {
  QStringList args = shellWords(node_args);
  const auto names = [&args](const QString& option) {
    return std::any_of(args.cbegin(), args.cend(), [&option](const QString& a) {
      return a == option || a.startsWith(option + QLatin1Char('='));
    });
  };
  if (!data_dir.isEmpty() && !names(QStringLiteral("--data-dir")))
    args << QStringLiteral("--data-dir") << data_dir;
  if (!host.isEmpty() && !names(QStringLiteral("--host"))) args << QStringLiteral("--host") << host;
  return args;
}

namespace {
// Removes `option` and its value ("--opt value" or "--opt=value") from `args`.
void removeOption(QStringList& args, const QString& option) {
  for (int i = 0; i < args.size();) {
    if (args[i] == option) {
      args.remove(i, std::min<qsizetype>(2, args.size() - i));
    } else if (args[i].startsWith(option + QLatin1Char('='))) {
      args.remove(i);
    } else {
      ++i;
    }
  }
}
}  // namespace

QStringList NodeLauncher::withDataDir(QStringList args, const QString& data_dir) {
  removeOption(args, QStringLiteral("--data-dir"));
  if (!data_dir.isEmpty()) args << QStringLiteral("--data-dir") << data_dir;
  return args;
}

QStringList NodeLauncher::withHost(QStringList args, const QString& host) {
  removeOption(args, QStringLiteral("--host"));
  if (!host.isEmpty()) args << QStringLiteral("--host") << host;
  return args;
}

QStringList NodeLauncher::withoutSwarm(const QStringList& args) {
  QStringList out = args;
  for (const char* option : {"--join", "--coordinator", "--coordinator-key", "--invite-token",
                             "--host", "--plan", "--stage", "--max-micro-batches"}) {
    removeOption(out, QString::fromLatin1(option));
  }
  return out;
}

QString NodeLauncher::chosenDataDir() {
  const QString env = qEnvironmentVariable("ROOKERY_DATA_DIR");
  if (!env.isEmpty()) return env;
  return QSettings().value(QStringLiteral("node/data_dir")).toString();
}

QString NodeLauncher::chosenHost() {
  return QSettings().value(QStringLiteral("node/host")).toString();
}

void NodeLauncher::setChosenHost(const QString& host) {
  QSettings settings;
  if (host.isEmpty()) {
    settings.remove(QStringLiteral("node/host"));
  } else {
    settings.setValue(QStringLiteral("node/host"), host);
  }
  settings.sync();
}

void NodeLauncher::setChosenDataDir(const QString& data_dir) {
  QSettings settings;
  if (data_dir.isEmpty()) {
    settings.remove(QStringLiteral("node/data_dir"));
  } else {
    settings.setValue(QStringLiteral("node/data_dir"), data_dir);
  }
  settings.sync();
}

bool NodeLauncher::launchPending() const {
  return last_pid_ != 0 && since_launch_.isValid() &&
         since_launch_.elapsed() < options_.answer_grace_ms && processAlive(last_pid_);
}

bool NodeLauncher::processAlive(qint64 pid) const {
#ifdef Q_OS_UNIX
  if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM)) return false;
#ifdef Q_OS_LINUX
  // A detached node is reparented; where nobody reaps it, a dead one lingers as a zombie.
  QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
  if (stat.open(QIODevice::ReadOnly)) {
    const QByteArray line = stat.readAll();
    const int close = line.lastIndexOf(')');
    if (close > 0 && close + 2 < line.size() && (line[close + 2] == 'Z' || line[close + 2] == 'X'))
      return false;
  }
#endif
  return true;
#else
  Q_UNUSED(pid);
  return false;
#endif
}

bool NodeLauncher::ensureRunning(bool contribute) {
  if (connection_.isConnected() || connection_.refresh()) {
    if (contribute && connection_.snapshot().state() != pb::CONTRIBUTING) connection_.contribute();
    return true;
  }
  if (launchPending()) return true;
  // The node we knew is alive but silent: starting another would take its sockets away.
  const qint64 known = connection_.nodePid();
  if (known != 0 && processAlive(known)) {
    Q_EMIT launchFailed(tr("rookery-node (process %1) is running but does not answer").arg(known));
    return false;
  }
  if (program_.isEmpty()) {
    Q_EMIT launchFailed(
        tr("rookery-node was not found; set ROOKERY_NODE_BIN or install it beside rookery"));
    return false;
  }
  if (failed_attempts_ >= options_.max_attempts) {
    Q_EMIT launchFailed(
        tr("rookery-node did not start after %1 attempts; see its log").arg(failed_attempts_));
    return false;
  }
  QStringList args = options_.extra_arguments;
  args << QStringLiteral("--runtime-dir")
       << QString::fromStdString(connection_.runtimeDir().string());
  if (contribute) args << QStringLiteral("--contribute");
  QProcess process;
  process.setProgram(program_);
  process.setArguments(args);
  // The node keeps its own log in its data folder; its console output has no reader here.
  process.setStandardOutputFile(QProcess::nullDevice());
  process.setStandardErrorFile(QProcess::nullDevice());
  qint64 pid = 0;
  ++launches_;
  ++failed_attempts_;  // back to zero once a node answers
  announced_shutdown_ = false;
  if (!process.startDetached(&pid)) {
    Q_EMIT launchFailed(tr("could not start %1: %2").arg(program_, process.errorString()));
    return false;
  }
  last_pid_ = pid;
  since_launch_.start();
  QTimer::singleShot(options_.answer_grace_ms, this, [this, pid] {
    if (!connection_.isConnected() && !connection_.refresh() && last_pid_ == pid) {
      Q_EMIT launchFailed(processAlive(pid)
                              ? tr("rookery-node (process %1) does not answer").arg(pid)
                              : tr("rookery-node stopped right after starting; see its log"));
    }
  });
  Q_EMIT launched(pid);
  return true;
}

void NodeLauncher::onConnectionChanged(bool connected) {
  if (connected) {
    failed_attempts_ = 0;
    announced_shutdown_ = false;
    retry_->stop();
    return;
  }
  // Decide a little later: the node's goodbye (its SHUTDOWN event, its sockets removed) may
  // still be on its way when the connection notices it is gone.
  if (keep_alive_) retry_->start(std::min(30000, 500 << std::min(failed_attempts_, 6)));
}

void NodeLauncher::restartIfCrashed() {
  if (!keep_alive_ || connection_.isConnected()) return;
  // Gone without a goodbye, its socket left behind: it crashed or was killed. A node that
  // stopped cleanly (Quit from another client, a logout) stays stopped.
  const bool clean_exit = announced_shutdown_ || connection_.snapshot().state() == pb::STOPPING ||
                          !std::filesystem::exists(connection_.runtimeDir() / "control.sock");
  if (!clean_exit) ensureRunning();
}
}  // namespace rookery::ui
