#include "node/node_reach.hpp"

#include <spdlog/spdlog.h>

#include "reach/candidates.hpp"

namespace rookery::node {

namespace pb = wire::pb;

namespace {
// Discovery of each protocol, then the requests: the join waits this long at most.
constexpr auto kMappingWait = std::chrono::seconds(8);
}  // namespace

NodeReach::NodeReach(NodeReachOptions options) : options_(std::move(options)) {
  const std::string coordinator_host = reach::host_of(options_.coordinator_endpoint);
  if (!options_.configured_host.empty()) {
    bind_host_ = options_.configured_host;
    way_ = reach::is_loopback(bind_host_) ? pb::REACH_LOCAL : pb::REACH_DIRECT;
  } else if (reach::is_loopback(coordinator_host)) {
    bind_host_ = "127.0.0.1";
    way_ = pb::REACH_LOCAL;
  } else {
    bind_host_ = "*";
    way_ = pb::REACH_UNKNOWN;
  }
}

NodeReach::~NodeReach() {
  if (mapping_thread_.joinable()) mapping_thread_.join();
  if (mapper_) mapper_->remove();
  std::unique_ptr<reach::RelayClient> relay;
  {
    std::lock_guard lock(mutex_);
    relay = std::move(relay_);
  }
}

std::string NodeReach::announced_host() const {
  if (!learns()) return bind_host_;
  std::lock_guard lock(mutex_);
  if (!mapping_.external_address.empty() && !mapping_.ports.empty() &&
      !reach::is_private(mapping_.external_address)) {
    return mapping_.external_address;
  }
  // The coordinator replaces it with what answers; until then the best this PC knows.
  const auto addresses = reach::interface_addresses();
  for (const auto& a : addresses) {
    if (!reach::is_private(a)) return a;
  }
  return addresses.empty() ? std::string("127.0.0.1") : addresses.front();
}

void NodeReach::map_ports(std::vector<std::uint16_t> ports) {
  {
    std::lock_guard lock(mutex_);
    ports_ = ports;
  }
  if (!learns()) return;
  mapper_ = std::make_unique<reach::PortMapper>(options_.mapping);
  mapping_thread_ = std::thread([this, ports = std::move(ports)] {
    auto status = mapper_->map(ports);
    std::lock_guard lock(mutex_);
    mapping_ = std::move(status);
    mapping_done_ = true;
    mapped_cv_.notify_all();
  });
}

std::optional<pb::ReachReport> NodeReach::report() {
  if (!learns()) return std::nullopt;
  pb::ReachReport r;
  for (const auto& a : reach::interface_addresses()) r.add_hosts(a);
  std::unique_lock lock(mutex_);
  if (mapper_) mapped_cv_.wait_for(lock, kMappingWait, [this] { return mapping_done_; });
  if (mapping_.method != reach::MappingMethod::none) {
    r.set_mapping_protocol(std::string(reach::to_string(mapping_.method)));
    r.set_mapped_address(mapping_.external_address);
    for (const auto& p : mapping_.ports) {
      auto* m = r.add_mapped();
      m->set_internal_port(p.internal_port);
      m->set_external_port(p.external_port);
    }
  }
  r.set_mapping_error(mapping_.error);
  if (relay_ && relay_->state() == reach::RelayState::registered) {
    *r.mutable_relay() = relay_offer_;
    for (const auto& p : relay_->ports()) {
      auto* m = r.add_relayed();
      m->set_internal_port(p.local_port);
      m->set_external_port(p.public_port);
    }
  }
  return r;
}

bool NodeReach::use_relay(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                          pb::RelayOffer offer) {
  if (!learns()) return false;
  if (offer.host().empty()) offer.set_host(reach::host_of(options_.coordinator_endpoint));
  std::unique_ptr<reach::RelayClient> old;
  std::lock_guard lock(mutex_);
  if (relay_ && relay_offer_.key() == offer.key() && relay_offer_.host() == offer.host() &&
      relay_offer_.control_port() == offer.control_port()) {
    return false;
  }
  reach::RelayClientOptions o;
  o.relay_host = offer.host();
  o.control_port = static_cast<std::uint16_t>(offer.control_port());
  o.relay_key = offer.key();
  o.ports = ports_;
  // A dead relay is noticed within seconds: the node then joins again for another.
  o.ping_interval = std::chrono::milliseconds(500);
  o.timeout = std::chrono::milliseconds(2500);
  spdlog::info("reach: no peer can dial this node; registering with the relay at {}:{}",
               o.relay_host, o.control_port);
  old = std::move(relay_);
  relay_ = std::make_unique<reach::RelayClient>(ctx, identity, std::move(o));
  relay_offer_ = std::move(offer);
  return true;
}

bool NodeReach::relay_registered(std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (true) {
    {
      std::lock_guard lock(mutex_);
      if (!relay_) return false;
      const auto state = relay_->state();
      if (state == reach::RelayState::registered) return true;
      if (state == reach::RelayState::refused) return false;
    }
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

bool NodeReach::relay_lost() {
  std::unique_ptr<reach::RelayClient> lost;
  {
    std::lock_guard lock(mutex_);
    if (!relay_) return false;
    const auto state = relay_->state();
    if (state != reach::RelayState::lost && state != reach::RelayState::refused) return false;
    spdlog::warn("reach: the relay at {} no longer carries this node ({})", relay_offer_.host(),
                 relay_->error());
    lost = std::move(relay_);
    relay_offer_.Clear();
    verdict_.reset();
  }
  return true;
}

void NodeReach::on_verdict(const pb::ReachVerdict& verdict) {
  std::lock_guard lock(mutex_);
  verdict_ = verdict;
  spdlog::info("reach: the coordinator sees this node at {}; peers dial {} ({})",
               verdict.observed_address(), verdict.endpoint(), pb::ReachWay_Name(verdict.way()));
}

bool NodeReach::reversed() const {
  std::lock_guard lock(mutex_);
  return verdict_ && verdict_->way() == pb::REACH_REVERSED;
}

void NodeReach::describe(pb::NodeSnapshot& snapshot) const {
  auto* r = snapshot.mutable_reach();
  std::lock_guard lock(mutex_);
  r->set_way(verdict_ ? verdict_->way() : way_);
  if (verdict_) {
    r->set_endpoint(verdict_->endpoint());
    r->set_observed_address(verdict_->observed_address());
    if (verdict_->way() == pb::REACH_RELAYED) r->set_relay(relay_offer_.host());
  } else if (!learns()) {
    r->set_endpoint(bind_host_);
  }
  if (mapping_.method != reach::MappingMethod::none && !mapping_.ports.empty()) {
    r->set_mapping_protocol(std::string(reach::to_string(mapping_.method)));
  }
  r->set_mapping_error(mapping_.error);
}

}  // namespace rookery::node
