// rookery-coordinator: the job owner's server (admission, membership, planning, dashboard).
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>
#include <ATen/Parallel.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "clock/clock.hpp"
#include "coordinator/coordinator_service.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/model_archive.hpp"
#include "coordinator/swarm_planner.hpp"
#include "data/open_dataset.hpp"
#include "evaluation/model_evaluator.hpp"
#include "job/job_spec.hpp"
#include "logging.hpp"
#include "model/cost.hpp"
#include "model/model_export.hpp"
#include "net/identity.hpp"
#include "net/join_work.hpp"
#include "net/paths.hpp"
#include "pipeline/checkpoint_export.hpp"
#include "pipeline/shard_snapshot.hpp"
#include "reach/candidates.hpp"
#include "signals.hpp"

namespace {

using rookery::coordinator::CoordinatorState;
using rookery::coordinator::InviteStatus;

// RFC 3986: everything but the unreserved characters as %XX (Z85 keys hold '&', '+', '?' ...).
std::string percent_encoded(const std::string& s) {
  std::string out;
  for (const unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

// 128 random bits, hex: unguessable, and plain ASCII for links and shells.
std::string new_token() {
  std::random_device random;
  std::string token;
  for (int i = 0; i < 4; ++i) {
    char buf[9];
    std::snprintf(buf, sizeof buf, "%08x", static_cast<unsigned>(random()));
    token += buf;
  }
  return token;
}

std::string utc(std::int64_t unix_ms) {
  const std::time_t t = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
  return buf;
}

// The state file the coordinator keeps in its data folder (created, private, when new).
CoordinatorState open_state(const std::filesystem::path& data_dir) {
  std::filesystem::create_directories(data_dir);
  std::filesystem::permissions(data_dir, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::replace);
  return CoordinatorState(data_dir / "coordinator.db");
}

int make_invite(const std::filesystem::path& data_dir, double hours, const std::string& link,
                const std::string& job_path) {
  auto state = open_state(data_dir);
  const auto now = rookery::clock::unix_ms();
  const auto expires = hours > 0 ? now + static_cast<std::int64_t>(hours * 3600e3) : 0;
  const auto token = new_token();
  state.add_invite(token, now, expires);
  std::printf("%s\n", token.c_str());
  std::fprintf(stderr, "invite %s: %s; the job is invite-only while any invite exists\n",
               token.c_str(),
               expires ? ("valid until " + utc(expires)).c_str() : "valid until revoked");
  if (!link.empty() && !job_path.empty()) {
    const auto job = rookery::job::load_job_spec(job_path);
    const auto key =
        rookery::net::CurveKeyPair::load_or_create(data_dir / "keys", "coordinator").public_key;
    std::printf("rookery://join?coordinator=%s&key=%s&job=%s&token=%s\n", link.c_str(),
                percent_encoded(key).c_str(), percent_encoded(job.id).c_str(), token.c_str());
  }
  return 0;
}

int revoke_invite(const std::filesystem::path& data_dir, const std::string& token) {
  auto state = open_state(data_dir);
  if (!state.revoke_invite(token, rookery::clock::unix_ms())) {
    std::fprintf(stderr, "rookery-coordinator: no invite %s\n", token.c_str());
    return 1;
  }
  std::fprintf(stderr, "invite %s revoked: it admits no join from now on\n", token.c_str());
  return 0;
}

int list_invites(const std::filesystem::path& data_dir) {
  auto state = open_state(data_dir);
  const auto now = rookery::clock::unix_ms();
  for (const auto& i : state.invites()) {
    std::string what;
    switch (state.invite_status(i.token, now)) {
      case InviteStatus::Valid:
        what = i.expires_unix_ms ? "valid until " + utc(i.expires_unix_ms) : "valid";
        break;
      case InviteStatus::Expired:
        what = "expired " + utc(i.expires_unix_ms);
        break;
      case InviteStatus::Revoked:
        what = "revoked " + utc(i.revoked_unix_ms);
        break;
      case InviteStatus::Unknown:
        what = "unknown";
        break;
    }
    std::printf("%s  %s\n", i.token.c_str(), what.c_str());
  }
  return 0;
}

// The model as a folder PyTorch loads without Rookery (model/model_export), from stage
// checkpoints (a static plan's, or volunteers' checkpoint folders) or from the newest
// snapshot of a coordinator's model archive.
int export_model(const std::string& job_path, const std::vector<std::string>& from,
                 const std::string& out) {
  if (job_path.empty()) throw std::runtime_error("export needs --job (the job the weights are of)");
  const auto job = rookery::job::load_job_spec(job_path);
  std::vector<std::filesystem::path> paths(from.begin(), from.end());
  // A model archive's folder (a coordinator's <data-dir>/archive): its newest snapshot that
  // verifies, the whole model.
  const auto archive_folder = [](const std::filesystem::path& p) {
    std::error_code ec;
    if (!std::filesystem::is_directory(p, ec)) return false;
    for (const auto& e : std::filesystem::directory_iterator(p, ec))
      if (e.path().filename().string().rfind("snapshot-", 0) == 0) return true;
    return false;
  };
  rookery::pipeline::CheckpointModel m;
  if (paths.size() == 1 && archive_folder(paths[0])) {
    std::vector<std::int64_t> counts;
    for (const auto& c : rookery::model::block_costs(job.model)) counts.push_back(c.params);
    const rookery::coordinator::ModelArchive archive(paths[0], job.id, std::move(counts));
    const auto snapshot = archive.latest();
    if (!snapshot) {
      throw std::runtime_error(paths[0].string() + " holds no snapshot of job " + job.id +
                               " that verifies");
    }
    m = rookery::pipeline::model_from_snapshot(
        job, *snapshot,
        "model archive snapshot " + std::to_string(archive.latest_seq()) + " (plan " +
            std::to_string(snapshot->plan_version) + ", optimizer step " +
            std::to_string(snapshot->optimizer_steps) + ")");
  } else {
    m = rookery::pipeline::model_from_checkpoints(job, paths);
  }
  rookery::model::export_model(job, m.parameters, out, {m.source, m.samples});
  std::printf("exported job %s (%lld samples) to %s: model.safetensors and config.json, from %s\n",
              job.id.c_str(), static_cast<long long>(m.samples), out.c_str(), m.source.c_str());
  return 0;
}

// Judges every snapshot of the model archive on the job's held-out samples, and has it write
// (or predict) something to show. None when the job keeps no held-out part.
rookery::coordinator::Evaluate snapshot_evaluator(const std::string& job_path) {
  if (job_path.empty()) return {};
  try {
    const auto job = rookery::job::load_job_spec(job_path);
    std::shared_ptr<const rookery::data::Dataset> dataset = rookery::data::open_dataset(job);
    if (dataset->held_out_size() == 0) {
      spdlog::warn(
          "job {} keeps no held-out data (dataset.held_out): the run has no validation "
          "loss",
          job.id);
      return {};
    }
    // The coordinator answers heartbeats on other threads: evaluating takes one core, not all.
    at::set_num_threads(1);
    auto evaluator = std::make_shared<const rookery::evaluation::ModelEvaluator>(job, dataset);
    return [evaluator](const rookery::pipeline::ShardSnapshot& snapshot, std::uint64_t seq) {
      return evaluator->evaluate(snapshot, seq);
    };
  } catch (const std::exception& e) {
    spdlog::error("snapshots of the model will not be evaluated: {}", e.what());
    return {};
  }
}

}  // namespace

int main(int argc, char** argv) {
  rookery::app::StopSignals signals;
  rookery::coordinator::CoordinatorConfig config;
  std::string data_dir, ready_file, log_level = "info";

  CLI::App cli{"rookery-coordinator: admits volunteers and plans a Rookery training swarm"};
  cli.set_version_flag("--version", std::string("rookery-coordinator ") + ROOKERY_VERSION);
  cli.add_option("--bind", config.bind, "endpoint to listen on (port 0: any free port)")
      ->capture_default_str();
  cli.add_option("--data-dir", data_dir,
                 "keys and state (default: $XDG_DATA_HOME/rookery/coordinator)");
  cli.add_option("--allow-key", config.allowed_keys,
                 "admit only these node keys (repeatable); they need no invite");
  cli.add_option("--ready-file", ready_file, "write '<endpoint> <public key>' here once listening");
  std::string job_path;
  cli.add_option("--job", job_path,
                 "the job spec (JSON) this coordinator runs; without one it only answers pings");
  cli.add_option("--invite-token", config.invite_tokens,
                 "admit only joins carrying one of these tokens (repeatable)");
  cli.add_flag("--open", config.open,
               "admit joins without an invite while no invite exists (by default a job is "
               "invite-only: make invites with `rookery-coordinator invite`)");
  cli.add_option("--join-work-bits", config.join_work_bits,
                 "ask every join for a proof of work of this many zero bits (about 2^N hashes "
                 "per volunteer key; 0: none)")
      ->capture_default_str()
      ->check(CLI::Range(0u, rookery::net::kMaxJoinWorkBits));
  cli.add_option("--max-per-address", config.caps.per_address,
                 "admit at most this many live volunteers from one IPv4 address or IPv6 /64 "
                 "(0: no cap)")
      ->capture_default_str();
  cli.add_option(
         "--max-per-subnet", config.caps.per_subnet,
         "admit at most this many live volunteers from one IPv4 /24 or IPv6 /48 (0: no cap)")
      ->capture_default_str();
  cli.add_flag("--cap-loopback", config.caps.loopback,
               "apply those caps to joins from this host too (by default a swarm on one PC is "
               "not capped)");
  int heartbeat_ms = 500, dead_ms = 3000, averaging_ms = 5000;
  double archive_s = 600, load_report_s = 60;
  cli.add_option("--heartbeat-ms", heartbeat_ms, "how often volunteers report")
      ->capture_default_str()
      ->check(CLI::Range(50, 60000));
  cli.add_option("--dead-after-ms", dead_ms, "a volunteer silent this long is planned around")
      ->capture_default_str()
      ->check(CLI::Range(200, 600000));
  cli.add_option("--averaging-interval-ms", averaging_ms,
                 "how often pipelines average their replicas")
      ->capture_default_str()
      ->check(CLI::Range(100, 86400000));
  cli.add_option("--archive-interval", archive_s,
                 "seconds between snapshots of the whole model, collected from the nodes into "
                 "<data-dir>/archive (0: no archive)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  cli.add_option("--load-report", load_report_s,
                 "seconds between log lines of what the load costs: heartbeats, the state "
                 "file's transactions, plan and member list sizes, memory (0: none)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  cli.add_option("--dashboard-port", config.dashboard_port,
                 "serve the run's dashboard, a read-only web page, on this port (0: any free "
                 "port; it prints 'DASHBOARD <url>'; default: none)");
  cli.add_option("--dashboard-bind", config.dashboard_bind,
                 "the address the dashboard listens on (default 127.0.0.1: this PC only)");
  cli.add_option("--planner", config.planner,
                 "ours; uniform (pipelines of equal length share their cuts: SWARM's replicas, "
                 "rerouted around a "
                 "dead node at once); or ravnest (Ravnest's plan, to compare)")
      ->capture_default_str()
      ->check(CLI::IsMember({"ours", "uniform", "ravnest"}));
  double data_rate_mb = 0;
  cli.add_option("--data-rate-mb", data_rate_mb,
                 "serve the job's dataset at most this many MB/s (0: no cap); volunteers fetch the "
                 "rest from peers "
                 "that hold it")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e6));
  bool no_relay = false;
  cli.add_flag("--no-relay", no_relay,
               "run no relay on this host for volunteers that no peer can dial (by default one "
               "runs when --bind is not loopback; volunteers' relays are used first)");
  double relay_cap_mbit = 0;
  cli.add_option("--relay-cap-mbit", relay_cap_mbit,
                 "the most this host's relay carries, in Mbit/s (0: no cap)")
      ->check(CLI::NonNegativeNumber);
  bool print_memory = false;
  cli.add_flag("--print-memory", print_memory,
               "print the bytes --job needs in one place (parameters, gradients, optimizer state, "
               "stashed versions, "
               "activations in flight) and exit; volunteers with less form pipelines together");
  cli.add_option("--log-level", log_level, "trace, debug, info, warn, error")
      ->capture_default_str();
  // Invites: made, listed and revoked in the state file, which the running coordinator reads
  // at every join (so a revocation holds at once). Each takes the options above too (--data-dir).
  double expires_in_hours = 168;
  std::string link_endpoint, revoke_token;
  auto* invite =
      cli.add_subcommand("invite",
                         "make an invite token for the job and print it (with a rookery:// link "
                         "when --link and --job are given)");
  invite->fallthrough();
  invite
      ->add_option("--expires-in-hours", expires_in_hours,
                   "it admits joins for this long (0: until revoked)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 24.0 * 3650));
  invite->add_option("--link", link_endpoint,
                     "the coordinator's public endpoint for the link (tcp://HOST:PORT)");
  auto* revoke = cli.add_subcommand("revoke-invite",
                                    "revoke an invite token: it admits no join from now on "
                                    "(volunteers it admitted stay members)");
  revoke->fallthrough();
  revoke->add_option("token", revoke_token, "the token")->required();
  auto* list = cli.add_subcommand(
      "invites", "list the invite tokens and whether each is valid, expired or revoked");
  list->fallthrough();
  std::vector<std::string> export_from;
  std::string export_out;
  auto* exporter = cli.add_subcommand(
      "export",
      "write the job's model as model.safetensors and config.json, which PyTorch loads without "
      "Rookery (scripts/rookery_model.py), from stage checkpoints");
  exporter->fallthrough();
  exporter
      ->add_option("--from", export_from,
                   "checkpoint files, folders with *.ckpt files, or a coordinator's model "
                   "archive folder (<data-dir>/archive: its newest snapshot)")
      ->required();
  exporter->add_option("--out", export_out, "the folder to write (created)")->required();
  cli.require_subcommand(0, 1);
  CLI11_PARSE(cli, argc, argv);

  if (print_memory) {
    try {
      const auto job = rookery::job::load_job_spec(job_path);
      std::printf("%lld\n", static_cast<long long>(rookery::cluster::model_memory_bytes(
                                rookery::coordinator::block_profiles(job),
                                rookery::coordinator::training_settings(job))));
      return 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 2;
    }
  }
  config.data_dir = data_dir.empty() ? rookery::net::default_data_dir() / "coordinator"
                                     : std::filesystem::path(data_dir);
  if (exporter->parsed()) {
    try {
      return export_model(job_path, export_from, export_out);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rookery-coordinator export: %s\n", e.what());
      return 2;
    }
  }
  if (invite->parsed() || revoke->parsed() || list->parsed()) {
    try {
      if (invite->parsed())
        return make_invite(config.data_dir, expires_in_hours, link_endpoint, job_path);
      if (revoke->parsed()) return revoke_invite(config.data_dir, revoke_token);
      return list_invites(config.data_dir);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rookery-coordinator: %s\n", e.what());
      return 2;
    }
  }
  config.ready_file = ready_file;
  config.job_path = job_path;
  config.heartbeat_interval = std::chrono::milliseconds(heartbeat_ms);
  config.dead_after = std::chrono::milliseconds(dead_ms);
  config.averaging_interval_ms = averaging_ms;
  config.archive_interval = std::chrono::milliseconds(static_cast<std::int64_t>(archive_s * 1000));
  config.load_report_interval =
      std::chrono::milliseconds(static_cast<std::int64_t>(load_report_s * 1000));
  config.data_bytes_per_s = static_cast<std::uint64_t>(data_rate_mb * 1e6);
  // On loopback the swarm is on this PC: nobody needs a relay.
  config.relay = !no_relay && !rookery::reach::is_loopback(rookery::reach::host_of(config.bind));
  config.relay_bytes_per_s = static_cast<std::uint64_t>(relay_cap_mbit * 1e6 / 8);
  rookery::app::setup_logging("coordinator", log_level, config.data_dir / "logs");
  if (config.archive_interval.count() > 0) config.evaluate = snapshot_evaluator(job_path);

  rookery::coordinator::CoordinatorService service(config);
  signals.on_stop([&](int) { service.request_stop(); });
  return service.run();
}
