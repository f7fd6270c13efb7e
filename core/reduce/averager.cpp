#include "reduce/averager.hpp"

#include <algorithm>
#include <atomic>
#include <set>
#include <stdexcept>

#include <spdlog/spdlog.h>

namespace rookery::reduce {

const FlatBuffer* AveragingResult::find(std::string_view name, bool averaged_values) const {
  for (const auto& b : averaged_values ? averaged : snapshot) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

void AveragingResult::apply_to(std::string_view buffer, std::span<float> current) const {
  const FlatBuffer* avg = find(buffer, true);
  const FlatBuffer* snap = find(buffer, false);
  if (!avg || !snap)
    throw std::invalid_argument("averaging result has no buffer '" + std::string(buffer) + "'");
  if (current.size() != snap->values.size()) {
    throw std::invalid_argument("buffer '" + std::string(buffer) +
                                "' changed size during the round");
  }
  for (std::size_t i = 0; i < current.size(); ++i) current[i] += avg->values[i] - snap->values[i];
}

std::vector<std::pair<std::size_t, std::size_t>> AveragingResult::averaged_spans(
    std::string_view buffer) const {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  for (const auto& r : rings) {
    if (r.buffer != buffer || !r.outcome.averaged()) continue;
    spans.emplace_back(r.range.first - shard_first, r.range.last - shard_first);
  }
  std::sort(spans.begin(), spans.end());
  return spans;
}

Averager::Averager(Transport& transport, AveragerConfig config)
    : transport_(transport), ring_(transport, config.ring), ranges_(std::move(config.ranges)) {
  std::set<std::string> own_options;
  for (const auto& [name, aggregator] : config.buffer_aggregators) own_options.insert(name);
  for (const auto& [name, codec] : config.buffer_codecs) own_options.insert(name);
  for (const auto& name : own_options) {
    auto options = config.ring;
    if (auto a = config.buffer_aggregators.find(name); a != config.buffer_aggregators.end())
      options.aggregator = a->second;
    if (auto c = config.buffer_codecs.find(name); c != config.buffer_codecs.end())
      options.codec = c->second;
    buffer_rings_.emplace(name, std::make_unique<RingAllReduce>(transport, std::move(options)));
  }
  thread_ = std::thread([this] { run(); });
}

Averager::~Averager() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Averager::set_ranges(NodeRanges ranges) {
  std::lock_guard lock(mutex_);
  ranges_ = std::move(ranges);
}

void Averager::start(std::uint64_t round, std::vector<FlatBuffer> buffers, std::int64_t samples) {
  std::lock_guard lock(mutex_);
  const std::size_t shard = ranges_.shard_last - ranges_.shard_first;
  for (const auto& b : buffers) {
    if (b.values.size() != shard) {
      throw std::invalid_argument("averager: buffer '" + b.name + "' has " +
                                  std::to_string(b.values.size()) + " values, the shard has " +
                                  std::to_string(shard));
    }
  }
  queue_.push_back(
      {round, std::move(buffers), double(std::max<std::int64_t>(samples, 1)), ranges_});
  changed_.notify_all();
}

std::optional<AveragingResult> Averager::poll() {
  std::lock_guard lock(mutex_);
  if (done_.empty()) return std::nullopt;
  auto r = std::move(done_.front());
  done_.pop_front();
  return r;
}

std::optional<AveragingResult> Averager::wait(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  if (!changed_.wait_for(lock, timeout, [&] { return !done_.empty(); })) return std::nullopt;
  auto r = std::move(done_.front());
  done_.pop_front();
  return r;
}

std::size_t Averager::in_progress() const {
  std::lock_guard lock(mutex_);
  return queue_.size() + (running_ ? 1 : 0);
}

AveragingResult Averager::average(Request& request) {
  const auto start = Clock::now();
  AveragingResult result;
  result.round = request.round;
  result.shard_first = request.ranges.shard_first;
  // The rounds read the input, which they may send without a copy (a frame of it can outlive
  // the round in a dead peer's queue: the shared pointer keeps it alive), and write the
  // averaged copy, each result as it arrives. The input becomes the snapshot at the end.
  const auto input = std::make_shared<std::vector<FlatBuffer>>(std::move(request.buffers));
  result.averaged = *input;
  for (const auto& b : result.averaged) {
    for (const auto& range : request.ranges.ranges) result.rings.push_back({b.name, range, {}});
  }
  // One thread per ring: the rings of a node run at once (their ranges are disjoint).
  std::vector<std::thread> rings;
  rings.reserve(result.rings.size());
  for (std::size_t i = 0; i < result.rings.size(); ++i) {
    rings.emplace_back([&, i] {
      auto& report = result.rings[i];
      const auto it = std::find_if(result.averaged.begin(), result.averaged.end(),
                                   [&](const FlatBuffer& b) { return b.name == report.buffer; });
      const auto& range = report.range;
      const std::size_t first = range.first - request.ranges.shard_first;
      std::span<float> values = std::span<float>(it->values).subspan(first, range.size());
      const SharedValues mine{
          std::span<const float>((*input)[std::size_t(it - result.averaged.begin())].values)
              .subspan(first, range.size()),
          input};
      const auto own = buffer_rings_.find(report.buffer);
      RingAllReduce& ring = own == buffer_rings_.end() ? ring_ : *own->second;
      try {
        report.outcome = ring.run({ring_key(report.buffer, range.first, range.last), range.members},
                                  request.round, mine, values, request.weight);
      } catch (const std::exception& e) {
        spdlog::error("averaging round {} of '{}' [{}, {}) failed: {}", request.round,
                      report.buffer, range.first, range.last, e.what());
        std::copy(mine.values.begin(), mine.values.end(),
                  values.begin());  // whatever the round had written
        report.outcome.contributors = {transport_.self()};
      }
    });
  }
  for (auto& t : rings) t.join();
  // Moved when no frame holds it any more (the usual case), else copied. The fence orders
  // the last holder's reads (before its release of the count) before our move.
  if (input.use_count() == 1) {
    std::atomic_thread_fence(std::memory_order_acquire);
    result.snapshot = std::move(*input);
  } else {
    result.snapshot = *input;
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

void Averager::run() {
  for (;;) {
    Request request;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      request = std::move(queue_.front());
      queue_.pop_front();
      running_ = true;
    }
    AveragingResult result = average(request);
    {
      std::lock_guard lock(mutex_);
      running_ = false;
      done_.push_back(std::move(result));
    }
    changed_.notify_all();
  }
}

}  // namespace rookery::reduce
