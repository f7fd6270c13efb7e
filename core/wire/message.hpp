#pragma once
// Framing of every Rookery message on ZeroMQ: frame 0 is a protobuf `Envelope` (the header:
// type, job, ids, tensor metadata), frames 1..n are the raw bytes of its tensors, sent
// zero-copy. `decode` validates everything before anyone reads a byte of payload.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <zmq.hpp>

#include "rookery/envelope.pb.h"
#include "wire/codec.hpp"

namespace rookery::wire {

inline constexpr std::uint32_t kProtocolVersion = 1;

enum class DType : std::uint8_t {
  F32 = 1,
  F16 = 2,
  BF16 = 3,
  I64 = 4,
  I32 = 5,
  U16 = 6,
  U8 = 7,
  I8 = 8
};
std::size_t dtype_size(DType d);
std::string_view dtype_name(DType d);

// Bounds the decoder enforces, so a hostile or broken peer cannot make us allocate or read
// without limit. Each socket passes the limits that fit its traffic.
struct Limits {
  std::size_t max_frames = 65;  // header + 64 tensors
  std::size_t max_header_bytes = 256 * 1024;
  std::size_t max_tensor_bytes = std::size_t{1} << 30;  // 1 GiB per tensor frame
  std::size_t max_total_bytes = std::size_t{2} << 30;   // all frames together
  std::size_t max_rank = 8;
  // Whether tensor frames carry an XXH3 checksum that decode verifies. Off only on a channel
  // that authenticates every frame itself (CURVE's Poly1305 MAC): there the checksum proves
  // nothing more and costs a pass over every byte at each end. The sender's `encode` must
  // agree (a frame without one fails as BadChecksum).
  bool checksums = true;
};

// Bytes to send without copying: `owner` keeps `data` alive until ZeroMQ is done with it,
// which may be on ZeroMQ's I/O thread.
struct Payload {
  const void* data = nullptr;
  std::size_t size = 0;
  std::shared_ptr<const void> owner;

  static Payload copy_of(std::span<const std::byte> bytes);
  static Payload own(std::vector<std::byte>&& bytes);
};

// A tensor to send: its logical description and its already-encoded bytes.
struct OutgoingTensor {
  std::string name;
  DType dtype = DType::F32;
  std::vector<std::int64_t> shape;
  Codec codec = Codec::None;
  std::uint32_t block_size = kDefaultInt8Block;
  Payload bytes;

  // An f32 tensor, encoded with `codec` (a copy is made: the encoded buffer).
  static OutgoingTensor encode(std::string name, std::vector<std::int64_t> shape,
                               std::span<const float> values, Codec codec = Codec::None,
                               std::uint32_t block_size = kDefaultInt8Block);
  // Raw bytes of any dtype, sent as they are (zero-copy through `bytes.owner`).
  static OutgoingTensor raw(std::string name, DType dtype, std::vector<std::int64_t> shape,
                            Payload bytes);
};

// A received, validated tensor. Its bytes live in the ZeroMQ frame (no copy).
class IncomingTensor {
 public:
  IncomingTensor(const pb::TensorMeta& meta, zmq::message_t&& frame);

  const std::string& name() const { return name_; }
  DType dtype() const { return dtype_; }
  Codec codec() const { return codec_; }
  std::uint32_t block_size() const { return block_size_; }
  const std::vector<std::int64_t>& shape() const { return shape_; }
  std::int64_t numel() const { return numel_; }
  std::span<const std::byte> bytes() const {
    return {static_cast<const std::byte*>(frame_.data()), frame_.size()};
  }

  // Decodes an f32 tensor (whatever its codec) into `out` (numel() values).
  void decode_f32(std::span<float> out) const;
  std::vector<float> to_f32() const;
  // Adds the decoded values into `acc` (the reduction path).
  void decode_add_f32(std::span<float> acc) const;

 private:
  std::string name_;
  DType dtype_;
  Codec codec_;
  std::uint32_t block_size_;
  std::vector<std::int64_t> shape_;
  std::int64_t numel_;
  zmq::message_t frame_;
};

struct Message {
  pb::Envelope header;
  std::vector<IncomingTensor> tensors;

  const IncomingTensor* tensor(std::string_view name) const;
};

// Why a message was rejected. `what` is a sentence fit for a log line.
struct DecodeError {
  enum class Kind {
    NoFrames,
    TooManyFrames,
    HeaderTooLarge,
    BadHeader,
    BadVersion,
    FrameCountMismatch,
    BadDType,
    BadCodec,
    BadShape,
    TooLarge,
    SizeMismatch,
    BadChecksum,
  };
  Kind kind;
  std::string what;
};

std::string_view decode_error_name(DecodeError::Kind k);

// Result of decoding: the message or why it was refused. Never throws for bad input.
class DecodeResult {
 public:
  DecodeResult(Message&& m) : v_(std::move(m)) {}
  DecodeResult(DecodeError&& e) : v_(std::move(e)) {}
  bool ok() const { return std::holds_alternative<Message>(v_); }
  explicit operator bool() const { return ok(); }
  Message& message() { return std::get<Message>(v_); }
  const DecodeError& error() const { return std::get<DecodeError>(v_); }

 private:
  std::variant<Message, DecodeError> v_;
};

// Builds the frames of a message: fills in version and tensor metadata (sizes, and
// checksums unless the channel authenticates its frames: see Limits::checksums).
std::vector<zmq::message_t> encode(pb::Envelope header, std::vector<OutgoingTensor> tensors = {},
                                   bool checksums = true);

// Validates and decodes frames: version, frame count, sizes against `limits`, dtype and
// codec allow-lists, shape x dtype = bytes, checksums (where `limits.checksums`).
DecodeResult decode(std::vector<zmq::message_t>&& frames, const Limits& limits = {});

// XXH3-64 of a frame's bytes, the checksum in TensorMeta.
std::uint64_t checksum(std::span<const std::byte> bytes);

}  // namespace rookery::wire
