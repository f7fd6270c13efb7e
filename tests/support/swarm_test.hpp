#pragma once
// A test class's base for a real swarm on loopback: a rookery-coordinator, the rookery-node
// volunteers that join its job, and the run's status as a dashboard asks for it. Needs
// rookery::net, rookery::wire and Qt Test.
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <cstdint>
#include <optional>

#include "net/identity.hpp"
#include "net/secure_context.hpp"
#include "rookery/envelope.pb.h"
#include "support/coordinator_rpc.hpp"
#include "support/processes.hpp"

namespace rookery::testing {

class SwarmTest : public QObject {
 protected:
  QTemporaryDir dir_;  // the test's files; removed after every process below has ended
  CoordinatorProcess coordinator_;
  Volunteers volunteers_;  // after the coordinator: they go first
  net::SecureContext ctx_{1};
  net::CurveKeyPair me_ = net::CurveKeyPair::generate();

  // Starts the coordinator with `args` (its --job and options); volunteers added later join
  // it, each in a folder under `root`.
  bool start_swarm(const QString& root, const QStringList& args) {
    if (!coordinator_.start(args)) return false;
    volunteers_.root = root;
    volunteers_.endpoint = coordinator_.endpoint;
    volunteers_.coordinator_key = coordinator_.key;
    return true;
  }

  std::optional<wire::pb::RunStatus> status(std::uint32_t loss_points = 10) {
    return run_status(ctx_, me_, coordinator_.endpoint, coordinator_.key, loss_points);
  }
};

}  // namespace rookery::testing
