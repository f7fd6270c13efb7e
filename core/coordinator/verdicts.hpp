#pragma once
// What the coordinator tells a volunteer it refuses, bans or leaves without a seat, in its
// words (English, for logs and headless users). The node recognises these sentences and sends
// the GUI a code with the numbers in them (node/reasons.cpp), so the window words them in the
// user's language; a sentence it does not know is shown as the coordinator wrote it.
// Header-only: the coordinator writes them, the node reads them.
#include <string>

#include "cluster/planning.hpp"

namespace rookery::coordinator::verdict {

// Refusals of a join.
inline constexpr const char* kNoJob = "this coordinator runs no job";
inline constexpr const char* kWrongJob =
    "this coordinator runs job '";  // + id + "', not '" + theirs + "'"
inline constexpr const char* kInviteNotValid =
    "the job is invite-only and this invite is not valid";
inline constexpr const char* kInviteExpired = "this invite has expired";
inline constexpr const char* kInviteRevoked = "this invite was revoked";
inline constexpr const char* kBanned = "banned from this job: ";  // + the ban's reason
inline constexpr const char* kEndpointsNotTcp = "the node's endpoints must be tcp://host:port";
inline constexpr const char* kImplausibleProfile =
    "the node's profile is not plausible (FLOP/s, memory, bandwidth and round trip must be "
    "measured)";

inline std::string wrong_job(const std::string& ours, const std::string& theirs) {
  return kWrongJob + ours + "', not '" + theirs + "'";
}

// A ban's reason: the verified evidence.
inline constexpr const char* kRingPartnersReject =
    " ring partners reject its averaging contributions";
inline constexpr const char* kCaughtInSpotChecks =
    " stages it sends to caught its activations wrong in spot-checks";
inline constexpr const char* kGradientsCaughtInSpotChecks =
    " stages it returns gradients to caught its gradients wrong in spot-checks";

inline std::string ring_partners_reject(std::size_t reporters, std::size_t partners) {
  return std::to_string(reporters) + " of its " + std::to_string(partners) + kRingPartnersReject;
}
inline std::string caught_in_spot_checks(std::size_t reporters, std::size_t receivers) {
  return std::to_string(reporters) + " of the " + std::to_string(receivers) + kCaughtInSpotChecks;
}
inline std::string gradients_caught_in_spot_checks(std::size_t reporters, std::size_t receivers) {
  return std::to_string(reporters) + " of the " + std::to_string(receivers) +
         kGradientsCaughtInSpotChecks;
}

// No seat in the plan (after "not in the plan: "): the planner's reasons, and this one.
inline constexpr const char* kJoinedAfterThePlan = "joined after the plan was made";
using cluster::kNoPipelineHoldsModel;
using cluster::kSpare;
using cluster::kTierFull;

}  // namespace rookery::coordinator::verdict
