#include "node/link_prober.hpp"

#include <spdlog/spdlog.h>

namespace rookery::node {

namespace {

namespace pb = wire::pb;

constexpr std::int64_t kProbeBytes = 4 << 20;           // each way, against the coordinator
constexpr int kProbeTransfers = 2;                      // each way; the faster counts
constexpr auto kPingTimeout = std::chrono::seconds(3);  // against the coordinator
constexpr auto kTransferTimeout = std::chrono::seconds(20);
constexpr std::int64_t kPeerProbeBytes = 512 << 10;  // each way, against a peer: short
constexpr auto kPeerProbeTimeout = std::chrono::seconds(2);
constexpr int kPeerProbeTransfers = 2;  // each way; the faster counts

}  // namespace

LinkProber::LinkProber(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                       const clock::Clock& clock)
    : ctx_(ctx), identity_(identity), clock_(clock), thread_([this] { run(); }) {}

LinkProber::~LinkProber() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::optional<net::LinkMeasurement> LinkProber::measure_coordinator(net::RpcClient& client,
                                                                    std::string& error,
                                                                    bool& unreachable) {
  // Round trip, then a bounded transfer each way.
  net::LinkProbeError why;
  auto link =
      net::measure_link(client, kProbeBytes, kPingTimeout, kTransferTimeout, why, kProbeTransfers);
  unreachable = !link && why.unreachable;
  if (!link) error = why.message;
  return link;
}

void LinkProber::measure_peers(std::vector<pb::ProbeTarget> targets, TimePoint after) {
  {
    std::lock_guard lock(mutex_);
    ++generation_;
    job_ = Job{std::move(targets), after};
    links_.clear();
    ready_ = false;
  }
  cv_.notify_all();
}

std::uint64_t LinkProber::unreported(std::vector<pb::PeerLink>& links) const {
  std::lock_guard lock(mutex_);
  if (!ready_) return 0;
  links = links_;
  return generation_;
}

void LinkProber::reported(std::uint64_t generation) {
  std::lock_guard lock(mutex_);
  if (generation == generation_) ready_ = false;
}

void LinkProber::run() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    if (!job_) {
      cv_.wait(lock, [&] { return stop_ || job_.has_value(); });
      continue;
    }
    if (const auto now = clock_.steady_now(); now < job_->after) {
      cv_.wait_for(lock, job_->after - now, [&] { return stop_; });
      continue;
    }
    auto job = std::move(*job_);
    job_.reset();
    const auto generation = generation_;
    lock.unlock();
    std::vector<pb::PeerLink> links;
    for (const auto& target : job.targets) {
      {
        std::lock_guard l(mutex_);
        if (stop_ || generation != generation_) break;  // stopping, or a new join's targets
      }
      if (auto link = measure_peer(target)) links.push_back(std::move(*link));
    }
    lock.lock();
    if (generation == generation_) {
      links_ = std::move(links);
      ready_ = !links_.empty();
    }
  }
}

std::optional<pb::PeerLink> LinkProber::measure_peer(const pb::ProbeTarget& target) {
  if (!net::is_z85_key(target.key()) || target.endpoint().rfind("tcp://", 0) != 0)
    return std::nullopt;
  net::RpcClient client(ctx_, target.endpoint(), &identity_, target.key());
  net::LinkProbeError why;
  const auto link = net::measure_link(client, kPeerProbeBytes, kPeerProbeTimeout, kPeerProbeTimeout,
                                      why, kPeerProbeTransfers);
  pb::PeerLink out;
  out.set_key(target.key());
  out.set_endpoint(target.endpoint());
  if (!link) {
    spdlog::info("could not measure the link to peer {}: {}", net::short_key(target.key()),
                 why.message);
    if (!why.unreachable) return std::nullopt;
    // Nothing answered there with the peer's key: the coordinator hears of it (peers dial
    // each other back, not only the coordinator).
    out.set_unanswered(true);
    return out;
  }
  out.set_rtt_s(link->rtt_s);
  out.set_upload_bytes_per_s(link->upload_bytes_per_s);
  out.set_download_bytes_per_s(link->download_bytes_per_s);
  spdlog::info("link to peer {}: {:.0f}/{:.0f} MB/s up/down, rtt {:.2f} ms",
               net::short_key(target.key()), link->upload_bytes_per_s / 1e6,
               link->download_bytes_per_s / 1e6, link->rtt_s * 1e3);
  return out;
}

}  // namespace rookery::node
