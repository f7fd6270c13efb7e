#pragma once
// The ring transport over ZeroMQ: CURVE-encrypted TCP, Rookery's framing (an Envelope with
// a ReduceMessage, then the segment's bytes as one zero-copy frame).
//
// Threads: a receiver thread owns the ROUTER socket, validates every message (wire::decode
// with limits) and delivers it to the mailbox; a sender thread owns one DEALER socket per
// peer. send() builds the frames on the caller's thread (so rings encode and checksum in
// parallel) and hands them over; the sender sends without blocking and, when a peer's
// pipe is full, waits for POLLOUT on that socket alone, so one slow or dead peer never
// stalls the others. Nothing polls in a loop; a segment not accepted within send_timeout
// is dropped (the receiver's deadline then excludes its sender).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <zmq.hpp>

#include "net/secure_context.hpp"
#include "reduce/transport.hpp"

namespace rookery::reduce {

struct ZmqTransportConfig {
  std::string listen = "tcp://127.0.0.1:0";
  // CURVE on every link. Off only for benchmarks against unencrypted baselines (Gloo);
  // then a member's id is whatever it claims, so never in a swarm.
  bool curve = true;
  std::string id;  // member id when curve is off (with CURVE it is the public key)
  // XXH3 checksums on segment frames, in plaintext only. With CURVE there are none: its MAC
  // authenticates every frame, so a checksum would only cost a pass over the bytes each way.
  // Off in plaintext, the bytes have TCP's checksum alone, as Gloo's do.
  bool plaintext_checksums = true;
  int hwm = 512;                      // messages queued per peer pipe before the sender waits
  int socket_buffer_bytes = 4 << 20;  // kernel send/receive buffers (SO_SNDBUF/SO_RCVBUF)
  std::chrono::milliseconds send_timeout{10000};
  int linger_ms = 2000;  // on shutdown, how long ZeroMQ keeps flushing queued segments
  wire::Limits limits{.max_frames = 2};
};

class ZmqTransport final : public Transport {
 public:
  ZmqTransport(net::SecureContext& ctx, const net::CurveKeyPair& identity,
               ZmqTransportConfig config = {});
  ~ZmqTransport() override;
  ZmqTransport(const ZmqTransport&) = delete;
  ZmqTransport& operator=(const ZmqTransport&) = delete;

  const std::string& self() const override { return id_; }
  const net::CurveKeyPair* identity() const override {
    return config_.curve ? &identity_ : nullptr;
  }
  std::string endpoint() const { return endpoint_; }
  // Where member `id` listens. With CURVE `id` is its public key, which is also allowed on
  // this node's peer domain (ring members are peers the coordinator admitted).
  void add_peer(const std::string& id, const std::string& endpoint);
  void send(const std::string& to, OutgoingSegment segment) override;

  std::uint64_t bytes_sent() const { return bytes_sent_.load(); }
  std::uint64_t send_dropped() const { return send_dropped_.load(); }
  std::uint64_t rejected() const { return rejected_.load(); }

 private:
  struct Outgoing {
    std::string to;
    std::vector<zmq::message_t> frames;
    Clock::time_point deadline;
    bool vote = false;
  };
  void receive_loop();
  void send_loop();
  void wake(int fd);

  net::SecureContext& ctx_;
  net::CurveKeyPair identity_;
  ZmqTransportConfig config_;
  std::string id_;
  std::string endpoint_;
  zmq::socket_t router_;
  int stop_fd_ = -1;  // eventfd: stop the receiver
  int wake_fd_ = -1;  // eventfd: new outgoing messages (or stop) for the sender
  std::mutex mutex_;
  std::map<std::string, std::string> peers_;  // id -> endpoint
  std::deque<Outgoing> outbox_;
  bool stopping_ = false;
  std::atomic<std::uint64_t> bytes_sent_{0}, send_dropped_{0}, rejected_{0};
  std::thread receiver_, sender_;
};

}  // namespace rookery::reduce
