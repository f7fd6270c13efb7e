#pragma once
// StageLink: a stage's one way to its peer stages, the transport its runtime is written
// against (as Gloo's algorithms are written against pairs): it sends encoded wire messages
// to a peer by address and hands what its peers send to the stage, one message at a time.
// ZmqStageLink is the real one (CURVE over TCP, a ZAP allow-list of the job's members, the
// governor's caps); InProcessStageLink connects stages inside one process, for tests of the
// pipeline's logic without sockets. Both carry the same frames and decode them the same way,
// so what a stage sees does not depend on which one it runs over.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "net/peer_sender.hpp"

namespace rookery::wire {
struct Message;
}

namespace rookery::pipeline {

class StageLink {
 public:
  // Builds the frames of one message; it runs on the link's thread, not the caller's.
  using FrameBuilder = net::PeerSender::FrameBuilder;
  // A validated message from the peer whose public key is `peer_key`. Runs on the link's
  // receiver thread, one message at a time, in the order each peer sent them.
  using Receiver = std::function<void(const std::string& peer_key, wire::Message& msg)>;

  virtual ~StageLink() = default;

  // Starts receiving: from now on peers reach this stage at endpoint(). Call once. Messages
  // that fail to decode, or come from a key that is not admitted, never reach `receive`:
  // they are counted in refused().
  virtual void listen(Receiver receive) = 0;
  // The address peers send to (known once listening).
  virtual std::string endpoint() const = 0;

  // Queues a message to `to`; blocks while this link's queue to that peer is full (the
  // backpressure of a next hop slower than us). A peer that is gone, or whose key is not
  // `to.key`, or that does not admit this stage's key never gets it: it is dropped and
  // counted in failed(), now or later. False when it was dropped at once.
  virtual bool send(const net::PeerAddress& to, FrameBuilder build) = 0;
  // The same, but never blocks: beyond twice the queue's capacity the message is dropped
  // and counted. For answers sent from the receiver thread.
  virtual bool post(const net::PeerAddress& to, FrameBuilder build) = 0;

  // Member admission: only these keys may send to this stage (none before the first call).
  virtual void admit(const std::vector<std::string>& keys) = 0;
  virtual std::vector<std::string> admitted() const = 0;
  // Keeps only the admitted keys that are among `members`; the others are refused from now
  // on, messages already on their way included.
  void restrict_peers(const std::vector<std::string>& members);

  virtual std::uint64_t bytes_sent() const = 0;  // of messages that left
  virtual std::uint64_t failed() const = 0;      // messages sent that were dropped
  virtual std::uint64_t refused() const = 0;     // messages received that were refused
};

}  // namespace rookery::pipeline
