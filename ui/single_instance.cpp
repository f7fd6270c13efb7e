#include "ui/single_instance.hpp"

#include <QDeadlineTimer>
#include <algorithm>
#include <QDir>
#include <QFile>
#include <QLocalServer>
#include <QLocalSocket>
#include <QLockFile>
#include <QThread>

#include "net/paths.hpp"

namespace rookery::ui {

namespace {
// One request per connection: the arguments, one per line, then an empty line. The
// primary answers "ok\n" once it has acted on it.
constexpr char kAck[] = "ok\n";

QByteArray encodeRequest(const QStringList& request) {
  QByteArray bytes = "activate\n";
  for (const QString& arg : request) bytes += arg.simplified().toUtf8() + '\n';
  return bytes + '\n';
}
}  // namespace

SingleInstance::SingleInstance(const std::filesystem::path& runtime_dir, QObject* parent)
    : QObject(parent) {
  try {
    net::ensure_private_dir(runtime_dir);
  } catch (const std::exception& e) {
    error_ = QString::fromLocal8Bit(e.what());
  }
  const QDir dir(QString::fromStdString(runtime_dir.string()));
  socket_path_ = dir.absoluteFilePath(QStringLiteral("gui.sock"));
  lock_path_ = dir.absoluteFilePath(QStringLiteral("gui.lock"));
  lock_ = std::make_unique<QLockFile>(lock_path_);
  // Never stale by age: a primary that has run for days still owns it. A lock whose
  // process is gone (a crash) is stale whatever its age.
  lock_->setStaleLockTime(0);
}

SingleInstance::~SingleInstance() {
  if (server_) server_->close();  // removes the socket file
  if (lock_ && lock_->isLocked()) lock_->unlock();
}

qint64 SingleInstance::primaryPid() const {
  qint64 pid = 0;
  QString host, app;
  return lock_->getLockInfo(&pid, &host, &app) ? pid : 0;
}

SingleInstance::Role SingleInstance::claim(const QStringList& request, int timeout_ms) {
  const QDeadlineTimer deadline(timeout_ms);
  for (;;) {
    if (lock_->tryLock(0)) {
      if (listen()) return Role::Primary;
      lock_->unlock();
      return Role::Unguarded;
    }
    if (lock_->error() != QLockFile::LockFailedError) {
      if (error_.isEmpty()) error_ = tr("cannot create %1").arg(lock_path_);
      return Role::Unguarded;
    }
    // Held by a live process: normally the primary, listening (or about to).
    if (sendRequest(request, static_cast<int>(std::max<qint64>(deadline.remainingTime(), 100)))) {
      return Role::Secondary;
    }
    if (deadline.hasExpired()) break;
    QThread::msleep(100);
  }
  const qint64 pid = primaryPid();
  error_ = pid > 0 ? tr("Rookery is already running (process %1) but does not answer").arg(pid)
                   : tr("Rookery is already running but does not answer");
  return Role::Failed;
}

bool SingleInstance::listen() {
  // A crashed primary leaves its socket file; we hold the lock, so nobody listens on it.
  QLocalServer::removeServer(socket_path_);
  server_ = new QLocalServer(this);
  server_->setSocketOptions(QLocalServer::UserAccessOption);
  if (!server_->listen(socket_path_)) {
    error_ = tr("cannot listen on %1: %2").arg(socket_path_, server_->errorString());
    delete server_;
    server_ = nullptr;
    return false;
  }
  connect(server_, &QLocalServer::newConnection, this, &SingleInstance::onNewConnection);
  return true;
}

bool SingleInstance::sendRequest(const QStringList& request, int timeout_ms) {
  if (!QFile::exists(socket_path_)) return false;
  const QDeadlineTimer deadline(timeout_ms);
  QLocalSocket socket;
  socket.connectToServer(socket_path_);
  if (!socket.waitForConnected(static_cast<int>(deadline.remainingTime()))) return false;
  socket.write(encodeRequest(request));
  if (!socket.waitForBytesWritten(static_cast<int>(deadline.remainingTime()))) return false;
  QByteArray answer;
  while (!answer.contains('\n') && !deadline.hasExpired()) {
    if (!socket.waitForReadyRead(static_cast<int>(std::max<qint64>(deadline.remainingTime(), 1))))
      break;
    answer += socket.readAll();
  }
  return answer == kAck;
}

void SingleInstance::onNewConnection() {
  while (QLocalSocket* socket = server_->nextPendingConnection()) {
    connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
    connect(socket, &QLocalSocket::readyRead, this, [this, socket] {
      // Bounded: a request is a few short lines.
      if (socket->bytesAvailable() > 64 * 1024) {
        socket->abort();
        return;
      }
      const QByteArray all = socket->peek(socket->bytesAvailable());
      if (!all.endsWith("\n\n")) return;  // not complete yet
      socket->readAll();
      QList<QByteArray> lines = all.split('\n');
      if (lines.isEmpty() || lines.first() != "activate") {
        socket->abort();
        return;
      }
      QStringList request;
      for (qsizetype i = 1; i < lines.size(); ++i) {
        if (!lines[i].isEmpty()) request << QString::fromUtf8(lines[i]);
      }
      Q_EMIT activated(request);
      socket->write(kAck);
      socket->flush();
      socket->disconnectFromServer();
    });
  }
}

}  // namespace rookery::ui
