#include "coordinator/coordinator_service.hpp"

#include <cstdio>
#include <fstream>

#include <spdlog/spdlog.h>

#include "net/heartbeat.hpp"
#include "net/identity.hpp"
#include "net/paths.hpp"
#include "net/rpc.hpp"

namespace rookery::coordinator {

CoordinatorService::CoordinatorService(CoordinatorConfig config) : config_(std::move(config)) {
  if (config_.data_dir.empty()) config_.data_dir = net::default_data_dir() / "coordinator";
}

void CoordinatorService::request_stop() {
  std::lock_guard lock(mutex_);
  stop_ = true;
  cv_.notify_all();
}

int CoordinatorService::run() {
  net::CurveKeyPair identity;
  try {
    net::ensure_private_dir(config_.data_dir);
    identity = net::CurveKeyPair::load_or_create(config_.data_dir / "keys", "coordinator");
  } catch (const std::exception& e) {
    spdlog::error("cannot prepare the coordinator's folder: {}", e.what());
    return 2;
  }
  for (const auto& k : config_.allowed_keys) {
    if (!net::is_z85_key(k)) {
      spdlog::error("--allow-key '{}' is not a 40-character Z85 CURVE key", k);
      return 2;
    }
  }
  net::SecureContext ctx(1);
  if (config_.allowed_keys.empty()) {
    ctx.auth().set_open(net::kCoordinatorDomain, true);
  } else {
    ctx.auth().replace(net::kCoordinatorDomain, config_.allowed_keys);
  }
  net::LivenessTracker nodes(std::chrono::seconds(5));
  net::RpcServer::Config rc;
  rc.endpoint = config_.bind;
  rc.domain = net::kCoordinatorDomain;
  std::unique_ptr<net::RpcServer> server;
  try {
    server = std::make_unique<net::RpcServer>(ctx, &identity, rc,
        [&](const net::RequestContext& req, wire::Message& msg) -> std::optional<net::Reply> {
          nodes.seen(req.peer_key);
          net::Reply reply;
          if (msg.header.has_ping()) {
            auto* pong = reply.header.mutable_pong();
            pong->set_ping_sent_unix_us(msg.header.ping().sent_unix_us());
            pong->set_version(ROOKERY_VERSION);
            pong->set_role("coordinator");
            pong->set_peer_key(identity.public_key);
          } else {
            reply.header.mutable_error()->set_message("request not supported by this coordinator");
          }
          return reply;
        });
  } catch (const std::exception& e) {
    spdlog::error("cannot listen on {}: {}", config_.bind, e.what());
    return 2;
  }
  spdlog::info("rookery-coordinator {} listening on {} (key {}), {}", ROOKERY_VERSION, server->endpoint(),
               identity.public_key,
               config_.allowed_keys.empty() ? std::string("open enrolment")
                                            : std::to_string(config_.allowed_keys.size()) + " allowed key(s)");
  if (!config_.ready_file.empty()) {
    const auto tmp = config_.ready_file.string() + ".tmp";
    { std::ofstream(tmp) << server->endpoint() << ' ' << identity.public_key << '\n'; }
    std::filesystem::rename(tmp, config_.ready_file);
  }
  std::printf("READY %s %s\n", server->endpoint().c_str(), identity.public_key.c_str());
  std::fflush(stdout);

  std::unique_lock lock(mutex_);
  while (!stop_) {
    cv_.wait_for(lock, std::chrono::seconds(1));
    for (const auto& dead : nodes.expire()) spdlog::info("node {} went silent", net::short_key(dead));
  }
  spdlog::info("coordinator stopped");
  return 0;
}

}  // namespace rookery::coordinator
