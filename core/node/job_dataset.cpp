#include "node/job_dataset.hpp"

#include <vector>

#include <spdlog/spdlog.h>

#include "data/dataset.hpp"
#include "node/dataset_fetcher.hpp"

namespace rookery::node {

namespace pb = wire::pb;

JobDataset::JobDataset(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                       std::filesystem::path folder, std::string coordinator_key,
                       std::string coordinator_endpoint)
    : ctx_(ctx),
      identity_(identity),
      folder_(std::move(folder)),
      coordinator_key_(std::move(coordinator_key)),
      coordinator_endpoint_(std::move(coordinator_endpoint)) {}

JobDataset::~JobDataset() { stop_fetch(); }

void JobDataset::stop_fetch() {
  fetch_stop_ = true;
  if (fetch_.joinable()) fetch_.join();
  fetch_stop_ = false;
}

std::shared_ptr<data::DatasetStore> JobDataset::store() const {
  std::lock_guard lock(mutex_);
  return store_;
}

bool JobDataset::prepare(const pb::JoinReply& reply, const wire::Message& m,
                         std::chrono::milliseconds heartbeat_period, job::JobSpec& job,
                         std::string& error) {
  if (reply.dataset_digest().empty()) return true;  // a coordinator that publishes no data
  const auto* t = m.tensor("dataset_manifest");
  if (!t || t->dtype() != wire::DType::U8) {
    error = "the coordinator sent no dataset manifest";
    return false;
  }
  std::string bytes(reinterpret_cast<const char*>(t->bytes().data()), t->bytes().size());
  if (data::as_bytes(data::sha256(bytes)) != reply.dataset_digest()) {
    error = "the dataset manifest does not match its digest";
    return false;
  }
  auto store = this->store();
  if (!store || data::as_bytes(store->digest()) != reply.dataset_digest()) {
    try {
      store = std::make_shared<data::DatasetStore>(folder_, std::move(bytes));
    } catch (const data::DatasetError& e) {
      error = std::string("cannot keep the job's dataset: ") + e.what();
      return false;
    }
  }
  job.dataset = store->localized(job.dataset);
  {
    std::lock_guard lock(mutex_);
    store_ = store;
  }
  if (store->complete()) return true;
  if (fetching_ && fetching_store_ == store) return true;  // already under way
  stop_fetch();  // an earlier fetch: finished, or for another dataset
  fetching_store_ = store;
  std::vector<DataSource> sources{{coordinator_key_, coordinator_endpoint_, true}};
  const auto peers_admit = std::chrono::steady_clock::now() + 2 * heartbeat_period;
  for (const auto& p : reply.probe_targets()) {
    if (net::is_z85_key(p.key()) && p.endpoint().rfind("tcp://", 0) == 0) {
      sources.push_back({p.key(), p.endpoint(), false, peers_admit});
    }
  }
  fetching_ = true;
  spdlog::info(
      "fetching the job's dataset ({:.1f} of {:.1f} MB held) from the coordinator and {} peer(s)",
      double(store->bytes_held()) / 1e6, double(store->total_bytes()) / 1e6, sources.size() - 1);
  fetch_ = std::thread([this, store, sources] {
    const auto started = std::chrono::steady_clock::now();
    DatasetFetcher fetcher(ctx_, identity_, *store);
    const auto report = fetcher.run(sources, [this] { return fetch_stop_.load(); });
    if (report.complete) {
      std::string from;
      for (const auto& [source, chunks] : report.chunks_from) {
        if (chunks > 0) from += fmt::format("{}{}: {}", from.empty() ? "" : ", ", source, chunks);
      }
      spdlog::info(
          "the job's dataset is complete: {:.1f} MB in {:.1f} s; chunks from {}{}",
          double(store->total_bytes()) / 1e6,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
          from.empty() ? "none" : from,
          report.caught.empty()
              ? ""
              : fmt::format("; {} peer(s) served corrupt chunks", report.caught.size()));
    }
    fetching_ = false;
  });
  return true;
}

void JobDataset::describe(pb::JoinRequest& join) const {
  if (const auto d = store(); d && d->complete())
    join.set_dataset_digest(std::string(data::as_bytes(d->digest())));
}

void JobDataset::describe(pb::Heartbeat& heartbeat) const {
  const auto d = store();
  if (!d) return;
  if (d->complete()) {
    heartbeat.set_dataset_digest(std::string(data::as_bytes(d->digest())));
  } else if (d->total_bytes() > 0) {
    heartbeat.set_dataset_fetched(double(d->bytes_held()) / double(d->total_bytes()));
  }
}

}  // namespace rookery::node
