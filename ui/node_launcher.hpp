#pragma once
// Starts rookery-node when none answers, and starts it again when it disappears without
// saying goodbye (a crash, a kill). The node is started detached so it outlives the GUI
// window: closing the window must not stop a contribution the user asked for.
// It never starts a second node while one answers, nor while the last one it knows of is
// still alive (a hung node keeps its sockets; a second one would steal them).
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>

class QTimer;

namespace rookery::ui {

class NodeConnection;

class NodeLauncher : public QObject {
  Q_OBJECT

 public:
  struct Options {
    QString program;              // empty: findNodeProgram()
    QStringList extra_arguments;  // e.g. --data-dir; --runtime-dir is always the connection's
    bool keep_alive = true;       // start the node again after it vanished unexpectedly
    int max_attempts = 5;         // consecutive launches that never answered before giving up
    int answer_grace_ms = 15000;  // how long a fresh node may take to answer
  };

  NodeLauncher(NodeConnection& connection, Options options, QObject* parent = nullptr);

  // The node arguments the environment asks for: `node_args` ($ROOKERY_NODE_ARGS) split as
  // a shell would ("--plan '/my plans/p.json' --stage 0"), then --data-dir `data_dir`
  // ($ROOKERY_DATA_DIR) and --host `host` (Settings' override), each unless the arguments name
  // one already or it is empty.
  static QStringList argumentsFrom(const QString& node_args, const QString& data_dir,
                                   const QString& host = {});
  // `args` with --data-dir `data_dir` (replacing any there).
  static QStringList withDataDir(QStringList args, const QString& data_dir);
  // `args` with --host `host` (replacing any there; none when empty).
  static QStringList withHost(QStringList args, const QString& host);
  // `args` without the options that name a swarm (--join, --coordinator, --coordinator-key,
  // --invite-token, --host, --plan, --stage and their values).
  static QStringList withoutSwarm(const QStringList& args);
  // The data folder the user chose in Settings (empty: the node's default); $ROOKERY_DATA_DIR
  // comes first when set.
  static QString chosenDataDir();
  static void setChosenDataDir(const QString& data_dir);
  // The address other PCs reach this one at, as an expert set it in Settings (empty: the node
  // finds out, which is what nearly everyone wants).
  static QString chosenHost();
  static void setChosenHost(const QString& host);

  // The explicit path when given, else $ROOKERY_NODE_BIN, else rookery-node beside this
  // executable, else rookery-node on PATH. Empty when none is found.
  static QString findNodeProgram(const QString& explicit_program = {});

  QString program() const { return program_; }
  // The node's arguments for its next start (another swarm, another data folder).
  QStringList extraArguments() const { return options_.extra_arguments; }
  void setExtraArguments(const QStringList& arguments) { options_.extra_arguments = arguments; }
  int launches() const { return launches_; }
  qint64 lastLaunchedPid() const { return last_pid_; }
  bool launchPending() const;

 public Q_SLOTS:
  // Starts a node unless one answers (or one just started and is still getting ready).
  // Returns whether a node answers or is on its way.
  bool ensureRunning(bool contribute = false);
  // The user is quitting: do not start the node again when it goes away.
  void stopKeepingAlive() { keep_alive_ = false; }

 Q_SIGNALS:
  void launched(qint64 pid);
  void launchFailed(const QString& error);

 private:
  void onConnectionChanged(bool connected);
  void restartIfCrashed();
  bool processAlive(qint64 pid) const;

  NodeConnection& connection_;
  Options options_;
  QString program_;
  bool keep_alive_;
  bool announced_shutdown_ = false;  // the node said it stopped: do not restart it
  int launches_ = 0;
  int failed_attempts_ = 0;
  qint64 last_pid_ = 0;
  QElapsedTimer since_launch_;
  QTimer* retry_ = nullptr;
};

}  // namespace rookery::ui
