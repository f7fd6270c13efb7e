#pragma once
// What the node shows as codes the GUI translates (wire::pb::Reason), from the governor's,
// NVML's and the coordinator's typed answers. The English stays in the snapshot beside them
// for logs, headless users and GUIs older than a code; nothing here reads it.
#include <string>

#include "device/nvml.hpp"
#include "governor/governor.hpp"
#include "governor/sensors.hpp"
#include "rookery/control.pb.h"
#include "rookery/coordinator.pb.h"

namespace rookery::node {

// The governor's reason as a code with its values.
void to_reason(const governor::Why& why, wire::pb::Reason& out);

// The coordinator's verdict (a refusal's, a ban's, a missing seat's) as a VERDICT_* code with
// its numbers; REASON_UNKNOWN with the detail as text for a verdict this node does not know.
void to_reason(const wire::pb::Verdict& verdict, wire::pb::Reason& out);
// The coordinator's word on this node's seat (CoordinatorLink.why).
void to_reason(const wire::pb::SeatStatus& seat, wire::pb::Reason& out);
// A refused join: COORDINATOR_REFUSED or COORDINATOR_BANNED, with the verdict in `detail`.
void refusal_reason(const wire::pb::JoinReply& reply, wire::pb::Reason& out);
// A reason with just a code and the text that goes into its sentence.
wire::pb::Reason reason(wire::pb::ReasonCode code, const std::string& text = {});

// How far NVML got (DeviceSnapshot.gpu_status_why).
void to_reason(device::NvmlState state, unsigned gpus, wire::pb::Reason& out);

// A governor sensor's kind, as the GUI knows it.
wire::pb::SensorStatus::Kind sensor_kind(governor::SensorKind kind);

}  // namespace rookery::node
