#pragma once
// SWARM parallelism's stochastic wiring, for one stage: every node that holds the next blocks
// (in any pipeline of the job whose cut matches) is a candidate next hop. Each micro-batch goes
// to one of them by interleaved (smooth) weighted round-robin, the weights being the
// throughput each candidate has shown: the inverse of its recent round-trip time (forward out
// to gradient back, an exponential moving average), so a slow or loaded peer gets
// proportionally fewer. A candidate that holds a micro-batch far longer than it usually takes
// and has answered nothing since is suspected: it gets no traffic for a cool-down, and the
// micro-batches it holds are handed back to be dropped and counted (rerouting on failure,
// in a second instead of waiting for the coordinator to re-plan). A candidate caught sending
// wrong gradients (spot_check.hpp) is excluded for good: it gets no traffic while any other
// candidate is left. Torch-free, no I/O.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "net/peer_sender.hpp"

namespace rookery::pipeline {

class NextHopRouter {
 public:
  using Clock = std::chrono::steady_clock;
  struct Options {
    std::chrono::milliseconds min_suspect_after{2000};  // never suspect sooner than this
    double suspect_factor = 6;                  // ... nor sooner than this x its usual round trip
    std::chrono::milliseconds cooldown{15000};  // a suspect gets no traffic this long
    double ema_weight = 0.2;                    // of each new round trip in the average
  };
  struct Hop {
    net::PeerAddress address;
    double rtt_s = 0;  // moving average; 0: none measured yet
    std::int64_t sent = 0, returned = 0, dropped = 0;
    std::int64_t in_flight = 0;
    Clock::time_point suspected_until{};
    Clock::time_point last_return{};
    double current = 0;     // smooth weighted round-robin state
    bool excluded = false;  // caught lying: never picked while another hop is left
  };

  explicit NextHopRouter(std::vector<net::PeerAddress> candidates);
  NextHopRouter(std::vector<net::PeerAddress> candidates, Options options);

  // The hop for a new micro-batch (a suspect only when every candidate is one).
  std::size_t pick(Clock::time_point now);
  void sent(std::size_t hop, std::uint64_t micro_batch, Clock::time_point now);
  // Its gradient came back / it was given up on (timeout): forget it.
  void returned(std::uint64_t micro_batch, Clock::time_point now);
  void forgotten(std::uint64_t micro_batch);
  // Suspects hops that hold a micro-batch too long without answering; returns the
  // micro-batches they hold (now forgotten) for the caller to drop.
  std::vector<std::uint64_t> check(Clock::time_point now);
  // The candidate with this key gets no new micro-batches while another is left. Returns
  // whether it was a candidate not excluded before.
  bool exclude(const std::string& key);
  // The hop a micro-batch in flight was sent to (nothing when none holds it).
  std::optional<std::size_t> holder(std::uint64_t micro_batch) const;

  const net::PeerAddress& address(std::size_t hop) const { return hops_[hop].address; }
  const std::vector<Hop>& hops() const { return hops_; }
  std::size_t size() const { return hops_.size(); }

 private:
  double weight(const Hop& h) const;
  Options options_;
  std::vector<Hop> hops_;
  struct Sent {
    std::size_t hop;
    Clock::time_point at;
  };
  std::map<std::uint64_t, Sent> outstanding_;
};

}  // namespace rookery::pipeline
