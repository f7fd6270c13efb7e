#include "pipeline/zmq_stage_link.hpp"

#include "net/rpc.hpp"
#include "net/token_bucket.hpp"

namespace rookery::pipeline {

ZmqStageLink::ZmqStageLink(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                           Options options)
    : ctx_(ctx),
      identity_(identity),
      options_(std::move(options)),
      sender_(ctx_, identity_, options_.lane_capacity, options_.socket) {}

ZmqStageLink::~ZmqStageLink() {
  server_.reset();  // stop receiving first; the sender's lanes end after
}

void ZmqStageLink::listen(Receiver receive) {
  net::RpcServer::Config rc;
  rc.endpoint = options_.listen;
  rc.domain = net::kPeerDomain;
  rc.socket = options_.socket;
  server_ = std::make_unique<net::RpcServer>(
      ctx_, &identity_, rc,
      [receive = std::move(receive)](const net::RequestContext& req,
                                     wire::Message& msg) -> std::optional<net::Reply> {
        // The governor's download cap: holding the receiver back lets TCP slow the sender down.
        std::uint64_t bytes = msg.header.ByteSizeLong();
        for (const auto& t : msg.tensors) bytes += t.bytes().size();
        net::download_bucket().acquire(bytes);
        receive(req.peer_key, msg);
        return std::nullopt;
      });
}

std::string ZmqStageLink::endpoint() const { return server_ ? server_->endpoint() : std::string(); }

bool ZmqStageLink::send(const net::PeerAddress& to, FrameBuilder build) {
  return sender_.send(to, std::move(build));
}

bool ZmqStageLink::post(const net::PeerAddress& to, FrameBuilder build) {
  return sender_.post(to, std::move(build));
}

void ZmqStageLink::admit(const std::vector<std::string>& keys) {
  ctx_.auth().replace(net::kPeerDomain, keys);
}

std::vector<std::string> ZmqStageLink::admitted() const {
  return ctx_.auth().allowed(net::kPeerDomain);
}

std::uint64_t ZmqStageLink::bytes_sent() const { return sender_.bytes_sent(); }
std::uint64_t ZmqStageLink::failed() const { return sender_.failed(); }
std::uint64_t ZmqStageLink::refused() const { return server_ ? server_->rejected() : 0; }

}  // namespace rookery::pipeline
