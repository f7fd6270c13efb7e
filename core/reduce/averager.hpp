#pragma once
// Averager: what a pipeline stage calls every `averaging_period` local steps.
//
// The stage's compute thread hands over a copy of its flat buffers (parameters, and any
// optimizer state laid out like them: the rings are the same, keyed by buffer name too) and
// the samples it processed since the last average, and goes on training. The round runs on the Averager's threads: one ring per (buffer,
// range) of the node's MultiRingPlan, all at once. When the stage next looks (poll()),
// it applies the result with AveragingResult::apply_to, which adds (average - snapshot)
// and so keeps the local steps it took while the round ran. Rounds started while one is
// running are queued, and finished results wait in order until taken: nothing is lost.
//
//   reduce::Averager averager(transport, {plan.for_node(my_key), ring_options});
//   if (++steps % period == 0) averager.start(steps / period, {{"params", flat_params}}, samples);
//   if (auto r = averager.poll()) r->apply_to("params", flat_params);  // between micro-batches
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "reduce/multi_ring_plan.hpp"
#include "reduce/ring_all_reduce.hpp"
#include "reduce/transport.hpp"

namespace rookery::reduce {

// A node's values for its whole shard, flat, in the shard's parameter order (offset 0 is
// the shard's first value, NodeRanges::shard_first in whole-model offsets).
struct FlatBuffer {
  std::string name;  // "params", "adam.exp_avg", ...: same name on every node
  std::vector<float> values;
};

struct RangeReport {
  std::string buffer;
  ReduceRange range;
  RingOutcome outcome;
};

struct AveragingResult {
  std::uint64_t round = 0;
  double seconds = 0;
  std::uint64_t shard_first = 0;     // whole-model offset of the buffers' first value
  std::vector<FlatBuffer> snapshot;  // the values handed to start()
  std::vector<FlatBuffer> averaged;  // snapshot with every ring's range replaced by its average
  std::vector<RangeReport> rings;

  const FlatBuffer* find(std::string_view name, bool averaged_values = true) const;
  // current += averaged - snapshot (only inside averaged ranges). Throws std::invalid_argument
  // for an unknown buffer or a size that differs from the snapshot's.
  void apply_to(std::string_view buffer, std::span<float> current) const;
  // The [first, last) spans of the buffers (local offsets) where `buffer`'s ring averaged
  // with at least one partner; elsewhere `averaged` holds this node's own values.
  std::vector<std::pair<std::size_t, std::size_t>> averaged_spans(std::string_view buffer) const;
};

struct AveragerConfig {
  NodeRanges ranges;  // MultiRingPlan::for_node(self)
  RingOptions ring;
  // Buffers aggregated by another aggregator than ring.aggregator, by name (a stage gives its
  // optimizer state a CenteredClip of its own, so its verdicts are tallied apart from the
  // parameters'). Same codec, timeouts and members.
  std::map<std::string, std::shared_ptr<const Aggregator>> buffer_aggregators;
  // Buffers that travel with another codec than ring.codec, by name (a stage's anchor weights
  // ride uncompressed while its pseudo-gradients are quantised).
  std::map<std::string, wire::Codec> buffer_codecs;
};

class Averager {
 public:
  Averager(Transport& transport, AveragerConfig config);
  ~Averager();  // finishes the running and queued rounds (each bounded by its timeouts)
  Averager(const Averager&) = delete;
  Averager& operator=(const Averager&) = delete;

  // A re-partition: rounds started from now on use these ranges.
  void set_ranges(NodeRanges ranges);
  // Queues round `round` over `buffers` weighted by `samples` (clamped to >= 1) and returns
  // at once. Every buffer must be shard-sized. Throws std::invalid_argument otherwise.
  void start(std::uint64_t round, std::vector<FlatBuffer> buffers, std::int64_t samples);
  // The oldest finished round, if any, without waiting.
  std::optional<AveragingResult> poll();
  // The oldest finished round, waiting up to `timeout` for one.
  std::optional<AveragingResult> wait(std::chrono::milliseconds timeout);
  // Rounds queued or running (finished ones not yet taken are not counted).
  std::size_t in_progress() const;

 private:
  struct Request {
    std::uint64_t round;
    std::vector<FlatBuffer> buffers;
    double weight;
    NodeRanges ranges;
  };
  void run();
  AveragingResult average(Request& request);

  Transport& transport_;
  RingAllReduce ring_;
  std::map<std::string, std::unique_ptr<RingAllReduce>, std::less<>> buffer_rings_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  NodeRanges ranges_;
  std::deque<Request> queue_;
  std::deque<AveragingResult> done_;
  bool running_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace rookery::reduce
