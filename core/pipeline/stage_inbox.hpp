#pragma once
// StageInbox: what arrives and waits for the compute thread. The receiver thread queues
// decoded forwards and gradients (bounded by the staleness), gradients this stage refuses
// (as discards, so the micro-batch sent for them is dropped at once), micro-batches a
// spot-check held until its verdict, and recomputations for other stages' checks. The
// compute thread takes one item at a time: a gradient first (it frees memory and a weight
// version, and unblocks the first stage), then a recomputation (a check waits on it, and it
// is short), then a forward when the schedule allows one. Nothing busy-waits.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>

#include "pipeline/stage_counters.hpp"
#include "pipeline/stage_messages.hpp"

namespace rookery::pipeline {

class StageInbox {
 public:
  // `capacity`: forwards, and gradients, that may wait each.
  StageInbox(std::size_t capacity, StageCounters& counters);

  // A received forward or gradient. Dropped, and counted as rejected, when its queue is full.
  void push(Inbound in);
  // A micro-batch a spot-check held: it passed, and is queued beyond the capacity (bounded
  // by the pending checks).
  void push_checked(Inbound in);
  // Work this stage will not use, counted as rejected. A forward dies here; a gradient
  // becomes a discard, so the compute thread drops the micro-batch this stage sent for it
  // now instead of holding a slot until its timeout.
  void refuse(Inbound in);
  // A verifier's recomputation; false when too many wait already.
  bool push_recompute(Recompute r);

  struct Item {
    std::optional<Inbound> work;
    std::optional<Recompute> recompute;
  };
  // Waits up to `wait` for an item, or until `can_feed` (a first stage may feed a new
  // micro-batch). A waiting forward is taken only while `can_forward`. Both are called
  // with the inbox locked and must not use it.
  Item take(std::chrono::milliseconds wait, const std::function<bool()>& can_forward,
            const std::function<bool()>& can_feed);
  // The schedule changed (draining): a waiting take looks again.
  void wake();
  // No gradient is waiting.
  bool no_gradients() const;

 private:
  static constexpr std::size_t kMaxRecomputes = 4;
  std::size_t capacity_;
  StageCounters& counters_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Inbound> forwards_, backwards_;
  std::deque<Recompute> recomputes_;
};

}  // namespace rookery::pipeline
