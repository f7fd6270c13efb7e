#pragma once
// Dataset delivery on a volunteer: this node's copy of the data a job's join reply describes
// (see data/dataset_delivery.hpp), opened or created under the node's folder. What is missing
// is fetched in the background, from the coordinator and the peers the reply named, while the
// node heartbeats; the coordinator plans the node once its heartbeat says the copy is whole.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "data/dataset_delivery.hpp"
#include "job/job_spec.hpp"
#include "net/identity.hpp"
#include "net/secure_context.hpp"
#include "rookery/envelope.pb.h"
#include "wire/message.hpp"

namespace rookery::node {

class JobDataset {
 public:
  // Copies are kept under `folder`; `coordinator_key` and `coordinator_endpoint` name the
  // coordinator, which always serves the data.
  JobDataset(net::SecureContext& ctx, const net::CurveKeyPair& identity,
             std::filesystem::path folder, std::string coordinator_key,
             std::string coordinator_endpoint);
  ~JobDataset();  // stops a fetch under way

  // The copy in use (none before a join that names a dataset); any thread.
  std::shared_ptr<data::DatasetStore> store() const;

  // The copy the accepted join `reply` (its message `m`) describes, and `job` pointed at it;
  // a fetch of what is missing starts unless one is under way. Peers are asked from two
  // heartbeat periods on: they admit this node once the coordinator's member list reaches them.
  // False, with why, when the manifest is wrong or the disk refuses. The client's thread.
  bool prepare(const wire::pb::JoinReply& reply, const wire::Message& m,
               std::chrono::milliseconds heartbeat_period, job::JobSpec& job, std::string& error);

  // What a join and a heartbeat say of the copy: its digest once whole, else how much is held.
  void describe(wire::pb::JoinRequest& join) const;
  void describe(wire::pb::Heartbeat& heartbeat) const;

 private:
  void stop_fetch();

  net::SecureContext& ctx_;
  const net::CurveKeyPair& identity_;
  std::filesystem::path folder_;
  std::string coordinator_key_, coordinator_endpoint_;
  mutable std::mutex mutex_;  // store_: read by the shard server, the fetch fills it
  std::shared_ptr<data::DatasetStore> store_;
  std::shared_ptr<data::DatasetStore> fetching_store_;  // what fetch_ fills
  std::atomic<bool> fetching_{false};
  std::atomic<bool> fetch_stop_{false};
  std::thread fetch_;
};

}  // namespace rookery::node
