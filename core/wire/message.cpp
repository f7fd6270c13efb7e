#include "wire/message.hpp"

#include <limits>
#include <stdexcept>

#include <xxhash.h>
#if defined(__x86_64__)
#include <xxh_x86dispatch.h>  // libxxhash's runtime choice of SSE2, AVX2 or AVX-512
#endif

namespace rookery::wire {

namespace {

bool dtype_from_pb(pb::DType d, DType& out) {
  switch (d) {
    case pb::F32:
      out = DType::F32;
      return true;
    case pb::F16:
      out = DType::F16;
      return true;
    case pb::BF16:
      out = DType::BF16;
      return true;
    case pb::I64:
      out = DType::I64;
      return true;
    case pb::I32:
      out = DType::I32;
      return true;
    case pb::U16:
      out = DType::U16;
      return true;
    case pb::U8:
      out = DType::U8;
      return true;
    case pb::I8:
      out = DType::I8;
      return true;
    default:
      return false;
  }
}

pb::DType dtype_to_pb(DType d) { return static_cast<pb::DType>(static_cast<int>(d)); }

bool codec_from_pb(pb::Codec c, Codec& out) {
  switch (c) {
    case pb::CODEC_NONE:
      out = Codec::None;
      return true;
    case pb::CODEC_FP16:
      out = Codec::Fp16;
      return true;
    case pb::CODEC_BF16:
      out = Codec::Bf16;
      return true;
    case pb::CODEC_INT8_BLOCK:
      out = Codec::Int8Block;
      return true;
    default:
      return false;
  }
}

pb::Codec codec_to_pb(Codec c) { return static_cast<pb::Codec>(static_cast<int>(c)); }

void free_payload(void* /*data*/, void* hint) {
  delete static_cast<std::shared_ptr<const void>*>(hint);
}

DecodeError fail(DecodeError::Kind k, std::string what) { return DecodeError{k, std::move(what)}; }

}  // namespace

std::size_t dtype_size(DType d) {
  switch (d) {
    case DType::F32:
    case DType::I32:
      return 4;
    case DType::F16:
    case DType::BF16:
    case DType::U16:
      return 2;
    case DType::I64:
      return 8;
    case DType::U8:
    case DType::I8:
      return 1;
  }
  return 0;
}

std::string_view dtype_name(DType d) {
  switch (d) {
    case DType::F32:
      return "f32";
    case DType::F16:
      return "f16";
    case DType::BF16:
      return "bf16";
    case DType::I64:
      return "i64";
    case DType::I32:
      return "i32";
    case DType::U16:
      return "u16";
    case DType::U8:
      return "u8";
    case DType::I8:
      return "i8";
  }
  return "?";
}

std::string_view decode_error_name(DecodeError::Kind k) {
  using K = DecodeError::Kind;
  switch (k) {
    case K::NoFrames:
      return "no-frames";
    case K::TooManyFrames:
      return "too-many-frames";
    case K::HeaderTooLarge:
      return "header-too-large";
    case K::BadHeader:
      return "bad-header";
    case K::BadVersion:
      return "bad-version";
    case K::FrameCountMismatch:
      return "frame-count-mismatch";
    case K::BadDType:
      return "bad-dtype";
    case K::BadCodec:
      return "bad-codec";
    case K::BadShape:
      return "bad-shape";
    case K::TooLarge:
      return "too-large";
    case K::SizeMismatch:
      return "size-mismatch";
    case K::BadChecksum:
      return "bad-checksum";
  }
  return "?";
}

// XXH3 over every frame, both ways: on x86-64 through libxxhash's dispatcher (the same hash,
// computed with the widest vectors the CPU has; the plain entry point is SSE2 only, and was
// 5% of a ring's CPU time on loopback).
std::uint64_t checksum(std::span<const std::byte> bytes) {
#if defined(__x86_64__)
  return XXH3_64bits_dispatch(bytes.data(), bytes.size());
#else
  return XXH3_64bits(bytes.data(), bytes.size());
#endif
}

Payload Payload::copy_of(std::span<const std::byte> bytes) {
  return own(std::vector<std::byte>(bytes.begin(), bytes.end()));
}

Payload Payload::own(std::vector<std::byte>&& bytes) {
  auto holder = std::make_shared<std::vector<std::byte>>(std::move(bytes));
  Payload p;
  p.data = holder->data();
  p.size = holder->size();
  p.owner = std::move(holder);
  return p;
}

OutgoingTensor OutgoingTensor::encode(std::string name, std::vector<std::int64_t> shape,
                                      std::span<const float> values, Codec codec,
                                      std::uint32_t block_size) {
  std::vector<std::byte> buf(encoded_bytes(codec, values.size(), block_size));
  encode_f32(codec, values, buf, block_size);
  OutgoingTensor t;
  t.name = std::move(name);
  t.dtype = DType::F32;
  t.shape = std::move(shape);
  t.codec = codec;
  t.block_size = block_size;
  t.bytes = Payload::own(std::move(buf));
  return t;
}

OutgoingTensor OutgoingTensor::raw(std::string name, DType dtype, std::vector<std::int64_t> shape,
                                   Payload bytes) {
  OutgoingTensor t;
  t.name = std::move(name);
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.codec = Codec::None;
  t.bytes = std::move(bytes);
  return t;
}

IncomingTensor::IncomingTensor(const pb::TensorMeta& meta, zmq::message_t&& frame)
    : name_(meta.name()), block_size_(meta.block_size()), frame_(std::move(frame)) {
  dtype_from_pb(meta.dtype(), dtype_);
  codec_from_pb(meta.codec(), codec_);
  shape_.assign(meta.shape().begin(), meta.shape().end());
  numel_ = 1;
  for (auto d : shape_) numel_ *= d;
}

void IncomingTensor::decode_f32(std::span<float> out) const {
  if (dtype_ != DType::F32)
    throw std::logic_error("tensor '" + name_ + "' is " + std::string(dtype_name(dtype_)) +
                           ", not f32");
  if (static_cast<std::int64_t>(out.size()) != numel_)
    throw std::logic_error("tensor '" + name_ + "': output size mismatch");
  wire::decode_f32(codec_, bytes(), out, block_size_);
}

std::vector<float> IncomingTensor::to_f32() const {
  std::vector<float> out(static_cast<std::size_t>(numel_));
  decode_f32(out);
  return out;
}

void IncomingTensor::decode_add_f32(std::span<float> acc) const {
  if (dtype_ != DType::F32) throw std::logic_error("tensor '" + name_ + "' is not f32");
  if (static_cast<std::int64_t>(acc.size()) != numel_)
    throw std::logic_error("tensor '" + name_ + "': accumulator size mismatch");
  wire::decode_add_f32(codec_, bytes(), acc, block_size_);
}

const IncomingTensor* Message::tensor(std::string_view name) const {
  for (const auto& t : tensors) {
    if (t.name() == name) return &t;
  }
  return nullptr;
}

std::vector<zmq::message_t> encode(pb::Envelope header, std::vector<OutgoingTensor> tensors,
                                   bool checksums) {
  header.set_version(kProtocolVersion);
  header.clear_tensors();
  for (const auto& t : tensors) {
    auto* m = header.add_tensors();
    m->set_name(t.name);
    m->set_dtype(dtype_to_pb(t.dtype));
    for (auto d : t.shape) m->add_shape(d);
    m->set_codec(codec_to_pb(t.codec));
    m->set_frame_bytes(t.bytes.size);
    if (checksums)
      m->set_checksum(checksum({static_cast<const std::byte*>(t.bytes.data), t.bytes.size}));
    if (t.codec == Codec::Int8Block) m->set_block_size(t.block_size);
  }
  std::vector<zmq::message_t> frames;
  frames.reserve(tensors.size() + 1);
  const std::string head = header.SerializeAsString();
  frames.emplace_back(head.data(), head.size());
  for (auto& t : tensors) {
    if (t.bytes.size == 0) {
      frames.emplace_back();
      continue;
    }
    // Zero-copy: ZeroMQ holds a reference to the owner until the bytes are on the wire.
    auto* hint = new std::shared_ptr<const void>(std::move(t.bytes.owner));
    frames.emplace_back(const_cast<void*>(t.bytes.data), t.bytes.size, &free_payload, hint);
  }
  return frames;
}

DecodeResult decode(std::vector<zmq::message_t>&& frames, const Limits& limits) {
  using K = DecodeError::Kind;
  if (frames.empty()) return fail(K::NoFrames, "message has no frames");
  if (frames.size() > limits.max_frames) {
    return fail(K::TooManyFrames, "message has " + std::to_string(frames.size()) +
                                      " frames, limit is " + std::to_string(limits.max_frames));
  }
  if (frames[0].size() > limits.max_header_bytes) {
    return fail(K::HeaderTooLarge, "header frame is " + std::to_string(frames[0].size()) +
                                       " bytes, limit is " +
                                       std::to_string(limits.max_header_bytes));
  }
  Message msg;
  if (!msg.header.ParseFromArray(frames[0].data(), static_cast<int>(frames[0].size()))) {
    return fail(K::BadHeader, "header frame is not a valid Envelope");
  }
  if (msg.header.version() != kProtocolVersion) {
    return fail(K::BadVersion, "protocol version " + std::to_string(msg.header.version()) +
                                   ", expected " + std::to_string(kProtocolVersion));
  }
  const auto& metas = msg.header.tensors();
  if (static_cast<std::size_t>(metas.size()) + 1 != frames.size()) {
    return fail(K::FrameCountMismatch, "header declares " + std::to_string(metas.size()) +
                                           " tensors but " + std::to_string(frames.size() - 1) +
                                           " tensor frames arrived");
  }
  std::size_t total = frames[0].size();
  for (int i = 0; i < metas.size(); ++i) {
    const auto& m = metas[i];
    const auto& frame = frames[static_cast<std::size_t>(i) + 1];
    const std::string who = "tensor " + std::to_string(i) + " ('" + m.name().substr(0, 64) + "')";
    DType dtype;
    if (!dtype_from_pb(m.dtype(), dtype)) {
      return fail(K::BadDType, who + ": dtype " + std::to_string(m.dtype()) + " is not allowed");
    }
    Codec codec;
    if (!codec_from_pb(m.codec(), codec)) {
      return fail(K::BadCodec, who + ": codec " + std::to_string(m.codec()) + " is not known");
    }
    if (codec != Codec::None && dtype != DType::F32) {
      return fail(K::BadCodec, who + ": codec " + std::string(codec_name(codec)) +
                                   " applies to f32 tensors only");
    }
    if (codec == Codec::Int8Block && (m.block_size() == 0 || m.block_size() > (1u << 20))) {
      return fail(K::BadCodec,
                  who + ": int8 block size " + std::to_string(m.block_size()) + " is out of range");
    }
    if (static_cast<std::size_t>(m.shape_size()) > limits.max_rank) {
      return fail(K::BadShape, who + ": rank " + std::to_string(m.shape_size()) + " exceeds " +
                                   std::to_string(limits.max_rank));
    }
    // numel with overflow checks: a declared shape may be absurd.
    std::uint64_t numel = 1;
    const std::uint64_t cap = limits.max_tensor_bytes;
    for (auto d : m.shape()) {
      if (d < 0) return fail(K::BadShape, who + ": negative dimension " + std::to_string(d));
      if (d != 0 && numel > cap / static_cast<std::uint64_t>(d)) {
        return fail(K::TooLarge, who + ": declared shape exceeds the tensor size limit");
      }
      numel *= static_cast<std::uint64_t>(d);
    }
    if (numel > cap)
      return fail(K::TooLarge, who + ": declared shape exceeds the tensor size limit");
    const std::uint64_t want = codec == Codec::None ? numel * dtype_size(dtype)
                                                    : encoded_bytes(codec, numel, m.block_size());
    if (want > limits.max_tensor_bytes) {
      return fail(K::TooLarge, who + ": " + std::to_string(want) + " bytes exceeds the limit of " +
                                   std::to_string(limits.max_tensor_bytes));
    }
    if (m.frame_bytes() != want || frame.size() != want) {
      return fail(K::SizeMismatch, who + ": shape and dtype need " + std::to_string(want) +
                                       " bytes, header says " + std::to_string(m.frame_bytes()) +
                                       ", frame has " + std::to_string(frame.size()));
    }
    total += frame.size();
    if (total > limits.max_total_bytes) {
      return fail(K::TooLarge, "message exceeds the total size limit of " +
                                   std::to_string(limits.max_total_bytes));
    }
    if (limits.checksums &&
        checksum({static_cast<const std::byte*>(frame.data()), frame.size()}) != m.checksum()) {
      return fail(K::BadChecksum, who + ": checksum mismatch (corrupted in transit or forged)");
    }
  }
  msg.tensors.reserve(static_cast<std::size_t>(metas.size()));
  for (int i = 0; i < metas.size(); ++i) {
    msg.tensors.emplace_back(metas[i], std::move(frames[static_cast<std::size_t>(i) + 1]));
  }
  return DecodeResult(std::move(msg));
}

}  // namespace rookery::wire
