#pragma once
// ChainRecompute: one verifier chain's recomputation of a checked stage's work, link by link
// (spot_check.hpp; the chains are chosen by core/cluster/verifier_chains.hpp). An exact
// replica is a chain of one link and is asked once, as it always was. A longer chain is run
// by the checker one request at a time, each link redoing only its part of the blocks:
//   - activations: link 0 forward from the input the checked stage declared, each next link
//     forward from the previous one's output; the last output is the chain's.
//   - gradients: links 0 .. n-2 forward (the activations entering each part), then backward
//     in the reverse order of the chain: link n-1 from the gradient the checked stage ran from,
//     as its sender signed it (or the targets when the checked stage ends the model), each
//     earlier link from the later one's d loss / d input; link 0's is the chain's.
// So a chain of n links costs n round trips for activations and 2n - 1 for gradients. The
// checker sees every intermediate tensor; a lying link spoils its own chain only, which the
// judge treats as one lying verifier. Not thread-safe: the protocol holds its lock.
#include <cstddef>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "model/block_range.hpp"
#include "net/peer_sender.hpp"
#include "pipeline/common_point.hpp"
#include "pipeline/stage_messages.hpp"

namespace rookery::pipeline {

struct ChainStep {
  net::PeerAddress address;  // the verifier
  model::BlockRange part;    // the blocks of its shard it runs
};

class ChainRecompute {
 public:
  // Throws std::invalid_argument for a chain without links.
  ChainRecompute(std::vector<ChainStep> links, CheckedWork work);

  // The check's starting tensors. Activations: `input` is what the checked stage declared.
  // Gradients: `input` is what the checker sent it; `grad_output` the signed gradient the
  // checked stage ran from, or undefined with `targets` when the checked stage ends the model.
  void start(at::Tensor input, at::Tensor grad_output, at::Tensor targets);

  struct Request {
    net::PeerAddress to;
    model::BlockRange part;
    bool forward_only = false;
    NamedTensors tensors;
  };
  // The request for the link asked now (after start(), until done()).
  Request next() const;
  // The verifier asked now.
  const net::PeerAddress& asked() const;
  // That verifier's output (undefined: it could not recompute, which ends the chain without
  // an output) and where its replica stands. True when the chain is over.
  bool take(at::Tensor output, VerifierStanding standing = {});

  bool done() const { return done_; }
  at::Tensor output() const { return output_; }  // undefined unless every link answered
  // Where each answer's replica stood (a gradient chain's links answer on the way there and
  // back): a judge hears the chain only if they stood close to the checked stage's.
  const std::vector<VerifierStanding>& standings() const { return standings_; }
  std::size_t links() const { return links_.size(); }
  std::vector<std::string> keys() const;
  std::string describe() const;  // "[3,5)@abc -> [5,8)@def", for logs

 private:
  std::size_t steps() const;
  std::size_t link_of(std::size_t step) const;
  bool forward_step(std::size_t step) const;

  std::vector<ChainStep> links_;
  CheckedWork work_;
  std::size_t step_ = 0;
  std::vector<at::Tensor> inputs_;  // the activations entering each link, as far as known
  at::Tensor grad_, targets_;       // gradients: the output gradient of the next link back
  bool done_ = false;
  at::Tensor output_;
  std::vector<VerifierStanding> standings_;
};

}  // namespace rookery::pipeline
