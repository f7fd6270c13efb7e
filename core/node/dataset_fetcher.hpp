#pragma once
// Fetching a job's dataset into this volunteer's DatasetStore (data/dataset_delivery.hpp):
// one worker per source, the coordinator and peers that hold the data, each taking the next
// missing chunk, so the copy arrives as fast as the sources together serve it. Every chunk is
// checked against the manifest's hash before it is written: a peer that serves a wrong one is
// dropped as a source at once. A source that fails or does not answer backs off and is asked
// again; a peer that fails kPeerFailures times in a row is dropped, the coordinator never is.
#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "data/dataset_delivery.hpp"
#include "net/identity.hpp"
#include "net/secure_context.hpp"

namespace rookery::node {

struct DataSource {
  std::string key;       // its CURVE public key
  std::string endpoint;  // the coordinator's, or a peer's shard server
  bool coordinator = false;
  // Not asked before this: a peer admits us only once the coordinator's member list reaches it
  // (its next heartbeat after our join).
  std::chrono::steady_clock::time_point not_before{};
};

struct DatasetFetchOptions {
  std::chrono::milliseconds first_answer_timeout{3000};  // until a source has answered once (a
                                                         // peer refuses until it lists us)
  std::chrono::milliseconds timeout{30000};              // a chunk, once it has
  int peer_failures = 5;                                 // in a row: a peer is dropped
  std::chrono::milliseconds max_backoff{8000};
};

struct DatasetFetchReport {
  bool complete = false;
  std::uint64_t chunks_fetched = 0;
  std::vector<std::pair<std::string, std::uint64_t>>
      chunks_from;                  // per source, in the order given: "the
                                    // coordinator" or "peer <short key>"
  std::vector<std::string> caught;  // peers that served a chunk whose hash was wrong
};

class DatasetFetcher {
 public:
  DatasetFetcher(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                 data::DatasetStore& store, DatasetFetchOptions options = {});

  // Fetches every missing chunk from `sources` until the copy is complete or `stop` returns
  // true (it is polled often). A chunk the disk refuses (full) stays missing and is retried
  // after a back-off; why is logged.
  DatasetFetchReport run(const std::vector<DataSource>& sources, const std::function<bool()>& stop);

 private:
  net::SecureContext& ctx_;
  const net::CurveKeyPair& identity_;
  data::DatasetStore& store_;
  DatasetFetchOptions options_;
};

}  // namespace rookery::node
