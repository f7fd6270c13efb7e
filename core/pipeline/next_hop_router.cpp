#include "pipeline/next_hop_router.hpp"

#include <algorithm>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "net/identity.hpp"

namespace rookery::pipeline {

NextHopRouter::NextHopRouter(std::vector<net::PeerAddress> candidates)
    : NextHopRouter(std::move(candidates), Options{}) {}

NextHopRouter::NextHopRouter(std::vector<net::PeerAddress> candidates, Options options)
    : options_(options) {
  if (candidates.empty())
    throw std::invalid_argument("a next-hop router needs at least one candidate");
  for (auto& c : candidates) hops_.push_back(Hop{std::move(c)});
}

double NextHopRouter::weight(const Hop& h) const {
  // Unmeasured hops get the mean weight of the measured ones (or 1), so they are tried.
  if (h.rtt_s > 0) return 1.0 / h.rtt_s;
  double sum = 0;
  int n = 0;
  for (const auto& o : hops_) {
    if (o.rtt_s > 0) {
      sum += 1.0 / o.rtt_s;
      ++n;
    }
  }
  return n ? sum / n : 1.0;
}

std::size_t NextHopRouter::pick(Clock::time_point now) {
  std::vector<std::size_t> usable, honest;
  for (std::size_t i = 0; i < hops_.size(); ++i) {
    if (hops_[i].excluded) continue;
    honest.push_back(i);
    if (hops_[i].suspected_until <= now) usable.push_back(i);
  }
  if (honest.empty()) return 0;  // every candidate was caught lying: wait for a new plan
  if (usable.empty()) {          // everyone is suspect: the one whose cool-down ends first
    std::size_t best = honest.front();
    for (const auto i : honest) {
      if (hops_[i].suspected_until < hops_[best].suspected_until) best = i;
    }
    return best;
  }
  // Smooth weighted round-robin (as nginx interleaves upstreams): every usable hop gains its
  // weight, the richest is picked and pays the total. Picks interleave in weight proportion.
  double total = 0;
  std::size_t best = usable.front();
  for (const auto i : usable) {
    const double w = weight(hops_[i]);
    hops_[i].current += w;
    total += w;
    if (hops_[i].current > hops_[best].current) best = i;
  }
  hops_[best].current -= total;
  return best;
}

void NextHopRouter::sent(std::size_t hop, std::uint64_t micro_batch, Clock::time_point now) {
  auto& h = hops_.at(hop);
  ++h.sent;
  ++h.in_flight;
  outstanding_[micro_batch] = {hop, now};
}

void NextHopRouter::returned(std::uint64_t micro_batch, Clock::time_point now) {
  const auto it = outstanding_.find(micro_batch);
  if (it == outstanding_.end()) return;
  auto& h = hops_[it->second.hop];
  const double rtt = std::chrono::duration<double>(now - it->second.at).count();
  h.rtt_s = h.rtt_s > 0 ? (1 - options_.ema_weight) * h.rtt_s + options_.ema_weight * rtt : rtt;
  ++h.returned;
  --h.in_flight;
  h.last_return = now;
  h.suspected_until = {};  // it answers: trust it again
  outstanding_.erase(it);
}

void NextHopRouter::forgotten(std::uint64_t micro_batch) {
  const auto it = outstanding_.find(micro_batch);
  if (it == outstanding_.end()) return;
  auto& h = hops_[it->second.hop];
  ++h.dropped;
  --h.in_flight;
  outstanding_.erase(it);
}

bool NextHopRouter::exclude(const std::string& key) {
  for (auto& h : hops_) {
    if (h.address.key != key || h.excluded) continue;
    h.excluded = true;
    h.current = 0;
    spdlog::warn(
        "next hop {} was caught sending wrong gradients: it gets no micro-batches from now on",
        net::short_key(key));
    return true;
  }
  return false;
}

std::optional<std::size_t> NextHopRouter::holder(std::uint64_t micro_batch) const {
  const auto it = outstanding_.find(micro_batch);
  if (it == outstanding_.end()) return std::nullopt;
  return it->second.hop;
}

std::vector<std::uint64_t> NextHopRouter::check(Clock::time_point now) {
  std::vector<std::uint64_t> dropped;
  if (hops_.size() < 2) return dropped;  // nowhere else to go: wait for the timeout or a new plan
  for (std::size_t i = 0; i < hops_.size(); ++i) {
    auto& h = hops_[i];
    if (h.in_flight == 0 || h.suspected_until > now) continue;
    const auto patience = std::max<Clock::duration>(
        options_.min_suspect_after,
        std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(options_.suspect_factor * h.rtt_s)));
    Clock::time_point oldest = now;
    for (const auto& [mb, s] : outstanding_) {
      if (s.hop == i) oldest = std::min(oldest, s.at);
    }
    if (now - oldest < patience || h.last_return > oldest) continue;
    h.suspected_until = now + options_.cooldown;
    h.current = 0;
    for (auto it = outstanding_.begin(); it != outstanding_.end();) {
      if (it->second.hop == i) {
        dropped.push_back(it->first);
        ++h.dropped;
        --h.in_flight;
        it = outstanding_.erase(it);
      } else {
        ++it;
      }
    }
    spdlog::warn(
        "next hop {} held a micro-batch {:.1f} s without answering: rerouting to the other {} for "
        "{} s",
        net::short_key(h.address.key), std::chrono::duration<double>(now - oldest).count(),
        hops_.size() - 1,
        std::chrono::duration_cast<std::chrono::seconds>(options_.cooldown).count());
  }
  return dropped;
}

}  // namespace rookery::pipeline
