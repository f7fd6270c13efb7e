#include "node/connection_reversal.hpp"

#include <spdlog/spdlog.h>

#include "net/identity.hpp"
#include "reach/candidates.hpp"
#include "reach/link_partners.hpp"

namespace rookery::node {

namespace pb = wire::pb;

namespace {
// A service carries every unreachable neighbour a plan can give a node: the holders of the
// blocks before, after and beside its own in every pipeline.
constexpr std::size_t kServiceMaxNodes = 256;
}  // namespace

ConnectionReversal::ConnectionReversal(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                                       ConnectionReversalOptions options)
    : ctx_(ctx), identity_(identity), options_(std::move(options)) {
  if (!options_.serve) return;
  reach::RelayServerOptions o;
  o.host = options_.bind_host;
  o.public_host = "127.0.0.1";  // only this PC dials the ports it opens
  o.routes = &ctx_.routes();
  o.domain = options_.members_domain;
  o.max_nodes = kServiceMaxNodes;
  // Registrations are renewed every second: a neighbour gone this long is forgotten.
  o.node_timeout = std::chrono::milliseconds(6000);
  service_ = std::make_unique<reach::RelayServer>(ctx_, identity_, std::move(o));
}

ConnectionReversal::~ConnectionReversal() {
  std::map<std::string, Link> links;
  {
    std::lock_guard lock(mutex_);
    links.swap(links_);
  }
}

void ConnectionReversal::set_ports(std::vector<std::uint16_t> ports) {
  std::lock_guard lock(mutex_);
  ports_ = std::move(ports);
}

std::optional<pb::ReversalService> ConnectionReversal::service() const {
  if (!service_) return std::nullopt;
  pb::ReversalService s;
  s.set_control_port(service_->control_port());
  s.set_data_port(service_->data_port());
  return s;
}

void ConnectionReversal::follow(const pb::Plan& plan, bool reversed) {
  std::lock_guard lock(mutex_);
  plan_ = plan;
  reversed_ = reversed;
  apply_locked();
}

void ConnectionReversal::set_reversed(bool reversed) {
  std::lock_guard lock(mutex_);
  if (reversed == reversed_) return;
  reversed_ = reversed;
  apply_locked();
}

void ConnectionReversal::apply_locked() {
  std::map<std::string, Link> wanted;
  if (reversed_ && options_.dial && plan_) {
    std::vector<reach::PlannedSeat> seats;
    std::map<std::string, const pb::PlanStage*> stage_of;
    for (const auto& p : plan_->pipelines()) {
      for (const auto& s : p.stages()) {
        seats.push_back({s.key(), s.first_block(), s.last_block()});
        stage_of.emplace(s.key(), &s);
      }
    }
    for (const auto& key : reach::link_partners(seats, identity_.public_key)) {
      const auto* s = stage_of.at(key);
      if (s->reversed() || s->reversal().control_port() == 0 || !net::is_z85_key(key)) {
        // The coordinator seats us beside reachable peers only; one without a service is a
        // peer of an older plan, or of a plan that relays us next.
        spdlog::debug("reversal: neighbour {} runs no reversal service", net::short_key(key));
        continue;
      }
      Link link{reach::host_of(s->endpoint()), s->reversal(), nullptr};
      if (link.host.empty()) continue;
      wanted.emplace(key, std::move(link));
    }
  }
  // Keep the registrations that still hold; open the new ones; drop the rest.
  for (auto it = links_.begin(); it != links_.end();) {
    const auto w = wanted.find(it->first);
    if (w != wanted.end() && w->second.host == it->second.host &&
        w->second.service.control_port() == it->second.service.control_port() &&
        w->second.service.data_port() == it->second.service.data_port()) {
      wanted.erase(w);
      ++it;
    } else {
      spdlog::info("reversal: no longer dials neighbour {}", net::short_key(it->first));
      it = links_.erase(it);
    }
  }
  for (auto& [key, link] : wanted) {
    reach::RelayClientOptions o;
    o.relay_host = link.host;
    o.control_port = static_cast<std::uint16_t>(link.service.control_port());
    o.data_port = static_cast<std::uint16_t>(link.service.data_port());
    o.relay_key = key;
    o.ports = ports_;
    o.ping_interval = std::chrono::milliseconds(1000);
    o.timeout = std::chrono::milliseconds(4000);
    spdlog::info("reversal: dials neighbour {} at {}:{}", net::short_key(key), link.host,
                 o.control_port);
    link.client = std::make_unique<reach::RelayClient>(ctx_, identity_, std::move(o));
    links_.emplace(key, std::move(link));
  }
}

std::uint32_t ConnectionReversal::links() const {
  std::lock_guard lock(mutex_);
  if (reversed_) {
    std::uint32_t n = 0;
    for (const auto& [key, link] : links_) {
      if (link.client->state() == reach::RelayState::registered) ++n;
    }
    return n;
  }
  return service_ ? static_cast<std::uint32_t>(service_->stats().nodes) : 0;
}

void ConnectionReversal::describe(pb::ReachSnapshot& reach) const {
  reach.set_reversal_links(links());
}

}  // namespace rookery::node
