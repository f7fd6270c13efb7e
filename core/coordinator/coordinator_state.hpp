#pragma once
// The coordinator's durable state, one SQLite file (WAL, numbered migrations, see
// core/store): the volunteers it admitted with their profiles and endpoints, every plan it
// issued, each volunteer's contribution totals (claimed, and confirmed by receipts), the
// invites, and the run's loss curve. A restarted
// coordinator reloads it and carries on with the same plan, so the volunteers keep their
// shards.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "coordinator/swarm_planner.hpp"
#include "rookery/coordinator.pb.h"
#include "store/database.hpp"

namespace rookery::coordinator {

struct Contribution {
  std::int64_t samples = 0;  // all time, across the node's restarts
  std::int64_t micro_batches = 0;
  double flops = 0;
  // The node's own counters at its last heartbeat: they restart from 0 when it does.
  std::int64_t reported_samples = 0, reported_micro_batches = 0;
  double reported_flops = 0;
  std::int64_t first_seen_unix_ms = 0, last_seen_unix_ms = 0;
  // Receipts: the samples of this node's activations (forward) and gradients (backward) that
  // the stages receiving them confirm consuming, summed over every consumer.
  std::int64_t confirmed_forward_samples = 0, confirmed_backward_samples = 0;

  // The work the run credits: what the node claims, no more than its consumers confirm. A
  // micro-batch is confirmed once whichever way its work went on (a first stage's activations
  // go forward only, a last stage's gradients back only, a middle stage's both ways).
  std::int64_t confirmed_samples() const {
    return std::min(samples, std::max(confirmed_forward_samples, confirmed_backward_samples));
  }
  double confirmed_flops() const {
    return samples > 0
               ? flops * static_cast<double>(confirmed_samples()) / static_cast<double>(samples)
               : 0.0;
  }
};

// One consumer's receipt for one producer: its totals since it joined (see Receipt in
// coordinator.proto).
struct ReceiptReport {
  std::string producer;
  std::int64_t forward_samples = 0, backward_samples = 0;
};

// A node's own counters as one heartbeat reports them (cumulative since the node started).
struct ProgressReport {
  std::string key;
  std::int64_t samples = 0, micro_batches = 0;
  double flops = 0;
};

struct Ban {
  wire::pb::Verdict why;  // the evidence (code NONE for a ban stored before codes)
  std::string reason;     // the same in English
  std::int64_t unix_ms = 0;
};

// An invite token the job owner made (`rookery-coordinator invite`): it admits joins until it
// expires or is revoked. Tokens given on the command line (--invite-token) never expire.
struct Invite {
  std::string token;
  std::int64_t created_unix_ms = 0;
  std::int64_t expires_unix_ms = 0;  // 0: never
  std::int64_t revoked_unix_ms = 0;  // 0: not revoked
};

enum class InviteStatus { Valid, Unknown, Expired, Revoked };

struct LossSample {
  std::int64_t unix_ms = 0;
  double loss = 0;
};

// A snapshot the model archive stored.
struct SnapshotRecord {
  std::uint64_t seq = 0;
  std::int64_t unix_ms = 0;
  std::uint64_t plan_version = 0;
};

class CoordinatorState {
 public:
  // Opens or creates the file; throws store::StoreError (corrupt, newer schema) with the reason.
  explicit CoordinatorState(const std::filesystem::path& path);

  void save_member(const Member& m, std::int64_t now_ms);
  void remove_member(const std::string& key);  // it left or was banned (its totals stay)
  std::vector<Member> members();

  // Adds what the node did since its last report (its counters are cumulative per process).
  Contribution record_progress(const std::string& key, std::int64_t samples,
                               std::int64_t micro_batches, double flops, std::int64_t now_ms);
  // Many reports in one transaction, in order (a key may appear more than once): the heartbeats
  // of a tick, batched. Returns each key's totals after its last report.
  std::map<std::string, Contribution> record_progress(const std::vector<ProgressReport>& reports,
                                                      std::int64_t now_ms);
  std::map<std::string, Contribution> contributions();
  // Adds what `consumer` consumed of each producer's work since its last report (its totals
  // are cumulative per process: lower totals mean it restarted). Returns the producers'
  // updated contributions. Receipts a node writes for itself are ignored.
  std::map<std::string, Contribution> record_receipts(const std::string& consumer,
                                                      const std::vector<ReceiptReport>& receipts,
                                                      std::int64_t now_ms);
  // Many consumers' receipts in one transaction, in order (a tick's heartbeats, batched).
  std::map<std::string, Contribution> record_receipts(
      const std::vector<std::pair<std::string, std::vector<ReceiptReport>>>& by_consumer,
      std::int64_t now_ms);

  void save_plan(const Assignment& plan, std::int64_t now_ms);
  // The newest plan and the one before it (version 0 / empty when there are none).
  std::pair<Assignment, Assignment> latest_plans();
  std::int64_t plan_count();

  // Volunteers the coordinator no longer admits, with the evidence in words.
  void ban(const std::string& key, const wire::pb::Verdict& why, std::int64_t unix_ms);
  std::map<std::string, Ban> banned();

  // Invites live in the state file, so `rookery-coordinator invite` and `revoke-invite`
  // (another process, another connection) change what the running coordinator admits at once.
  void add_invite(const std::string& token, std::int64_t now_ms, std::int64_t expires_unix_ms);
  bool revoke_invite(const std::string& token, std::int64_t now_ms);  // false: no such invite
  InviteStatus invite_status(const std::string& token, std::int64_t now_ms);
  std::vector<Invite> invites();
  bool has_invites();  // any at all, revoked and expired ones too: the job is invite-only

  void add_loss(std::int64_t unix_ms, double loss);
  std::vector<LossSample> loss_curve(std::size_t max_points);

  // The run's result: the model archive's snapshots, the evaluation of each (its held-out loss
  // is the run's validation curve), and the blocks that came back from a snapshot.
  void add_snapshot(const SnapshotRecord& s);
  std::optional<SnapshotRecord> latest_snapshot();
  void add_evaluation(const wire::pb::Evaluation& e);
  std::optional<wire::pb::Evaluation> latest_evaluation();
  std::vector<LossSample> validation_curve(std::size_t max_points);
  void add_restoration(const wire::pb::Restoration& r);
  std::vector<wire::pb::Restoration> restorations(std::size_t latest);  // oldest first

  const std::filesystem::path& path() const { return db_.path(); }

 private:
  // At most max_points of `table`'s (unix_ms, loss) rows, evenly thinned over the whole run.
  std::vector<LossSample> thinned_curve(const char* table, std::size_t max_points);

  store::Database db_;
};

// The state file's schema: numbered migrations (a newer file is refused, see store::Database).
const std::vector<store::Migration>& coordinator_migrations();

// The plan's seats as JSON and back (the plans table).
std::string assignment_to_json(const Assignment& a);
Assignment assignment_from_json(const std::string& json);

}  // namespace rookery::coordinator
