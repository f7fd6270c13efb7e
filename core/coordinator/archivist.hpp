#pragma once
// The archivist: every `interval` the coordinator collects the whole model from the nodes
// that train it, block by block from up to three holders each, over CURVE from their shard
// servers (which admit the coordinator), verifies and reconciles the copies
// (model_archive's reconcile_block) and stores a snapshot in the ModelArchive. It runs on a
// thread of its own and holds no lock of the coordinator's while it fetches; a holder that
// does not answer within the timeout is skipped for this round.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "coordinator/membership.hpp"
#include "coordinator/model_archive.hpp"
#include "coordinator/swarm_planner.hpp"
#include "net/identity.hpp"
#include "net/secure_context.hpp"

namespace rookery::coordinator {

// A node that holds blocks [first_block, last_block) under the current plan.
struct ArchiveHolder {
  std::string key;
  std::string shard_endpoint;
  std::int64_t first_block = 0, last_block = 0;
};

struct ArchiveRound {
  std::uint64_t plan_version = 0;
  std::vector<ArchiveHolder> holders;
};

// The holders of `plan`'s seats among the `live` volunteers that name a shard server.
ArchiveRound holders_of(const Assignment& plan, const std::map<std::string, Volunteer>& live);

class Archivist {
 public:
  // Called on the archivist's thread with each snapshot it stored, its number and plan (the
  // coordinator records it and evaluates the model in it).
  using Stored = std::function<void(std::shared_ptr<const pipeline::ShardSnapshot> snapshot,
                                    std::uint64_t seq, std::uint64_t plan_version)>;

  // `round` gives the current plan's holders (called on the archivist's thread; it takes
  // the coordinator's lock itself). `state_names`: the buffers the job's optimizer keeps.
  Archivist(net::SecureContext& ctx, const net::CurveKeyPair& identity, ModelArchive& archive,
            std::vector<std::string> state_names, std::chrono::milliseconds interval,
            std::function<ArchiveRound()> round,
            std::chrono::milliseconds request_timeout = std::chrono::seconds(3),
            Stored stored = {});
  ~Archivist();

  // One collection now (the thread's work; tests call it directly). True when a snapshot was
  // stored.
  bool collect();

 private:
  std::optional<BlockCopy> fetch(const ArchiveHolder& h, std::int64_t block, std::string& error);
  void run();
  bool stopping();

  net::SecureContext& ctx_;
  const net::CurveKeyPair& identity_;
  ModelArchive& archive_;
  std::vector<std::string> state_names_;
  std::chrono::milliseconds interval_;
  std::function<ArchiveRound()> round_;
  std::chrono::milliseconds request_timeout_;
  Stored stored_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;  // last: started once everything above is ready
};

}  // namespace rookery::coordinator
