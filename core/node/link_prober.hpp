#pragma once
// The link probes a volunteer makes: to the coordinator when it joins (its measured profile),
// and to the peers the coordinator names, on a thread of their own. A peer measurement takes a
// few round trips and two transfers each way, and a peer that is busy starting may take its
// timeouts: on the coordinator client's thread that held up heartbeats long enough to have
// this node planned out. The next heartbeat after a measurement reports the links.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "clock/clock.hpp"
#include "net/identity.hpp"
#include "net/link_probe.hpp"
#include "net/rpc.hpp"
#include "net/secure_context.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::node {

class LinkProber {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  LinkProber(net::SecureContext& ctx, const net::CurveKeyPair& identity,
             const clock::Clock& clock = clock::SystemClock::instance());
  ~LinkProber();  // stops measuring and joins the thread

  // This node's link to the coordinator behind `client`; none, with why, when it cannot be
  // measured (`unreachable`: no answer at all; `error` says why in English).
  static std::optional<net::LinkMeasurement> measure_coordinator(net::RpcClient& client,
                                                                 std::string& error,
                                                                 bool& unreachable);

  // Measures the link to each of `targets` from `after` on (by this prober's clock), in the
  // background; forgets what an earlier call asked for or measured.
  void measure_peers(std::vector<wire::pb::ProbeTarget> targets, TimePoint after);
  // The links measured and not yet taken by the coordinator, and their generation (0: none).
  std::uint64_t unreported(std::vector<wire::pb::PeerLink>& links) const;
  // The coordinator has the links of `generation`.
  void reported(std::uint64_t generation);

 private:
  struct Job {
    std::vector<wire::pb::ProbeTarget> targets;
    TimePoint after;
  };
  void run();
  std::optional<wire::pb::PeerLink> measure_peer(const wire::pb::ProbeTarget& target);

  net::SecureContext& ctx_;
  const net::CurveKeyPair& identity_;
  const clock::Clock& clock_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::optional<Job> job_;
  std::uint64_t generation_ = 0;  // one per measure_peers()
  std::vector<wire::pb::PeerLink> links_;
  bool ready_ = false;  // measured and not yet taken by the coordinator
  std::thread thread_;  // last: started once the rest is
};

}  // namespace rookery::node
