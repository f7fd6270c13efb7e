#pragma once
// The job owner's server, composed of one class per mechanism: Admission (invites, or open
// enrolment, an allow-list of keys, a join's proof of work), the Sybil caps per address and
// subnet (sybil_limits), Membership (heartbeats, liveness, the member list peers
// admit), ban_vote (who may ban whom), RePlanner (when to plan again, with swarm_planner over
// core/cluster, on a PlanThread so that no heartbeat waits for a plan; PlanDelivery pushes the
// plan to every volunteer with where to fetch the shards it did not hold), RunStatus (the run's
// dashboard data, paged), DatasetServer and the ModelArchive (snapshots of the whole model an
// Archivist collects from the nodes, and serves back when every holder of a block left). State lives in SQLite
// (coordinator_state); training traffic never passes through it, so pipelines keep training
// while it is down and a restarted coordinator carries on with the same plan.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "clock/clock.hpp"
#include "coordinator/model_archive.hpp"
#include "coordinator/sybil_limits.hpp"

namespace rookery::coordinator {

struct CoordinatorConfig {
  std::string bind = "tcp://127.0.0.1:7461";  // port 0 picks a free one
  std::filesystem::path data_dir;
  std::vector<std::string> allowed_keys;  // empty: any key may connect
  std::filesystem::path
      ready_file;                  // optional: write "<endpoint> <public key>" here once listening
  std::filesystem::path job_path;  // the job it runs; empty: it answers pings and refuses joins
  std::vector<std::string> invite_tokens;  // non-empty: a join must carry one of them
  // Joins without an invite are admitted while no invite exists (--open). Otherwise the job is
  // invite-only (an allow-list alone admits its keys without one).
  bool open = false;
  unsigned join_work_bits = 0;  // a join's proof of work (0: none asked)
  SybilCaps caps;               // live volunteers per address and per subnet
  std::chrono::milliseconds heartbeat_interval{500};
  std::chrono::milliseconds dead_after{3000};  // silent this long: dead, planned around
  std::chrono::milliseconds settle{1000};      // re-plan once membership has been still this long
  std::int64_t averaging_interval_ms = 5000;   // how often pipelines average (with 2+)
  std::string planner = "ours";                // "ours", or "ravnest" (its plan, for comparison)
  std::uint64_t data_bytes_per_s = 0;  // the upload it spends serving the dataset (0: no cap);
                                       // over it, volunteers fetch from peers meanwhile
  // A relay on the job owner's host for volunteers no peer can dial (the last resort; reachable
  // volunteers that offer a relay are used first when they have room).
  bool relay = false;
  std::uint64_t relay_bytes_per_s = 0;  // its cap (0: none)
  std::size_t relay_max_nodes = 8;
  // Heartbeat replies that carry a whole plan or member list (each grows with the swarm, and
  // after a change every node is owed one) share this many bytes per second; a node over it is
  // answered without them and gets them at a later heartbeat, so that no heartbeat waits behind
  // them. A member list that drops a volunteer goes at once whatever it costs. 0: no cap.
  std::uint64_t bulk_reply_bytes_per_s = 16ull << 20;
  // How often the coordinator logs what its load costs (load_report.hpp; 0: never).
  std::chrono::milliseconds load_report_interval{std::chrono::minutes(1)};
  // How often the model archive collects a snapshot of the whole model from the nodes that
  // train it (model_archive.hpp), kept under <data_dir>/archive. 0: no archive.
  std::chrono::milliseconds archive_interval{std::chrono::minutes(10)};
  // Evaluates each snapshot the archive stores (none: they are not evaluated). The coordinator's
  // program passes rookery::evaluation's, which needs LibTorch.
  Evaluate evaluate;
  // The job owner's web dashboard (dashboard/dashboard_server.hpp), read-only, on
  // dashboard_bind:dashboard_port (port 0: any free one); none when dashboard_port < 0.
  int dashboard_port = -1;
  std::string dashboard_bind = "127.0.0.1";
};

class CoordinatorService {
 public:
  // Its timing rules (heartbeat deadlines, re-plan periods, pauses, invite expiry) read `clock`.
  explicit CoordinatorService(CoordinatorConfig config,
                              const clock::Clock& clock = clock::SystemClock::instance());
  // Serves until request_stop(). Returns the process exit code.
  int run();
  void request_stop();

 private:
  CoordinatorConfig config_;
  const clock::Clock& clock_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
};

}  // namespace rookery::coordinator
