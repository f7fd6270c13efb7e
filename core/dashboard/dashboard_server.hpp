#pragma once
// The job owner's web dashboard, served read-only over HTTP: the page (compiled in), Debian's
// Chart.js, and the run's status as JSON (dashboard_json: no keys, no addresses). GET and HEAD
// only; nothing is written through it, so it needs no login, but it binds to loopback unless
// the owner chooses otherwise.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "clock/clock.hpp"
#include "rookery/coordinator.pb.h"

namespace rookery::dashboard {

// Where Debian's libjs-chart.js puts Chart.js.
inline const std::filesystem::path kDebianChartJs = "/usr/share/javascript/chart.js/chart.min.js";
// How long one status answers every viewer: many open pages cost one status build per period.
inline constexpr auto kStatusCachedFor = std::chrono::seconds(1);

class DashboardError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class DashboardServer {
 public:
  // Serves the dashboard on bind:port (port 0: any free port) on threads of its own. `status`
  // is called on them, one call at a time, to get the run's status (it takes the
  // coordinator's lock itself); its answer serves every request for kStatusCachedFor on
  // `clock`. `salt` keys the volunteers' pseudonyms (dashboard_json.hpp): a secret of the
  // coordinator's, kept across its restarts so that the names stay. Chart.js is read from
  // `chart_js` now; without it the page shows its tables and says the charts are unavailable.
  // Throws DashboardError with the reason when it cannot bind.
  DashboardServer(std::string bind, std::uint16_t port, std::function<wire::pb::RunStatus()> status,
                  std::string salt, const clock::Clock& clock = clock::SystemClock::instance(),
                  const std::filesystem::path& chart_js = kDebianChartJs);
  // Stops and waits for the requests in flight: never destroy it holding the lock `status` takes.
  ~DashboardServer();
  DashboardServer(const DashboardServer&) = delete;
  DashboardServer& operator=(const DashboardServer&) = delete;

  std::uint16_t port() const;
  // Times `status` was called (tests see the cache work).
  std::uint64_t status_builds() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rookery::dashboard
