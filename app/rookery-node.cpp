// rookery-node: the core process. Trains, talks to peers, persists; driven by the GUI or
// any local client over its control API, or run headless.
#include <CLI/CLI.hpp>
#include <google/protobuf/util/json_util.h>

#include <thread>

#include "control/control_client.hpp"
#include "governor/thread_priority.hpp"
#include "logging.hpp"
#include "net/identity.hpp"
#include "net/paths.hpp"
#include "node/coordinator_probe.hpp"
#include "node/node_service.hpp"
#include "signals.hpp"

int main(int argc, char** argv) {
  // Before any thread of ours: the threads already running are the BLAS pool's.
  rookery::governor::lower_preexisting_threads_priority();
  rookery::app::StopSignals signals;
  rookery::node::NodeConfig config;
  std::string data_dir, runtime_dir, log_level = "info";
  int telemetry_ms = 1000;
  std::string plan;
  bool print_identity = false;
  bool stop = false;
  rookery::node::StageWorkloadOptions stage;

  CLI::App cli{"rookery-node: contributes this PC's GPU or CPU to a Rookery training swarm"};
  cli.set_version_flag("--version", std::string("rookery-node ") + ROOKERY_VERSION);
  cli.add_option("--data-dir", data_dir, "keys, state and logs (default: $XDG_DATA_HOME/rookery)");
  cli.add_option("--runtime-dir", runtime_dir,
                 "control sockets (default: $XDG_RUNTIME_DIR/rookery)");
  cli.add_option("--device", config.device, "auto, cpu or cuda:N")->capture_default_str();
  cli.add_option("--threads", config.threads,
                 "compute threads at most (0: all cores; the governor's core share applies within)")
      ->check(CLI::Range(0, 1024))
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  cli.add_flag("--contribute", config.contribute_on_start, "start contributing at once");
  cli.add_option("--telemetry-ms", telemetry_ms, "telemetry period")
      ->check(CLI::Range(50, 60000))
      ->capture_default_str();
  cli.add_option("--benchmark-seconds", config.benchmark_seconds,
                 "length of the start-up benchmark")
      ->check(CLI::Range(0.05, 30.0))
      ->capture_default_str();
  cli.add_option("--coordinator", config.coordinator_endpoint,
                 "coordinator endpoint, tcp://host:port")
      ->envname("ROOKERY_COORDINATOR");
  cli.add_option("--coordinator-key", config.coordinator_key,
                 "coordinator's CURVE public key (Z85)")
      ->envname("ROOKERY_COORDINATOR_KEY");
  cli.add_option("--plan", plan, "train a stage of this static pipeline plan (JSON)")
      ->check(CLI::ExistingFile);
  cli.add_option("--stage", stage.stage, "which stage of --plan this node is (0-based)")
      ->check(CLI::NonNegativeNumber);
  cli.add_option("--max-micro-batches", stage.max_micro_batches,
                 "first stage: feed this many micro-batches, then wait")
      ->check(CLI::NonNegativeNumber);
  cli.add_option("--checkpoint-interval", stage.checkpoint_interval_s,
                 "seconds between checkpoints")
      ->check(CLI::Range(1, 86400))
      ->capture_default_str();
  cli.add_option("--micro-batch-timeout-ms", stage.micro_batch_timeout_ms,
                 "drop a micro-batch whose gradient has not come back by then")
      ->check(CLI::Range(100, 3600000))
      ->capture_default_str();
  cli.add_option("--flush-every", stage.flush_every,
                 "first stage: GPipe's synchronous schedule, a flush after every N micro-batches "
                 "(benchmarks)")
      ->check(CLI::NonNegativeNumber);
  cli.add_option("--fault", stage.fault,
                 "fault injection for tests: 'sign-flip-averaging' sends its averaging update "
                 "sign-flipped x1000 "
                 "(a Byzantine peer); 'corrupt-activations' sends its activations forward x-10, "
                 "'corrupt-gradients' its "
                 "gradients back, 'corrupt-work' both; 'inflate-work' "
                 "claims ten times its work in heartbeats to the coordinator; 'corrupt-data' "
                 "serves peers corrupt chunks of the "
                 "job's dataset; 'corrupt-shards' hands the blocks it holds to peers and the "
                 "coordinator's model archive x-100; 'lying-aggregator' hands out its ring "
                 "chunks' aggregates x-1000; 'lying-aggregator-commitments' the same, claiming "
                 "an input commitment its partner never made; 'altering-forwarder' alters the "
                 "averaged bytes it forwards; 'false-spot-checks' reports every stage that sends "
                 "it work as caught in spot-checks without checking")
      ->check(CLI::IsMember({"", "sign-flip-averaging", "corrupt-activations", "corrupt-gradients",
                             "corrupt-work", "inflate-work", "corrupt-data", "corrupt-shards",
                             "lying-aggregator", "lying-aggregator-commitments",
                             "altering-forwarder", "false-spot-checks"}))
      ->group("Fault injection (tests only: peers ban such a node; see rookery-node(1))");
  std::string join_job, invite_token, host;
  std::int64_t memory_limit_mb = 0;
  bool offer_relay = false, no_reversal = false;
  double relay_cap_mbit = 0;
  cli.add_flag("--no-reversal", no_reversal,
               "when no peer can dial this node, do not dial its neighbours instead (connection "
               "reversal): only a relay then carries it");
  cli.add_flag("--offer-relay", offer_relay,
               "relay the traffic of this job's volunteers that no peer can dial (their CURVE "
               "sessions pass through encrypted); the coordinator uses it when this node is "
               "reachable");
  cli.add_option("--relay-cap-mbit", relay_cap_mbit,
                 "with --offer-relay: the most it relays, in Mbit/s (0: no cap)")
      ->check(CLI::NonNegativeNumber);
  cli.add_option("--join", join_job,
                 "join this job of --coordinator: it assigns the shard, and re-assigns it as "
                 "volunteers come and go");
  cli.add_option("--invite-token", invite_token, "the job's invite token, when it is invite-only");
  cli.add_option("--host", host,
                 "the address peers reach this node at (it listens there); without it the node "
                 "listens everywhere, maps its ports on the home router and learns the address "
                 "the coordinator finds");
  cli.add_option("--memory-limit-mb", memory_limit_mb,
                 "use at most this much memory for the shard (0: what is free)")
      ->check(CLI::NonNegativeNumber);
  std::vector<std::string> preferences;
  cli.add_option("--preference", preferences,
                 "store a governor preference before starting, KEY=VALUE (repeatable; e.g. "
                 "in_use.cpu_time_percent=50)");
  cli.add_flag("--stop", stop,
               "ask the node running for this user (--runtime-dir) to stop cleanly, and wait");
  cli.add_flag("--print-identity", print_identity,
               "print this node's public key (creating it) and exit");
  bool probe = false;
  cli.add_flag("--probe-coordinator", probe,
               "contact --coordinator as this node would to join --join, print what came of it "
               "(JSON) and exit");
  cli.add_option("--log-level", log_level, "trace, debug, info, warn, error")
      ->capture_default_str();
  CLI11_PARSE(cli, argc, argv);

  if (!config.coordinator_endpoint.empty() && config.coordinator_key.size() != 40) {
    std::fprintf(
        stderr,
        "--coordinator needs --coordinator-key (the coordinator's 40-character public key)\n");
    return 2;
  }
  config.data_dir =
      data_dir.empty() ? rookery::net::default_data_dir() : std::filesystem::path(data_dir);
  config.runtime_dir = runtime_dir.empty() ? rookery::net::default_runtime_dir()
                                           : std::filesystem::path(runtime_dir);
  config.telemetry_interval = std::chrono::milliseconds(telemetry_ms);
  for (const auto& p : preferences) {
    const auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::fprintf(stderr, "--preference %s: expected KEY=VALUE\n", p.c_str());
      return 2;
    }
    config.set_preferences[p.substr(0, eq)] = p.substr(eq + 1);
  }
  if (stop) {
    rookery::control::ControlClient client(
        rookery::control::ControlEndpoints::in(config.runtime_dir));
    auto a = client.request(rookery::wire::pb::ControlRequest::QUIT, std::chrono::seconds(3));
    if (!a.ok) {
      std::fprintf(stderr, "%s\n", a.error.c_str());
      return a.error == "rookery-node is not running" ? 0 : 1;
    }
    for (int i = 0; i < 600 && std::filesystem::exists(config.runtime_dir / "control.sock"); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::printf("rookery-node (pid %lld) stopped\n", static_cast<long long>(a.snapshot.pid()));
    return 0;
  }
  if (probe) {
    rookery::wire::pb::CoordinatorProbeRequest request;
    request.set_endpoint(config.coordinator_endpoint);
    request.set_key(config.coordinator_key);
    request.set_job_id(join_job);
    rookery::wire::pb::CoordinatorProbeResult result;
    try {
      rookery::net::ensure_private_dir(config.data_dir);
      result = rookery::node::probe_coordinator(
          request, rookery::net::CurveKeyPair::load_or_create(config.data_dir / "keys", "node"));
    } catch (const std::exception& e) {
      result.set_outcome(rookery::wire::pb::CoordinatorProbeResult::FAILED);
      result.set_detail(e.what());
    }
    std::string json;
    google::protobuf::util::JsonPrintOptions options;
    options.always_print_primitive_fields = true;
    (void)google::protobuf::util::MessageToJsonString(result, &json, options);
    std::printf("%s\n", json.c_str());
    return 0;
  }
  if (print_identity) {
    try {
      rookery::net::ensure_private_dir(config.data_dir);
      std::printf("%s\n",
                  rookery::net::CurveKeyPair::load_or_create(config.data_dir / "keys", "node")
                      .public_key.c_str());
      return 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 2;
    }
  }
  if (!join_job.empty()) {
    if (!plan.empty()) {
      std::fprintf(stderr,
                   "--join and --plan exclude each other: a coordinator's job, or a static plan\n");
      return 2;
    }
    if (config.coordinator_endpoint.empty()) {
      std::fprintf(stderr, "--join needs --coordinator and --coordinator-key\n");
      return 2;
    }
    rookery::node::CoordinatedOptions j;
    j.coordinator_endpoint = config.coordinator_endpoint;
    j.coordinator_key = config.coordinator_key;
    j.job_id = join_job;
    j.invite_token = invite_token;
    j.host = host;
    j.memory_limit_bytes = memory_limit_mb << 20;
    j.offer_relay = offer_relay;
    j.reversal = !no_reversal;
    j.relay_bytes_per_s = static_cast<std::uint64_t>(relay_cap_mbit * 1e6 / 8);
    j.data_dir = config.data_dir;
    j.stage = stage;
    j.stage.checkpoint_dir = config.data_dir / "checkpoints";  // swarm checkpoints
    config.join = j;
  }
  if (!plan.empty()) {
    stage.plan_path = plan;
    stage.checkpoint_dir = config.data_dir / "checkpoints";
    config.stage = stage;
  }
  rookery::app::setup_logging("node", log_level, config.data_dir / "logs");

  rookery::node::NodeService service(config);
  signals.on_stop([&](int sig) { service.request_quit("signal " + std::to_string(sig)); });
  return service.run();
}
