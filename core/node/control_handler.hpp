#pragma once
// The local control API's requests (status, contribute, pause, quit, preferences, snooze,
// presence, ledger history, leave the job, probe a coordinator), answered on the RPC server's thread: each is
// applied to the node's parts under the node's lock, and every reply carries the snapshot
// as it stands after the request.
#include <mutex>
#include <optional>

#include "net/identity.hpp"
#include "net/rpc.hpp"
#include "node/governor_bridge.hpp"
#include "node/ledger_recorder.hpp"
#include "node/node_service.hpp"
#include "node/node_status.hpp"
#include "rookery/control.pb.h"
#include "wire/message.hpp"

namespace rookery::node {

class ControlHandler {
 public:
  ControlHandler(const NodeConfig& config, const net::CurveKeyPair& identity,
                 std::mutex& node_mutex, NodeStatus& status, GovernorBridge& governor,
                 LedgerRecorder& ledger);

  // The RPC server's handler.
  std::optional<net::Reply> handle(const net::RequestContext& context, wire::Message& msg);
  // One request; a state change it causes is posted as an event.
  void answer(const pb::ControlRequest& request, pb::ControlReply& out);

 private:
  void answer_locked(const pb::ControlRequest& request, pb::ControlReply& out);
  void change_preferences_locked(const pb::ControlRequest& request, pb::ControlReply& out);

  const NodeConfig& config_;
  const net::CurveKeyPair& identity_;
  std::mutex& mutex_;
  NodeStatus& status_;
  GovernorBridge& governor_;
  LedgerRecorder& ledger_;
};

}  // namespace rookery::node
