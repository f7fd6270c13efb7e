#include "node/dataset_fetcher.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include <spdlog/spdlog.h>

#include "data/dataset.hpp"
#include "net/rpc.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::node {

namespace {
using Clock = std::chrono::steady_clock;
namespace pb = wire::pb;

// The chunks still to fetch, shared by the workers. A chunk a worker took and could not get
// goes back to the front, for another source.
class ChunkQueue {
 public:
  explicit ChunkQueue(std::vector<data::ChunkId> missing)
      : waiting_(missing.begin(), missing.end()) {}

  // The next chunk, or nothing within `wait` (every chunk taken, or none left).
  std::optional<data::ChunkId> take(std::chrono::milliseconds wait) {
    std::unique_lock lock(mutex_);
    cv_.wait_for(lock, wait, [&] { return !waiting_.empty(); });
    if (waiting_.empty()) return std::nullopt;
    const auto id = waiting_.front();
    waiting_.pop_front();
    return id;
  }
  void give_back(data::ChunkId id) {
    {
      std::lock_guard lock(mutex_);
      waiting_.push_front(id);
    }
    cv_.notify_one();
  }
  // Refills from the store when nothing is queued (a chunk whose write failed is missing again).
  void refill(const std::vector<data::ChunkId>& missing) {
    std::lock_guard lock(mutex_);
    if (!waiting_.empty()) return;
    waiting_.assign(missing.begin(), missing.end());
    cv_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<data::ChunkId> waiting_;
};

std::string source_name(const DataSource& s) {
  return s.coordinator ? std::string("the coordinator") : "peer " + net::short_key(s.key);
}

}  // namespace

DatasetFetcher::DatasetFetcher(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                               data::DatasetStore& store, DatasetFetchOptions options)
    : ctx_(ctx), identity_(identity), store_(store), options_(options) {}

DatasetFetchReport DatasetFetcher::run(const std::vector<DataSource>& sources,
                                       const std::function<bool()>& stop) {
  DatasetFetchReport report;
  if (store_.complete()) {
    report.complete = true;
    return report;
  }
  ChunkQueue queue(store_.missing());
  std::mutex report_mutex;
  std::atomic<bool> done{false};
  const auto finished = [&] { return done.load() || stop(); };
  const std::string digest(data::as_bytes(store_.digest()));

  for (const auto& s : sources) report.chunks_from.emplace_back(source_name(s), 0);
  const auto worker = [&](std::size_t index) {
    const DataSource& source = sources[index];
    std::unique_ptr<net::RpcClient> client;
    bool answered = false;
    int failures = 0;
    while (!finished() && Clock::now() < source.not_before)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    while (!finished()) {
      const auto id = queue.take(std::chrono::milliseconds(100));
      if (!id) {
        if (store_.complete()) {
          done = true;
          return;
        }
        queue.refill(store_.missing());
        continue;
      }
      if (!client)
        client = std::make_unique<net::RpcClient>(ctx_, source.endpoint, &identity_, source.key);
      pb::Envelope e;
      auto* q = e.mutable_data_chunk_request();
      q->set_dataset_digest(digest);
      q->set_file(id->file);
      q->set_chunk(id->chunk);
      const auto r =
          client->request(e, answered ? options_.timeout : options_.first_answer_timeout);
      std::string why;
      bool lied = false;
      if (!r.ok()) {
        why = r.error.empty() ? "no answer" : r.error;
        client.reset();  // a late reply must not be taken for the next request's
      } else if (!r.message->header.has_data_chunk_reply()) {
        why = r.message->header.has_error() ? r.message->header.error().message()
                                            : "an unexpected reply";
      } else {
        answered = true;
        const auto* t = r.message->tensor("chunk");
        const auto& h = r.message->header.data_chunk_reply();
        if (!t || t->dtype() != wire::DType::U8 || h.file() != id->file || h.chunk() != id->chunk) {
          why = "a reply that is not the chunk asked for";
          lied = true;
        } else {
          try {
            switch (store_.put(*id, t->bytes())) {
              case data::DatasetStore::Put::Stored:
              case data::DatasetStore::Put::AlreadyHeld:
                failures = 0;
                {
                  std::lock_guard lock(report_mutex);
                  ++report.chunks_fetched;
                  ++report.chunks_from[index].second;
                }
                if (store_.complete()) done = true;
                continue;
              case data::DatasetStore::Put::WrongHash:
                why = "a chunk whose SHA-256 is not the manifest's";
                lied = true;
                break;
              case data::DatasetStore::Put::WrongSize:
              case data::DatasetStore::Put::NoSuchChunk:
                why = "a chunk of the wrong size";
                lied = true;
                break;
            }
          } catch (const data::DatasetError& err) {
            // Our disk, not the source: keep the source, wait, and try again.
            spdlog::error("cannot keep the dataset: {}", err.what());
            why = "";
          }
        }
      }
      queue.give_back(*id);
      if (lied && !source.coordinator) {
        spdlog::warn("dataset: {} served {} (file {}, chunk {}): no longer asked",
                     source_name(source), why, id->file, id->chunk);
        std::lock_guard lock(report_mutex);
        report.caught.push_back(source.key);
        return;
      }
      ++failures;
      if (!why.empty()) {
        spdlog::info("dataset: {} did not serve file {} chunk {}: {}", source_name(source),
                     id->file, id->chunk, why);
      }
      if (!source.coordinator && failures >= options_.peer_failures) {
        spdlog::info("dataset: {} failed {} times in a row: no longer asked", source_name(source),
                     failures);
        return;
      }
      // Back off 0.25 s, 0.5 s, 1 s, ... up to max_backoff, watching for the end meanwhile.
      const auto backoff = std::min<std::chrono::milliseconds>(
          options_.max_backoff, std::chrono::milliseconds(250 << std::min(failures - 1, 6)));
      const auto until = Clock::now() + backoff;
      while (Clock::now() < until && !finished())
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  };

  std::vector<std::thread> workers;
  workers.reserve(sources.size());
  for (std::size_t i = 0; i < sources.size(); ++i) workers.emplace_back(worker, i);
  for (auto& t : workers) t.join();
  report.complete = store_.complete();
  return report;
}

}  // namespace rookery::node
