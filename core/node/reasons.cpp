#include "node/reasons.hpp"

#include <cstdlib>
#include <string_view>

#include "coordinator/verdicts.hpp"

namespace rookery::node {

namespace pb = wire::pb;

void to_reason(const governor::Why& why, pb::Reason& out) {
  using C = governor::Why::Code;
  pb::ReasonCode code = pb::REASON_UNKNOWN;
  switch (why.code) {
    case C::None:
      code = pb::REASON_UNKNOWN;
      break;
    case C::Snoozed:
      code = pb::GOVERNOR_SNOOZED;
      break;
    case C::Schedule:
      code = pb::GOVERNOR_SCHEDULE;
      break;
    case C::OnBattery:
      code = pb::GOVERNOR_ON_BATTERY;
      break;
    case C::ProgramRunning:
      code = pb::GOVERNOR_PROGRAM_RUNNING;
      break;
    case C::FullScreen:
      code = pb::GOVERNOR_FULLSCREEN;
      break;
    case C::InUseOff:
      code = pb::GOVERNOR_IN_USE_OFF;
      break;
    case C::IdleOff:
      code = pb::GOVERNOR_IDLE_OFF;
      break;
    case C::GpuInUseOff:
      code = pb::GOVERNOR_GPU_IN_USE_OFF;
      break;
    case C::GpuHot:
      code = pb::GOVERNOR_GPU_HOT;
      break;
    case C::OtherCpu:
      code = pb::GOVERNOR_OTHER_CPU;
      break;
    case C::Memory:
      code = pb::GOVERNOR_MEMORY;
      break;
    case C::UserActive:
      code = pb::GOVERNOR_USER_ACTIVE;
      break;
    case C::PcIdle:
      code = pb::GOVERNOR_PC_IDLE;
      break;
  }
  out.set_code(code);
  out.set_value(why.value);
  out.set_limit(why.limit);
  out.set_unix_ms(why.until_unix_ms);
  out.set_text(why.text);
}

namespace {
bool starts(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

void set(pb::Reason& out, pb::ReasonCode code, std::string_view text = {}) {
  out.Clear();
  out.set_code(code);
  out.set_text(std::string(text));
}

// "pipeline 2 stage 1" (the coordinator counts both from 1).
bool seat(std::string_view s, pb::Reason& out) {
  constexpr std::string_view p = "pipeline ";
  if (!starts(s, p)) return false;
  const std::string rest(s.substr(p.size()));
  char* end = nullptr;
  const long pipeline = std::strtol(rest.c_str(), &end, 10);
  if (end == rest.c_str() || std::string_view(end).substr(0, 7) != " stage ") return false;
  const char* stage_text = end + 7;
  const long stage = std::strtol(stage_text, &end, 10);
  if (end == stage_text || *end != '\0' || pipeline < 1 || stage < 1) return false;
  set(out, pb::COORDINATOR_SEATED);
  out.set_value(static_cast<double>(pipeline));
  out.set_limit(static_cast<double>(stage));
  return true;
}

// "3 of its 4 ring partners reject ...": the two counts before the known tail.
bool counts(std::string_view s, std::string_view middle, std::string_view tail, pb::Reason& out) {
  if (s.size() <= tail.size() || s.substr(s.size() - tail.size()) != tail) return false;
  const std::string head(s.substr(0, s.size() - tail.size()));
  char* end = nullptr;
  const long reporters = std::strtol(head.c_str(), &end, 10);
  if (end == head.c_str() || std::string_view(end).substr(0, middle.size()) != middle) return false;
  const char* rest = end + middle.size();
  const long peers = std::strtol(rest, &end, 10);
  if (end == rest || *end != '\0' || reporters < 0 || peers < reporters) return false;
  out.set_value(static_cast<double>(reporters));
  out.set_limit(static_cast<double>(peers));
  return true;
}

}  // namespace

void classify_verdict(const std::string& words, pb::Reason& out) {
  namespace v = coordinator::verdict;
  const std::string_view s = words;
  out.Clear();
  if (s == v::kNoJob) return set(out, pb::VERDICT_NO_JOB);
  if (starts(s, v::kWrongJob)) {
    const auto rest = s.substr(std::string_view(v::kWrongJob).size());
    return set(out, pb::VERDICT_WRONG_JOB, rest.substr(0, rest.find('\'')));
  }
  if (s == v::kInviteNotValid) return set(out, pb::VERDICT_INVITE_NOT_VALID);
  if (s == v::kInviteExpired) return set(out, pb::VERDICT_INVITE_EXPIRED);
  if (s == v::kInviteRevoked) return set(out, pb::VERDICT_INVITE_REVOKED);
  if (s == v::kEndpointsNotTcp) return set(out, pb::VERDICT_ENDPOINTS_NOT_TCP);
  if (s == v::kImplausibleProfile) return set(out, pb::VERDICT_IMPLAUSIBLE_PROFILE);
  if (s == v::kSpare) return set(out, pb::VERDICT_SPARE);
  if (s == v::kTierFull) return set(out, pb::VERDICT_TIER_FULL);
  if (s == v::kJoinedAfterThePlan) return set(out, pb::VERDICT_JOINED_AFTER_PLAN);
  if (starts(s, v::kNoPipelineHoldsModel)) {
    return set(out, pb::VERDICT_NO_PIPELINE_HOLDS_MODEL,
               s.substr(std::string_view(v::kNoPipelineHoldsModel).size()));
  }
  if (counts(s, " of its ", v::kRingPartnersReject, out))
    return out.set_code(pb::VERDICT_RING_PARTNERS_REJECT);
  if (counts(s, " of the ", v::kCaughtInSpotChecks, out))
    return out.set_code(pb::VERDICT_CAUGHT_IN_SPOT_CHECKS);
  if (counts(s, " of the ", v::kGradientsCaughtInSpotChecks, out)) {
    return out.set_code(pb::VERDICT_GRADIENTS_CAUGHT_IN_SPOT_CHECKS);
  }
  out.Clear();  // words this node does not know: the GUI shows them as they are
}

void classify_coordinator_status(const std::string& status, pb::Reason& out) {
  const std::string_view s = status;
  constexpr std::string_view refused = "the coordinator refused: ",
                             banned = "banned from this job: ",
                             lost = "coordinator unreachable: training on with the last plan",
                             unreachable = "coordinator unreachable: ",
                             connected = "connected to coordinator ", joined = "joined job ",
                             not_in_plan = "not in the plan: ", replanning = "re-planning: ";
  if (s == "connecting to the coordinator") return set(out, pb::COORDINATOR_CONNECTING);
  if (s == lost) return set(out, pb::COORDINATOR_LOST);
  if (starts(s, unreachable))
    return set(out, pb::COORDINATOR_UNREACHABLE, s.substr(unreachable.size()));
  if (starts(s, connected)) return set(out, pb::COORDINATOR_CONNECTED, s.substr(connected.size()));
  if (starts(s, joined)) return set(out, pb::COORDINATOR_JOINED, s.substr(joined.size()));
  if (starts(s, refused)) {
    const auto why = s.substr(refused.size());
    if (starts(why, banned)) {
      set(out, pb::COORDINATOR_BANNED, why.substr(banned.size()));
    } else {
      set(out, pb::COORDINATOR_REFUSED, why);
    }
    return classify_verdict(out.text(), *out.mutable_detail());
  }
  if (s == "waiting for a plan") return set(out, pb::COORDINATOR_WAITING_FOR_PLAN);
  if (starts(s, not_in_plan)) {
    set(out, pb::COORDINATOR_NOT_IN_PLAN, s.substr(not_in_plan.size()));
    return classify_verdict(out.text(), *out.mutable_detail());
  }
  if (starts(s, replanning))
    return set(out, pb::COORDINATOR_REPLANNING, s.substr(replanning.size()));
  if (s == "not registered: join again") return set(out, pb::COORDINATOR_NOT_REGISTERED);
  if (seat(s, out)) return;
  set(out, pb::REASON_UNKNOWN);
}

void classify_gpu_status(const std::string& status, pb::Reason& out) {
  const std::string_view s = status;
  constexpr std::string_view gpus = " NVIDIA GPU(s) via NVML";
  out.Clear();
  if (s == "no NVIDIA driver (libnvidia-ml.so.1 not found)") {
    out.set_code(pb::DEVICE_NO_NVIDIA_DRIVER);
  } else if (s == "libnvidia-ml.so.1 is too old (missing entry points)") {
    out.set_code(pb::DEVICE_NVML_TOO_OLD);
  } else if (s == "NVML failed to initialise (driver not loaded?)") {
    out.set_code(pb::DEVICE_NVML_FAILED);
  } else if (s == "NVML reports no GPUs") {
    out.set_code(pb::DEVICE_NO_GPUS);
  } else if (s.size() > gpus.size() && s.substr(s.size() - gpus.size()) == gpus) {
    const std::string n(s.substr(0, s.size() - gpus.size()));
    char* end = nullptr;
    const long count = std::strtol(n.c_str(), &end, 10);
    if (end != n.c_str() && *end == '\0' && count >= 0) {
      out.set_code(pb::DEVICE_NVIDIA_GPUS);
      out.set_value(static_cast<double>(count));
    }
  }
}

pb::SensorStatus::Kind sensor_kind(const std::string& name) {
  if (name == "input idleness") return pb::SensorStatus::INPUT_IDLENESS;
  if (name == "full-screen") return pb::SensorStatus::FULLSCREEN;
  if (name == "battery") return pb::SensorStatus::BATTERY;
  if (name == "programs") return pb::SensorStatus::PROGRAMS;
  if (name == "cpu load") return pb::SensorStatus::CPU_LOAD;
  if (name == "gpu") return pb::SensorStatus::GPU;
  if (name == "memory") return pb::SensorStatus::MEMORY;
  return pb::SensorStatus::KIND_UNKNOWN;
}

}  // namespace rookery::node
