#include "coordinator/plan_delivery.hpp"

#include <algorithm>
#include <stdexcept>

namespace rookery::coordinator {

namespace {
// Holders a reply names for each range of blocks a node must fetch.
constexpr std::size_t kSourcesPerRange = 4;
}  // namespace

void PlanDelivery::add_sources(const Assignment& previous, const Assignment& plan,
                               const std::string& key, const std::string& archive_key,
                               wire::pb::HeartbeatReply& out) {
  if (!sources_ || sources_->previous_version() != previous.version ||
      sources_->next_version() != plan.version) {
    sources_.emplace(previous, plan);
  }
  for (const auto& source : sources_->sources(key, members_, kSourcesPerRange)) {
    auto* o = out.add_sources();
    o->set_key(source.key);
    o->set_endpoint(source.endpoint);
    o->set_first_block(source.first_block);
    o->set_last_block(source.last_block);
  }
  if (const Seat* mine = sources_->next_seat(key); mine && !archive_key.empty()) {
    auto* o = out.add_sources();
    o->set_key(archive_key);
    o->set_first_block(mine->first_block);
    o->set_last_block(mine->last_block);
  }
}

void PlanDelivery::refresh(const Assignment& plan, const Membership& membership,
                           std::int64_t averaging_interval_ms, std::int64_t averaging_max_group) {
  if (built_ && version_ == plan.version && max_group_ == averaging_max_group) {
    if (generation_ == membership.generation()) return;
    // Volunteers that came or went without a seat in the plan change nothing in its message
    // (a crowd joining would otherwise rebuild it for every heartbeat): only the members.
    if (const auto changed = membership.changed_since(generation_)) {
      const bool seated = std::any_of(changed->begin(), changed->end(),
                                      [this](const auto& k) { return seated_.contains(k); });
      if (!seated) {
        for (const auto& k : *changed) {
          if (const auto it = membership.live().find(k); it != membership.live().end()) {
            members_[k] = it->second.member;
          } else {
            members_.erase(k);
          }
        }
        generation_ = membership.generation();
        return;
      }
    }
  }
  if (!built_ || version_ != plan.version) {
    seated_.clear();
    for (const auto& p : plan.pipelines) {
      for (const auto& s : p) seated_.insert(s.key);
    }
  }
  built_ = true;
  version_ = plan.version;
  max_group_ = averaging_max_group;
  views_ = PlanViews(plan.pipelines.size(), averaging_max_group);
  built_views_.clear();
  generation_ = membership.generation();
  members_.clear();
  for (const auto& [k, v] : membership.live()) members_.emplace_hint(members_.end(), k, v.member);
  error_.clear();
  try {
    message_ = plan_message(plan, members_, averaging_interval_ms);
    bytes_ = message_->ByteSizeLong();
    largest_view_ = views_.whole() ? bytes_ : 0;
  } catch (const std::invalid_argument& e) {
    message_.reset();
    bytes_ = 0;
    error_ = e.what();
  }
}

PlanDelivery::View PlanDelivery::view(int pipeline) {
  if (!message_) return {};
  if (views_.whole()) return {&*message_, bytes_};
  auto it = built_views_.find(pipeline);
  if (it == built_views_.end()) {
    wire::pb::Plan out;
    out.set_averaging_interval_ms(message_->averaging_interval_ms());
    const auto count = static_cast<std::size_t>(message_->pipelines_size());
    for (std::size_t p = 0; p < count; ++p) {
      auto* added = out.add_pipelines();  // empty: out of the view, in its place
      if (pipeline >= 0 && views_.sees(static_cast<std::size_t>(pipeline), p))
        *added = message_->pipelines(static_cast<int>(p));
    }
    const auto bytes = out.ByteSizeLong();
    largest_view_ = std::max(largest_view_, bytes);
    it = built_views_.emplace(pipeline, std::pair{std::move(out), bytes}).first;
  }
  return {&it->second.first, it->second.second};
}

}  // namespace rookery::coordinator
