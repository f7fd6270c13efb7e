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

}  // namespace rookery::testing
