#include "coordinator/verdicts.hpp"

#include <cmath>

#include <fmt/format.h>

namespace rookery::coordinator::verdict {

namespace pb = wire::pb;

pb::Verdict make(Code code, std::string detail) {
  pb::Verdict v;
  v.set_code(code);
  v.set_detail(std::move(detail));
  return v;
}

pb::Verdict counted(Code code, std::size_t reporters, std::size_t witnesses) {
  pb::Verdict v;
  v.set_code(code);
  v.set_value(static_cast<double>(reporters));
  v.set_limit(static_cast<double>(witnesses));
  return v;
}

pb::Verdict unseated(const cluster::Unassigned& u) {
  switch (u.why) {
    case cluster::Unseated::NoPipelineHoldsModel:
      return make(pb::Verdict::NO_PIPELINE_HOLDS_MODEL, u.detail);
    case cluster::Unseated::TierFull:
      return make(pb::Verdict::TIER_FULL);
    case cluster::Unseated::Spare:
      return make(pb::Verdict::SPARE);
  }
  return make(pb::Verdict::NONE, cluster::describe(u));
}

std::string words(const pb::Verdict& v) {
  const auto counts = [&v](const char* of) {
    return std::to_string(static_cast<long long>(v.value())) + of +
           std::to_string(static_cast<long long>(v.limit()));
  };
  switch (v.code()) {
    case pb::Verdict::NO_JOB:
      return "this coordinator runs no job";
    case pb::Verdict::WRONG_JOB:
      return "this coordinator runs job '" + v.detail() + "'";
    case pb::Verdict::INVITE_NOT_VALID:
      return "the job is invite-only and this invite is not valid";
    case pb::Verdict::INVITE_EXPIRED:
      return "this invite has expired";
    case pb::Verdict::INVITE_REVOKED:
      return "this invite was revoked";
    case pb::Verdict::INVITE_UNCHECKABLE:
      return "the coordinator cannot check the invite: " + v.detail();
    case pb::Verdict::ENDPOINTS_NOT_TCP:
      return "the node's endpoints must be tcp://host:port";
    case pb::Verdict::IMPLAUSIBLE_PROFILE:
      return "the node's profile is not plausible (FLOP/s, memory, bandwidth and round trip must "
             "be measured)";
    case pb::Verdict::COORDINATOR_FAILED:
      return "the coordinator cannot record the volunteer: " + v.detail();
    case pb::Verdict::TOO_MANY_FROM_ADDRESS:
      return "the job already has " + counts(" volunteers (at most ") + ") from the address " +
             v.detail();
    case pb::Verdict::TOO_MANY_FROM_SUBNET:
      return "the job already has " + counts(" volunteers (at most ") + ") from the subnet " +
             v.detail();
    case pb::Verdict::JOIN_WORK_MISSING:
      return "the job asks for a proof of work of " + std::to_string(std::lround(v.limit())) +
             " bits with each join, and this one carries none";
    case pb::Verdict::JOIN_WORK_WRONG:
      return "the join's proof of work gives " + counts(" zero bits, not the ") + " required";
    case pb::Verdict::RING_PARTNERS_REJECT:
      return counts(" of its ") + " ring partners reject its averaging contributions";
    case pb::Verdict::AGGREGATE_PROVEN_WRONG:
      return "a ring partner proved it handed the ring false averaged values: " + v.detail();
    case pb::Verdict::CAUGHT_IN_SPOT_CHECKS:
      return counts(" of the ") + " stages it sends to caught its activations wrong in spot-checks";
    case pb::Verdict::GRADIENTS_CAUGHT_IN_SPOT_CHECKS:
      return counts(" of the ") +
             " stages it returns gradients to caught its gradients wrong in spot-checks";
    case pb::Verdict::SPARE:
      return cluster::describe({{}, cluster::Unseated::Spare, {}});
    case pb::Verdict::TIER_FULL:
      return cluster::describe({{}, cluster::Unseated::TierFull, {}});
    case pb::Verdict::NO_PIPELINE_HOLDS_MODEL:
      return cluster::describe({{}, cluster::Unseated::NoPipelineHoldsModel, v.detail()});
    case pb::Verdict::JOINED_AFTER_PLAN:
      return "joined after the plan was made";
    case pb::Verdict::NO_VOLUNTEERS:
      return "no volunteers yet";
    case pb::Verdict::UNREACHABLE:
      return "no peer can dial it, and no relay carries it";
    default:
      return v.detail();
  }
}

std::string words(const pb::SeatStatus& s) {
  switch (s.state()) {
    case pb::SeatStatus::NOT_REGISTERED:
      return "not registered: join again";
    case pb::SeatStatus::IGNORED:
      return "ignored: negative counters";
    case pb::SeatStatus::FETCHING_DATASET:
      return fmt::format("fetching the job's dataset: {:.0f}% of {:.1f} MB", 100 * s.fetched(),
                         double(s.dataset_bytes()) / 1e6);
    case pb::SeatStatus::WAITING_FOR_PLAN:
      return "waiting for a plan";
    case pb::SeatStatus::NO_PLAN:
      return "no pipeline: " + words(s.why());
    case pb::SeatStatus::NOT_IN_PLAN:
      return "not in the plan: " + words(s.why());
    case pb::SeatStatus::SEATED:
      return fmt::format("pipeline {} stage {}", s.pipeline(), s.stage());
    case pb::SeatStatus::REPLANNING:
      return "re-planning: " + s.why().detail();
    default:
      return "unknown";
  }
}

}  // namespace rookery::coordinator::verdict
