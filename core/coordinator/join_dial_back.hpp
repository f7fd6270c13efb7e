#pragma once
// Where a joining volunteer can be reached, measured off the coordinator's request thread. A
// join that reports its candidate endpoints is dialled back, which takes up to
// kDialBackTimeout when none answers; on the server's one request thread that held every
// heartbeat and every other join behind it. The service defers such a join's reply
// (net::DeferredReply) and runs its dial-back here, on a few threads of their own, then
// completes the join under its lock and answers it from this thread. The Sybil caps count the
// joins in flight (sybil_limits' OriginCounts), so that joins waiting here cannot exceed them.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "net/identity.hpp"
#include "net/rpc.hpp"
#include "net/secure_context.hpp"
#include "rookery/coordinator.pb.h"

namespace rookery::coordinator {

// How long a join waits for its candidates to answer the dial-back.
inline constexpr auto kDialBackTimeout = std::chrono::milliseconds(1500);

class DialBacks {
 public:
  explicit DialBacks(std::size_t threads);
  // Lets the dial-backs in progress finish (each within kDialBackTimeout) and drops the rest:
  // their joins go unanswered, as the coordinator is stopping.
  ~DialBacks();
  DialBacks(const DialBacks&) = delete;
  DialBacks& operator=(const DialBacks&) = delete;

  void submit(std::function<void()> work);
  std::size_t waiting() const;  // submitted, not started

 private:
  void run(std::stop_token stop);

  mutable std::mutex mutex_;
  std::condition_variable_any wake_;
  std::deque<std::function<void()>> queue_;
  std::vector<std::jthread> threads_;
};

// A node that reported where it may be reached: its candidates, with the address this
// coordinator sees it connect from, are dialled back, and the endpoints that answer with its
// key replace the ones it named in `placed` (what the plan names) and in `out` (what the node
// learns), with the verdict. One that nobody can dial keeps its own, and is told so.
void place_reachable(const net::RequestContext& req, const net::CurveKeyPair& identity,
                     net::SecureContext& ctx, wire::pb::JoinRequest& placed,
                     wire::pb::JoinReply& out);

}  // namespace rookery::coordinator
