#pragma once
// The volunteer's side of the coordinator protocol, on a thread of its own: it joins the job
// (profile measured, not declared), heartbeats at the period the coordinator sets with what
// this node did, and hands the replies to the node's parts: the member list to the shard server
// and the stage, a new plan to the plan follower. If the coordinator goes away the node trains
// on with the last plan; when it is back and no longer knows the node, the node joins again.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "clock/clock.hpp"
#include "net/member_list_sync.hpp"
#include "net/identity.hpp"
#include "net/link_probe.hpp"
#include "net/rpc.hpp"
#include "net/secure_context.hpp"
#include "node/coordinated_workload.hpp"
#include "rookery/envelope.pb.h"
#include "wire/message.hpp"

namespace rookery::reach {
class RelayServer;
}

namespace rookery::node {

class ConnectionReversal;
class JobDataset;
class LinkProber;
class NodeReach;
class PlanFollower;
class ShardServer;
class WorkReport;

// The heartbeat period a join reply sets, within sane bounds.
std::chrono::milliseconds heartbeat_period(const wire::pb::JoinReply& reply);

class CoordinatorClient {
 public:
  // The parts of the node the client reports on and hands the coordinator's word to.
  struct Parts {
    JobDataset& dataset;
    LinkProber& prober;
    ShardServer& shards;
    PlanFollower& plans;
    WorkReport& work;
    NodeReach& reach;
    ConnectionReversal& reversal;
    const reach::RelayServer* relay;  // the relay this node offers others, if any
  };
  // Where peers reach this node's stage, its averaging ring and its shard server.
  struct Endpoints {
    std::string stage, reduce, shard;
  };

  // Starts joining at once. The job spec is kept under `jobs_dir`.
  CoordinatorClient(const CoordinatedOptions& options, net::SecureContext& ctx,
                    const net::CurveKeyPair& identity, Endpoints endpoints,
                    std::filesystem::path jobs_dir, Parts parts,
                    const clock::Clock& clock = clock::SystemClock::instance());
  ~CoordinatorClient();  // stops and joins the thread

  // What the coordinator says of this node: joining, joined, refused, its seat.
  std::string status() const;
  // The coordinator's status and the run's dashboard data, for the node's snapshot.
  void describe(wire::pb::NodeSnapshot& snapshot) const;

 private:
  void run();
  // The coordinator's reply; none, with `error` and the code the window words, when there is
  // no reply to use.
  std::optional<wire::pb::JoinReply> join(net::RpcClient& client, std::string& error,
                                          wire::pb::Reason& why);
  bool keep_job(const wire::pb::JoinReply& reply, const wire::Message& m, std::string& error);
  // `links_reported`: the probe generation whose links this heartbeat carried (0: none).
  std::optional<wire::pb::HeartbeatReply> heartbeat(net::RpcClient& client, std::string& error,
                                                    std::uint64_t& links_reported);
  void apply_members(const wire::pb::HeartbeatReply& r);
  // Sends the coordinator a proof that a ring partner lied as an aggregator, if one is
  // unanswered (one per heartbeat: a proof carries a segment of every member's input).
  void report_proof(net::RpcClient& client);
  // The coordinator asks for a proof of work with each join: true once it is found (the client
  // joins again at once, carrying it); false when there is none to do, or it was stopped.
  bool prove_join_work(const wire::pb::JoinReply& refused);
  void refresh_run_status(net::RpcClient& client);
  // What the node says of its coordinator, in English and as the code the window words.
  void set_status(const std::string& s, const wire::pb::Reason& why);
  // Waits `d` unless stopped first; true when stopped.
  bool stopped_within(std::chrono::milliseconds d);

  CoordinatedOptions options_;
  net::SecureContext& ctx_;
  const net::CurveKeyPair& identity_;
  Endpoints endpoints_;
  std::filesystem::path jobs_dir_;
  // Where the job's spec is kept (keep_job writes it; plans name it).
  std::filesystem::path job_path() const { return jobs_dir_ / (options_.job_id + ".json"); }
  Parts parts_;
  const clock::Clock& clock_;

  // The client's thread: the member list in force (see apply_members).
  net::MemberListFollower members_;
  bool admitting_any_ = false;
  std::chrono::steady_clock::time_point last_run_status_{};
  std::optional<net::LinkMeasurement> link_;  // to the coordinator, as the last join measured it
  std::chrono::steady_clock::time_point link_measured_{};
  // The join's proof of work for this job and key, once asked: kept for every later join.
  std::optional<std::uint64_t> join_work_nonce_;
  unsigned join_work_bits_ = 0;  // the zero bits it gives

  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::atomic<bool> stopping_{false};  // stop_, read by a long proof of work without the lock
  std::string status_ = "joining";
  wire::pb::Reason why_;
  std::optional<wire::pb::RunStatus> run_status_;
  std::thread thread_;  // last: started once the rest is
};

}  // namespace rookery::node
