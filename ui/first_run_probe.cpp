#include "ui/first_run_probe.hpp"

#include <QProcess>

#include <google/protobuf/util/json_util.h>

namespace rookery::ui {

namespace pb = wire::pb;

CoordinatorProbe CoordinatorProbe::fromResult(const pb::CoordinatorProbeResult& r) {
  CoordinatorProbe p;
  switch (r.outcome()) {
    case pb::CoordinatorProbeResult::REACHABLE:
      p.outcome = Outcome::Reachable;
      break;
    case pb::CoordinatorProbeResult::UNREACHABLE:
      p.outcome = Outcome::Unreachable;
      break;
    case pb::CoordinatorProbeResult::KEY_MISMATCH:
      p.outcome = Outcome::KeyMismatch;
      break;
    case pb::CoordinatorProbeResult::REFUSED:
      p.outcome = Outcome::Refused;
      break;
    case pb::CoordinatorProbeResult::NO_ANSWER:
      p.outcome = Outcome::NoAnswer;
      break;
    case pb::CoordinatorProbeResult::NOT_COORDINATOR:
      p.outcome = Outcome::NotCoordinator;
      break;
    case pb::CoordinatorProbeResult::NO_JOB:
      p.outcome = Outcome::NoJob;
      break;
    case pb::CoordinatorProbeResult::WRONG_JOB:
      p.outcome = Outcome::WrongJob;
      break;
    default:
      p.outcome = Outcome::Failed;
      break;
  }
  p.version = QString::fromStdString(r.version());
  p.rtt_ms = r.rtt_ms();
  p.detail = QString::fromStdString(r.detail());
  return p;
}

CoordinatorProbe CoordinatorProbe::runAsNode(const InviteLink& link, const QString& node_program,
                                             const std::filesystem::path& data_dir,
                                             std::chrono::milliseconds timeout) {
  CoordinatorProbe failed;
  QProcess node;
  node.start(node_program,
             {QStringLiteral("--probe-coordinator"), QStringLiteral("--data-dir"),
              QString::fromStdString(data_dir.string()), QStringLiteral("--coordinator"),
              link.coordinator(), QStringLiteral("--coordinator-key"), link.key(),
              QStringLiteral("--join"), link.job(), QStringLiteral("--log-level"),
              QStringLiteral("warn")});
  // The node's own start (LibTorch loads) comes on top of the probe's time.
  const int wait_ms = static_cast<int>(timeout.count()) + 30000;
  if (!node.waitForFinished(wait_ms)) {
    node.kill();
    node.waitForFinished(2000);
    failed.detail = node.error() == QProcess::FailedToStart
                        ? QStringLiteral("cannot start %1").arg(node_program)
                        : QStringLiteral("rookery-node did not answer");
    return failed;
  }
  const QByteArray out = node.readAllStandardOutput().trimmed();
  pb::CoordinatorProbeResult result;
  if (node.exitCode() != 0 ||
      !google::protobuf::util::JsonStringToMessage(out.toStdString(), &result).ok()) {
    failed.detail = QString::fromLocal8Bit(node.readAllStandardError()).trimmed();
    if (failed.detail.isEmpty()) failed.detail = QString::fromUtf8(out);
    return failed;
  }
  return fromResult(result);
}

QString CoordinatorProbe::message(const InviteLink& link) const {
  const QString address = link.coordinator();
  switch (outcome) {
    case Outcome::Reachable:
      return tr("The coordinator at %1 answered (Rookery %2, %3 ms).")
          .arg(address, version, QString::number(rtt_ms, 'f', 0));
    case Outcome::Unreachable:
      return tr("Cannot reach the coordinator at %1. Check the address and your internet "
                "connection; the "
                "coordinator may also be down or behind a firewall.")
          .arg(address);
    case Outcome::KeyMismatch:
      return tr("Something answers at %1, but not the coordinator this link names: the secure "
                "handshake "
                "failed. Ask the job owner for a new invite link.")
          .arg(address);
    case Outcome::Refused:
      return detail.isEmpty() || detail.startsWith(QLatin1String("ZAP"))
                 ? tr("The coordinator at %1 refused this PC: it admits only volunteers on its "
                      "list. Ask the job "
                      "owner to add this PC, or for another invite.")
                       .arg(address)
                 : tr("The coordinator at %1 refused: %2").arg(address, detail);
    case Outcome::NoAnswer:
      return tr("The coordinator at %1 accepted the connection but did not answer. It may be "
                "overloaded; try "
                "again later.")
          .arg(address);
    case Outcome::NotCoordinator:
      return tr("%1 is not a Rookery coordinator.").arg(address);
    case Outcome::NoJob:
      return tr("The coordinator at %1 answers but runs no job yet. Ask the job owner when the job "
                "starts.")
          .arg(address);
    case Outcome::WrongJob:
      return tr("The coordinator at %1 runs the job “%2”, not “%3” as the link says. Ask the job "
                "owner for a new "
                "invite link.")
          .arg(address, detail, link.job());
    case Outcome::Failed:
      break;
  }
  return tr("Could not contact the coordinator at %1: %2").arg(address, detail);
}

}  // namespace rookery::ui
