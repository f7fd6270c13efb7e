#pragma once
// Request/reply over ZeroMQ with Rookery's framing: a ROUTER server with one owning thread,
// and a DEALER client owned by its caller's thread. Every wait has a timeout. A handler that
// must wait for something (a dial-back, say) defers its reply and answers from another thread,
// so the server's thread moves on to the next request meanwhile.
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <zmq.hpp>

#include "net/secure_context.hpp"
#include "wire/message.hpp"

namespace rookery::net {

struct Reply {
  wire::pb::Envelope header;
  std::vector<wire::OutgoingTensor> tensors;
};

// Replies handed to a server from other threads, waiting for its thread to send them.
struct RpcOutbox {
  std::mutex mutex;
  std::deque<std::vector<zmq::message_t>> replies;  // routing id, then the encoded reply
  zmq::socket_t wake;                               // wakes the server's thread; used under `mutex`
  bool closed = false;                              // the server stopped: replies are dropped
};

// The answer to one request, given later from any thread (RequestContext::defer). At most one
// reply; after the server stopped, send() does nothing.
class DeferredReply {
 public:
  DeferredReply() = default;
  DeferredReply(std::shared_ptr<RpcOutbox> outbox, std::string routing_id, std::uint64_t request_id,
                std::string job_id)
      : outbox_(std::move(outbox)),
        routing_id_(std::move(routing_id)),
        request_id_(request_id),
        job_id_(std::move(job_id)) {}
  void send(Reply reply);
  explicit operator bool() const { return outbox_ != nullptr; }

 private:
  std::shared_ptr<RpcOutbox> outbox_;
  std::string routing_id_;
  std::uint64_t request_id_ = 0;
  std::string job_id_;
};

struct RequestContext {
  std::string peer_key;      // CURVE public key of the sender (empty on local sockets)
  std::string routing_id;    // ROUTER identity of the connection
  std::string peer_address;  // the IP address the connection comes from (empty on local sockets)
  std::uint64_t request_id = 0;
  std::string job_id;                 // the request's
  std::shared_ptr<RpcOutbox> outbox;  // its server's (none outside a server)
  // The handler answers later: it returns nullopt now and calls send() on what this returns,
  // from any thread. Only inside a server's handler.
  DeferredReply defer() const { return {outbox, routing_id, request_id, job_id}; }
};

// Serves requests on a ROUTER socket from its own thread. A malformed request is answered
// with an ErrorReply naming what was wrong (when it carried a request id) and counted;
// the server keeps serving. Messages from keys that were revoked after they connected are
// dropped, so removing a member cuts it off without waiting for its connection to close.
class RpcServer {
 public:
  using Handler = std::function<std::optional<Reply>(const RequestContext&, wire::Message&)>;

  struct Config {
    std::string endpoint;  // "tcp://127.0.0.1:0", "ipc:///run/user/1000/rookery/control"
    std::string domain;    // ZAP domain for tcp endpoints
    wire::Limits limits;
    SocketOptions socket;
  };

  // For tcp:// endpoints the socket is a CURVE server checked against `domain`'s allow-list;
  // ipc:// endpoints rely on the file system (a 0700 folder) for who may connect.
  RpcServer(SecureContext& ctx, const CurveKeyPair* identity, Config config, Handler handler);
  ~RpcServer();
  RpcServer(const RpcServer&) = delete;
  RpcServer& operator=(const RpcServer&) = delete;

  const std::string& endpoint() const { return endpoint_; }
  std::uint64_t rejected() const { return rejected_.load(); }
  std::uint64_t served() const { return served_.load(); }

 private:
  void run();
  void send_deferred();

  SecureContext& ctx_;
  Config config_;
  Handler handler_;
  zmq::socket_t socket_;
  zmq::socket_t stop_tx_;
  zmq::socket_t stop_rx_;
  zmq::socket_t wake_rx_;
  std::shared_ptr<RpcOutbox> outbox_ = std::make_shared<RpcOutbox>();
  std::string endpoint_;
  std::atomic<std::uint64_t> rejected_{0}, served_{0};
  std::thread thread_;
};

struct RpcResult {
  enum class Status { Ok, Timeout, Malformed, RemoteError };
  Status status = Status::Timeout;
  std::optional<wire::Message> message;
  std::string error;
  bool ok() const { return status == Status::Ok; }
};

// Sends requests and waits for the matching reply. Not thread-safe: one thread owns it.
class RpcClient {
 public:
  // tcp:// endpoints need `identity` and `server_key` (CURVE); ipc:// need neither.
  RpcClient(SecureContext& ctx, const std::string& endpoint, const CurveKeyPair* identity = nullptr,
            const std::string& server_key = {}, wire::Limits limits = {});

  RpcResult request(wire::pb::Envelope header, std::vector<wire::OutgoingTensor> tensors,
                    std::chrono::milliseconds timeout);
  RpcResult request(wire::pb::Envelope header, std::chrono::milliseconds timeout) {
    return request(std::move(header), {}, timeout);
  }
  const std::string& endpoint() const { return endpoint_; }

 private:
  zmq::socket_t socket_;
  std::string endpoint_;
  wire::Limits limits_;
  std::uint64_t next_id_ = 1;
};

// Receives one multipart message, at most `max_parts` parts (the rest are drained and the
// message reported as too long). Returns false if nothing was waiting (dontwait).
bool recv_multipart_bounded(zmq::socket_t& s, std::vector<zmq::message_t>& out,
                            std::size_t max_parts, bool& truncated);

}  // namespace rookery::net
