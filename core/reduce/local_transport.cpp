#include "reduce/local_transport.hpp"

namespace rookery::reduce {

LocalTransport& LocalFabric::join(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto& slot = members_[id];
  if (!slot) slot = std::make_unique<LocalTransport>(*this, id);
  return *slot;
}

LocalTransport& LocalFabric::join(const net::CurveKeyPair& identity) {
  std::lock_guard lock(mutex_);
  auto& slot = members_[identity.public_key];
  if (!slot) slot = std::make_unique<LocalTransport>(*this, identity);
  return *slot;
}

void LocalFabric::cut_off(const std::string& id) {
  std::lock_guard lock(mutex_);
  cut_off_.insert(id);
}

void LocalFabric::cut_off_after(const std::string& id, std::uint64_t sends) {
  std::lock_guard lock(mutex_);
  sends_left_[id] = sends;
}

std::uint64_t LocalFabric::delivered() const {
  std::lock_guard lock(mutex_);
  return delivered_;
}

void LocalFabric::route(const std::string& from, const std::string& to, OutgoingSegment segment) {
  LocalTransport* target = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (auto it = sends_left_.find(from); it != sends_left_.end()) {
      if (it->second == 0)
        cut_off_.insert(from);
      else
        --it->second;
    }
    if (cut_off_.count(from) || cut_off_.count(to)) return;
    auto it = members_.find(to);
    if (it == members_.end()) return;
    target = it->second.get();
    ++delivered_;
  }
  IncomingSegment in;
  in.from = from;
  in.tag = segment.tag;
  in.weight = segment.weight;
  in.ok = segment.ok;
  in.sender_view = segment.sender_view;
  in.codec = segment.codec;
  in.block_size = segment.block_size;
  in.count = segment.count;
  in.bytes = {static_cast<const std::byte*>(segment.bytes.data), segment.bytes.size};
  in.owner = std::move(segment.bytes.owner);
  target->mailbox().deliver(std::move(in));
}

void LocalTransport::send(const std::string& to, OutgoingSegment segment) {
  fabric_.route(id_, to, std::move(segment));
}

}  // namespace rookery::reduce
