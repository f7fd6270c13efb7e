#include <torch/torch.h>

#include "pipeline/spot_check_protocol.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

#include <spdlog/spdlog.h>

#include "cluster/verifier_chains.hpp"
#include "net/identity.hpp"
#include "pipeline/tensor_codec.hpp"

namespace rookery::pipeline {

SpotCheckProtocol::SpotCheckProtocol(const StageConfig& config, std::string own_key,
                                     std::int64_t model_blocks, c10::Device device, StageLink& link,
                                     StageInbox& inbox, StageCounters& counters,
                                     const CommonPoint& common_point)
    : config_(config),
      own_key_(std::move(own_key)),
      model_blocks_(model_blocks),
      boundary_(boundary_shape(config.job)),
      device_(device),
      link_(link),
      inbox_(inbox),
      counters_(counters),
      common_point_(common_point) {}

// Spot-checks need a deterministic forward (dropout draws differ) and other holders of a
// sender's blocks. A stage checks the activations it receives (not on a first stage) and the
// gradients it receives (not on a last one).
void SpotCheckProtocol::start(const std::string& own_endpoint) {
  own_endpoint_ = own_endpoint;
  const auto& job = config_.job;
  const job::SpotCheckSpec& checks = job.spot_checks;
  const bool first = config_.blocks.first == 0, last = config_.blocks.last == model_blocks_;
  if (!config_.holders.empty() && (checks.rate > 0 || checks.probation > 0)) {
    const auto* gpt = std::get_if<job::GptSpec>(&job.model.arch);
    if (gpt && gpt->dropout > 0) {
      spdlog::info("spot-checks off: the model uses dropout, so two honest forwards differ");
    } else {
      takes_part_ = true;
      if (!first) activation_checks_.checker = std::make_unique<SpotChecker>(checks);
      if (!last) gradient_checks_.checker = std::make_unique<SpotChecker>(checks);
      spdlog::info(
          "spot-checking the {} this stage receives: each sender's first {}, then {:.1f}%, "
          "recomputed by other holders of its blocks",
          first  ? "gradients"
          : last ? "activations"
                 : "activations and gradients",
          checks.probation, 100.0 * checks.rate);
    }
  }
  ready_.store(true, std::memory_order_release);
}

SpotCheckProtocol::CheckBook& SpotCheckProtocol::book(CheckedWork work) {
  return work == wire::pb::CHECKED_GRADIENTS ? gradient_checks_ : activation_checks_;
}

// Up to two independent verifier chains for `sender`'s blocks: other holders of exactly them
// first, at random, then chains of the fewest holders whose ranges cover them (verifier_chains
// .hpp); those blocks; and the address `sender` is listed under.
std::vector<ChainRecompute> SpotCheckProtocol::chains_for(const std::string& sender,
                                                          CheckedWork work,
                                                          model::BlockRange& blocks,
                                                          net::PeerAddress& listed) {
  const auto& holders = config_.holders;
  const auto it = std::find_if(holders.begin(), holders.end(),
                               [&](const StageHolder& h) { return h.address.key == sender; });
  if (it == holders.end() || it->blocks.first >= it->blocks.last) return {};
  blocks = it->blocks;
  listed = it->address;
  std::vector<cluster::HeldRange> held;
  std::map<std::string, net::PeerAddress> address;
  for (const auto& h : holders) {
    held.push_back({h.address.key, h.blocks.first, h.blocks.last});
    address.emplace(h.address.key, h.address);
  }
  std::vector<cluster::VerifierChain> found;
  {
    std::lock_guard lock(mutex_);
    found = cluster::find_verifier_chains(held, blocks.first, blocks.last, {sender, own_key_},
                                          verifier_rng_, 2);
  }
  std::vector<ChainRecompute> chains;
  for (const auto& chain : found) {
    std::vector<ChainStep> links;
    for (const auto& l : chain) links.push_back({address.at(l.key), {l.first, l.last}});
    chains.emplace_back(std::move(links), work);
  }
  return chains;
}

// Posted, never waited for: the receiver thread sends most of them and must not stall on one
// peer; one that is dropped (that peer's lane is full) leaves its check unanswered, which
// blames nobody.
void SpotCheckProtocol::send(const net::PeerAddress& to, wire::pb::Envelope header,
                             NamedTensors tensors) {
  header.set_job_id(config_.job.id);
  link_.post(to, [header = std::move(header), tensors = std::move(tensors)]() mutable {
    return encode_with_tensors(std::move(header), std::move(tensors));
  });
}

// A message from a stage this one caught lying is refused. Its forwards die here, and it is
// told so (it may be an honest stage that failed its checks: it drops the micro-batch and
// routes on); its gradients are turned into a discard, so the micro-batch this stage sent it
// is dropped now instead of holding a slot until its timeout.
bool SpotCheckProtocol::refuse_caught(const std::string& peer, const wire::Message& msg) {
  const bool forward = msg.header.has_forward(), backward = msg.header.has_backward();
  auto& b = forward ? activation_checks_ : gradient_checks_;
  if ((!forward && !backward) || !b.checker || !b.checker->is_caught(peer)) return false;
  Inbound drop;
  drop.backward = backward;
  drop.sender = peer;
  if (backward) {
    drop.micro_batch = msg.header.backward().micro_batch();
  } else if (const auto& f = msg.header.forward(); f.return_to().key() == peer) {
    drop.micro_batch = f.micro_batch();
    drop.pipeline = f.pipeline();
    drop.return_to = {f.return_to().endpoint(), peer};
  }
  refuse(std::move(drop));  // caught sending wrong work (logged then)
  return true;
}

// Work this stage will not use. A forward's sender is told at once, so that it gives the
// micro-batch up (and tells the stage before it) instead of waiting out its timeout for a
// gradient that will not come.
void SpotCheckProtocol::refuse(Inbound in) {
  if (!in.backward && !in.return_to.key.empty()) {
    link_.post(in.return_to,
               [job_id = config_.job.id, pipeline = in.pipeline, mb = in.micro_batch]() {
                 return encode_dropped(job_id, pipeline, mb);
               });
  }
  inbox_.refuse(std::move(in));
}

// A checked micro-batch is held until the verdict and used only if it does not fail, so a
// liar's work never reaches this stage's weights while it is on probation or under suspicion
// (a check takes a few round trips; after probation only a `rate` share of micro-batches
// waits for one).
bool SpotCheckProtocol::maybe_check(const std::string& sender, Inbound& in) {
  const CheckedWork work =
      in.backward ? wire::pb::CHECKED_GRADIENTS : wire::pb::CHECKED_ACTIVATIONS;
  auto& b = book(work);
  const auto micro_batch = in.micro_batch;
  if (!b.checker || (!in.backward && in.return_to.key != sender)) return false;
  model::BlockRange blocks;
  net::PeerAddress listed;
  auto chains = chains_for(sender, work, blocks, listed);
  if (chains.empty()) return false;
  SentForward sent;
  if (in.backward) {  // the gradient of what this stage sent: still in flight here?
    std::lock_guard lock(mutex_);
    const auto it = sent_forwards_.find(micro_batch);
    if (it == sent_forwards_.end()) return false;  // the compute thread counts it as unknown
    sent = it->second;
  }
  switch (b.checker->decide(sender)) {
    case SpotDecision::Use:
      return false;
    case SpotDecision::Check:
      break;
    case SpotDecision::Refuse:  // a suspect with every check slot taken: its work waits for none
      refuse(std::move(in));
      return true;
  }
  std::vector<std::string> keys;
  for (const auto& c : chains) {
    const auto k = c.keys();
    keys.insert(keys.end(), k.begin(), k.end());
  }
  if (!b.checker->begin(micro_batch, sender, keys, std::chrono::steady_clock::now())) return false;
  const net::PeerAddress checked = in.backward ? listed : in.return_to;
  {
    std::lock_guard lock(mutex_);
    auto received = in.tensor;
    auto& m = b.checks[micro_batch] =
        CheckMaterial{std::move(received), std::move(chains), blocks, std::move(in), sent};
    m.round_at_arrival = common_point_.point_round();
    m.steps_at_arrival = common_point_.local_steps();
  }
  if (work == wire::pb::CHECKED_GRADIENTS && blocks.last == model_blocks_) {
    // A last stage's gradient follows from the activations and the targets, both ours.
    b.checker->input_shown(micro_batch);
    ask_verifiers(work, micro_batch, {});
    return true;
  }
  send(checked, spot_check_request(micro_batch, work, own_address()));
  return true;
}

// The checked stage showed what its work started from (`declared`; undefined for a last
// stage's gradient): ask each chain's first link to redo the work from it (an exact replica
// redoes it all).
void SpotCheckProtocol::ask_verifiers(CheckedWork work, std::uint64_t mb, at::Tensor declared) {
  const auto p = book(work).checker->pending(mb);
  if (!p) return;
  std::vector<ChainRecompute::Request> requests;
  {
    std::lock_guard lock(mutex_);
    const auto it = book(work).checks.find(mb);
    if (it == book(work).checks.end()) return;
    auto& m = it->second;
    for (auto& chain : m.chains) {
      if (work == wire::pb::CHECKED_ACTIVATIONS) {
        chain.start(declared, {}, {});
      } else {  // from what the checked stage received of our activations
        chain.start(as_received(m.sent.activations, boundary_), declared, m.sent.targets);
      }
      requests.push_back(chain.next());
    }
  }
  for (auto& r : requests)
    send(r.to, recompute_request(mb, work, r.part, own_address(), p->first, r.forward_only),
         std::move(r.tensors));
}

void SpotCheckProtocol::receive(const std::string& peer, const wire::Message& msg) {
  const auto& header = msg.header;
  if (header.has_spot_check_request()) {
    answer_spot_check_request(peer, msg);
  } else if (header.has_recompute_request()) {
    take_recompute_request(peer, msg);
  } else if (header.has_spot_check_input()) {
    take_spot_check_input(peer, msg);
  } else {
    take_recompute_result(peer, msg);
  }
}

// This stage is the checked one: show what the work came from.
void SpotCheckProtocol::answer_spot_check_request(const std::string& peer,
                                                  const wire::Message& msg) {
  const auto& r = msg.header.spot_check_request();
  const auto back = sender_return_address(r.return_to(), peer, "spot-check request");
  wire::pb::Envelope h;
  auto* answer = h.mutable_spot_check_input();
  answer->set_micro_batch(r.micro_batch());
  answer->set_work(r.work());
  at::Tensor input;
  std::shared_ptr<const SignedWork> signed_input;  // shared: the bytes are not copied
  {
    std::lock_guard lock(mutex_);
    if (r.work() == wire::pb::CHECKED_GRADIENTS) {
      // The gradient of our output we ran backward from, as the stage after us signed it.
      if (const auto* g = received_gradients_.find(r.micro_batch())) signed_input = *g;
    } else if (const auto it = declared_inputs_.find(r.micro_batch());
               it != declared_inputs_.end()) {
      // Our input: past a first stage, the forward it came in, as its sender signed it.
      input = it->second.input;
      signed_input = it->second.from;
    }
  }
  if (signed_input) {
    send_signed_input(back, std::move(h), *signed_input);
    return;
  }
  send(back, std::move(h), {{"input", input}});
}

void SpotCheckProtocol::send_signed_input(const net::PeerAddress& to, wire::pb::Envelope header,
                                          const SignedWork& input) {
  header.set_job_id(config_.job.id);
  auto* answer = header.mutable_spot_check_input();
  answer->set_received_from(input.from);
  answer->set_signature(input.signature);
  answer->set_signed_pipeline(input.pipeline);
  link_.post(to, [header = std::move(header), tensors = input.tensors]() mutable {
    return wire::encode(std::move(header), std::move(tensors));
  });
}

// The input a checked stage X showed, past a first stage for activations and before a last
// one for gradients: the forward or gradient it computed from, which must be signed for X by a
// stage that holds the blocks next to X's on that side. Decoded as X decoded it; nothing when
// the check failed on it (ended here).
std::optional<at::Tensor> SpotCheckProtocol::signed_input(CheckedWork work, std::uint64_t mb,
                                                          const std::string& checked,
                                                          model::BlockRange blocks,
                                                          std::int64_t samples,
                                                          const wire::Message& msg) {
  const bool gradients = work == wire::pb::CHECKED_GRADIENTS;
  const auto& shown = msg.header.spot_check_input();
  const auto& from = shown.received_from();
  const auto& holders = config_.holders;
  const bool neighbour = std::any_of(holders.begin(), holders.end(), [&](const StageHolder& h) {
    return h.address.key == from && from != checked &&
           (gradients ? h.blocks.first == blocks.last : h.blocks.last == blocks.first);
  });
  const auto fail = [&](const std::string& why) {
    end_check(work, mb, SpotVerdict::Failed, why);
    return std::nullopt;
  };
  const std::string what = gradients ? "gradient" : "input";
  if (from.empty()) return fail("named nobody as the sender of its " + what);
  if (!neighbour) {
    // Unanswered, not failed: nodes switch to a new plan at their own instants, so work that
    // crossed a plan change names a sender seated next to X in the plan X ran, which ours may
    // seat elsewhere (a real swarm's honest stage was caught this way right after a second
    // opinion swapped two seats). Nobody is blamed, the work is dropped and X stays suspect, so
    // a liar that names a wrong sender gains nothing: its work dies here.
    end_check(work, mb, SpotVerdict::Unanswered,
              "named " + net::short_key(from) + ", which this stage's plan does not seat " +
                  (gradients ? "after" : "before") + " it, as the sender of its " + what);
    return std::nullopt;
  }
  const WorkParty party{config_.job.id, shown.signed_pipeline(), mb, checked, gradients};
  if (!work_signed_by(from, shown.signature(), party, msg.tensors))
    return fail("showed a " + what + " its sender did not sign for it");
  try {
    return decode_shown(msg, work, samples, boundary_);
  } catch (const std::exception& e) {
    return fail("showed a signed " + what + " that does not decode: " + e.what());
  }
}

// This stage is a verifier: queue the recomputation for the compute thread.
void SpotCheckProtocol::take_recompute_request(const std::string& peer, const wire::Message& msg) {
  const auto& r = msg.header.recompute_request();
  auto job = decode_recompute_request(msg, peer, config_.blocks, model_blocks_, device_);
  std::string refusal = "too many recomputations waiting";
  if (auto* recompute = std::get_if<Recompute>(&job)) {
    if (inbox_.push_recompute(std::move(*recompute))) return;
  } else {
    refusal = std::get<std::string>(job);
  }
  send({r.return_to().endpoint(), peer}, recompute_result(r.micro_batch(), r.work(), refusal));
}

// What the checked stage declared: ask the verifiers.
void SpotCheckProtocol::take_spot_check_input(const std::string& peer, const wire::Message& msg) {
  const auto& shown = msg.header.spot_check_input();
  const auto work = shown.work();
  auto& b = book(work);
  if (!b.checker)
    throw MessageError(std::string("spot-check answer, but this stage checks no ") +
                       work_name(work));
  const auto mb = shown.micro_batch();
  const auto p = b.checker->pending(mb);
  at::Tensor received;
  model::BlockRange blocks;
  {
    std::lock_guard lock(mutex_);
    const auto it = b.checks.find(mb);
    if (p && it != b.checks.end()) {
      received = it->second.received;  // shared, not copied
      blocks = it->second.blocks;
    }
  }
  if (!received.defined() || p->first != peer)
    throw MessageError("spot-check input for no check of this sender");
  // What X computed from, past a first stage: the forward of the stage before it, or the
  // gradient of the stage after it, shown as that stage signed it. The verifiers start from
  // those bytes, never from an input X chose (one made to swing the verifiers' outputs would
  // make the check incomparable: common_point.hpp; a gradient scaled as X scales its own would
  // pass).
  if (work == wire::pb::CHECKED_GRADIENTS || blocks.first > 0) {
    auto input = signed_input(work, mb, p->first, blocks, received.size(0), msg);
    if (!input) return;
    b.checker->input_shown(mb);
    ask_verifiers(work, mb, *input);
    return;
  }
  const auto* t = msg.tensor("input");
  at::Tensor input;
  if (t) input = decode_tensor(*t, torch::kCPU);
  if (!input.defined() || input.dim() == 0 || input.size(0) != received.size(0)) {
    end_check(work, mb, SpotVerdict::Failed,
              input.defined() ? "showed an input of another shape"
                              : "showed no input for a micro-batch it sent");
    return;
  }
  b.checker->input_shown(mb);
  ask_verifiers(work, mb, input);
}

// A verifier's recomputation: the next link of its chain is asked, or, once every chain is
// over, the check is judged.
void SpotCheckProtocol::take_recompute_result(const std::string& peer, const wire::Message& msg) {
  const auto& result = msg.header.recompute_result();
  const auto work = result.work();
  auto& b = book(work);
  if (!b.checker)
    throw MessageError(std::string("recomputation, but this stage checks no ") + work_name(work));
  const auto mb = result.micro_batch();
  const auto p = b.checker->pending(mb);
  if (!p || std::find(p->second.begin(), p->second.end(), peer) == p->second.end())
    throw MessageError("recomputation for no check that asked this peer");
  const auto* t = msg.tensor("output");
  at::Tensor output;
  if (t) output = decode_tensor(*t, torch::kCPU);
  // Where the verifier's replica stands; a drift that is no distance makes it incomparable.
  VerifierStanding standing;
  standing.shares_point = result.averaged_with_checked();
  standing.drift = std::isfinite(result.drift()) && result.drift() >= 0 ? result.drift() : NAN;
  standing.local_steps = std::max<std::int64_t>(0, result.local_steps());
  standing.round = result.averaging_round();
  std::optional<ChainRecompute::Request> next;
  std::optional<CheckMaterial> material;
  {
    std::lock_guard lock(mutex_);
    const auto it = b.checks.find(mb);
    if (it == b.checks.end()) throw MessageError("recomputation for a check already over");
    auto& chains = it->second.chains;
    const auto c = std::find_if(chains.begin(), chains.end(), [&](const ChainRecompute& chain) {
      return !chain.done() && chain.asked().key == peer;
    });
    if (c == chains.end()) throw MessageError("recomputation from a verifier not asked now");
    if (!c->take(output, standing)) {
      next = c->next();
    } else if (std::all_of(chains.begin(), chains.end(),
                           [](const ChainRecompute& chain) { return chain.done(); })) {
      material = std::move(it->second);
      b.checks.erase(it);
    }
  }
  if (next) {
    send(next->to,
         recompute_request(mb, work, next->part, own_address(), p->first, next->forward_only),
         std::move(next->tensors));
  }
  if (material) judge_check(work, mb, std::move(*material));
}

// Every verifier answered: compare.
void SpotCheckProtocol::judge_check(CheckedWork work, std::uint64_t mb, CheckMaterial m) {
  torch::NoGradGuard no_grad;
  const auto received = m.received.to(torch::kCPU, torch::kFloat64);
  const double received_norm = received.norm().item<double>();
  std::vector<torch::Tensor> outputs;
  std::string composed;      // the chains of more than one link, for the log
  std::string incomparable;  // why a chain that answered is not heard
  std::string stood;         // where the heard chains' replicas stood, for the log
  // The checked pipeline's steps since its common point: this stage's when the work came, or
  // since, while it still stands on that point (the larger estimate of the checked stage's
  // drift is the safer one).
  auto own_steps = m.steps_at_arrival;
  if (common_point_.point_round() == m.round_at_arrival)
    own_steps = std::max(own_steps, common_point_.local_steps());
  const auto round = m.held ? m.held->averaging_round : 0;  // the checked work's common point
  bool stale = false;  // a verifier stands on another round's common point
  for (const auto& chain : m.chains) {
    const auto out = chain.output();
    std::string why;
    if (out.defined() && !replicas_comparable(chain.standings(), round, own_steps,
                                              config_.job.spot_checks.tolerance, &why)) {
      incomparable += (incomparable.empty() ? "" : "; ") + why;
      stale = stale || !same_round(chain.standings(), round);
      continue;
    }
    // What the checked stage's output would have been on arrival, had it been the verifier's.
    if (out.defined() && out.sizes().equals(received.sizes()) && out.is_floating_point()) {
      outputs.push_back(as_received(out, boundary_).to(torch::kFloat64));
      stood += (stood.empty() ? "" : "; ") + describe_standing(chain.standings());
    }
    if (chain.links() > 1) composed += (composed.empty() ? "" : "; ") + chain.describe();
  }
  std::vector<double> to_checked;
  for (const auto& out : outputs) {
    to_checked.push_back(relative_distance((received - out).norm().item<double>(), received_norm,
                                           out.norm().item<double>()));
  }
  double between = 0;
  if (outputs.size() == 2) {
    between = relative_distance((outputs[0] - outputs[1]).norm().item<double>(),
                                outputs[0].norm().item<double>(), outputs[1].norm().item<double>());
  }
  const auto verdict = outputs.empty() && !incomparable.empty()
                           ? SpotVerdict::Incomparable
                           : judge(to_checked, between, config_.job.spot_checks.tolerance);
  std::string detail = "distance to the verifiers";
  for (const double d : to_checked) detail += " " + std::to_string(d).substr(0, 5);
  if (outputs.size() == 2) detail += ", between them " + std::to_string(between).substr(0, 5);
  if (outputs.empty())
    detail =
        incomparable.empty() ? "no verifier could recompute it" : "incomparable: " + incomparable;
  if (!stood.empty())
    detail += " (drift since the common point: " + stood + "; the checked pipeline's steps " +
              std::to_string(own_steps) + ")";
  if (!composed.empty()) detail += " (composed: " + composed + ")";
  end_check(work, mb, verdict, detail, std::move(m), stale && outputs.empty());
}

// Whether a check's held micro-batch may be trained on: not when it failed, nor when its input
// never came.
static bool usable(SpotVerdict v) {
  return v != SpotVerdict::Failed && v != SpotVerdict::Unanswered;
}

// A check is over: the held micro-batch is used unless it failed.
void SpotCheckProtocol::end_check(CheckedWork work, std::uint64_t mb, SpotVerdict verdict,
                                  const std::string& detail, std::optional<CheckMaterial> material,
                                  bool stale) {
  auto& b = book(work);
  const auto p = b.checker->pending(mb);
  if (!p) return;
  const bool caught = b.checker->finish(mb, verdict);
  // Incomparable: the work is used only from a sender something vouched for (spot_check.hpp),
  // and never when it was computed on another round's common point (common_point.hpp).
  const bool drop =
      verdict == SpotVerdict::Incomparable && (stale || !b.checker->vouched(p->first));
  release_held(work, mb, usable(verdict) && !drop, std::move(material));
  const char* what = verdict == SpotVerdict::Passed         ? "passed"
                     : verdict == SpotVerdict::Failed       ? "FAILED"
                     : verdict == SpotVerdict::Incomparable ? "incomparable"
                                                            : "inconclusive";
  if (verdict == SpotVerdict::Failed) {
    spdlog::warn("spot-check of {}'s {} for micro-batch {:x} failed: {}", net::short_key(p->first),
                 work_name(work), mb, detail);
  } else {
    spdlog::debug("spot-check of {}'s {} for micro-batch {:x} {}: {}", net::short_key(p->first),
                  work_name(work), mb, what, detail);
  }
  if (caught) announce_caught(work, p->first);
}

void SpotCheckProtocol::release_held(CheckedWork work, std::uint64_t mb, bool use,
                                     std::optional<CheckMaterial> material) {
  if (!material) {
    std::lock_guard lock(mutex_);
    auto& checks = book(work).checks;
    const auto it = checks.find(mb);
    if (it == checks.end()) return;
    material = std::move(it->second);
    checks.erase(it);
  }
  if (!material->held) return;
  if (!use) {
    refuse(std::move(*material->held));
  } else {
    inbox_.push_checked(std::move(*material->held));
  }
}

void SpotCheckProtocol::announce_caught(CheckedWork work, const std::string& key) {
  spdlog::warn(
      "stage {} failed {} spot-checks of its {}: its {} are refused from now on, and reported",
      net::short_key(key), config_.job.spot_checks.failures_to_catch, work_name(work),
      work_name(work));
  if (work != wire::pb::CHECKED_GRADIENTS) return;
  std::lock_guard lock(mutex_);
  caught_next_hops_.push_back(key);  // the compute thread routes around it
}

// Gradients come from torch::autograd::grad, which leaves the weights' own gradients
// untouched.
bool SpotCheckProtocol::recompute(const Recompute& r, model::Shard& shard, model::Shard* common) {
  torch::Tensor out;
  std::string reason;
  const bool gradients = r.work == wire::pb::CHECKED_GRADIENTS;
  const auto run = [&](model::Shard& on) {
    if (gradients && !r.forward_only) {
      auto x = r.input.detach().requires_grad_(true);
      auto y = on.forward(x, r.blocks);
      auto g = r.blocks.last == model_blocks_
                   ? torch::autograd::grad({on.loss(y, r.targets)}, {x})[0]
                   : torch::autograd::grad({y}, {x}, {r.grad_output})[0];
      return g.detach();
    }
    torch::NoGradGuard no_grad;
    return on.forward(r.input, r.blocks).detach();
  };
  double drift = NAN;  // how far this replica's answer moved since its common point
  try {
    out = run(shard);
    if (common) {
      const auto base = run(*common).to(torch::kFloat64);
      const auto now = out.to(torch::kFloat64);
      drift = relative_distance((now - base).norm().item<double>(), now.norm().item<double>(),
                                base.norm().item<double>());
    }
  } catch (const std::exception& e) {  // LibTorch's, and the blocks' own checks of their input
    reason =
        std::string(gradients ? "the input, output gradient or targets do not fit these blocks ("
                              : "the input does not fit these blocks (") +
        brief(e) + ")";
    out = torch::Tensor();
  }
  counters_.update([](StageStats& s) { ++s.recomputes; });
  auto header = recompute_result(r.micro_batch, r.work, reason);
  auto* standing = header.mutable_recompute_result();
  standing->set_averaged_with_checked(common_point_.shared_with(r.checked, r.blocks));
  standing->set_drift(drift);
  standing->set_local_steps(common_point_.local_steps());
  standing->set_averaging_round(common_point_.point_round());
  send(r.return_to, std::move(header), {{"output", out}});
  return out.defined();
}

std::vector<std::string> SpotCheckProtocol::expire(std::chrono::steady_clock::time_point now) {
  for (const auto work : {wire::pb::CHECKED_ACTIVATIONS, wire::pb::CHECKED_GRADIENTS}) {
    auto& b = book(work);
    if (!b.checker) continue;
    for (const auto& e : b.checker->expire(now)) {
      release_held(work, e.micro_batch, usable(e.verdict));
      if (e.verdict == SpotVerdict::Unanswered) {
        spdlog::info(
            "spot-check of {}'s {} for micro-batch {:x} went unanswered: that work is dropped, "
            "nobody is blamed, and its next micro-batches wait for a check",
            net::short_key(e.checked), work_name(work), e.micro_batch);
      }
    }
  }
  std::vector<std::string> shunned;
  std::lock_guard lock(mutex_);
  shunned.swap(caught_next_hops_);
  return shunned;
}

void SpotCheckProtocol::remember_sent_forward(std::uint64_t mb, const at::Tensor& input,
                                              std::shared_ptr<const SignedWork> input_from,
                                              const at::Tensor& activations,
                                              const at::Tensor& targets) {
  std::lock_guard lock(mutex_);
  // Shared, not copied: a checker may ask to see the input, and this stage's own checks of the
  // stage it sent to start from what it sent.
  declared_inputs_[mb] = DeclaredInput{input, std::move(input_from)};
  if (takes_part_) sent_forwards_[mb] = SentForward{activations, targets};
}

void SpotCheckProtocol::forget_sent_forward(std::uint64_t mb) {
  std::lock_guard lock(mutex_);
  declared_inputs_.erase(mb);
  sent_forwards_.erase(mb);
}

void SpotCheckProtocol::remember_received_gradient(std::uint64_t mb,
                                                   std::shared_ptr<const SignedWork> gradient) {
  if (!takes_part_ || !gradient) return;
  std::lock_guard lock(mutex_);
  received_gradients_.put(mb, std::move(gradient), kKeptGradients);
}

void SpotCheckProtocol::add_stats(StageStats& s) const {
  for (const auto* b : {&activation_checks_, &gradient_checks_}) {
    if (!b->checker) continue;
    const auto c = b->checker->stats();
    s.spot_checks_passed += c.passed;
    s.spot_checks_failed += c.failed;
    s.spot_checks_inconclusive += c.inconclusive;
    s.spot_checks_unanswered += c.unanswered;
    s.spot_checks_incomparable += c.incomparable;
    // Fault injection (tests): a slanderer names every sender as caught, checked or not (it
    // still uses their work). The coordinator bans nobody on one stage's word.
    const auto named = config_.fault == Fault::FalseSpotChecks ? b->checker->senders() : c.caught;
    for (const auto& k : named) {
      if (std::find(s.caught_peers.begin(), s.caught_peers.end(), k) == s.caught_peers.end())
        s.caught_peers.push_back(k);
    }
  }
}

}  // namespace rookery::pipeline
