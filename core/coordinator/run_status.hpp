#pragma once
// The run as a dashboard sees it: each live volunteer's seat, speed, profile and credited work,
// the pipelines' throughput, the bans, the totals and the loss curve (sampled from the
// volunteers' heartbeats every few seconds into the state file).
#include <chrono>
#include <map>
#include <string>

#include "clock/clock.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/membership.hpp"
#include "coordinator/swarm_planner.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::coordinator {

inline constexpr auto kLossSampleEvery = std::chrono::seconds(2);

class RunStatus {
 public:
  explicit RunStatus(CoordinatorState& state,
                     const clock::Clock& clock = clock::SystemClock::instance());

  // Every kLossSampleEvery: records the mean of the losses the live volunteers report.
  void sample_loss(const std::map<std::string, Volunteer>& live);
  // The answer to a dashboard's request.
  void answer(const wire::pb::RunStatusRequest& r, const std::string& job_id,
              const Assignment& plan, std::uint32_t replans, const Membership& membership,
              wire::pb::RunStatus& out) const;

 private:
  CoordinatorState& state_;
  const clock::Clock& clock_;
  std::chrono::steady_clock::time_point last_loss_sample_;
};

}  // namespace rookery::coordinator
