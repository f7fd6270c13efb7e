#pragma once
// Several pipelines of one job training side by side in this process, averaging as the swarm
// does: each pipeline's stages compute on threads of their own over in-process links (as in
// train_in_pipeline), read their own range of sample ids (as rookery-node's plans give them),
// and the stages holding the same blocks meet in Ravnest's rings over ZeroMQ on loopback every
// averaging interval, where StageAveraging takes outer steps on the job's compressed
// pseudo-gradients. With one pipeline it is train_in_pipeline, timed.
//
// The curve: every `sample_every` seconds of training all stages pause (their threads join,
// the links keep receiving) while pipeline 0's weights are copied, and go on; the pauses are
// off the clock, and the copies are evaluated after the run, so evaluating costs no training
// time either.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../../pipeline/local_swarm.hpp"
#include "reduce/shard_buffers.hpp"

namespace rookery::testing {

// Sample ids a pipeline reads from (its own shuffled pass over the data), as in stage_workload.
inline constexpr std::int64_t kSampleIdsPerPipeline = 1'000'000'000'000;

struct AveragingOptions {
  int pipelines = 1;
  std::int64_t micro_batches = 0;  // each pipeline's
  std::chrono::milliseconds interval{500};
  double sample_every = 0;  // seconds of training between copies of the weights; 0: no curve
  int settle_rounds = 2;    // after training, rounds every stage applies so the replicas meet
  std::chrono::seconds timeout{3600};
};

struct CurvePoint {
  double seconds = 0;        // training time, pauses off the clock
  std::int64_t samples = 0;  // trained by every pipeline together
  Params params;             // pipeline 0's weights then
};

struct AveragingRun {
  Params params;              // pipeline 0's weights at the end (after the settling rounds)
  double seconds = 0;         // training time until every stage took its steps
  double settle_seconds = 0;  // the settling rounds after it
  std::int64_t samples = 0;
  std::uint64_t boundary_bytes = 0, averaging_bytes = 0;  // every stage's, sent
  std::int64_t rounds = 0;  // the fewest rounds any stage applied with a partner
  std::vector<CurvePoint> curve;
};

// A TCP port on loopback that nothing listens on now, below the kernel's ephemeral range
// (32768 and up), so no outgoing connection takes it before its stage binds it.
inline std::uint16_t free_loopback_port() {
  static std::mt19937 rng(std::random_device{}());
  for (int attempt = 0; attempt < 100; ++attempt) {
    const auto port = static_cast<std::uint16_t>(20000 + rng() % 12000);
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) break;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    const bool free = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(fd);
    if (free) return port;
  }
  throw std::runtime_error("no free loopback port");
}

// Trains `job` in o.pipelines pipelines of the stages `blocks`, each on its first
// o.micro_batches micro-batches. Throws std::runtime_error when a stage fails or the run does
// not finish within o.timeout.
inline AveragingRun train_averaging_pipelines_once(const job::JobSpec& job,
                                                   const std::vector<std::pair<int, int>>& blocks,
                                                   const AveragingOptions& o) {
  using clock = std::chrono::steady_clock;
  const int P = o.pipelines, S = static_cast<int>(blocks.size()), n = P * S;
  const auto chain = model::BlockChain::from_job(job);
  LocalSwarm swarm(LinkKind::InProcess, n);
  const auto keys = swarm.keys();
  pipeline::AveragingConfig averaging;
  if (P >= 2) {
    averaging.interval = o.interval;
    for (int p = 0; p < P; ++p) {
      reduce::PipelinePartition part;
      part.boundaries.push_back(0);
      for (int s = 0; s < S; ++s) {
        const auto& key = keys[std::size_t(p * S + s)];
        part.boundaries.push_back(blocks[std::size_t(s)].second);
        part.nodes.push_back(key);
        averaging.endpoints[key] = "tcp://127.0.0.1:" + std::to_string(free_loopback_port());
      }
      averaging.pipelines.push_back(std::move(part));
    }
  }
  for (int p = 0; p < P; ++p) {
    const std::vector<std::string> mine(keys.begin() + p * S, keys.begin() + (p + 1) * S);
    for (int s = S - 1; s >= 0; --s) {
      const int i = p * S + s;
      auto c = stage_config(job, blocks[std::size_t(s)], mine);
      c.pipeline = static_cast<std::uint32_t>(p);
      if (s < S - 1) c.next = swarm.address(i + 1);
      c.stages_before = s;
      if (s == 0) {
        c.max_micro_batches = o.micro_batches;
        c.first_sample = p * kSampleIdsPerPipeline;
      }
      if (P >= 2) {
        c.averaging = averaging;
        c.averaging.listen = averaging.endpoints.at(keys[std::size_t(i)]);
      }
      swarm.start(i, std::move(c));
    }
  }
  auto samples = [&] {
    std::int64_t total = 0;
    for (int p = 0; p < P; ++p) total += swarm.stats(p * S).samples;
    return total;
  };
  auto weights = [&] {  // pipeline 0's, with every stage halted
    Params out;
    for (int s = 0; s < S; ++s) {
      auto shard = chain.shard({blocks[std::size_t(s)].first, blocks[std::size_t(s)].second});
      reduce::write_parameters(shard, swarm.runtime(s).parameters());
      for (auto& prm : shard.parameters()) out[prm.name] = prm.tensor.detach().clone();
    }
    return out;
  };
  auto halt_all = [&] {
    for (int i = 0; i < n; ++i) swarm.halt(i);
  };
  auto check = [&](clock::time_point deadline, const char* what) {
    if (!swarm.errors().empty()) throw std::runtime_error(swarm.errors());
    if (clock::now() > deadline) throw std::runtime_error(std::string("timed out ") + what);
  };

  AveragingRun run;
  const auto steps = o.micro_batches / job.grad_accumulation;
  const auto t0 = clock::now();
  const auto deadline = t0 + o.timeout;
  clock::duration paused{};
  auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - t0 - paused).count(); };
  double next_copy = o.sample_every;
  for (;;) {
    check(deadline, "training");
    bool done = true;
    for (int i = 0; i < n && done; ++i) done = swarm.stats(i).optimizer_steps >= steps;
    if (done) break;
    if (o.sample_every > 0 && elapsed() >= next_copy) {
      const auto pause = clock::now();
      const double at = elapsed();
      halt_all();
      run.curve.push_back({at, samples(), weights()});
      for (int i = 0; i < n; ++i) swarm.resume(i);
      paused += clock::now() - pause;
      next_copy += o.sample_every;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  run.seconds = elapsed();
  if (P >= 2 && o.settle_rounds > 0) {
    std::vector<std::int64_t> before(std::size_t(n), 0);
    for (int i = 0; i < n; ++i) before[std::size_t(i)] = swarm.stats(i).averaging_rounds;
    for (int i = 0; i < n; ++i) {
      while (swarm.stats(i).averaging_rounds < before[std::size_t(i)] + o.settle_rounds) {
        check(deadline, "settling");
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
  }
  run.settle_seconds = elapsed() - run.seconds;
  halt_all();
  check(deadline, "stopping");
  run.samples = samples();
  run.params = weights();
  run.rounds = P >= 2 ? std::numeric_limits<std::int64_t>::max() : 0;
  for (int i = 0; i < n; ++i) {
    const auto st = swarm.stats(i);
    run.boundary_bytes += st.bytes_sent;
    run.averaging_bytes += st.averaging_bytes_sent;
    if (P >= 2) run.rounds = std::min(run.rounds, st.averaging_rounds);
  }
  if (o.sample_every > 0)
    run.curve.push_back({run.seconds + run.settle_seconds, run.samples, run.params});
  return run;
}

// The same, started again (on other ports) when another process took a port between the
// check and the bind.
inline AveragingRun train_averaging_pipelines(const job::JobSpec& job,
                                              const std::vector<std::pair<int, int>>& blocks,
                                              const AveragingOptions& o) {
  for (int attempt = 1;; ++attempt) {
    try {
      return train_averaging_pipelines_once(job, blocks, o);
    } catch (const zmq::error_t& e) {
      if (e.num() != EADDRINUSE || attempt == 3) throw;
    }
  }
}

}  // namespace rookery::testing
