#pragma once
// What a workload has computed since it started, as totals. The workload's compute thread is
// the only one that counts (a pipeline stage in its StageCounters, the benchmark in its own);
// everyone else reads snapshots of these totals and works with their differences, so the
// heartbeat, the ledger and the window all show the same work.
#include <cstdint>

namespace rookery::node {

struct WorkCounters {
  std::int64_t samples = 0;        // samples trained: their backward finished here
  std::int64_t micro_batches = 0;  // micro-batches whose backward finished here
  double flops = 0;                // FLOP computed (forward, backward, recomputations)
  double busy_seconds = 0;         // seconds spent computing them
  double loss = -1;                // the latest loss; < 0: none yet

  // The work done between `earlier` and this snapshot of the same counters; the loss is
  // this snapshot's.
  WorkCounters since(const WorkCounters& earlier) const {
    WorkCounters d;
    d.samples = samples - earlier.samples;
    d.micro_batches = micro_batches - earlier.micro_batches;
    d.flops = flops - earlier.flops;
    d.busy_seconds = busy_seconds - earlier.busy_seconds;
    d.loss = loss;
    return d;
  }
  // The totals of work done before (`*this`, e.g. by retired stages) and then `later`; the
  // loss is the later one's when it has one.
  WorkCounters then(const WorkCounters& later) const {
    WorkCounters t;
    t.samples = samples + later.samples;
    t.micro_batches = micro_batches + later.micro_batches;
    t.flops = flops + later.flops;
    t.busy_seconds = busy_seconds + later.busy_seconds;
    t.loss = later.loss >= 0 ? later.loss : loss;
    return t;
  }

  friend bool operator==(const WorkCounters&, const WorkCounters&) = default;
};

}  // namespace rookery::node
