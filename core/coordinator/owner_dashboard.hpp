#pragma once
// The job owner's web dashboard of a running coordinator (dashboard/dashboard_server.hpp): the
// run's whole status (every volunteer, not one page) on dashboard_bind:dashboard_port, with
// volunteers under pseudonyms keyed by the coordinator's secret, so that their names stay the
// same across its restarts and nobody else can link them to keys.
#include <functional>
#include <memory>
#include <string>

#include "coordinator/coordinator_service.hpp"
#include "dashboard/dashboard_server.hpp"
#include "rookery/coordinator.pb.h"

namespace rookery::coordinator {

using StatusOf = std::function<void(const wire::pb::RunStatusRequest&, wire::pb::RunStatus&)>;

// Starts it, says where (log and stdout: "DASHBOARD <url>"), or returns none when the config
// asks for none. Throws dashboard::DashboardError when it cannot bind.
std::unique_ptr<dashboard::DashboardServer> serve_owner_dashboard(const CoordinatorConfig& config,
                                                                  StatusOf status,
                                                                  const std::string& secret_key);

}  // namespace rookery::coordinator
