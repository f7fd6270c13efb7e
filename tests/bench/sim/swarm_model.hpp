#pragma once
// The swarm at internet scale as a discrete-event simulation around the coordinator's own code:
// volunteers come and go (churn.hpp) and join through the Sybil caps (sybil_limits), Membership
// hears their heartbeats and declares the silent dead, the RePlanner plans them with
// plan_swarm's incremental and fresh paths (inline, on a ManualClock moved by the event queue),
// ban_witnesses and ban_vote judge the liars' witnesses' reports, NextHopRouter routes around
// the departed, and MultiRingPlan (or averaging groups) sizes each averaging round. Only the
// volunteers' side is modelled: their devices, links and presence, and what a plan trains
// (pipeline_flow.hpp).
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "job/job_spec.hpp"
#include "sim_report.hpp"
#include "volunteer_population.hpp"

namespace rookery::sim {

struct SimOptions {
  std::string planner = "ours";     // "ours", "uniform" or "ravnest" (parse_planner's names)
  double hours = 3;                 // simulated, after the warm-up
  double warm_up_s = 900;           // the launch: joins spread over its first 5 minutes
  std::filesystem::path state_dir;  // the coordinator's SQLite state file goes here
  std::uint64_t seed = 1;           // churn; the same seed gives every planner the same trace
  // The coordinator's defaults (coordinator_service.hpp).
  std::chrono::milliseconds dead_after{3000};
  std::chrono::milliseconds settle{1000};
  // Heartbeats and the coordinator's tick, simulated every second (the service ticks every
  // 100 ms and nodes beat every 500 ms; a second keeps 10,000 volunteers' heartbeats cheap and
  // stays well inside dead_after).
  std::int64_t tick_ms = 1000;
  // Spot-checks: how often a liar's downstream witnesses check it, and the chance one check
  // catches it (a check recomputes one sampled micro-batch).
  double spot_check_every_s = 30;
  double catch_probability = 0.5;
};

// The job every run trains: a GPT of GPT-2 medium's shape (24 layers of width 1024, context
// 512, a 50,304-token vocabulary: about 0.4 B parameters), micro-batches of 8, 4 in flight.
job::JobSpec sim_job();

SimReport run_swarm(const std::vector<SimVolunteer>& people, const job::JobSpec& job,
                    const SimOptions& options);

}  // namespace rookery::sim
