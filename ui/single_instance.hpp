#pragma once
// One Rookery window per user and runtime folder. The first launch holds a lock file and
// listens on a local socket, both in the (0700) runtime folder; a second launch finds the
// lock taken, hands its request (show the window, perhaps contribute) to the first over the
// socket and exits. A lock left by a crashed launch is stale (its process is gone) and is
// taken over, and the socket file it left is removed before listening again.
#include <QObject>
#include <QString>
#include <QStringList>

#include <filesystem>
#include <memory>

class QLocalServer;
class QLockFile;

namespace rookery::ui {

class SingleInstance : public QObject {
  Q_OBJECT

 public:
  enum class Role {
    Primary,    // this process is the one instance: it listens for later launches
    Secondary,  // another instance runs and took the request: exit
    Failed,     // another instance holds the lock but did not take the request (see error())
    Unguarded,  // no lock or socket could be made in the runtime folder (see error()): this
                // process runs, without keeping a second one out
  };

  explicit SingleInstance(const std::filesystem::path& runtime_dir, QObject* parent = nullptr);
  ~SingleInstance() override;

  // Becomes the primary instance, or hands `request` (arguments such as "--contribute") to
  // the one that runs. Waits at most `timeout_ms` for a running instance to answer.
  Role claim(const QStringList& request = {}, int timeout_ms = 5000);

  QString error() const { return error_; }
  QString socketPath() const { return socket_path_; }
  QString lockPath() const { return lock_path_; }
  // The process id of the instance holding the lock, when known.
  qint64 primaryPid() const;

 Q_SIGNALS:
  // A later launch asked this instance to come forward, with its request.
  void activated(const QStringList& request);

 private:
  bool listen();
  bool sendRequest(const QStringList& request, int timeout_ms);
  void onNewConnection();

  QString socket_path_;
  QString lock_path_;
  std::unique_ptr<QLockFile> lock_;
  QLocalServer* server_ = nullptr;
  QString error_;
};

}  // namespace rookery::ui
