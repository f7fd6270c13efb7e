#pragma once
// InProcessStageLink: StageLink between stages of one process, for tests of the pipeline's
// logic without sockets. An InProcessStageHub connects the links by endpoint, a name written
// as a tcp:// address (the only kind a stage takes as a return address) but never bound;
// a message travels as the same frames a ZmqStageLink sends: the sender's FrameBuilder runs
// on the receiving link's thread, the frames are decoded with the wire's own checks, and
// the stage's receiver gets the result, one message at a time, in the order each link sent
// them. What a socket would do is kept where the stage can tell: a send blocks while this
// link already has `lane_capacity` messages waiting at that peer (a post drops beyond
// twice that); a message to an endpoint nobody listens on, to a key other than the
// listener's, or from a key the listener does not admit is dropped and counted in the
// sender's failed(); a key revoked while its message waited is refused at the receiver.
// No caps: no byte of it crosses a network.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "pipeline/stage_link.hpp"

namespace rookery::pipeline {

struct InProcessMailbox;

// Which link listens at which endpoint. It must outlive the links attached to it.
class InProcessStageHub {
 public:
  InProcessStageHub() = default;
  InProcessStageHub(const InProcessStageHub&) = delete;
  InProcessStageHub& operator=(const InProcessStageHub&) = delete;

  // Endpoints listened on now.
  std::vector<std::string> endpoints() const;

 private:
  friend class InProcessStageLink;
  // Throws std::invalid_argument when `endpoint` is taken (as binding a used port fails).
  void attach(const std::string& endpoint, std::shared_ptr<InProcessMailbox> box);
  void detach(const std::string& endpoint, const InProcessMailbox* box);
  std::shared_ptr<InProcessMailbox> find(const std::string& endpoint) const;

  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<InProcessMailbox>> mailboxes_;
};

class InProcessStageLink final : public StageLink {
 public:
  // A link for the stage whose public key is `key`, listening (once listen() is called) at
  // `endpoint` of `hub`. Throws std::invalid_argument for an endpoint not written tcp://.
  InProcessStageLink(InProcessStageHub& hub, std::string key, std::string endpoint,
                     std::size_t lane_capacity = 4);
  // Stops listening: messages waiting here are dropped, and later ones find nobody.
  ~InProcessStageLink() override;
  InProcessStageLink(const InProcessStageLink&) = delete;
  InProcessStageLink& operator=(const InProcessStageLink&) = delete;

  void listen(Receiver receive) override;
  std::string endpoint() const override;
  bool send(const net::PeerAddress& to, FrameBuilder build) override;
  bool post(const net::PeerAddress& to, FrameBuilder build) override;
  void admit(const std::vector<std::string>& keys) override;
  std::vector<std::string> admitted() const override;
  std::uint64_t bytes_sent() const override;
  std::uint64_t failed() const override;
  std::uint64_t refused() const override;

  // What this link sent, kept apart so a message still waiting at a peer can be counted
  // when it leaves or is dropped.
  struct Tally {
    std::atomic<std::uint64_t> sent{0}, bytes{0}, failed{0};
  };

 private:
  bool enqueue(const net::PeerAddress& to, FrameBuilder build, bool wait);
  void serve();

  InProcessStageHub& hub_;
  std::string key_;
  std::string endpoint_;
  std::size_t capacity_;
  std::uint64_t id_;
  std::shared_ptr<Tally> tally_ = std::make_shared<Tally>();
  std::shared_ptr<InProcessMailbox> box_;
  Receiver receive_;
  std::atomic<std::uint64_t> refused_{0};
  std::thread thread_;
};

}  // namespace rookery::pipeline
