// rookery-coordinator: the job owner's server (admission, membership, planning, dashboard).
#include <CLI/CLI.hpp>

#include "coordinator/coordinator_service.hpp"
#include "logging.hpp"
#include "net/paths.hpp"
#include "signals.hpp"

int main(int argc, char** argv) {
  rookery::app::StopSignals signals;
  rookery::coordinator::CoordinatorConfig config;
  std::string data_dir, ready_file, log_level = "info";

  CLI::App cli{"rookery-coordinator: admits volunteers and plans a Rookery training swarm"};
  cli.set_version_flag("--version", std::string("rookery-coordinator ") + ROOKERY_VERSION);
  cli.add_option("--bind", config.bind, "endpoint to listen on (port 0: any free port)")->capture_default_str();
  cli.add_option("--data-dir", data_dir, "keys and state (default: $XDG_DATA_HOME/rookery/coordinator)");
  cli.add_option("--allow-key", config.allowed_keys, "admit only these node keys (repeatable); default: open enrolment");
  cli.add_option("--ready-file", ready_file, "write '<endpoint> <public key>' here once listening");
  cli.add_option("--log-level", log_level, "trace, debug, info, warn, error")->capture_default_str();
  CLI11_PARSE(cli, argc, argv);

  config.data_dir = data_dir.empty() ? rookery::net::default_data_dir() / "coordinator" : std::filesystem::path(data_dir);
  config.ready_file = ready_file;
  rookery::app::setup_logging("coordinator", log_level, config.data_dir / "logs");

  rookery::coordinator::CoordinatorService service(config);
  signals.on_stop([&](int) { service.request_stop(); });
  return service.run();
}
