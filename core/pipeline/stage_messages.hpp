#pragma once
// stage_messages: what stages send each other, as records and tensors, and back. Pure
// conversions, no sockets: a received wire::Message is checked against what this stage can
// take and decoded into an Inbound, or refused with a MessageError saying why; records and
// tensors are encoded into the frames a StageLink sends. The spot-check protocol's four
// messages are built and read here too (its rules are in spot_check_protocol.hpp).
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include "model/block_range.hpp"
#include "net/identity.hpp"
#include "net/peer_sender.hpp"
#include "pipeline/boundary_compression.hpp"
#include "pipeline/signed_work.hpp"
#include "wire/message.hpp"

namespace rookery::pipeline {

// A message this stage will not take; what() is a sentence for the log.
class MessageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A micro-batch's activations (forward) or gradient (backward), as received.
struct Inbound {
  bool backward = false;
  std::uint64_t micro_batch = 0;
  std::int64_t first_sample = 0;
  std::int64_t samples = 0;
  double loss = -1;
  double downstream_grad_sq_norm = 0;  // backward only (BackwardMicroBatch's)
  net::PeerAddress return_to;
  at::Tensor tensor;   // activations (forward) or gradient (backward)
  at::Tensor targets;  // forward only
  std::string sender;
  std::uint32_t pipeline = 0;  // forward: the micro-batch's pipeline (its first stage's)
  // What its sender signed, kept to show when this stage's own work is checked: a forward past
  // a first stage and before a last one, a gradient past a first stage.
  std::shared_ptr<const SignedWork> signed_by_sender;
  // Backward only: no gradient will come (it was refused here, or the stage the micro-batch
  // went to dropped it); the compute thread gives the micro-batch up now, and tells the stage
  // before it, instead of waiting for its timeout.
  bool discard = false;
  // The averaging round whose common point the sender's weights stood at for this micro-batch
  // (common_point.hpp): what a spot-check of it is judged against.
  std::uint64_t averaging_round = 0;
};

// What a stage takes: its job and pipeline, and which end of the model it holds.
struct MessageRules {
  std::string job_id;
  std::uint32_t pipeline = 0;
  bool cross_pipeline = false;  // micro-batches of other pipelines are welcome too
  bool first = false;           // takes no activations
  bool last = false;            // takes no gradients
  // Activations and gradients travel as low-rank factors of this shape (and only so), or,
  // when it is off, whole with the codec.
  BoundaryShape boundary;
  // This stage's key: forwards must be signed by their sender for it (signed_work.hpp).
  // Every stage names itself; only message tests that do not sign leave it empty.
  std::string own_key;
};

// Whether `msg` belongs to the spot-check protocol (spot_check_protocol.hpp).
bool is_spot_check_message(const wire::Message& msg);

// Throws MessageError for a message of another job.
void check_job(const wire::Message& msg, const MessageRules& rules);

// A forward, a backward or a dropped micro-batch (a discard) from `sender`, decoded onto
// `device`. Throws MessageError for a message of another job or pipeline, one this end of the
// pipeline takes no such message of, or whose tensors, sample count or return address do not
// fit.
Inbound decode_pipeline_message(const wire::Message& msg, const std::string& sender,
                                const MessageRules& rules, c10::Device device);

// The forward record of a micro-batch, without its tensors.
struct ForwardRecord {
  std::uint32_t pipeline = 0;
  std::uint64_t micro_batch = 0;
  std::int64_t first_sample = 0;
  std::int64_t samples = 0;
  net::PeerAddress return_to;
  std::uint64_t averaging_round = 0;  // the sender's common point's round (Inbound's)
};

// What travels back with a micro-batch's gradient.
struct BackwardRecord {
  std::uint32_t pipeline = 0;
  std::uint64_t micro_batch = 0;
  std::int64_t samples = 0;
  double loss = 0;
  double downstream_grad_sq_norm = 0;  // BackwardMicroBatch's (global-norm clipping)
  std::uint64_t averaging_round = 0;   // the sender's common point's round (Inbound's)
};

// Activations go with the job's codec, or as low-rank factors when `boundary` is on (the
// codec is then unused); targets raw; the whole signed by `signer` for the stage `to_key`
// (stages refuse a forward that is not: only tests of the format leave `signer` null).
// Gradients likewise, signed as gradients (signed_work.hpp).
std::vector<zmq::message_t> encode_forward(const std::string& job_id, const ForwardRecord& record,
                                           const at::Tensor& activations, const at::Tensor& targets,
                                           wire::Codec codec, const BoundaryShape& boundary = {},
                                           const net::CurveKeyPair* signer = nullptr,
                                           const std::string& to_key = {});
std::vector<zmq::message_t> encode_backward(const std::string& job_id, const BackwardRecord& record,
                                            const at::Tensor& grad, wire::Codec codec,
                                            const BoundaryShape& boundary = {},
                                            const net::CurveKeyPair* signer = nullptr,
                                            const std::string& to_key = {});

// Instead of a gradient: the receiver of micro-batch `micro_batch`'s activations will not use
// them, so their sender gives it up now (and tells the stage before it).
std::vector<zmq::message_t> encode_dropped(const std::string& job_id, std::uint32_t pipeline,
                                           std::uint64_t micro_batch);

// The whole model's squared gradient norm for the step a micro-batch completed
// (GlobalNormClip), as it travels down the pipeline.
struct GradNormTotal {
  std::uint32_t pipeline = 0;
  std::uint64_t micro_batch = 0;
  double total_sq_norm = 0;
};
std::vector<zmq::message_t> encode_grad_norm_total(const std::string& job_id,
                                                   const GradNormTotal& total);
// Throws MessageError for one of another pipeline, one sent to the first stage (which
// computes the totals), or a total that is not a finite number >= 0.
GradNormTotal decode_grad_norm_total(const wire::Message& msg, const MessageRules& rules);

// ---- the spot-check protocol's messages ----
using CheckedWork = wire::pb::CheckedWork;
const char* work_name(CheckedWork w);
// What a checked stage shows it computed `work` from, from the tensors of the signed work it
// received as they travelled (activations forward, or a gradient back), onto the CPU. Throws
// MessageError when they are missing or do not decode.
at::Tensor decode_shown(const wire::Message& msg, CheckedWork work, std::int64_t samples,
                        const BoundaryShape& boundary);

// A header and its tensors, raw; undefined tensors are left out.
using NamedTensors = std::vector<std::pair<std::string, at::Tensor>>;
std::vector<zmq::message_t> encode_with_tensors(wire::pb::Envelope header, NamedTensors tensors);

wire::pb::Envelope spot_check_request(std::uint64_t micro_batch, CheckedWork work,
                                      const net::PeerAddress& return_to);
// `blocks`: what the verifier runs (its own, or a part of them for a chain's link);
// `checked`: the checked stage's key; `forward_only`: a gradient check's link on the way
// there, run forward only.
wire::pb::Envelope recompute_request(std::uint64_t micro_batch, CheckedWork work,
                                     model::BlockRange blocks, const net::PeerAddress& return_to,
                                     const std::string& checked, bool forward_only = false);
wire::pb::Envelope recompute_result(std::uint64_t micro_batch, CheckedWork work,
                                    const std::string& reason);

// The return address a request names, which must be its sender's (`what` names the request
// in the MessageError).
net::PeerAddress sender_return_address(const wire::pb::PeerAddress& named,
                                       const std::string& sender, const char* what);

// A verifier's job for another stage's spot-check: run this input through the blocks
// (activations, or a gradient check's link on the way there), or run them backward from it
// (gradients).
struct Recompute {
  std::uint64_t micro_batch = 0;
  CheckedWork work = wire::pb::CHECKED_ACTIVATIONS;
  model::BlockRange blocks;   // the part of this stage's blocks to run
  std::string checked;        // the checked stage's key (Z85)
  bool forward_only = false;  // gradients: forward only (a chain's link on the way there)
  at::Tensor input;
  at::Tensor grad_output;  // gradients, when the part does not end the model
  at::Tensor targets;      // gradients, when it does
  net::PeerAddress return_to;
};

// A recompute request from `sender` to a stage holding `blocks` of a `model_blocks`-block
// model: the job (for its blocks or a part of them), or the reason it cannot be done (sent
// back as the result). Throws MessageError when the request names a return address other
// than its sender's.
std::variant<Recompute, std::string> decode_recompute_request(const wire::Message& msg,
                                                              const std::string& sender,
                                                              model::BlockRange blocks,
                                                              std::int64_t model_blocks,
                                                              c10::Device device);

}  // namespace rookery::pipeline
