#include "coordinator/join_dial_back.hpp"

#include <spdlog/spdlog.h>

#include "reach/candidates.hpp"
#include "reach/reachability.hpp"

namespace rookery::coordinator {

namespace pb = wire::pb;

DialBacks::DialBacks(std::size_t threads) {
  for (std::size_t i = 0; i < threads; ++i) {
    threads_.emplace_back([this](std::stop_token s) { run(s); });
  }
}

DialBacks::~DialBacks() {
  for (auto& t : threads_) t.request_stop();
  wake_.notify_all();
  threads_.clear();  // joins them
}

void DialBacks::submit(std::function<void()> work) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(work));
  }
  wake_.notify_one();
}

std::size_t DialBacks::waiting() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

void DialBacks::run(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, stop, [this] { return !queue_.empty(); });
    if (stop.stop_requested()) return;
    auto work = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    try {
      work();
    } catch (const std::exception& e) {
      spdlog::error("a join's dial-back failed: {}", e.what());
    }
    lock.lock();
  }
}

void place_reachable(const net::RequestContext& req, const net::CurveKeyPair& identity,
                     net::SecureContext& ctx, pb::JoinRequest& placed, pb::JoinReply& out) {
  const reach::NodePorts ports{reach::port_of(placed.stage_endpoint()),
                               reach::port_of(placed.reduce_endpoint()),
                               reach::port_of(placed.shard_endpoint())};
  if (ports.stage == 0 || ports.reduce == 0 || ports.shard == 0) return;
  const auto d = reach::find_reach(ctx, identity, req.peer_key, placed.reach(), req.peer_address,
                                   ports, kDialBackTimeout);
  *out.mutable_reach() = d.verdict;
  if (d.verdict.way() == pb::REACH_UNREACHABLE) {
    spdlog::warn("volunteer {} answers at none of {} candidate address(es) (seen from {})",
                 net::short_key(req.peer_key), d.verdict.candidates_tried(), req.peer_address);
    return;
  }
  spdlog::info("volunteer {} is reached at {} ({})", net::short_key(req.peer_key), d.stage,
               pb::ReachWay_Name(d.verdict.way()));
  auto set_endpoints = [&d](auto& message) {
    message.set_stage_endpoint(d.stage);
    message.set_reduce_endpoint(d.reduce);
    message.set_shard_endpoint(d.shard);
  };
  set_endpoints(placed);  // what the plan names
  set_endpoints(out);     // what the node learns
}

}  // namespace rookery::coordinator
