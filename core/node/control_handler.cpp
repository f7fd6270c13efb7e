#include "node/control_handler.hpp"

#include <map>
#include <string>

#include <spdlog/spdlog.h>

#include "node/coordinator_probe.hpp"

namespace rookery::node {

namespace {
constexpr int kMaxSnoozeSeconds = 7 * 24 * 3600;
}  // namespace

ControlHandler::ControlHandler(const NodeConfig& config, const net::CurveKeyPair& identity,
                               std::mutex& node_mutex, NodeStatus& status, GovernorBridge& governor,
                               LedgerRecorder& ledger)
    : config_(config),
      identity_(identity),
      mutex_(node_mutex),
      status_(status),
      governor_(governor),
      ledger_(ledger) {}

std::optional<net::Reply> ControlHandler::handle(const net::RequestContext&, wire::Message& msg) {
  net::Reply reply;
  auto* out = reply.header.mutable_control_reply();
  if (!msg.header.has_control_request()) {
    out->set_ok(false);
    out->set_error("not a control request");
    return reply;
  }
  answer(msg.header.control_request(), *out);
  return reply;
}

void ControlHandler::answer(const pb::ControlRequest& request, pb::ControlReply& out) {
  // A probe waits on the network for seconds: outside the node's lock.
  if (request.kind() == pb::ControlRequest::PROBE_COORDINATOR) {
    *out.mutable_probe_result() = probe_coordinator(request.probe(), identity_);
    out.set_ok(true);
  }
  std::lock_guard lock(mutex_);
  const auto before = status_.state_locked();
  answer_locked(request, out);
  if (status_.state_locked() != before) status_.post_state_locked();
  *out.mutable_snapshot() = status_.snapshot_locked();
}

void ControlHandler::answer_locked(const pb::ControlRequest& request, pb::ControlReply& out) {
  switch (request.kind()) {
    case pb::ControlRequest::STATUS:
    case pb::ControlRequest::PROBE_COORDINATOR:  // answered before the lock
      out.set_ok(true);
      break;
    case pb::ControlRequest::CONTRIBUTE:
      if (!status_.failure.empty()) {
        out.set_error("cannot contribute: " + status_.failure);
        break;
      }
      status_.want_contribute = true;
      status_.worker_cv.notify_all();
      out.set_ok(true);
      break;
    case pb::ControlRequest::PAUSE:
      status_.want_contribute = false;
      out.set_ok(true);
      break;
    case pb::ControlRequest::QUIT:
      status_.request_quit_locked();
      out.set_ok(true);
      break;
    case pb::ControlRequest::GET_PREFERENCES:
      governor_.fill_preferences_locked(out);
      out.set_ok(true);
      break;
    case pb::ControlRequest::SET_PREFERENCES:
    case pb::ControlRequest::RESET_PREFERENCES:
      change_preferences_locked(request, out);
      break;
    case pb::ControlRequest::SNOOZE:
      if (request.snooze_seconds() < 0 || request.snooze_seconds() > kMaxSnoozeSeconds) {
        out.set_error("snooze_seconds must be 0 (end the snooze) to 604800 (a week)");
        break;
      }
      governor_.snooze_locked(request.snooze_seconds());
      out.set_ok(true);
      break;
    case pb::ControlRequest::REPORT_PRESENCE:
      governor_.report_presence_locked(request.presence());
      out.set_ok(true);
      break;
    case pb::ControlRequest::LEDGER_HISTORY:
      ledger_.history_locked(request.history(), out);
      break;
    case pb::ControlRequest::LEAVE_JOB:
      if (!config_.join) {
        out.set_error("this node has joined no coordinator's job");
        break;
      }
      spdlog::info("leaving job {}: finishing the work unit in progress first",
                   config_.join->job_id);
      status_.request_quit_locked(/*leave=*/true);
      out.set_ok(true);
      break;
    default:
      out.set_error("unknown control request");
      break;
  }
}

void ControlHandler::change_preferences_locked(const pb::ControlRequest& request,
                                               pb::ControlReply& out) {
  try {
    if (request.kind() == pb::ControlRequest::RESET_PREFERENCES) {
      governor_.reset_preferences_locked();
    } else {
      std::map<std::string, std::string> changes;
      for (const auto& v : request.set()) changes[v.key()] = v.value();
      governor_.set_preferences_locked(changes);  // all or nothing
    }
    status_.post_event_locked(pb::ControlEvent::LOG, "settings saved");
    out.set_ok(true);
  } catch (const std::exception& e) {  // invalid_argument: a bad value; StoreError: the disk
    out.set_error(std::string("settings not changed: ") + e.what());
  }
  governor_.fill_preferences_locked(out);
}

}  // namespace rookery::node
