#pragma once
// A volunteer under a coordinator: the node joins the job (profile measured, not declared),
// heartbeats, and trains whatever shard the coordinator's current plan gives it. When a new
// plan arrives (someone joined, left or died) it retires its stage between two work units and
// starts the new one, taking the parameters of blocks it did not hold from the peers that
// held them (never from the coordinator), verified. Meanwhile its shard server hands its own
// blocks to peers that need them. If the coordinator goes away the node keeps training on the
// last plan and re-registers when it is back.
// Its parts, one per mechanism: CoordinatorClient, LinkProber, JobDataset, ShardServer,
// ShardHandover, PlanFollower and WorkReport (node/<name in snake case>.hpp).
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "net/identity.hpp"
#include "node/device_speed.hpp"
#include "node/workload.hpp"

namespace rookery::node {

struct CoordinatedOptions {
  std::string coordinator_endpoint;  // tcp://host:port
  std::string coordinator_key;       // its CURVE public key (Z85)
  std::string job_id;
  std::string invite_token;
  std::string host;  // where peers reach this node (it listens there too); "": learn it (NodeReach)
  std::int64_t memory_limit_bytes = 0;  // 0: what is free
  // On a GPU: the GPU memory the job may use (free, under the governor's cap), which the
  // coordinator plans with instead of RAM. 0: the device is the CPU.
  std::int64_t device_memory_bytes = 0;
  // The speed offered in the join and every heartbeat: the benchmark x the governor's duty
  // cycle, re-measured on the job's blocks when this join brings the job for the first time.
  // Null: 0 (unknown).
  std::shared_ptr<DeviceSpeed> speed;
  std::filesystem::path data_dir;  // the job spec is kept under data_dir/jobs
  // When no peer can dial this node, dial the peers it links with instead (connection
  // reversal); off: a relay carries it.
  bool reversal = true;
  bool offer_relay = false;  // carry the traffic of volunteers no peer can dial (when reachable)
  std::uint64_t relay_bytes_per_s = 0;  // the cap on what it relays (0: none)
  StageWorkloadOptions stage;           // device, timeouts (plan_path and stage are ignored)
};

// Throws std::runtime_error for unusable options (bad key, endpoint) with the reason.
std::unique_ptr<Workload> make_coordinated_workload(const CoordinatedOptions& options,
                                                    const net::CurveKeyPair& identity);

}  // namespace rookery::node
