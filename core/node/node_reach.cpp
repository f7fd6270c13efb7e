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
  return r;
}

void NodeReach::on_verdict(const pb::ReachVerdict& verdict) {
  std::lock_guard lock(mutex_);
  verdict_ = verdict;
  spdlog::info("reach: the coordinator sees this node at {}; peers dial {} ({})",
               verdict.observed_address(), verdict.endpoint(), pb::ReachWay_Name(verdict.way()));
}

void NodeReach::describe(pb::NodeSnapshot& snapshot) const {
  auto* r = snapshot.mutable_reach();
  std::lock_guard lock(mutex_);
  r->set_way(verdict_ ? verdict_->way() : way_);
  if (verdict_) {
    r->set_endpoint(verdict_->endpoint());
    r->set_observed_address(verdict_->observed_address());
  } else if (!learns()) {
    r->set_endpoint(bind_host_);
  }
  if (mapping_.method != reach::MappingMethod::none && !mapping_.ports.empty()) {
    r->set_mapping_protocol(std::string(reach::to_string(mapping_.method)));
  }
  r->set_mapping_error(mapping_.error);
}

}  // namespace rookery::node
