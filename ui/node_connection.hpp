#pragma once
// The GUI's view of rookery-node. Owns a ControlClient in the GUI thread, follows the
// node's event feed through a QSocketNotifier and turns it into one signal per snapshot.
// A slow timer only checks that the node is still alive when no event has come for a while.
// Every request has a short timeout, so a hung node can never freeze the window for long.
#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <chrono>
#include <filesystem>
#include <memory>

#include "control/control_client.hpp"

class QSocketNotifier;
class QTimer;

Q_DECLARE_METATYPE(rookery::wire::pb::NodeSnapshot)

namespace rookery::ui {

namespace pb = rookery::wire::pb;

class NodeConnection : public QObject {
  Q_OBJECT

 public:
  struct Timing {
    std::chrono::milliseconds request_timeout{1500};  // contribute, pause, quit
    std::chrono::milliseconds status_timeout{300};    // liveness checks
    std::chrono::milliseconds liveness_interval{2000};
  };

  explicit NodeConnection(std::filesystem::path runtime_dir, QObject* parent = nullptr);
  NodeConnection(std::filesystem::path runtime_dir, Timing timing, QObject* parent = nullptr);
  ~NodeConnection() override;

  const std::filesystem::path& runtimeDir() const { return runtime_dir_; }
  bool isConnected() const { return connected_; }
  bool hasSnapshot() const { return has_snapshot_; }
  // The latest snapshot; after a disconnection it is the last one the node sent.
  const pb::NodeSnapshot& snapshot() const { return snapshot_; }
  qint64 nodePid() const { return has_snapshot_ ? snapshot_.pid() : 0; }
  QString lastError() const { return last_error_; }
  quint64 gapsDetected() const { return gaps_; }

 public Q_SLOTS:
  // Subscribes to the event feed and takes a first snapshot. Call once.
  void start();
  // Takes a fresh snapshot now (short timeout). Returns whether the node answered.
  bool refresh();
  // Each returns whether the node accepted; the reply's snapshot is applied either way.
  bool contribute();
  bool pause();
  bool quit();

 Q_SIGNALS:
  void snapshotChanged(const rookery::wire::pb::NodeSnapshot& snapshot);
  void connectionChanged(bool connected);
  // Events between `expected` and `received` were missed; a fresh snapshot follows.
  void eventGapDetected(quint64 expected, quint64 received);
  // A different node process answers now (it was restarted).
  void nodeRestarted(qint64 previous_pid, qint64 pid);
  // A LOG event: something the user may want to know, in the node's words.
  void nodeMessage(const QString& message);
  // The node announced it has stopped.
  void nodeShutdown();
  // A request the user made was refused or not answered.
  void requestFailed(const QString& error);

 private:
  bool send(pb::ControlRequest::Kind kind, std::chrono::milliseconds timeout);
  void drainEvents();
  void checkLiveness();
  void apply(const pb::NodeSnapshot& snapshot);
  void setConnected(bool connected);

  std::filesystem::path runtime_dir_;
  Timing timing_;
  std::unique_ptr<control::ControlClient> client_;
  QSocketNotifier* notifier_ = nullptr;
  QTimer* liveness_ = nullptr;
  QElapsedTimer since_heard_;  // since the node last said anything (event or reply)
  pb::NodeSnapshot snapshot_;
  bool has_snapshot_ = false;
  bool connected_ = false;
  bool said_goodbye_ = false;  // a SHUTDOWN event came since the last connection
  quint64 applied_seq_ = 0;    // the newest event seq the shown snapshot covers
  quint64 gaps_ = 0;
  QString last_error_;
};

}  // namespace rookery::ui
