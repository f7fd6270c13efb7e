#pragma once
// The run as a dashboard sees it: each live volunteer's seat, speed, profile and credited work,
// the pipelines' throughput, the bans, the totals and the loss curve (sampled from the
// volunteers' heartbeats every few seconds into the state file), and the model archive's part:
// its snapshots, the blocks that came back from one, and the evaluation of the latest (the
// validation curve beside the training loss, and what the model writes). Every node asks for it
// every few seconds, so status requests cost what they carry: an answer holds one page of the
// volunteers (kDefaultStatusPage unless asked otherwise), and the volunteers' rows are built at
// most once per kStatusFresh (sooner when the plan, the bans or the members change) and copied
// page by page to the requests in between.
#include <chrono>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>
#include <map>
#include <memory>
#include <string>

#include "clock/clock.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/membership.hpp"
#include "coordinator/swarm_planner.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::coordinator {

inline constexpr auto kLossSampleEvery = std::chrono::seconds(2);
// How old an answer may be when nothing a dashboard acts on changed (speeds and totals lag
// this much at most).
inline constexpr auto kStatusFresh = std::chrono::seconds(1);
// A change of members (a join, a death) rebuilds it, but no more often than this: a crowd
// joining at once would otherwise rebuild it for every request.
inline constexpr auto kStatusMembersFresh = std::chrono::milliseconds(250);

// Volunteers per answer when a request does not say, and the most one may ask for.
inline constexpr std::uint32_t kDefaultStatusPage = 256;
inline constexpr std::uint32_t kMaxStatusPage = 4096;

class RunArchive;

class RunStatus {
 public:
  explicit RunStatus(CoordinatorState& state,
                     const clock::Clock& clock = clock::SystemClock::instance());

  // The model archive, whose snapshots, restorations and evaluations (the validation curve,
  // the latest sample of what the model does) answers carry. None: the coordinator keeps none.
  void set_archive(const RunArchive* archive) { archive_ = archive; }
  // The job's averaging groups: where nodes see views of the plan, the check coverage worked
  // out here counts the verifiers each seat's view holds (check_coverage_of).
  void set_averaging_max_group(std::int64_t max_group) { averaging_max_group_ = max_group; }

  // Every kLossSampleEvery: records the mean of the losses the live volunteers report.
  void sample_loss(const std::map<std::string, Volunteer>& live);
  // {pipeline, stage} of a key in the plan, or {-1, -1} (the re-planner's index).
  using SeatOf = std::function<std::pair<int, int>(const std::string&)>;
  // The answer to a dashboard's request; `asker`: the volunteer that asked (empty: the owner's
  // dashboard), whose own row and rank the answer carries whatever page it asked for.
  void answer(const wire::pb::RunStatusRequest& r, const std::string& asker,
              const std::string& job_id, const Assignment& plan, std::uint32_t replans,
              const Membership& membership, const SeatOf& seat_of, wire::pb::RunStatus& out);
  // Answers built so far (each lists every live volunteer).
  std::uint64_t builds() const { return builds_; }

 private:
  void build(const std::string& job_id, const Assignment& plan, std::uint32_t replans,
             const Membership& membership, const SeatOf& seat_of);

  CoordinatorState& state_;
  const clock::Clock& clock_;
  std::chrono::steady_clock::time_point last_loss_sample_;
  wire::pb::RunStatus cached_;           // all but the volunteers' rows and the loss curve
  std::vector<wire::pb::RunNode> rows_;  // every live volunteer, in key order
  std::map<std::string, std::pair<std::size_t, std::uint32_t>> by_key_;  // row, rank
  const RunArchive* archive_ = nullptr;
  std::int64_t averaging_max_group_ = 0;
  // The loss and validation curves, by points asked, this build.
  std::map<std::uint32_t, std::pair<std::vector<LossSample>, std::vector<LossSample>>> curves_;
  std::chrono::steady_clock::time_point built_at_{};
  std::uint64_t plan_version_ = 0, generation_ = 0, builds_ = 0;
  // The plan's check coverage (worked out here when the plan came without it), and its plan.
  std::shared_ptr<const cluster::CoverageReport> coverage_;
  std::uint64_t coverage_plan_ = 0;
  std::size_t banned_ = 0;
};

}  // namespace rookery::coordinator
