#pragma once
// ZmqStageLink: StageLink over ZeroMQ, what stages use between machines. Sends go through a
// net::PeerSender (a lane and a DEALER socket per peer, the upload cap); messages arrive on
// a CURVE ROUTER socket bound to the stage's endpoint, served by a net::RpcServer thread,
// and wait for the governor's download cap before the stage sees them. Admission is the
// SecureContext's ZAP allow-list of the peer domain: a key not on it cannot connect, and one
// taken off it is cut off on open connections too.
#include <memory>
#include <string>
#include <vector>

#include "net/peer_sender.hpp"
#include "net/secure_context.hpp"
#include "pipeline/stage_link.hpp"

namespace rookery::net {
class RpcServer;
}

namespace rookery::pipeline {

class ZmqStageLink final : public StageLink {
 public:
  struct Options {
    std::string listen = "tcp://127.0.0.1:0";  // where the stage receives (port 0: any free)
    std::size_t lane_capacity = 4;             // messages queued per peer before send() waits
    net::SocketOptions socket;
  };

  ZmqStageLink(net::SecureContext& ctx, const net::CurveKeyPair& identity, Options options);
  ~ZmqStageLink() override;
  ZmqStageLink(const ZmqStageLink&) = delete;
  ZmqStageLink& operator=(const ZmqStageLink&) = delete;

  void listen(Receiver receive) override;
  std::string endpoint() const override;
  bool send(const net::PeerAddress& to, FrameBuilder build) override;
  bool post(const net::PeerAddress& to, FrameBuilder build) override;
  void admit(const std::vector<std::string>& keys) override;
  std::vector<std::string> admitted() const override;
  std::uint64_t bytes_sent() const override;
  std::uint64_t failed() const override;
  std::uint64_t refused() const override;

 private:
  net::SecureContext& ctx_;
  net::CurveKeyPair identity_;
  Options options_;
  net::PeerSender sender_;
  std::unique_ptr<net::RpcServer> server_;
};

}  // namespace rookery::pipeline
