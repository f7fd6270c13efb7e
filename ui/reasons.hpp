#pragma once
// What the node says in English (its state and why, the governor's reason, its coordinator's
// status, the governor's sensors, the preferences' labels) in the user's language: from the
// codes in the snapshot (wire::pb::Reason), falling back to the node's English for a code this
// GUI does not know (an older node sends none; a newer one may send codes added after it).
#include <QCoreApplication>
#include <QString>

#include "rookery/control.pb.h"

namespace rookery::ui {

class Reasons {
  Q_DECLARE_TR_FUNCTIONS(Reasons)

 public:
  // Why the node is in its state, as a sentence ("Paused: on battery").
  static QString state(const wire::pb::NodeSnapshot& s);
  // The governor's reason, as a phrase ("on battery", "the PC is in use: 2 of 8 cores").
  static QString governor(const wire::pb::GovernorSnapshot& g);
  // What the node knows of its coordinator, as a phrase ("pipeline 2, stage 1").
  static QString coordinator(const wire::pb::CoordinatorLink& c);
  // The coordinator's words for a refusal, a ban or a missing seat (Reason.detail, VERDICT_*);
  // empty for a code this GUI does not know.
  static QString verdict(const wire::pb::Reason& detail);
  // verdict(why.detail()), or the coordinator's words in why.text() as they are.
  static QString coordinatorWords(const wire::pb::Reason& why);
  static QString sensorName(const wire::pb::SensorStatus& s);
  static QString sensorReading(const wire::pb::SensorStatus& s);
  // Why there is GPU telemetry or not (NVML), from DeviceSnapshot.gpu_status_why.
  static QString gpuStatus(const wire::pb::Reason& why, const std::string& english);
  // How peers reach this PC, as a sentence ("Reached through the router's port mapping
  // (UPnP IGD) at 198.20.0.2:7000"); empty while the node does not know.
  static QString reach(const wire::pb::ReachSnapshot& r);
  // A governor preference's label and unit, by its key (the node's English for unknown keys).
  static QString preferenceLabel(const wire::pb::Preference& p);
  static QString preferenceUnit(const wire::pb::Preference& p);
};

}  // namespace rookery::ui
