// The package test's view of a running rookery-node, asked over its control sockets as the
// window would: which program answers (version, pid), its identity and data folder, and
// whether it reached its coordinator, and which device computes (and why not the GPU).
//   package_node_probe RUNTIME_DIR [WAIT_FOR_COORDINATOR_SECONDS]
// Prints key=value lines. Exit 0 when the node answered (and, given a wait, reported its
// coordinator reachable within it); 1 otherwise, with the last answer or error on stderr.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "control/control_client.hpp"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s RUNTIME_DIR [WAIT_FOR_COORDINATOR_SECONDS]\n", argv[0]);
    return 2;
  }
  using namespace std::chrono;
  const bool wait_for_coordinator = argc == 3;
  const auto deadline =
      steady_clock::now() + seconds(wait_for_coordinator ? std::atoi(argv[2]) : 10);
  rookery::control::ControlClient client(rookery::control::ControlEndpoints::in(argv[1]));
  std::string last;
  do {
    const auto a = client.status(milliseconds(1000));
    if (a.ok) {
      const auto& s = a.snapshot;
      last = "the node answers; coordinator: " +
             (s.coordinator().status().empty() ? std::string("none") : s.coordinator().status());
      if (!wait_for_coordinator || s.coordinator().reachable()) {
        std::printf(
            "version=%s\npid=%lld\nnode_key=%s\ndata_dir=%s\ncoordinator_endpoint=%s\n"
            "coordinator_reachable=%s\ncoordinator_status=%s\ncompute_device=%s\ngpu_unused=%s\n",
            s.version().c_str(), static_cast<long long>(s.pid()), s.node_key().c_str(),
            s.data_dir().c_str(), s.coordinator().endpoint().c_str(),
            s.coordinator().reachable() ? "true" : "false", s.coordinator().status().c_str(),
            s.device().compute_device().c_str(), s.device().gpu_unused().c_str());
        return 0;
      }
    } else {
      last = a.error;
    }
    std::this_thread::sleep_for(milliseconds(250));
  } while (steady_clock::now() < deadline);
  std::fprintf(stderr, "package_node_probe: %s\n", last.c_str());
  return 1;
}
