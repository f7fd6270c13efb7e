#include "control/control_client.hpp"

#include "net/rpc.hpp"

namespace rookery::control {

ControlClient::ControlClient(const ControlEndpoints& endpoints) : endpoints_(endpoints), ctx_(1) {
  reconnect_requests();
}

ControlClient::~ControlClient() {
  rpc_.reset();
  events_.reset();
}

void ControlClient::reconnect_requests() {
  rpc_ = std::make_unique<net::RpcClient>(ctx_, endpoints_.requests);
}

ControlClient::Answer ControlClient::request(pb::ControlRequest::Kind kind,
                                             std::chrono::milliseconds timeout) {
  pb::ControlRequest r;
  r.set_kind(kind);
  return request(r, timeout);
}

ControlClient::Answer ControlClient::request(const pb::ControlRequest& request,
                                             std::chrono::milliseconds timeout,
                                             pb::ControlReply* reply) {
  Answer answer;
  if (!std::filesystem::exists(endpoints_.runtime_dir / "control.sock")) {
    answer.error = "rookery-node is not running";
    return answer;
  }
  wire::pb::Envelope env;
  *env.mutable_control_request() = request;
  auto result = rpc_->request(std::move(env), timeout);
  if (!result.ok()) {
    // A DEALER keeps a dead request queued; start afresh so the next request is not stuck
    // behind it (the node may have restarted).
    reconnect_requests();
    answer.error = result.status == net::RpcResult::Status::Timeout
                       ? "rookery-node did not answer (" + result.error + ")"
                       : result.error;
    return answer;
  }
  const auto& h = result.message->header;
  if (!h.has_control_reply()) {
    answer.error = "unexpected reply from rookery-node";
    return answer;
  }
  answer.ok = h.control_reply().ok();
  answer.error = h.control_reply().error();
  answer.snapshot = h.control_reply().snapshot();
  if (reply) *reply = h.control_reply();
  return answer;
}

void ControlClient::subscribe() {
  events_ = std::make_unique<zmq::socket_t>(ctx_.zmq(), zmq::socket_type::sub);
  events_->set(zmq::sockopt::linger, 0);
  events_->set(zmq::sockopt::rcvhwm, 1000);
  events_->set(zmq::sockopt::subscribe, "");
  events_->connect(endpoints_.events);
}

void ControlClient::unsubscribe() { events_.reset(); }

bool ControlClient::subscribed() const { return events_ != nullptr; }

int ControlClient::event_fd() const {
  return events_ ? static_cast<int>(events_->get(zmq::sockopt::fd)) : -1;
}

std::vector<ControlClient::Received> ControlClient::drain_events() {
  std::vector<Received> out;
  if (!events_) return out;
  std::vector<zmq::message_t> frames;
  for (;;) {
    bool truncated = false;
    if (!net::recv_multipart_bounded(*events_, frames, 4, truncated)) break;
    if (truncated) continue;
    auto decoded = wire::decode(std::move(frames));
    if (!decoded || !decoded.message().header.has_control_event()) continue;
    Received r;
    r.event = decoded.message().header.control_event();
    r.gap = stream_.accept(r.event.seq());
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<ControlClient::Received> ControlClient::wait_events(std::chrono::milliseconds timeout) {
  auto got = drain_events();
  if (!got.empty() || !events_) return got;
  zmq::pollitem_t item{events_->handle(), 0, ZMQ_POLLIN, 0};
  if (zmq::poll(&item, 1, timeout) > 0) got = drain_events();
  return got;
}

}  // namespace rookery::control
