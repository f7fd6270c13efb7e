#pragma once
// Before the first run joins a swarm: is the coordinator of an invite there, and will it
// have this PC? The window asks its node, which makes one real exchange as it will when it
// joins (rookery-node --probe-coordinator; node/coordinator_probe.hpp), and words what came
// of it: nobody listens at the address, the key does not match, the coordinator refuses this
// PC, it does not answer, the address is not a coordinator, or it runs no job or another job
// than the link's.
#include <QCoreApplication>
#include <QString>

#include <chrono>
#include <filesystem>

#include "rookery/control.pb.h"
#include "ui/invite_link.hpp"

namespace rookery::ui {

struct CoordinatorProbe {
  Q_DECLARE_TR_FUNCTIONS(rookery::ui::CoordinatorProbe)

 public:
  enum class Outcome {
    Reachable,       // it answered the ping as a coordinator
    Unreachable,     // no connection to host:port (nothing listens, a firewall, an unknown host)
    KeyMismatch,     // connected, but the secure handshake failed: not this key's coordinator
    Refused,         // the coordinator does not admit this PC (its allow-list), or said no
    NoAnswer,        // handshake done, no reply to the ping in time
    NotCoordinator,  // a Rookery peer that is not a coordinator answered
    NoJob,           // a coordinator that runs no job (yet)
    WrongJob,        // a coordinator that runs another job than the link's (`detail`: its job)
    Failed,          // anything else (the reason is in `detail`)
  };

  Outcome outcome = Outcome::Failed;
  QString version;  // the coordinator's Rookery version, when it answered
  double rtt_ms = 0;
  QString detail;  // technical detail (the coordinator's words, the socket's error)

  bool ok() const { return outcome == Outcome::Reachable; }
  // What to tell the user, translated.
  QString message(const InviteLink& link) const;

  // What the node answered.
  static CoordinatorProbe fromResult(const wire::pb::CoordinatorProbeResult& result);

  // Has `node_program` (rookery-node) probe with the identity of the node whose data folder is
  // `data_dir` (created there when the node has none yet). Blocks for at most `timeout` plus
  // the node's start; call it off the GUI thread.
  static CoordinatorProbe runAsNode(
      const InviteLink& link, const QString& node_program, const std::filesystem::path& data_dir,
      std::chrono::milliseconds timeout = std::chrono::milliseconds(4000));
};

}  // namespace rookery::ui
