#include "coordinator/plan_delivery.hpp"

#include <stdexcept>

namespace rookery::coordinator {

void PlanDelivery::refresh(const Assignment& plan, const Membership& membership,
                           std::int64_t averaging_interval_ms) {
  if (built_ && version_ == plan.version && generation_ == membership.generation()) return;
  built_ = true;
  version_ = plan.version;
  generation_ = membership.generation();
  members_.clear();
  for (const auto& [k, v] : membership.live()) members_.emplace_hint(members_.end(), k, v.member);
  error_.clear();
  try {
    message_ = plan_message(plan, members_, averaging_interval_ms);
    bytes_ = message_->ByteSizeLong();
  } catch (const std::invalid_argument& e) {
    message_.reset();
    bytes_ = 0;
    error_ = e.what();
  }
}

}  // namespace rookery::coordinator
