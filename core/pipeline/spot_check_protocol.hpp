#pragma once
// SpotCheckProtocol: a stage's part in the spot-checks of pipeline work (spot_check.hpp
// describes the protocol; SpotChecker keeps the bookkeeping of one kind of check). This
// holds the tensors: what a checked micro-batch came with and is held with until its
// verdict, what this stage computed from (so it can show it, signed by its sender, when it is
// checked) and what it sent, and the verifiers' recomputations; it sends the protocol's
// messages and judges. The receiver thread drives most of it; the compute thread recomputes for
// other stages' checks, expires checks, and records what it sends. Thread-safe.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include "model/block_chain.hpp"
#include "net/peer_sender.hpp"
#include "pipeline/boundary_compression.hpp"
#include "pipeline/chain_recompute.hpp"
#include "pipeline/common_point.hpp"
#include "pipeline/spot_check.hpp"
#include "pipeline/stage_link.hpp"
#include "pipeline/stage_counters.hpp"
#include "pipeline/stage_inbox.hpp"
#include "pipeline/stage_messages.hpp"

namespace rookery::pipeline {

class SpotCheckProtocol {
 public:
  // For a stage holding `blocks` of a `model_blocks`-block model, on `device`.
  // `common_point`: where this stage's replica stands (what it says as a verifier, and its
  // pipeline's steps as a checker).
  SpotCheckProtocol(const StageConfig& config, std::string own_key, std::int64_t model_blocks,
                    c10::Device device, StageLink& link, StageInbox& inbox, StageCounters& counters,
                    const CommonPoint& common_point);

  // Once the stage listens at `own_endpoint`: turns checks on where the job asks for them
  // and they can work (a deterministic forward, other holders of a sender's blocks: exact
  // replicas, or chains of holders whose ranges cover them). Until then the receiver starts
  // no check and serves none.
  void start(const std::string& own_endpoint);
  bool ready() const { return ready_.load(std::memory_order_acquire); }
  // Whether this stage takes part in checks, as checker or verifier (after start()): it then
  // keeps its common point's weights for recompute().
  bool verifies() const { return takes_part_; }

  // ---- receiver thread ----
  // A forward or gradient from a stage caught lying: refused (true).
  bool refuse_caught(const std::string& peer, const wire::Message& msg);
  // One of the protocol's four messages. Throws MessageError on one that belongs to no check.
  void receive(const std::string& peer, const wire::Message& msg);
  // A forward or gradient from `sender`: perhaps check it. True when the micro-batch is held
  // until the verdict (or refused).
  bool maybe_check(const std::string& sender, Inbound& in);

  // ---- compute thread ----
  // A verifier's recomputation on `shard` (all its blocks, or the part a chain's link runs),
  // sent back with where this replica stands: whether the checked stage shares its common
  // point, and how far the answer moved since it (recomputed on `common`, that point's
  // weights; null: unknown, which no checker hears). True when it produced an output.
  bool recompute(const Recompute& r, model::Shard& shard, model::Shard* common);
  // Ends checks past their deadline. Returns the next hops caught sending wrong gradients,
  // for the stage to route around.
  std::vector<std::string> expire(std::chrono::steady_clock::time_point now);
  // What this stage sent for micro-batch `mb`, from `input`, which its sender signed as
  // `input_from` (none on a first stage): kept while it is in flight.
  void remember_sent_forward(std::uint64_t mb, const at::Tensor& input,
                             std::shared_ptr<const SignedWork> input_from,
                             const at::Tensor& activations, const at::Tensor& targets);
  void forget_sent_forward(std::uint64_t mb);
  // The gradient of its output this stage ran micro-batch `mb`'s backward from, as the stage
  // after it signed it: kept a while, to show when its own gradient is checked.
  void remember_received_gradient(std::uint64_t mb, std::shared_ptr<const SignedWork> gradient);

  // The spot-check counters of StageStats. Any thread.
  void add_stats(StageStats& s) const;

 private:
  // What this stage sent forward for a micro-batch in flight: a gradient check of the stage
  // it went to starts from it.
  struct SentForward {
    at::Tensor activations, targets;
  };
  // What a micro-batch this stage sent forward came from: its input, and that input as its
  // sender signed it (none on a first stage: its input is the dataset's).
  struct DeclaredInput {
    at::Tensor input;
    std::shared_ptr<const SignedWork> from;
  };
  // The tensors of a spot-check this stage runs (SpotChecker keeps the bookkeeping).
  struct CheckMaterial {
    at::Tensor received;  // the checked stage's activations or gradient, as they came
    std::vector<ChainRecompute> chains;  // each an exact replica or a chain of holders
    model::BlockRange blocks;            // the checked stage's
    std::optional<Inbound> held;         // the micro-batch, trained on only if it passes
    SentForward sent;                    // gradients: what this stage sent the checked one
    // Where this stage stood when the work came: its common point's round and its steps since
    // (the checked pipeline's, common_point.hpp).
    std::uint64_t round_at_arrival = 0;
    std::int64_t steps_at_arrival = 0;
  };
  // The spot-checks of one kind of work this stage receives: activations from the stages
  // before it, gradients from the stages after it.
  struct CheckBook {
    std::unique_ptr<SpotChecker> checker;           // null: this stage checks nobody this way
    std::map<std::uint64_t, CheckMaterial> checks;  // guarded by mutex_
  };
  // The last `capacity` entries by micro-batch: what a stage remembers of finished work for
  // checks that come after it.
  template <typename V>
  struct Recent {
    std::map<std::uint64_t, V> items;
    std::deque<std::uint64_t> order;
    void put(std::uint64_t mb, V v, std::size_t capacity) {
      if (items.insert_or_assign(mb, std::move(v)).second) order.push_back(mb);
      while (order.size() > capacity) {
        items.erase(order.front());
        order.pop_front();
      }
    }
    const V* find(std::uint64_t mb) const {
      const auto it = items.find(mb);
      return it == items.end() ? nullptr : &it->second;
    }
  };

  CheckBook& book(CheckedWork work);
  std::vector<ChainRecompute> chains_for(const std::string& sender, CheckedWork work,
                                         model::BlockRange& blocks, net::PeerAddress& listed);
  void send(const net::PeerAddress& to, wire::pb::Envelope header, NamedTensors tensors = {});
  net::PeerAddress own_address() const { return {own_endpoint_, own_key_}; }
  void answer_spot_check_request(const std::string& peer, const wire::Message& msg);
  void take_recompute_request(const std::string& peer, const wire::Message& msg);
  void take_spot_check_input(const std::string& peer, const wire::Message& msg);
  void take_recompute_result(const std::string& peer, const wire::Message& msg);
  void ask_verifiers(CheckedWork work, std::uint64_t mb, at::Tensor declared);
  void judge_check(CheckedWork work, std::uint64_t mb, CheckMaterial m);
  // `stale`: an incomparable check's work was computed on another round's common point.
  void end_check(CheckedWork work, std::uint64_t mb, SpotVerdict verdict, const std::string& detail,
                 std::optional<CheckMaterial> material = std::nullopt, bool stale = false);
  void release_held(CheckedWork work, std::uint64_t mb, bool use,
                    std::optional<CheckMaterial> material = std::nullopt);
  void announce_caught(CheckedWork work, const std::string& key);
  void refuse(Inbound in);
  void send_signed_input(const net::PeerAddress& to, wire::pb::Envelope header,
                         const SignedWork& input);
  std::optional<at::Tensor> signed_input(CheckedWork work, std::uint64_t mb,
                                         const std::string& checked, model::BlockRange blocks,
                                         std::int64_t samples, const wire::Message& msg);

  static constexpr std::size_t kKeptGradients = 32;
  const StageConfig& config_;
  std::string own_key_;
  std::string own_endpoint_;
  std::int64_t model_blocks_;
  const BoundaryShape boundary_;  // the job's compression of what crosses a stage boundary
  c10::Device device_;
  StageLink& link_;
  StageInbox& inbox_;
  StageCounters& counters_;
  const CommonPoint& common_point_;
  std::atomic<bool> ready_{false};

  mutable std::mutex mutex_;
  CheckBook activation_checks_;  // of the stages before this one (none on a first stage)
  CheckBook gradient_checks_;    // of the stages after it (none on a last stage)
  std::map<std::uint64_t, DeclaredInput> declared_inputs_;  // what sent micro-batches came from
  std::map<std::uint64_t, SentForward> sent_forwards_;      // what it sent, when checks are on
  // The job spot-checks and the swarm is known: this stage keeps evidence of what it computed
  // from, and its common point's weights (set by start(), before the receiver serves any check).
  bool takes_part_ = false;
  // For gradient checks of this stage, for its last kKeptGradients backwards: the gradient of
  // its output it ran each from, as signed by the stage that sent it (what it shows).
  Recent<std::shared_ptr<const SignedWork>> received_gradients_;
  std::vector<std::string> caught_next_hops_;  // for the compute thread to route around
  std::mt19937_64 verifier_rng_{std::random_device{}()};
};

}  // namespace rookery::pipeline
