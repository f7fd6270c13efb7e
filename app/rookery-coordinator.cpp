// rookery-coordinator: the job owner's server (admission, membership, planning, dashboard).
#include <CLI/CLI.hpp>

#include <cstdio>

#include "coordinator/coordinator_service.hpp"
#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"
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
  std::string job_path;
  cli.add_option("--job", job_path, "the job spec (JSON) this coordinator runs; without one it only answers pings");
  cli.add_option("--invite-token", config.invite_tokens, "admit only joins carrying one of these tokens (repeatable)");
  int heartbeat_ms = 500, dead_ms = 3000, averaging_ms = 5000;
  cli.add_option("--heartbeat-ms", heartbeat_ms, "how often volunteers report")->capture_default_str()->check(CLI::Range(50, 60000));
  cli.add_option("--dead-after-ms", dead_ms, "a volunteer silent this long is planned around")
      ->capture_default_str()->check(CLI::Range(200, 600000));
  cli.add_option("--averaging-interval-ms", averaging_ms, "how often pipelines average their replicas")
      ->capture_default_str()->check(CLI::Range(100, 86400000));
  cli.add_option("--planner", config.planner,
                 "ours; uniform (pipelines of equal length share their cuts: SWARM's replicas, rerouted around a "
                 "dead node at once); or ravnest (Ravnest's plan, to compare)")
      ->capture_default_str()
      ->check(CLI::IsMember({"ours", "uniform", "ravnest"}));
  bool print_memory = false;
  cli.add_flag("--print-memory", print_memory,
               "print the bytes --job needs in one place (parameters, gradients, optimizer state, stashed versions, "
               "activations in flight) and exit; volunteers with less form pipelines together");
  cli.add_option("--log-level", log_level, "trace, debug, info, warn, error")->capture_default_str();
  CLI11_PARSE(cli, argc, argv);

  if (print_memory) {
    try {
      const auto job = rookery::job::load_job_spec(job_path);
      std::printf("%lld\n", static_cast<long long>(rookery::cluster::model_memory_bytes(
                                 rookery::coordinator::block_profiles(job), rookery::coordinator::training_settings(job))));
      return 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 2;
    }
  }
  config.data_dir = data_dir.empty() ? rookery::net::default_data_dir() / "coordinator" : std::filesystem::path(data_dir);
  config.ready_file = ready_file;
  config.job_path = job_path;
  config.heartbeat_interval = std::chrono::milliseconds(heartbeat_ms);
  config.dead_after = std::chrono::milliseconds(dead_ms);
  config.averaging_interval_ms = averaging_ms;
  rookery::app::setup_logging("coordinator", log_level, config.data_dir / "logs");

  rookery::coordinator::CoordinatorService service(config);
  signals.on_stop([&](int) { service.request_stop(); });
  return service.run();
}
