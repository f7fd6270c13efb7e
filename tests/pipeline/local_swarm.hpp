#pragma once
// Stages of one swarm in this test process, each computing on a thread of its own as a node
// would, over in-process links or ZeroMQ on loopback: pipelines without processes.
#include <QTemporaryDir>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "net/identity.hpp"
#include "pipeline/in_process_stage_link.hpp"
#include "pipeline/stage_runtime.hpp"
#include "reference_training.hpp"

namespace rookery::testing {

enum class LinkKind { InProcess, ZeroMq };

// Stages of one swarm in this process, each computing on a thread of its own as a node would,
// over in-process links (one hub) or ZeroMQ (one context, loopback).
class LocalSwarm {
 public:
  LocalSwarm(LinkKind kind, int stages) : kind_(kind), stages_(static_cast<std::size_t>(stages)) {
    for (auto& s : stages_) s.id = net::CurveKeyPair::generate();
  }
  ~LocalSwarm() {
    for (std::size_t i = stages_.size(); i-- > 0;) remove(static_cast<int>(i));
  }

  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (const auto& s : stages_) out.push_back(s.id.public_key);
    return out;
  }
  const net::CurveKeyPair& id(int i) const { return at(i).id; }
  // Where stage i is reached: known up front in-process, once bound over ZeroMQ (so a stage's
  // next hops are started before it).
  net::PeerAddress address(int i) const {
    const auto& s = at(i);
    if (kind_ == LinkKind::InProcess)
      return {"tcp://stage-" + std::to_string(i) + ".in-process:1", s.id.public_key};
    return {s.runtime ? s.runtime->endpoint() : std::string(), s.id.public_key};
  }

  // Makes stage i and starts its compute thread.
  void start(int i, pipeline::StageConfig config) {
    auto& s = at(i);
    if (kind_ == LinkKind::InProcess) {
      auto link = std::make_unique<pipeline::InProcessStageLink>(
          hub_, s.id.public_key, address(i).endpoint,
          static_cast<std::size_t>(config.job.staleness + 2));
      s.link = link.get();
      s.runtime =
          std::make_unique<pipeline::StageRuntime>(ctx_, s.id, std::move(config), std::move(link));
    } else {
      s.runtime = std::make_unique<pipeline::StageRuntime>(ctx_, s.id, std::move(config));
    }
    resume(i);
  }
  // Starts stage i's compute thread again after halt(i).
  void resume(int i) {
    auto& s = at(i);
    if (s.thread.joinable()) return;
    s.stop = false;
    s.thread = std::thread([&s] {
      try {
        while (!s.stop) s.runtime->run_once(std::chrono::milliseconds(20));
      } catch (const std::exception& e) {
        s.error = e.what();
      }
    });
  }
  // Stops stage i's compute thread; its link still receives.
  void halt(int i) {
    auto& s = at(i);
    s.stop = true;
    if (s.thread.joinable()) s.thread.join();
  }
  // Stage i vanishes: it stops and is destroyed, its link with it.
  void remove(int i) {
    halt(i);
    at(i).runtime.reset();
    at(i).link = nullptr;
  }

  pipeline::StageRuntime& runtime(int i) { return *at(i).runtime; }
  pipeline::StageStats stats(int i) const { return at(i).runtime->stats(); }
  pipeline::InProcessStageLink* link(int i) { return at(i).link; }
  pipeline::InProcessStageHub& hub() { return hub_; }
  // What went wrong on a compute thread (empty: nothing).
  std::string errors() const {
    std::string out;
    for (const auto& s : stages_) out += s.error;
    return out;
  }

 private:
  struct Stage {
    net::CurveKeyPair id;
    std::unique_ptr<pipeline::StageRuntime> runtime;
    pipeline::InProcessStageLink* link = nullptr;  // in-process only; the runtime owns it
    std::thread thread;
    std::atomic<bool> stop{false};
    std::string error;
  };
  Stage& at(int i) { return stages_.at(static_cast<std::size_t>(i)); }
  const Stage& at(int i) const { return stages_.at(static_cast<std::size_t>(i)); }

  LinkKind kind_;
  net::SecureContext ctx_;
  pipeline::InProcessStageHub hub_;  // outlives the links: declared before the stages
  std::vector<Stage> stages_;
};

inline pipeline::StageConfig stage_config(const job::JobSpec& job, std::pair<int, int> blocks,
                                          const std::vector<std::string>& keys) {
  pipeline::StageConfig c;
  c.job = job;
  c.blocks = {blocks.first, blocks.second};
  c.peer_keys = keys;
  return c;
}

// Trains `job` on its first `micro_batches` micro-batches in one pipeline of stages holding
// `blocks`, on threads over in-process links, and returns the whole model's parameters once
// every stage has taken every step (a later stage's last step may wait for the first stage's
// gradient norm), with each stage's stats in `stats` when given. Throws std::runtime_error
// when a stage fails or the steps do not come within `timeout`.
inline Params train_in_pipeline(const job::JobSpec& job,
                                const std::vector<std::pair<int, int>>& blocks,
                                std::int64_t micro_batches,
                                std::vector<pipeline::StageStats>* stats = nullptr,
                                std::chrono::seconds timeout = std::chrono::seconds(600)) {
  const int n = static_cast<int>(blocks.size());
  QTemporaryDir dir;
  LocalSwarm swarm(LinkKind::InProcess, n);
  for (int i = n - 1; i >= 0; --i) {
    auto c = stage_config(job, blocks[static_cast<std::size_t>(i)], swarm.keys());
    if (i < n - 1) c.next = swarm.address(i + 1);
    c.stages_before = i;
    c.checkpoint_path = dir.filePath(QString("stage-%1.ckpt").arg(i)).toStdString();
    if (i == 0) c.max_micro_batches = micro_batches;
    swarm.start(i, std::move(c));
  }
  const auto steps = micro_batches / job.grad_accumulation;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (int i = 0; i < n; ++i) {
    while (swarm.stats(i).optimizer_steps < steps) {
      if (!swarm.errors().empty()) throw std::runtime_error(swarm.errors());
      if (std::chrono::steady_clock::now() > deadline)
        throw std::runtime_error("stage " + std::to_string(i) + " took " +
                                 std::to_string(swarm.stats(i).optimizer_steps) + " of " +
                                 std::to_string(steps) + " steps in time");
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  std::vector<std::filesystem::path> ckpts;
  for (int i = 0; i < n; ++i) {
    swarm.halt(i);
    swarm.runtime(i).checkpoint_now();
    ckpts.push_back(swarm.runtime(i).config().checkpoint_path);
    if (stats) stats->push_back(swarm.stats(i));
  }
  if (!swarm.errors().empty()) throw std::runtime_error(swarm.errors());
  return read_stage_checkpoints(ckpts);
}

}  // namespace rookery::testing
