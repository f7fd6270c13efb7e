#include <torch/torch.h>
#include <ATen/CPUGeneratorImpl.h>

#include "pipeline/boundary_compression.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <variant>

#include "job/job_spec.hpp"

namespace rookery::pipeline {

namespace {
// Extra sketch columns and power iterations of the randomized range finder (Halko, Martinsson
// and Tropp): with both, the subspace found is within a few percent of the best rank-r one
// even for the slowly decaying spectra of activations; each costs two thin matmuls and a QR.
constexpr std::int64_t kOversample = 8;
constexpr int kPowerIterations = 2;
constexpr std::uint64_t kSketchSeed = 0x5eed'b0da'4a11ULL;

at::Tensor orthonormal_basis(const at::Tensor& y) { return std::get<0>(torch::linalg_qr(y)); }

std::vector<std::int64_t> shape_of(const at::Tensor& t) {
  return {t.sizes().begin(), t.sizes().end()};
}

wire::OutgoingTensor encode_int8(std::string name, const at::Tensor& t, std::uint32_t block) {
  const auto cpu = t.detach().to(torch::kCPU, torch::kFloat32).contiguous();
  return wire::OutgoingTensor::encode(
      std::move(name), shape_of(cpu),
      {cpu.data_ptr<float>(), static_cast<std::size_t>(cpu.numel())}, wire::Codec::Int8Block,
      block);
}

std::uint32_t q_block(const BoundaryShape& shape) {
  return static_cast<std::uint32_t>(shape.width);
}

const wire::IncomingTensor& factor(const wire::Message& msg, const std::string& name,
                                   std::vector<std::int64_t> want_shape, std::uint32_t block) {
  const auto* t = msg.tensor(name);
  if (!t) throw std::runtime_error("compressed message without '" + name + "'");
  if (t->dtype() != wire::DType::F32 || t->codec() != wire::Codec::Int8Block ||
      t->block_size() != block) {
    throw std::runtime_error("'" + name + "' is not f32 in int8 blocks of " +
                             std::to_string(block));
  }
  if (t->shape() != want_shape) {
    std::string got;
    for (auto s : t->shape()) got += (got.empty() ? "" : ", ") + std::to_string(s);
    throw std::runtime_error("'" + name + "' has shape [" + got + "], expected [" +
                             std::to_string(want_shape[0]) + ", " + std::to_string(want_shape[1]) +
                             "]");
  }
  return *t;
}

at::Tensor values_of(const wire::IncomingTensor& t) {
  auto out = torch::empty({static_cast<std::int64_t>(t.numel())}, torch::kFloat32);
  t.decode_f32({out.data_ptr<float>(), static_cast<std::size_t>(out.numel())});
  // A NaN block scale (or a sender's NaN) must not reach the model: refuse it here.
  if (!torch::isfinite(out).all().item<bool>())
    throw std::runtime_error("'" + t.name() + "' holds values that are not finite");
  return out.view(t.shape());
}
}  // namespace

BoundaryShape boundary_shape(const job::JobSpec& job) {
  if (job.boundary.kind != job::BoundaryKind::lowrank) return {};
  const auto* gpt = std::get_if<job::GptSpec>(&job.model.arch);
  if (!gpt) return {};  // validation refuses this combination
  return {job.boundary.rank, gpt->context, gpt->width};
}

LowRankFactors factorize(const at::Tensor& x, std::int64_t rank) {
  torch::NoGradGuard no_grad;
  const auto width = x.size(-1);
  const auto x2 = x.detach().to(torch::kFloat32).reshape({-1, width});
  const auto rows = x2.size(0);
  const auto kept = std::min({rank, rows, width});
  const auto sketch = std::min({rank + kOversample, rows, width});
  if (!torch::isfinite(x2).all().item<bool>()) {
    return {torch::full({rows, rank}, std::numeric_limits<float>::quiet_NaN(), x2.options()),
            torch::zeros({rank, width}, x2.options())};
  }
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(kSketchSeed);
  const auto omega = torch::randn({width, sketch}, gen, torch::kFloat32).to(x2.device());
  auto basis = orthonormal_basis(x2.matmul(omega));
  for (int i = 0; i < kPowerIterations; ++i)
    basis = orthonormal_basis(x2.matmul(orthonormal_basis(x2.t().matmul(basis))));
  // The best rank-`kept` approximation within the subspace: SVD of the small projection.
  const auto projected = basis.t().matmul(x2);  // [sketch, width]
  auto [u, s, vh] = torch::linalg_svd(projected, /*full_matrices=*/false);
  LowRankFactors f{torch::zeros({rows, rank}, x2.options()),
                   torch::zeros({rank, width}, x2.options())};
  f.p.narrow(1, 0, kept).copy_(basis.matmul(u.narrow(1, 0, kept)));
  f.q.narrow(0, 0, kept).copy_(s.narrow(0, 0, kept).unsqueeze(1) * vh.narrow(0, 0, kept));
  return f;
}

at::Tensor reconstruct(const LowRankFactors& f, at::IntArrayRef shape) {
  return f.p.matmul(f.q).view(shape);
}

at::Tensor as_received(const at::Tensor& x, const BoundaryShape& shape) {
  if (!shape.compressed() || !x.defined()) return x;
  torch::NoGradGuard no_grad;
  return reconstruct(factorize(x, shape.rank), x.sizes()).to(x.scalar_type());
}

std::vector<wire::OutgoingTensor> encode_factors(const std::string& name, const at::Tensor& x,
                                                 const BoundaryShape& shape) {
  if (x.dim() != 3 || x.size(1) != shape.tokens || x.size(2) != shape.width)
    throw std::invalid_argument("boundary compression: '" + name + "' is not [samples, " +
                                std::to_string(shape.tokens) + ", " + std::to_string(shape.width) +
                                "]");
  const auto f = factorize(x, shape.rank);
  std::vector<wire::OutgoingTensor> out;
  out.push_back(encode_int8(name + ".p", f.p, wire::kDefaultInt8Block));
  out.push_back(encode_int8(name + ".q", f.q, q_block(shape)));
  return out;
}

at::Tensor decode_factors(const wire::Message& msg, const std::string& name, std::int64_t samples,
                          const BoundaryShape& shape, c10::Device device) {
  torch::NoGradGuard no_grad;
  if (samples <= 0) throw std::runtime_error("compressed message without samples");
  const auto& p =
      factor(msg, name + ".p", {samples * shape.tokens, shape.rank}, wire::kDefaultInt8Block);
  const auto& q = factor(msg, name + ".q", {shape.rank, shape.width}, q_block(shape));
  const LowRankFactors f{values_of(p).to(device), values_of(q).to(device)};
  return reconstruct(f, {samples, shape.tokens, shape.width});
}

std::int64_t factor_bytes(const BoundaryShape& shape, std::int64_t samples) {
  const auto p = wire::encoded_bytes(wire::Codec::Int8Block,
                                     static_cast<std::size_t>(samples * shape.tokens * shape.rank));
  const auto q = wire::encoded_bytes(
      wire::Codec::Int8Block, static_cast<std::size_t>(shape.rank * shape.width), q_block(shape));
  return static_cast<std::int64_t>(p + q);
}

}  // namespace rookery::pipeline
