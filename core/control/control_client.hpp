#pragma once
// A local client of rookery-node: requests (status, contribute, pause, quit) and the event
// feed. One thread owns a ControlClient. The GUI wraps it in a QObject; tests use it as is.
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rookery/control.pb.h"
#include "control/control_endpoints.hpp"
#include "control/event_stream.hpp"
#include "net/secure_context.hpp"

namespace rookery::net {
class RpcClient;
}

namespace rookery::control {

namespace pb = rookery::wire::pb;

class ControlClient {
 public:
  explicit ControlClient(const ControlEndpoints& endpoints);
  ~ControlClient();

  struct Answer {
    bool ok = false;
    std::string error;          // "rookery-node is not running", the node's own refusal, ...
    pb::NodeSnapshot snapshot;  // the node's state after the request
  };

  Answer request(pb::ControlRequest::Kind kind,
                 std::chrono::milliseconds timeout = std::chrono::seconds(3));
  // A request with arguments (preferences, snooze, presence); `reply` receives the node's
  // full reply when given.
  Answer request(const pb::ControlRequest& request,
                 std::chrono::milliseconds timeout = std::chrono::seconds(3),
                 pb::ControlReply* reply = nullptr);
  Answer status(std::chrono::milliseconds timeout = std::chrono::seconds(3)) {
    return request(pb::ControlRequest::STATUS, timeout);
  }

  // Events. subscribe() connects the feed; the file descriptor becomes readable (edge
  // triggered, ZMQ_FD semantics) when events may be waiting; drain_events() reads all that
  // are waiting without blocking.
  void subscribe();
  void unsubscribe();
  bool subscribed() const;
  int event_fd() const;
  struct Received {
    pb::ControlEvent event;
    std::optional<EventStream::Gap> gap;  // set when events before this one were missed
  };
  std::vector<Received> drain_events();
  // Blocks up to `timeout` for at least one event.
  std::vector<Received> wait_events(std::chrono::milliseconds timeout);
  EventStream& stream() { return stream_; }

  const ControlEndpoints& endpoints() const { return endpoints_; }

 private:
  void reconnect_requests();

  ControlEndpoints endpoints_;
  net::SecureContext ctx_;
  std::unique_ptr<net::RpcClient> rpc_;
  std::unique_ptr<zmq::socket_t> events_;
  EventStream stream_;
};

}  // namespace rookery::control
