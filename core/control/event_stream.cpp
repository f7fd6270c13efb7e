#include "control/event_stream.hpp"

namespace rookery::control {

std::optional<EventStream::Gap> EventStream::accept(std::uint64_t seq) {
  if (!synced_) {  // the first event seen sets the baseline
    synced_ = true;
    last_ = seq;
    return std::nullopt;
  }
  if (seq == last_) return std::nullopt;  // already covered by a snapshot
  if (seq < last_) {                      // the node restarted and began a new sequence
    last_ = seq;
    ++restarts_;
    return std::nullopt;
  }
  std::optional<Gap> gap;
  if (seq != last_ + 1) {
    gap = Gap{last_ + 1, seq};
    ++gaps_;
  }
  last_ = seq;
  return gap;
}

void EventStream::resync(std::uint64_t snapshot_seq) {
  synced_ = true;
  last_ = snapshot_seq;
}

}  // namespace rookery::control
