#include "ui/node_connection.hpp"

#include <QSocketNotifier>
#include <QTimer>

namespace rookery::ui {

NodeConnection::NodeConnection(std::filesystem::path runtime_dir, QObject* parent)
    : NodeConnection(std::move(runtime_dir), Timing{}, parent) {}

NodeConnection::NodeConnection(std::filesystem::path runtime_dir, Timing timing, QObject* parent)
    : QObject(parent),
      runtime_dir_(std::move(runtime_dir)),
      timing_(timing),
      client_(
          std::make_unique<control::ControlClient>(control::ControlEndpoints::in(runtime_dir_))) {
  qRegisterMetaType<pb::NodeSnapshot>();
  liveness_ = new QTimer(this);
  liveness_->setInterval(timing_.liveness_interval);
  connect(liveness_, &QTimer::timeout, this, &NodeConnection::checkLiveness);
}

NodeConnection::~NodeConnection() {
  delete notifier_;  // before the socket it watches
  notifier_ = nullptr;
}

void NodeConnection::start() {
  if (notifier_) return;
  client_->subscribe();
  notifier_ =
      new QSocketNotifier(static_cast<qintptr>(client_->event_fd()), QSocketNotifier::Read, this);
  connect(notifier_, &QSocketNotifier::activated, this, &NodeConnection::drainEvents);
  liveness_->start();
  refresh();
}

bool NodeConnection::refresh() { return send(pb::ControlRequest::STATUS, timing_.status_timeout); }

bool NodeConnection::contribute() {
  return send(pb::ControlRequest::CONTRIBUTE, timing_.request_timeout);
}

bool NodeConnection::pause() { return send(pb::ControlRequest::PAUSE, timing_.request_timeout); }

bool NodeConnection::quit() { return send(pb::ControlRequest::QUIT, timing_.request_timeout); }

bool NodeConnection::send(pb::ControlRequest::Kind kind, std::chrono::milliseconds timeout) {
  auto answer = client_->request(kind, timeout);
  if (!answer.ok && answer.snapshot.pid() == 0) {  // no answer at all: the node is gone or hung
    drainEvents();                                 // its goodbye may be waiting
    last_error_ = said_goodbye_ ? tr("rookery-node stopped")
                  : std::filesystem::exists(runtime_dir_ / "control.sock")
                      ? tr("rookery-node does not answer")
                      : tr("rookery-node is not running");
    setConnected(false);
    if (kind != pb::ControlRequest::STATUS) Q_EMIT requestFailed(last_error_);
    return false;
  }
  since_heard_.start();
  // A reply snapshot covers every event published before it.
  client_->stream().resync(answer.snapshot.seq());
  apply(answer.snapshot);
  if (!answer.ok) {
    last_error_ = QString::fromStdString(answer.error);
    Q_EMIT requestFailed(last_error_);
  }
  // The reply may have arrived while events were queued; ZMQ_FD is edge-triggered, so read
  // them now rather than wait for an edge that has already passed.
  drainEvents();
  return answer.ok;
}

void NodeConnection::drainEvents() {
  if (!client_->subscribed()) return;
  // ZMQ_FD only says events *may* be waiting: read until none is left.
  for (;;) {
    auto received = client_->drain_events();
    if (received.empty()) break;
    bool gap = false;
    for (auto& r : received) {
      since_heard_.start();
      const auto& ev = r.event;
      if (r.gap) {
        gap = true;
        ++gaps_;
        Q_EMIT eventGapDetected(r.gap->expected, r.gap->received);
      }
      const bool other_node =
          has_snapshot_ && ev.snapshot().pid() != 0 && ev.snapshot().pid() != snapshot_.pid();
      // A reply may already have shown a newer state than a queued event carries.
      if (ev.has_snapshot() && (other_node || ev.seq() > applied_seq_)) {
        apply(ev.snapshot());
        applied_seq_ = ev.seq();
      }
      switch (ev.kind()) {
        case pb::ControlEvent::LOG:
          Q_EMIT nodeMessage(QString::fromStdString(ev.message()));
          break;
        case pb::ControlEvent::SHUTDOWN:
          said_goodbye_ = true;
          last_error_ = tr("rookery-node stopped");
          setConnected(false);
          Q_EMIT nodeShutdown();
          break;
        default:
          break;
      }
    }
    if (gap) refresh();  // the history is incomplete: trust a fresh snapshot instead
  }
}

void NodeConnection::checkLiveness() {
  drainEvents();  // cheap, and catches an edge the notifier may have missed
  const bool quiet =
      !since_heard_.isValid() || since_heard_.elapsed() >= timing_.liveness_interval.count();
  if (!connected_ || quiet) refresh();
}

void NodeConnection::apply(const pb::NodeSnapshot& snapshot) {
  const qint64 previous = has_snapshot_ ? snapshot_.pid() : 0;
  const bool restarted = previous != 0 && snapshot.pid() != 0 && snapshot.pid() != previous;
  snapshot_ = snapshot;
  has_snapshot_ = true;
  if (restarted) {
    applied_seq_ = snapshot.seq();
    client_->stream().resync(snapshot.seq());
  } else {
    applied_seq_ = std::max<quint64>(applied_seq_, snapshot.seq());
  }
  const bool stopped = snapshot.state() == pb::STOPPING && !connected_;
  if (!stopped) setConnected(true);
  if (restarted) Q_EMIT nodeRestarted(previous, snapshot.pid());
  Q_EMIT snapshotChanged(snapshot_);
}

void NodeConnection::setConnected(bool connected) {
  if (connected == connected_) return;
  connected_ = connected;
  if (connected) {
    last_error_.clear();
    said_goodbye_ = false;
  }
  Q_EMIT connectionChanged(connected);
}

}  // namespace rookery::ui
