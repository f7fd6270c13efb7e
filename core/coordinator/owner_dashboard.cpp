#include "coordinator/owner_dashboard.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>

#include "coordinator/run_status.hpp"

namespace rookery::coordinator {

namespace {

// Points of each curve a dashboard draws.
constexpr std::uint32_t kDashboardCurvePoints = 300;

}  // namespace

std::unique_ptr<dashboard::DashboardServer> serve_owner_dashboard(const CoordinatorConfig& config,
                                                                  StatusOf status,
                                                                  const std::string& secret_key) {
  if (config.dashboard_port < 0) return nullptr;
  auto web = std::make_unique<dashboard::DashboardServer>(
      config.dashboard_bind, static_cast<std::uint16_t>(config.dashboard_port),
      [status = std::move(status)] {
        wire::pb::RunStatusRequest r;
        r.set_loss_points(kDashboardCurvePoints);
        r.set_max_nodes(kMaxStatusPage);
        wire::pb::RunStatus out;
        status(r, out);
        return out;
      },
      "rookery-dashboard:" + secret_key);
  const auto& bind = config.dashboard_bind;
  const auto host = bind.find(':') != std::string::npos ? "[" + bind + "]" : bind;
  const auto url = "http://" + host + ":" + std::to_string(web->port()) + "/";
  spdlog::info("the run's dashboard: {}", url);
  std::printf("DASHBOARD %s\n", url.c_str());
  return web;
}

}  // namespace rookery::coordinator
