#pragma once
// The transport a ring all-reduce runs on, Gloo-style: the algorithm only sends a tagged
// segment to a member and waits, with a deadline, for a tagged segment from a member.
// Two implementations: LocalFabric (in-process, for exact tests) and ZmqTransport (CURVE
// over TCP, for real use). Both deliver into a Mailbox, where segments wait, keyed by
// sender and tag, until the ring that expects them takes them: a segment that arrives
// before its round started here is kept, not lost.
#include <chrono>
#include <compare>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <tuple>

#include "net/identity.hpp"
#include "wire/codec.hpp"
#include "wire/message.hpp"

namespace rookery::reduce {

using Clock = std::chrono::steady_clock;

enum class Phase : std::uint8_t { ReduceScatter = 1, AllGather = 2, Gather = 3, Vote = 4 };

// Names one message of one ring's round. Every concurrent operation has its own tag.
struct SegmentTag {
  std::uint64_t ring = 0;  // hash of (buffer name, range)
  std::uint64_t round = 0;
  std::uint32_t attempt = 0;
  std::uint64_t view = 0;  // hash of the attempt's member list; 0 for votes
  Phase phase = Phase::ReduceScatter;
  std::uint32_t step = 0;
  std::uint32_t segment = 0;
  auto operator<=>(const SegmentTag&) const = default;
};

struct IncomingSegment;

struct OutgoingSegment {
  // `in`'s bytes as they came, to go on under `tag`: its weight, codec and count, no copy and
  // no re-encoding (the all-gather's hops, so every member decodes the owner's exact bytes).
  static OutgoingSegment forwarding(const IncomingSegment& in, SegmentTag tag);

  SegmentTag tag;
  double weight = 0;              // samples summed into this slice so far
  bool ok = true;                 // votes
  std::uint64_t sender_view = 0;  // votes
  wire::Codec codec = wire::Codec::None;
  std::uint32_t block_size = wire::kDefaultInt8Block;
  std::uint64_t count = 0;  // f32 values the bytes decode to
  wire::Payload bytes;      // zero-copy: `bytes.owner` keeps them alive while in flight
};

struct IncomingSegment {
  std::string from;
  SegmentTag tag;
  double weight = 0;
  bool ok = true;
  std::uint64_t sender_view = 0;
  wire::Codec codec = wire::Codec::None;
  std::uint32_t block_size = wire::kDefaultInt8Block;
  std::uint64_t count = 0;
  std::span<const std::byte> bytes;
  std::shared_ptr<const void> owner;  // keeps `bytes` alive (a ZeroMQ frame, a sender's buffer)

  // The same bytes, ready to forward without a copy or a re-encode (all-gather).
  wire::Payload payload() const { return {bytes.data(), bytes.size(), owner}; }
  // Throws std::invalid_argument unless it decodes to exactly `values` values.
  void check_size(std::size_t values) const;
  // acc = base * scale + decoded values * src_scale (base: acc itself when null); throws
  // std::invalid_argument when the sizes disagree.
  void decode_add(std::span<float> acc, float scale = 1.f, const float* base = nullptr,
                  float src_scale = 1.f) const;
  void decode_into(std::span<float> out) const;
};

// Where incoming segments wait to be taken. Thread-safe; waits block on a condition
// variable (no polling) and always have a deadline.
class Mailbox {
 public:
  struct Limits {
    std::size_t max_bytes = std::size_t{2} << 30;  // kept bytes; beyond it new segments are dropped
  };
  Mailbox() = default;
  explicit Mailbox(Limits limits) : limits_(limits) {}

  void deliver(IncomingSegment segment);

  enum class TakeStatus { Ok, Timeout, Aborted };
  struct Taken {
    TakeStatus status = TakeStatus::Timeout;
    std::optional<IncomingSegment> segment;
  };
  // Waits for the segment tagged `tag` from `from` until `deadline`. When `abortable`, also
  // returns as soon as any member has voted "failed" for tag's (ring, round, attempt).
  Taken take(const std::string& from, const SegmentTag& tag, Clock::time_point deadline,
             bool abortable = true);

  // The ring has finished `round`: drop what is kept for it and refuse late arrivals.
  void finish(std::uint64_t ring, std::uint64_t round);

  std::size_t kept() const;
  std::uint64_t dropped() const;

 private:
  using Key = std::tuple<std::string, SegmentTag>;
  using AttemptKey = std::tuple<std::uint64_t, std::uint64_t, std::uint32_t>;
  Limits limits_;
  mutable std::mutex mutex_;
  std::condition_variable arrived_;
  std::map<Key, IncomingSegment> kept_;
  std::set<AttemptKey> aborted_;
  std::map<std::uint64_t, std::uint64_t> finished_;  // ring -> last finished round + 1
  std::size_t kept_bytes_ = 0;
  std::uint64_t dropped_ = 0;
};

class Transport {
 public:
  virtual ~Transport() = default;
  // This member's id (for ZmqTransport: its CURVE public key).
  virtual const std::string& self() const = 0;
  // Queues a segment for `to` and returns at once; never blocks for the network. A segment
  // that cannot be delivered within the transport's send timeout is dropped: the receiver's
  // deadline turns that into an excluded member, not a hang.
  virtual void send(const std::string& to, OutgoingSegment segment) = 0;
  // Where this member's incoming segments wait (virtual so a wrapper can share its inner one).
  virtual Mailbox& mailbox() { return mailbox_; }
  // The key pair whose public key is self(), where members are named by their CURVE keys
  // (ZmqTransport with CURVE): verified aggregation signs its input commitments with it.
  virtual const net::CurveKeyPair* identity() const { return nullptr; }

 protected:
  Mailbox mailbox_;
};

}  // namespace rookery::reduce
