#include "coordinator/plan_view.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "reduce/averaging_groups.hpp"

namespace rookery::coordinator {

PlanViews::PlanViews(std::size_t pipelines, std::int64_t averaging_max_group) {
  const auto bound = reduce::averaging_group_bound(averaging_max_group, pipelines);
  if (bound == 0) {
    all_.resize(pipelines);
    for (std::size_t p = 0; p < pipelines; ++p) all_[p] = p;
    return;
  }
  partners_ = reduce::sweep_partners(pipelines, bound);
}

const std::vector<std::size_t>& PlanViews::of(std::size_t p) const {
  const std::size_t count = whole() ? all_.size() : partners_.size();
  if (p >= count) {
    throw std::out_of_range("plan view: no pipeline " + std::to_string(p) + " in a plan of " +
                            std::to_string(count));
  }
  return whole() ? all_ : partners_[p];
}

bool PlanViews::sees(std::size_t p, std::size_t q) const {
  const auto& view = of(p);
  return std::binary_search(view.begin(), view.end(), q);
}

}  // namespace rookery::coordinator
