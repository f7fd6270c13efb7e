#pragma once
// The node's English status texts as codes the GUI translates (wire::pb::Reason). The English
// stays in the snapshot for logs, headless users and GUIs older than a code.
#include <string>

#include "governor/governor.hpp"
#include "rookery/control.pb.h"

namespace rookery::node {

// The governor's reason as a code with its values.
void to_reason(const governor::Why& why, wire::pb::Reason& out);

// What the node says of its coordinator (CoordinatorLink.status): its own words ("connecting to
// the coordinator", "joined job X", "the coordinator refused: R", ...) and the coordinator's
// heartbeat status ("pipeline 2 stage 1", "waiting for a plan", "not in the plan: R"). Text it
// does not know (a newer coordinator's) is REASON_UNKNOWN: the GUI shows it as it is.
void classify_coordinator_status(const std::string& status, wire::pb::Reason& out);

// The coordinator's words for a refusal, a ban or a missing seat (coordinator/verdicts.hpp)
// as a VERDICT_* code with the numbers in them; cleared (REASON_UNKNOWN) for words it does not
// know. classify_coordinator_status fills Reason.detail with it.
void classify_verdict(const std::string& words, wire::pb::Reason& out);

// NVML's status (core/device/nvml.cpp: "no NVIDIA driver (libnvidia-ml.so.1 not found)", ...).
void classify_gpu_status(const std::string& status, wire::pb::Reason& out);

// A governor sensor's name ("input idleness", "cpu load", ...) as a kind.
wire::pb::SensorStatus::Kind sensor_kind(const std::string& name);

}  // namespace rookery::node
