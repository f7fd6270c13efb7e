#include "net/rpc.hpp"

#include <array>
#include <atomic>

#include <spdlog/spdlog.h>

namespace rookery::net {

namespace {
bool is_tcp(const std::string& endpoint) { return endpoint.rfind("tcp://", 0) == 0; }

std::string unique_inproc(const char* what) {
  static std::atomic<std::uint64_t> n{0};
  return std::string("inproc://rookery.") + what + "." + std::to_string(n++);
}

void send_frames(zmq::socket_t& s, std::vector<zmq::message_t>& frames,
                 const zmq::message_t* routing_id) {
  if (routing_id) {
    zmq::message_t id(routing_id->data(), routing_id->size());
    s.send(id, zmq::send_flags::sndmore);
  }
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const auto flags = i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none;
    s.send(frames[i], flags | zmq::send_flags::dontwait);
  }
}
}  // namespace

bool recv_multipart_bounded(zmq::socket_t& s, std::vector<zmq::message_t>& out,
                            std::size_t max_parts, bool& truncated) {
  out.clear();
  truncated = false;
  zmq::message_t part;
  if (!s.recv(part, zmq::recv_flags::dontwait)) return false;
  for (;;) {
    const bool more = part.more();
    if (out.size() < max_parts) {
      out.push_back(std::move(part));
    } else {
      truncated = true;  // keep draining so the socket stays in step
    }
    if (!more) return true;
    part = zmq::message_t();
    (void)s.recv(part, zmq::recv_flags::none);
  }
}

RpcServer::RpcServer(SecureContext& ctx, const CurveKeyPair* identity, Config config,
                     Handler handler)
    : ctx_(ctx), config_(std::move(config)), handler_(std::move(handler)) {
  if (is_tcp(config_.endpoint)) {
    if (!identity) throw std::invalid_argument("a tcp endpoint needs a CURVE identity");
    socket_ = bind_curve_server(ctx_, zmq::socket_type::router, config_.endpoint, *identity,
                                config_.domain, config_.socket);
  } else {
    socket_ = zmq::socket_t(ctx_.zmq(), zmq::socket_type::router);
    socket_.set(zmq::sockopt::linger, 0);
    socket_.set(zmq::sockopt::sndhwm, config_.socket.send_hwm);
    socket_.set(zmq::sockopt::rcvhwm, config_.socket.recv_hwm);
    socket_.bind(config_.endpoint);
  }
  socket_.set(zmq::sockopt::router_mandatory, false);  // replies to vanished clients are dropped
  endpoint_ = last_endpoint(socket_);
  const auto stop = unique_inproc("rpc.stop");
  stop_rx_ = zmq::socket_t(ctx_.zmq(), zmq::socket_type::pair);
  stop_rx_.bind(stop);
  stop_tx_ = zmq::socket_t(ctx_.zmq(), zmq::socket_type::pair);
  stop_tx_.set(zmq::sockopt::linger, 0);
  stop_tx_.connect(stop);
  const auto wake = unique_inproc("rpc.wake");
  wake_rx_ = zmq::socket_t(ctx_.zmq(), zmq::socket_type::pair);
  wake_rx_.bind(wake);
  outbox_->wake = zmq::socket_t(ctx_.zmq(), zmq::socket_type::pair);
  outbox_->wake.set(zmq::sockopt::linger, 0);
  outbox_->wake.connect(wake);
  thread_ = std::thread([this] { run(); });
}

RpcServer::~RpcServer() {
  {
    std::lock_guard lock(outbox_->mutex);
    outbox_->closed = true;
    outbox_->replies.clear();
    outbox_->wake.close();
  }
  stop_tx_.send(zmq::message_t(), zmq::send_flags::dontwait);
  if (thread_.joinable()) thread_.join();
}

void DeferredReply::send(Reply reply) {
  if (!outbox_) return;
  reply.header.set_request_id(request_id_);
  if (reply.header.job_id().empty()) reply.header.set_job_id(job_id_);
  auto frames = wire::encode(std::move(reply.header), std::move(reply.tensors));
  std::vector<zmq::message_t> message;
  message.reserve(frames.size() + 1);
  message.emplace_back(routing_id_.data(), routing_id_.size());
  for (auto& f : frames) message.push_back(std::move(f));
  const auto outbox = std::move(outbox_);  // one reply at most
  std::lock_guard lock(outbox->mutex);
  if (outbox->closed) return;
  outbox->replies.push_back(std::move(message));
  // One wake-up is enough for every reply queued before the server's thread reads them.
  if (outbox->replies.size() == 1) {
    (void)outbox->wake.send(zmq::message_t(), zmq::send_flags::dontwait);
  }
}

void RpcServer::send_deferred() {
  zmq::message_t signal;
  while (wake_rx_.recv(signal, zmq::recv_flags::dontwait)) {}
  std::deque<std::vector<zmq::message_t>> replies;
  {
    std::lock_guard lock(outbox_->mutex);
    replies.swap(outbox_->replies);
  }
  for (auto& message : replies) {
    std::vector<zmq::message_t> frames(std::make_move_iterator(message.begin() + 1),
                                       std::make_move_iterator(message.end()));
    try {
      send_frames(socket_, frames, &message.front());
    } catch (const zmq::error_t& e) {
      spdlog::debug("deferred reply to a client dropped: {}", e.what());
    }
  }
}

void RpcServer::run() {
  std::array<zmq::pollitem_t, 3> items{{{socket_.handle(), 0, ZMQ_POLLIN, 0},
                                        {stop_rx_.handle(), 0, ZMQ_POLLIN, 0},
                                        {wake_rx_.handle(), 0, ZMQ_POLLIN, 0}}};
  std::vector<zmq::message_t> frames;
  for (;;) {
    zmq::poll(items.data(), items.size(), std::chrono::milliseconds(-1));
    if (items[1].revents & ZMQ_POLLIN) break;
    if (items[2].revents & ZMQ_POLLIN) send_deferred();
    if (!(items[0].revents & ZMQ_POLLIN)) continue;
    // Drain what is waiting, so one poll wakes us for a burst.
    for (;;) {
      bool truncated = false;
      if (!recv_multipart_bounded(socket_, frames, config_.limits.max_frames + 1, truncated)) break;
      if (frames.size() < 2) continue;  // routing id + at least a header
      zmq::message_t routing_id = std::move(frames.front());
      frames.erase(frames.begin());
      RequestContext ctx;
      ctx.routing_id = routing_id.to_string();
      ctx.peer_key = sender_key(frames.front());
      ctx.peer_address = sender_address(frames.front());
      if (!config_.domain.empty() && is_tcp(config_.endpoint) &&
          !ctx_.auth().is_allowed(config_.domain, ctx.peer_key)) {
        ++rejected_;  // admitted once, revoked since: drop silently
        continue;
      }
      auto decoded =
          truncated ? wire::DecodeResult(wire::DecodeError{wire::DecodeError::Kind::TooManyFrames,
                                                           "message has too many frames"})
                    : wire::decode(std::move(frames), config_.limits);
      if (!decoded) {
        ++rejected_;
        spdlog::warn("rejected a malformed message from {}: {} ({})",
                     ctx.peer_key.empty() ? std::string("local client") : short_key(ctx.peer_key),
                     decoded.error().what, wire::decode_error_name(decoded.error().kind));
        // Best effort: tell the sender, if its header was readable enough to carry an id.
        continue;
      }
      auto& msg = decoded.message();
      ctx.request_id = msg.header.request_id();
      ctx.job_id = msg.header.job_id();
      ctx.outbox = outbox_;
      std::optional<Reply> reply;
      try {
        reply = handler_(ctx, msg);
      } catch (const std::exception& e) {
        Reply err;
        err.header.mutable_error()->set_message(e.what());
        reply = std::move(err);
      }
      ++served_;
      if (!reply) continue;
      reply->header.set_request_id(msg.header.request_id());
      if (reply->header.job_id().empty()) reply->header.set_job_id(msg.header.job_id());
      auto out = wire::encode(std::move(reply->header), std::move(reply->tensors));
      try {
        send_frames(socket_, out, &routing_id);
      } catch (const zmq::error_t& e) {
        spdlog::debug("reply to a client dropped: {}", e.what());
      }
    }
  }
  socket_.close();
  stop_rx_.close();
  wake_rx_.close();
}

RpcClient::RpcClient(SecureContext& ctx, const std::string& endpoint, const CurveKeyPair* identity,
                     const std::string& server_key, wire::Limits limits)
    : endpoint_(endpoint), limits_(limits) {
  if (is_tcp(endpoint)) {
    if (!identity) throw std::invalid_argument("a tcp endpoint needs a CURVE identity");
    socket_ = connect_curve_client(ctx, zmq::socket_type::dealer, endpoint, *identity, server_key);
  } else {
    socket_ = zmq::socket_t(ctx.zmq(), zmq::socket_type::dealer);
    socket_.set(zmq::sockopt::linger, 0);
    socket_.connect(endpoint);
  }
}

RpcResult RpcClient::request(wire::pb::Envelope header, std::vector<wire::OutgoingTensor> tensors,
                             std::chrono::milliseconds timeout) {
  const std::uint64_t id = next_id_++;
  header.set_request_id(id);
  auto frames = wire::encode(std::move(header), std::move(tensors));
  RpcResult result;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  // Sending can block only at the high-water mark; poll for room until the deadline.
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const auto flags = i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none;
    if (i == 0) {
      zmq::pollitem_t item{socket_.handle(), 0, ZMQ_POLLOUT, 0};
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (zmq::poll(&item, 1, std::max(left, std::chrono::milliseconds(0))) == 0) {
        result.error = "timed out sending to " + endpoint_;
        return result;
      }
    }
    socket_.send(frames[i], flags);
  }
  std::vector<zmq::message_t> reply;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.error =
          "no reply from " + endpoint_ + " within " + std::to_string(timeout.count()) + " ms";
      return result;
    }
    zmq::pollitem_t item{socket_.handle(), 0, ZMQ_POLLIN, 0};
    if (zmq::poll(&item, 1, left) == 0) continue;
    bool truncated = false;
    if (!recv_multipart_bounded(socket_, reply, limits_.max_frames + 1, truncated)) continue;
    if (truncated) {
      result.status = RpcResult::Status::Malformed;
      result.error = "reply has too many frames";
      return result;
    }
    auto decoded = wire::decode(std::move(reply), limits_);
    if (!decoded) {
      result.status = RpcResult::Status::Malformed;
      result.error = decoded.error().what;
      return result;
    }
    if (decoded.message().header.request_id() != id)
      continue;  // a late reply to an earlier request
    if (decoded.message().header.has_error()) {
      result.status = RpcResult::Status::RemoteError;
      result.error = decoded.message().header.error().message();
    } else {
      result.status = RpcResult::Status::Ok;
    }
    result.message = std::move(decoded.message());
    return result;
  }
}

}  // namespace rookery::net
