#pragma once
// Where a user's rookery-node listens for its local clients: two sockets in a folder only
// that user can open (mode 0700), so no other account on the PC can drive the node.
#include <filesystem>
#include <string>

namespace rookery::control {

struct ControlEndpoints {
  std::filesystem::path runtime_dir;
  std::string requests;  // ipc://<runtime_dir>/control.sock  (ROUTER: requests and replies)
  std::string events;    // ipc://<runtime_dir>/events.sock   (PUB: events with sequence numbers)

  static ControlEndpoints in(const std::filesystem::path& runtime_dir);
};

}  // namespace rookery::control
