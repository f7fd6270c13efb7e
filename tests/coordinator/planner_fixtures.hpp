#pragma once
// What the planner tests share: the demo job, volunteer keys, members by key.
#include <map>
#include <string>
#include <vector>

#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"

namespace rookery::testing {

inline job::JobSpec demo_job() {
  return job::load_job_spec(ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
}

// A Z85-looking key per index (40 characters, unique).
inline std::string key_of(int i) {
  std::string k = "node" + std::to_string(i);
  k.resize(40, 'x');
  return k;
}

inline std::map<std::string, coordinator::Member> by_key(
    const std::vector<coordinator::Member>& v) {
  std::map<std::string, coordinator::Member> m;
  for (const auto& x : v) m[x.key] = x;
  return m;
}

}  // namespace rookery::testing
