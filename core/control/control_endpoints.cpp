#include "control/control_endpoints.hpp"

namespace rookery::control {

ControlEndpoints ControlEndpoints::in(const std::filesystem::path& runtime_dir) {
  ControlEndpoints e;
  e.runtime_dir = runtime_dir;
  e.requests = "ipc://" + (runtime_dir / "control.sock").string();
  e.events = "ipc://" + (runtime_dir / "events.sock").string();
  return e;
}

}  // namespace rookery::control
