#include "pipeline/chain_recompute.hpp"

#include <algorithm>
#include <stdexcept>

#include "net/identity.hpp"

namespace rookery::pipeline {

ChainRecompute::ChainRecompute(std::vector<ChainStep> links, CheckedWork work)
    : links_(std::move(links)), work_(work) {
  if (links_.empty()) throw std::invalid_argument("a verifier chain needs a link");
}

void ChainRecompute::start(at::Tensor input, at::Tensor grad_output, at::Tensor targets) {
  step_ = 0;
  done_ = false;
  output_ = at::Tensor();
  inputs_ = {std::move(input)};
  grad_ = std::move(grad_output);
  targets_ = std::move(targets);
}

std::size_t ChainRecompute::steps() const {
  return work_ == wire::pb::CHECKED_GRADIENTS ? 2 * links_.size() - 1 : links_.size();
}

bool ChainRecompute::forward_step(std::size_t step) const {
  return work_ == wire::pb::CHECKED_GRADIENTS && step + 1 < links_.size();
}

// Activations: step k is link k. Gradients: links 0 .. n-2 forward, then n-1 down to 0 back.
std::size_t ChainRecompute::link_of(std::size_t step) const {
  if (work_ != wire::pb::CHECKED_GRADIENTS || step + 1 < links_.size()) return step;
  return 2 * links_.size() - 2 - step;
}

const net::PeerAddress& ChainRecompute::asked() const { return links_[link_of(step_)].address; }

ChainRecompute::Request ChainRecompute::next() const {
  const std::size_t link = link_of(step_);
  Request r{links_[link].address, links_[link].part, forward_step(step_), {}};
  r.tensors.emplace_back("input", inputs_.at(link));
  if (work_ == wire::pb::CHECKED_GRADIENTS && !r.forward_only) {
    if (grad_.defined()) {
      r.tensors.emplace_back("grad_output", grad_);
    } else {
      r.tensors.emplace_back("targets", targets_);
    }
  }
  return r;
}

bool ChainRecompute::take(at::Tensor output, VerifierStanding standing) {
  if (done_) return true;
  standings_.push_back(standing);
  if (!output.defined()) {
    done_ = true;
    return true;
  }
  const bool forward = work_ != wire::pb::CHECKED_GRADIENTS || forward_step(step_);
  if (++step_ == steps()) {
    done_ = true;
    output_ = std::move(output);
    return true;
  }
  if (forward) {
    inputs_.push_back(std::move(output));  // the input of the next link
  } else {
    grad_ = std::move(output);  // the output gradient of the link before
  }
  return false;
}

std::vector<std::string> ChainRecompute::keys() const {
  std::vector<std::string> k;
  for (const auto& l : links_) k.push_back(l.address.key);
  return k;
}

std::string ChainRecompute::describe() const {
  std::string out;
  for (const auto& l : links_) {
    if (!out.empty()) out += " -> ";
    out += "[" + std::to_string(l.part.first) + "," + std::to_string(l.part.last) + ")@" +
           net::short_key(l.address.key);
  }
  return out;
}

}  // namespace rookery::pipeline
