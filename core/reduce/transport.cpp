#include "reduce/transport.hpp"

#include <cstring>
#include <stdexcept>

#include <spdlog/spdlog.h>

namespace rookery::reduce {

OutgoingSegment OutgoingSegment::forwarding(const IncomingSegment& in, SegmentTag tag) {
  OutgoingSegment out;
  out.tag = tag;
  out.weight = in.weight;
  out.codec = in.codec;
  out.block_size = in.block_size;
  out.count = in.count;
  out.bytes = in.payload();
  return out;
}

void IncomingSegment::check_size(std::size_t values) const {
  if (count != values || bytes.size() != wire::encoded_bytes(codec, values, block_size)) {
    throw std::invalid_argument("reduce segment from " + from + " carries " +
                                std::to_string(count) + " values, expected " +
                                std::to_string(values));
  }
}

void IncomingSegment::decode_add(std::span<float> acc, float scale, const float* base,
                                 float src_scale) const {
  check_size(acc.size());
  wire::decode_add_f32(codec, bytes, acc, block_size, scale, base, src_scale);
}

void IncomingSegment::decode_into(std::span<float> out) const {
  check_size(out.size());
  if (codec == wire::Codec::None) {  // f32 as sent: libc's copy beats the codec's loop
    std::memcpy(out.data(), bytes.data(), out.size_bytes());
    return;
  }
  wire::decode_f32(codec, bytes, out, block_size);
}

void Mailbox::deliver(IncomingSegment segment) {
  {
    std::lock_guard lock(mutex_);
    const auto& t = segment.tag;
    if (auto it = finished_.find(t.ring); it != finished_.end() && t.round < it->second) {
      ++dropped_;  // a late segment of a round this member already finished
      return;
    }
    if (kept_bytes_ + segment.bytes.size() > limits_.max_bytes) {
      ++dropped_;
      spdlog::warn("reduce mailbox full ({} bytes kept); segment from {} dropped", kept_bytes_,
                   segment.from);
      return;
    }
    if (t.phase == Phase::Vote && !segment.ok) aborted_.insert({t.ring, t.round, t.attempt});
    kept_bytes_ += segment.bytes.size();
    Key key{segment.from, segment.tag};
    if (auto it = kept_.find(key); it != kept_.end()) {
      kept_bytes_ -= it->second.bytes.size();
      it->second = std::move(segment);
    } else {
      kept_.emplace(std::move(key), std::move(segment));
    }
  }
  arrived_.notify_all();
}

Mailbox::Taken Mailbox::take(const std::string& from, const SegmentTag& tag,
                             Clock::time_point deadline, bool abortable) {
  std::unique_lock lock(mutex_);
  const Key key{from, tag};
  const AttemptKey attempt{tag.ring, tag.round, tag.attempt};
  for (;;) {
    if (auto it = kept_.find(key); it != kept_.end()) {
      Taken t{TakeStatus::Ok, std::move(it->second)};
      kept_bytes_ -= t.segment->bytes.size();
      kept_.erase(it);
      return t;
    }
    if (abortable && aborted_.count(attempt)) return {TakeStatus::Aborted, std::nullopt};
    if (arrived_.wait_until(lock, deadline) == std::cv_status::timeout) {
      // One last look: the segment may have come with the timeout.
      if (auto it = kept_.find(key); it != kept_.end()) continue;
      return {TakeStatus::Timeout, std::nullopt};
    }
  }
}

void Mailbox::finish(std::uint64_t ring, std::uint64_t round) {
  std::lock_guard lock(mutex_);
  auto& f = finished_[ring];
  f = std::max(f, round + 1);
  for (auto it = kept_.begin(); it != kept_.end();) {
    const auto& t = std::get<1>(it->first);
    if (t.ring == ring && t.round <= round) {
      kept_bytes_ -= it->second.bytes.size();
      it = kept_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto it = aborted_.begin(); it != aborted_.end();) {
    it = (std::get<0>(*it) == ring && std::get<1>(*it) <= round) ? aborted_.erase(it)
                                                                 : std::next(it);
  }
}

std::size_t Mailbox::kept() const {
  std::lock_guard lock(mutex_);
  return kept_.size();
}

std::uint64_t Mailbox::dropped() const {
  std::lock_guard lock(mutex_);
  return dropped_;
}

}  // namespace rookery::reduce
