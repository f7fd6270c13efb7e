#include "node/reasons.hpp"

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

pb::Reason reason(pb::ReasonCode code, const std::string& text) {
  pb::Reason r;
  r.set_code(code);
  r.set_text(text);
  return r;
}

void to_reason(const pb::Verdict& v, pb::Reason& out) {
  out.Clear();
  out.set_value(v.value());
  out.set_limit(v.limit());
  out.set_text(v.detail());
  switch (v.code()) {
    case pb::Verdict::NO_JOB:
      return out.set_code(pb::VERDICT_NO_JOB);
    case pb::Verdict::WRONG_JOB:
      return out.set_code(pb::VERDICT_WRONG_JOB);
    case pb::Verdict::INVITE_NOT_VALID:
      return out.set_code(pb::VERDICT_INVITE_NOT_VALID);
    case pb::Verdict::INVITE_EXPIRED:
      return out.set_code(pb::VERDICT_INVITE_EXPIRED);
    case pb::Verdict::INVITE_REVOKED:
      return out.set_code(pb::VERDICT_INVITE_REVOKED);
    case pb::Verdict::INVITE_UNCHECKABLE:
      return out.set_code(pb::VERDICT_INVITE_UNCHECKABLE);
    case pb::Verdict::ENDPOINTS_NOT_TCP:
      return out.set_code(pb::VERDICT_ENDPOINTS_NOT_TCP);
    case pb::Verdict::IMPLAUSIBLE_PROFILE:
      return out.set_code(pb::VERDICT_IMPLAUSIBLE_PROFILE);
    case pb::Verdict::TOO_MANY_FROM_ADDRESS:
      return out.set_code(pb::VERDICT_TOO_MANY_FROM_ADDRESS);
    case pb::Verdict::TOO_MANY_FROM_SUBNET:
      return out.set_code(pb::VERDICT_TOO_MANY_FROM_SUBNET);
    case pb::Verdict::JOIN_WORK_MISSING:
      return out.set_code(pb::VERDICT_JOIN_WORK_MISSING);
    case pb::Verdict::JOIN_WORK_WRONG:
      return out.set_code(pb::VERDICT_JOIN_WORK_WRONG);
    case pb::Verdict::RING_PARTNERS_REJECT:
      return out.set_code(pb::VERDICT_RING_PARTNERS_REJECT);
    case pb::Verdict::CAUGHT_IN_SPOT_CHECKS:
      return out.set_code(pb::VERDICT_CAUGHT_IN_SPOT_CHECKS);
    case pb::Verdict::AGGREGATE_PROVEN_WRONG:
      return out.set_code(pb::VERDICT_AGGREGATE_PROVEN_WRONG);
    case pb::Verdict::GRADIENTS_CAUGHT_IN_SPOT_CHECKS:
      return out.set_code(pb::VERDICT_GRADIENTS_CAUGHT_IN_SPOT_CHECKS);
    case pb::Verdict::SPARE:
      return out.set_code(pb::VERDICT_SPARE);
    case pb::Verdict::TIER_FULL:
      return out.set_code(pb::VERDICT_TIER_FULL);
    case pb::Verdict::NO_PIPELINE_HOLDS_MODEL:
      return out.set_code(pb::VERDICT_NO_PIPELINE_HOLDS_MODEL);
    case pb::Verdict::JOINED_AFTER_PLAN:
      return out.set_code(pb::VERDICT_JOINED_AFTER_PLAN);
    case pb::Verdict::NO_VOLUNTEERS:
      return out.set_code(pb::VERDICT_NO_VOLUNTEERS);
    case pb::Verdict::UNREACHABLE:
      return out.set_code(pb::VERDICT_UNREACHABLE);
    default:  // NONE, COORDINATOR_FAILED, or newer than this node: the detail as it is
      return out.set_code(pb::REASON_UNKNOWN);
  }
}

void to_reason(const pb::SeatStatus& seat, pb::Reason& out) {
  out.Clear();
  switch (seat.state()) {
    case pb::SeatStatus::NOT_REGISTERED:
      return out.set_code(pb::COORDINATOR_NOT_REGISTERED);
    case pb::SeatStatus::IGNORED:
      return out.set_code(pb::COORDINATOR_IGNORED);
    case pb::SeatStatus::FETCHING_DATASET:
      out.set_value(seat.fetched());
      out.set_limit(static_cast<double>(seat.dataset_bytes()));
      return out.set_code(pb::COORDINATOR_FETCHING_DATASET);
    case pb::SeatStatus::WAITING_FOR_PLAN:
      return out.set_code(pb::COORDINATOR_WAITING_FOR_PLAN);
    case pb::SeatStatus::NO_PLAN:
      out.set_code(pb::COORDINATOR_NO_PLAN);
      return to_reason(seat.why(), *out.mutable_detail());
    case pb::SeatStatus::NOT_IN_PLAN:
      out.set_code(pb::COORDINATOR_NOT_IN_PLAN);
      return to_reason(seat.why(), *out.mutable_detail());
    case pb::SeatStatus::SEATED:
      out.set_value(seat.pipeline());
      out.set_limit(seat.stage());
      return out.set_code(pb::COORDINATOR_SEATED);
    case pb::SeatStatus::REPLANNING:
      out.set_text(seat.why().detail());
      return out.set_code(pb::COORDINATOR_REPLANNING);
    default:
      return out.set_code(pb::REASON_UNKNOWN);
  }
}

void refusal_reason(const pb::JoinReply& reply, pb::Reason& out) {
  out.Clear();
  out.set_code(reply.banned() ? pb::COORDINATOR_BANNED : pb::COORDINATOR_REFUSED);
  out.set_text(reply.reason());
  to_reason(reply.refusal(), *out.mutable_detail());
}

void to_reason(device::NvmlState state, unsigned gpus, pb::Reason& out) {
  out.Clear();
  switch (state) {
    case device::NvmlState::NoDriver:
      return out.set_code(pb::DEVICE_NO_NVIDIA_DRIVER);
    case device::NvmlState::TooOld:
      return out.set_code(pb::DEVICE_NVML_TOO_OLD);
    case device::NvmlState::InitFailed:
      return out.set_code(pb::DEVICE_NVML_FAILED);
    case device::NvmlState::NoGpus:
      return out.set_code(pb::DEVICE_NO_GPUS);
    case device::NvmlState::Available:
      out.set_value(static_cast<double>(gpus));
      return out.set_code(pb::DEVICE_NVIDIA_GPUS);
  }
}

pb::SensorStatus::Kind sensor_kind(governor::SensorKind kind) {
  using K = governor::SensorKind;
  switch (kind) {
    case K::InputIdleness:
      return pb::SensorStatus::INPUT_IDLENESS;
    case K::FullScreen:
      return pb::SensorStatus::FULLSCREEN;
    case K::Battery:
      return pb::SensorStatus::BATTERY;
    case K::Programs:
      return pb::SensorStatus::PROGRAMS;
    case K::CpuLoad:
      return pb::SensorStatus::CPU_LOAD;
    case K::Gpu:
      return pb::SensorStatus::GPU;
    case K::Memory:
      return pb::SensorStatus::MEMORY;
  }
  return pb::SensorStatus::KIND_UNKNOWN;
}

}  // namespace rookery::node
