#pragma once
// What a node in one of the reach labs says of itself, over its control API.
#include <QString>

#include "control/control_client.hpp"
#include "control/control_endpoints.hpp"

namespace rookery::testing {

// The snapshot of the node whose control API is under `run_dir`; empty when it does not answer.
inline wire::pb::NodeSnapshot node_snapshot(const QString& run_dir) {
  control::ControlClient client(control::ControlEndpoints::in(run_dir.toStdString()));
  const auto a = client.status();
  return a.ok ? a.snapshot : wire::pb::NodeSnapshot{};
}

// The run's loss fell: the last three points of the coordinator's curve lie below its first
// three (false until it has six).
inline bool loss_fell(const wire::pb::RunStatus& run) {
  const auto& loss = run.loss();
  if (loss.size() < 6) return false;
  double early = 0, late = 0;
  for (int k = 0; k < 3; ++k) {
    early += loss[k].loss();
    late += loss[loss.size() - 1 - k].loss();
  }
  return late < early;
}

}  // namespace rookery::testing
