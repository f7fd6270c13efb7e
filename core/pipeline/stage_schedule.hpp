#pragma once
// StageSchedule: which micro-batches a stage has in flight and whether it may start another.
// Ravnest's schedule never flushes: the first stage keeps at most `staleness` micro-batches
// in flight, and a stage holds at most (staleness - stages_before), at least one, as in
// PipeDream's 1F1B. With flush_every = N the first stage runs GPipe's synchronous schedule
// instead (feed N, then wait until all are back). A micro-batch whose gradient does not come
// within the timeout has expired. Compute thread only, except set_draining.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include <ATen/core/Tensor.h>

#include "net/peer_sender.hpp"
#include "pipeline/stage_runtime.hpp"
#include "pipeline/weight_stash.hpp"

namespace rookery::pipeline {

// A micro-batch this stage forwarded, waiting for its gradient.
struct InFlight {
  std::shared_ptr<WeightVersion> version;
  at::Tensor input;   // requires grad on non-first stages: its .grad goes back
  at::Tensor output;  // the retained graph
  net::PeerAddress return_to;
  std::int64_t first_sample = 0;
  std::int64_t samples = 0;
  std::chrono::steady_clock::time_point started;
  std::uint32_t pipeline = 0;         // the pipeline whose first stage fed it
  std::uint64_t averaging_round = 0;  // its forward's common point's (common_point.hpp)
};

class StageSchedule {
 public:
  StageSchedule(const StageConfig& config, bool first);

  // A first stage may feed a new micro-batch.
  bool can_feed() const;
  // A forward from the previous stage may start (else it waits in the inbox).
  bool can_forward() const;
  // The id of the micro-batch a first stage feeds now: unique across restarts.
  std::uint64_t feed();
  // Pausing gracefully: no new micro-batch starts, those in flight finish. Any thread.
  void set_draining(bool draining) { draining_.store(draining); }
  // A first stage with max_micro_batches: all fed and none left in flight.
  bool finished() const;

  std::map<std::uint64_t, InFlight>& in_flight() { return in_flight_; }
  const std::map<std::uint64_t, InFlight>& in_flight() const { return in_flight_; }
  // Micro-batches in flight past the timeout.
  std::vector<std::uint64_t> expired(std::chrono::steady_clock::time_point now) const;
  // Weight versions held: the current one and those of micro-batches in flight.
  std::int64_t live_versions(const WeightVersion* current) const;

 private:
  const StageConfig& config_;
  bool first_;
  std::map<std::uint64_t, InFlight> in_flight_;
  std::uint64_t incarnation_;
  std::uint64_t micro_batch_counter_ = 0;
  std::int64_t fed_ = 0;
  std::atomic<bool> draining_{false};
};

}  // namespace rookery::pipeline
