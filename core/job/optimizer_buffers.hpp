#pragma once
// The state buffers an optimizer keeps per parameter, by name, as a job's optimizer spec
// implies them: what travels with a shard's parameters and what a model archive stores.
// Header-only and torch-free (model::Optimizer keeps them; the coordinator checks them).
#include <string>
#include <vector>

#include "job/job_spec.hpp"

namespace rookery::job {

// AdamW {"adamw.exp_avg", "adamw.exp_avg_sq"}; SGD with momentum {"sgd.momentum"}; SGD
// without momentum none.
inline std::vector<std::string> optimizer_state_buffers(const OptimizerSpec& spec) {
  if (spec.kind == OptimizerKind::adamw) return {"adamw.exp_avg", "adamw.exp_avg_sq"};
  if (spec.momentum > 0) return {"sgd.momentum"};
  return {};
}

}  // namespace rookery::job
