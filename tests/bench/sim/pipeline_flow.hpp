#pragma once
// What the installed plan trains, second by second: each seat's time per micro-batch from the
// planner's time model, pipelines with the same cuts pooled as SWARM's wiring pools them (every
// node of the next stage is a next hop), a seat counting only while its volunteer is online and
// holds its blocks, and the shard transfers a new plan starts.
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "cluster/planning.hpp"
#include "coordinator/swarm_planner.hpp"
#include "volunteer_population.hpp"

namespace rookery::sim {

struct FlowSeat {
  int volunteer = -1;
  int first = 0, last = 0;  // blocks [first, last)
  double stage_s = 0;       // per micro-batch: the slower of its compute and its links
  double rest_s = 0;        // the rest of its pipeline from this seat on, one way
};

struct FlowRates {
  double samples_per_s = 0;   // trained now
  double ideal = 0;           // the same seats, all online and holding their blocks
  double without_refill = 0;  // the seats online, as if every transfer were done
};

class PipelineFlow {
 public:
  PipelineFlow(std::vector<cluster::BlockProfile> blocks, cluster::TrainingSettings settings);

  // The plan takes effect at `now_ms`: seats whose volunteer does not hold their blocks fetch
  // them from an online holder of the previous plan (or the coordinator's archive) and count
  // from when they have them. Returns the seats that fetch.
  struct Installed {
    int fetching = 0;
    int restored_blocks = 0;  // blocks no online volunteer held: served by the archive
    int memory_overruns = 0;  // seats whose shard exceeds their volunteer's free memory
  };
  Installed install(const coordinator::Assignment& plan, const std::vector<SimVolunteer>& people,
                    const std::unordered_map<std::string, int>& index,
                    const std::vector<char>& online, std::int64_t now_ms);

  // Rates at `now_ms`; `busy_flops` (one per volunteer, added to) gets each seat's training FLOP/s.
  FlowRates rates(const std::vector<char>& online, std::int64_t now_ms,
                  std::vector<double>* busy_flops = nullptr) const;

  // The seats of `volunteer`'s stage group (same cuts, same stage) and its place among them:
  // the next hops its upstream routes among. Empty when it has no seat.
  std::vector<const FlowSeat*> stage_group(int volunteer, std::size_t* self) const;
  double class_rate(int volunteer, const std::vector<char>& online, std::int64_t now_ms) const;

  int pipelines() const { return int(pipelines_.size()); }
  int classes() const { return int(classes_.size()); }
  double flops_per_sample() const { return flops_per_sample_; }
  const cluster::TrainingSettings& settings() const { return settings_; }

 private:
  double class_rate(const std::vector<int>& members, const std::vector<char>& online,
                    std::int64_t now_ms, std::vector<double>* busy_flops) const;
  double fetch_s(int v, int first, int last, const std::vector<SimVolunteer>& people,
                 const std::vector<std::vector<int>>& holders, int* restored);

  std::vector<cluster::BlockProfile> blocks_;
  cluster::TrainingSettings settings_;
  double flops_per_sample_ = 0;
  std::vector<std::vector<FlowSeat>> pipelines_;
  std::vector<std::vector<int>> classes_;                 // pipelines with the same cuts
  std::unordered_map<int, std::pair<int, int>> seat_of_;  // volunteer -> {pipeline, stage}
  std::vector<int> class_of_;                             // pipeline -> class
  std::unordered_map<int, std::pair<int, int>> held_;     // volunteer -> blocks it holds
  std::unordered_map<int, std::int64_t> ready_at_ms_;     // volunteer -> when it holds its seat's
  std::size_t next_holder_ = 0;                           // spreads fetches over holders
};

}  // namespace rookery::sim
