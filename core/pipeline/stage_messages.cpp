#include <torch/torch.h>

#include "pipeline/stage_messages.hpp"

#include <cmath>

#include "net/identity.hpp"
#include "pipeline/tensor_codec.hpp"

namespace rookery::pipeline {

namespace {
bool valid_return_address(const wire::pb::PeerAddress& a) {
  return net::is_z85_key(a.key()) && a.endpoint().rfind("tcp://", 0) == 0;
}

void set_address(wire::pb::PeerAddress* out, const net::PeerAddress& a) {
  out->set_endpoint(a.endpoint);
  out->set_key(a.key);
}

void check_pipeline(const char* what, std::uint32_t pipeline, const MessageRules& rules) {
  if (pipeline != rules.pipeline && !rules.cross_pipeline)
    throw MessageError(std::string(what) + " for pipeline " + std::to_string(pipeline));
}

at::Tensor decode(const wire::IncomingTensor& t, c10::Device device) {
  try {
    return decode_tensor(t, device);
  } catch (const std::runtime_error& e) {
    throw MessageError(e.what());
  }
}

// A lowrank job's boundary tensor `name`, from its factors (and never whole).
at::Tensor decode_compressed(const wire::Message& msg, const std::string& name,
                             std::int64_t samples, const BoundaryShape& boundary,
                             c10::Device device) {
  if (msg.tensor(name)) throw MessageError("'" + name + "' uncompressed in a lowrank job");
  try {
    return decode_factors(msg, name, samples, boundary, device);
  } catch (const std::runtime_error& e) {
    throw MessageError(brief(e));
  }
}

std::vector<wire::OutgoingTensor> encode_boundary(const std::string& name, const at::Tensor& t,
                                                  wire::Codec codec,
                                                  const BoundaryShape& boundary) {
  if (boundary.compressed()) return encode_factors(name, t, boundary);
  std::vector<wire::OutgoingTensor> out;
  out.push_back(encode_tensor(name, t, codec));
  return out;
}

// Refuses work its sender did not sign for this stage; keeps the signed bytes when what this
// stage computes from them may be checked (`keep`), to show them as they came.
void take_signed(const wire::Message& msg, const WorkParty& party, const std::string& signature,
                 bool keep, Inbound& in) {
  if (!work_signed_by(in.sender, signature, party, msg.tensors)) {
    throw MessageError(std::string(party.gradient ? "gradient" : "forward") +
                       " without its sender's valid signature");
  }
  if (keep) {
    in.signed_by_sender = std::make_shared<const SignedWork>(
        SignedWork{in.sender, party.pipeline, copy_tensors(msg.tensors), signature});
  }
}

void decode_forward(const wire::Message& msg, const MessageRules& rules, c10::Device device,
                    Inbound& in) {
  const auto& f = msg.header.forward();
  check_pipeline("forward", f.pipeline(), rules);
  if (rules.first) throw MessageError("the first stage takes no activations");
  const bool compressed = rules.boundary.compressed();
  const auto* act = msg.tensor("activations");
  const auto* tgt = msg.tensor("targets");
  if ((!act && !compressed) || !tgt) throw MessageError("forward without activations or targets");
  if (f.samples() <= 0 ||
      (!compressed && (act->shape().empty() || act->shape()[0] != f.samples())) ||
      tgt->shape().empty() || tgt->shape()[0] != f.samples()) {
    throw MessageError("forward's tensors do not hold " + std::to_string(f.samples()) + " samples");
  }
  if (!valid_return_address(f.return_to()))
    throw MessageError("forward without a valid return address");
  if (!rules.own_key.empty()) {  // kept but on a last stage, which sends no activations
    take_signed(msg, {rules.job_id, f.pipeline(), f.micro_batch(), rules.own_key}, f.signature(),
                /*keep=*/!rules.last, in);
  }
  in.micro_batch = f.micro_batch();
  in.pipeline = f.pipeline();
  in.first_sample = f.first_sample();
  in.samples = f.samples();
  in.averaging_round = f.averaging_round();
  in.return_to = {f.return_to().endpoint(), f.return_to().key()};
  in.tensor = compressed
                  ? decode_compressed(msg, "activations", f.samples(), rules.boundary, device)
                  : decode(*act, device);
  in.targets = decode(*tgt, device);
  if (in.tensor.scalar_type() != torch::kFloat32 || in.targets.scalar_type() != torch::kInt64)
    throw MessageError("activations must be f32 and targets int64");
}

void decode_backward(const wire::Message& msg, const MessageRules& rules, c10::Device device,
                     Inbound& in) {
  const auto& b = msg.header.backward();
  check_pipeline("backward", b.pipeline(), rules);
  if (rules.last) throw MessageError("the last stage takes no gradients");
  const bool compressed = rules.boundary.compressed();
  const auto* g = msg.tensor("grad");
  if (!g && !compressed) throw MessageError("backward without a gradient");
  in.backward = true;
  in.micro_batch = b.micro_batch();
  in.samples = b.samples();
  in.loss = b.loss();
  in.downstream_grad_sq_norm = b.downstream_grad_sq_norm();
  in.averaging_round = b.averaging_round();
  if (!std::isfinite(in.downstream_grad_sq_norm) || in.downstream_grad_sq_norm < 0)
    throw MessageError("backward with a gradient norm that is not a finite number >= 0");
  if (!rules.own_key.empty()) {  // kept but on a first stage, which sends no gradient
    take_signed(msg, {rules.job_id, b.pipeline(), b.micro_batch(), rules.own_key, true},
                b.signature(), /*keep=*/!rules.first, in);
  }
  in.tensor = compressed ? decode_compressed(msg, "grad", in.samples, rules.boundary, device)
                         : decode(*g, device);
  if (in.tensor.scalar_type() != torch::kFloat32) throw MessageError("gradient must be f32");
}

void decode_dropped(const wire::Message& msg, const MessageRules& rules, Inbound& in) {
  const auto& d = msg.header.dropped();
  check_pipeline("dropped micro-batch", d.pipeline(), rules);
  if (rules.last) throw MessageError("the last stage sends no activations to be dropped");
  if (!msg.tensors.empty()) throw MessageError("dropped micro-batch with tensors");
  in.backward = true;
  in.discard = true;
  in.micro_batch = d.micro_batch();
  in.pipeline = d.pipeline();
}
}  // namespace

bool is_spot_check_message(const wire::Message& msg) {
  const auto& h = msg.header;
  return h.has_spot_check_request() || h.has_spot_check_input() || h.has_recompute_request() ||
         h.has_recompute_result();
}

void check_job(const wire::Message& msg, const MessageRules& rules) {
  if (msg.header.job_id() != rules.job_id)
    throw MessageError("message for job '" + msg.header.job_id() + "'");
}

Inbound decode_pipeline_message(const wire::Message& msg, const std::string& sender,
                                const MessageRules& rules, c10::Device device) {
  check_job(msg, rules);
  Inbound in;
  in.sender = sender;
  if (msg.header.has_forward()) {
    decode_forward(msg, rules, device, in);
  } else if (msg.header.has_backward()) {
    decode_backward(msg, rules, device, in);
  } else if (msg.header.has_dropped()) {
    decode_dropped(msg, rules, in);
  } else {
    throw MessageError("not a pipeline message");
  }
  return in;
}

std::vector<zmq::message_t> encode_forward(const std::string& job_id, const ForwardRecord& record,
                                           const at::Tensor& activations, const at::Tensor& targets,
                                           wire::Codec codec, const BoundaryShape& boundary,
                                           const net::CurveKeyPair* signer,
                                           const std::string& to_key) {
  wire::pb::Envelope h;
  h.set_job_id(job_id);
  auto* f = h.mutable_forward();
  f->set_pipeline(record.pipeline);
  f->set_micro_batch(record.micro_batch);
  f->set_first_sample(record.first_sample);
  f->set_samples(static_cast<std::int32_t>(record.samples));
  f->set_averaging_round(record.averaging_round);
  set_address(f->mutable_return_to(), record.return_to);
  auto t = encode_boundary("activations", activations, codec, boundary);
  t.push_back(encode_tensor("targets", targets, wire::Codec::None));
  if (signer)
    f->set_signature(sign_work(*signer, {job_id, record.pipeline, record.micro_batch, to_key}, t));
  return wire::encode(std::move(h), std::move(t));
}

at::Tensor decode_shown(const wire::Message& msg, CheckedWork work, std::int64_t samples,
                        const BoundaryShape& boundary) {
  const std::string name = work == wire::pb::CHECKED_GRADIENTS ? "grad" : "activations";
  at::Tensor x;
  if (boundary.compressed()) {
    x = decode_compressed(msg, name, samples, boundary, torch::kCPU);
  } else if (const auto* t = msg.tensor(name)) {
    x = decode(*t, torch::kCPU);
  } else {
    throw MessageError("no " + name);
  }
  if (x.scalar_type() != torch::kFloat32 || x.dim() == 0 || x.size(0) != samples)
    throw MessageError(name + " that do not hold " + std::to_string(samples) + " samples");
  return x;
}

std::vector<zmq::message_t> encode_backward(const std::string& job_id, const BackwardRecord& record,
                                            const at::Tensor& grad, wire::Codec codec,
                                            const BoundaryShape& boundary,
                                            const net::CurveKeyPair* signer,
                                            const std::string& to_key) {
  wire::pb::Envelope h;
  h.set_job_id(job_id);
  auto* b = h.mutable_backward();
  b->set_pipeline(record.pipeline);
  b->set_micro_batch(record.micro_batch);
  b->set_loss(record.loss);
  b->set_samples(static_cast<std::int32_t>(record.samples));
  if (record.downstream_grad_sq_norm > 0)
    b->set_downstream_grad_sq_norm(record.downstream_grad_sq_norm);
  b->set_averaging_round(record.averaging_round);
  auto t = encode_boundary("grad", grad, codec, boundary);
  if (signer)
    b->set_signature(
        sign_work(*signer, {job_id, record.pipeline, record.micro_batch, to_key, true}, t));
  return wire::encode(std::move(h), std::move(t));
}

std::vector<zmq::message_t> encode_dropped(const std::string& job_id, std::uint32_t pipeline,
                                           std::uint64_t micro_batch) {
  wire::pb::Envelope h;
  h.set_job_id(job_id);
  auto* d = h.mutable_dropped();
  d->set_pipeline(pipeline);
  d->set_micro_batch(micro_batch);
  return wire::encode(std::move(h), {});
}

std::vector<zmq::message_t> encode_grad_norm_total(const std::string& job_id,
                                                   const GradNormTotal& total) {
  wire::pb::Envelope h;
  h.set_job_id(job_id);
  auto* n = h.mutable_grad_norm_total();
  n->set_pipeline(total.pipeline);
  n->set_micro_batch(total.micro_batch);
  n->set_total_sq_norm(total.total_sq_norm);
  return wire::encode(std::move(h), {});
}

GradNormTotal decode_grad_norm_total(const wire::Message& msg, const MessageRules& rules) {
  check_job(msg, rules);
  const auto& n = msg.header.grad_norm_total();
  check_pipeline("gradient norm", n.pipeline(), rules);
  if (rules.first) throw MessageError("the first stage takes no gradient norms");
  if (!std::isfinite(n.total_sq_norm()) || n.total_sq_norm() < 0)
    throw MessageError("gradient norm that is not a finite number >= 0");
  if (!msg.tensors.empty()) throw MessageError("gradient norm with tensors");
  return {n.pipeline(), n.micro_batch(), n.total_sq_norm()};
}

const char* work_name(CheckedWork w) {
  return w == wire::pb::CHECKED_GRADIENTS ? "gradients" : "activations";
}

std::vector<zmq::message_t> encode_with_tensors(wire::pb::Envelope header, NamedTensors tensors) {
  std::vector<wire::OutgoingTensor> t;
  for (auto& [name, tensor] : tensors) {
    if (tensor.defined()) t.push_back(encode_tensor(name, tensor, wire::Codec::None));
  }
  return wire::encode(std::move(header), std::move(t));
}

wire::pb::Envelope spot_check_request(std::uint64_t micro_batch, CheckedWork work,
                                      const net::PeerAddress& return_to) {
  wire::pb::Envelope h;
  auto* r = h.mutable_spot_check_request();
  r->set_micro_batch(micro_batch);
  r->set_work(work);
  set_address(r->mutable_return_to(), return_to);
  return h;
}

wire::pb::Envelope recompute_request(std::uint64_t micro_batch, CheckedWork work,
                                     model::BlockRange blocks, const net::PeerAddress& return_to,
                                     const std::string& checked, bool forward_only) {
  wire::pb::Envelope h;
  auto* r = h.mutable_recompute_request();
  r->set_micro_batch(micro_batch);
  r->set_checked(checked);
  r->set_work(work);
  r->set_first_block(blocks.first);
  r->set_last_block(blocks.last);
  r->set_forward_only(forward_only);
  set_address(r->mutable_return_to(), return_to);
  return h;
}

wire::pb::Envelope recompute_result(std::uint64_t micro_batch, CheckedWork work,
                                    const std::string& reason) {
  wire::pb::Envelope h;
  auto* r = h.mutable_recompute_result();
  r->set_micro_batch(micro_batch);
  r->set_work(work);
  r->set_reason(reason);
  return h;
}

net::PeerAddress sender_return_address(const wire::pb::PeerAddress& named,
                                       const std::string& sender, const char* what) {
  if (named.key() != sender || named.endpoint().rfind("tcp://", 0) != 0)
    throw MessageError(std::string(what) + " whose return address is not its sender's");
  return {named.endpoint(), sender};
}

std::variant<Recompute, std::string> decode_recompute_request(const wire::Message& msg,
                                                              const std::string& sender,
                                                              model::BlockRange blocks,
                                                              std::int64_t model_blocks,
                                                              c10::Device device) {
  const auto& r = msg.header.recompute_request();
  const auto back = sender_return_address(r.return_to(), sender, "recompute request");
  const auto* t = msg.tensor("input");
  const model::BlockRange part{r.first_block(), r.last_block()};
  const bool gradients = r.work() == wire::pb::CHECKED_GRADIENTS;
  const bool backward = gradients && !r.forward_only();
  const bool last = part.last == model_blocks;
  const auto* extra = backward ? msg.tensor(last ? "targets" : "grad_output") : nullptr;
  if (part.first < blocks.first || part.last > blocks.last || part.first >= part.last)
    return std::string("this stage holds other blocks");
  if (!t || (backward && !extra)) {
    return std::string(backward ? (last ? "no input or targets" : "no input or output gradient")
                                : "no input");
  }
  Recompute job;
  job.micro_batch = r.micro_batch();
  job.work = r.work();
  job.blocks = part;
  job.checked = r.checked();
  job.forward_only = gradients && r.forward_only();
  job.input = decode_tensor(*t, device);
  job.return_to = back;
  if (backward) (last ? job.targets : job.grad_output) = decode_tensor(*extra, device);
  return job;
}

}  // namespace rookery::pipeline
