#pragma once
// The coordinator's durable state, one SQLite file (WAL, numbered migrations, see
// core/store): the volunteers it admitted with their profiles and endpoints, every plan it
// issued, each volunteer's contribution totals, and the run's loss curve. A restarted
// coordinator reloads it and carries on with the same plan, so the volunteers keep their
// shards.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "coordinator/swarm_planner.hpp"
#include "store/database.hpp"

namespace rookery::coordinator {

struct Contribution {
  std::int64_t samples = 0;         // all time, across the node's restarts
  std::int64_t micro_batches = 0;
  double flops = 0;
  // The node's own counters at its last heartbeat: they restart from 0 when it does.
  std::int64_t reported_samples = 0, reported_micro_batches = 0;
  double reported_flops = 0;
  std::int64_t first_seen_unix_ms = 0, last_seen_unix_ms = 0;
};

struct Ban {
  std::string reason;
  std::int64_t unix_ms = 0;
};

struct LossSample {
  std::int64_t unix_ms = 0;
  double loss = 0;
};

class CoordinatorState {
 public:
  // Opens or creates the file; throws store::StoreError (corrupt, newer schema) with the reason.
  explicit CoordinatorState(const std::filesystem::path& path);

  void save_member(const Member& m, std::int64_t now_ms);
  std::vector<Member> members();

  // Adds what the node did since its last report (its counters are cumulative per process).
  Contribution record_progress(const std::string& key, std::int64_t samples, std::int64_t micro_batches, double flops,
                               std::int64_t now_ms);
  std::map<std::string, Contribution> contributions();

  void save_plan(const Assignment& plan, std::int64_t now_ms);
  // The newest plan and the one before it (version 0 / empty when there are none).
  std::pair<Assignment, Assignment> latest_plans();
  std::int64_t plan_count();

  // Volunteers the coordinator no longer admits, with the evidence in words.
  void ban(const std::string& key, const std::string& reason, std::int64_t unix_ms);
  std::map<std::string, Ban> banned();

  void add_loss(std::int64_t unix_ms, double loss);
  std::vector<LossSample> loss_curve(std::size_t max_points);

  const std::filesystem::path& path() const { return db_.path(); }

 private:
  store::Database db_;
};

// The plan's seats as JSON and back (the plans table).
std::string assignment_to_json(const Assignment& a);
Assignment assignment_from_json(const std::string& json);

}  // namespace rookery::coordinator
